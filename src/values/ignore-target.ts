import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { badValue, ErrorCode } from '../core/errors';
import { apiGroupMeant, groupOf, isClusterScoped } from '../core/kinds';
import { hasGlob, isDns1123Label, isDns1123Subdomain } from '../core/names';

/**
 * The coordinates of one concrete resource, for a resource that this synth does not render.
 */
export interface ResourceCoordinates {
  /**
   * The API group, for example `apps`.
   *
   * @default '' - the core group (Service, ConfigMap, ...)
   */
  readonly group?: string;

  /** The kind, for example `Deployment`. No glob characters. */
  readonly kind: string;

  /** The object's `metadata.name`. */
  readonly name: string;

  /**
   * The object's namespace.
   *
   * Argo CD matches the namespace exactly; leave it out only for cluster-scoped objects.
   *
   * @default - no namespace: the object is cluster-scoped
   */
  readonly namespace?: string;
}

/**
 * The one resource an ignore rule applies to.
 *
 * Argo CD matches `group` and `kind` by glob, and an entry without `name` matches every object of that
 * kind. A target is always one concrete object, so none of that can be expressed here.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/diffing/
 */
export class IgnoreTarget {
  /**
   * The resource rendered by an ApiObject (or by a construct whose default child is one), taking its
   * group, kind, name and namespace from the object itself.
   */
  public static fromApiObject(resource: IConstruct): IgnoreTarget {
    const obj = ApiObject.of(resource);
    const group = groupOf(obj.apiVersion);
    const namespace = isClusterScoped(group, obj.kind) ? undefined : obj.metadata.namespace;
    return new IgnoreTarget(group, obj.kind, obj.name, namespace);
  }

  /**
   * A resource that this synth does not render (created by an operator, or by an external source).
   */
  public static resource(coordinates: ResourceCoordinates): IgnoreTarget {
    const where = 'IgnoreTarget.resource';
    const group = coordinates.group ?? '';
    if (hasGlob(group) || !/^[a-z0-9.-]*$/.test(group)) {
      throw badValue(ErrorCode.INVALID_IGNORE_TARGET, where, 'group', group,
        'must be one concrete API group without glob characters (empty for the core group)', 'name the group of the one resource the rule is for, e.g. "apps"');
    }
    const meant = apiGroupMeant(group);
    if (meant !== undefined) {
      // Argo CD compares the group with the object's as the API server names it: "core" or "v1" matches no object.
      throw badValue(ErrorCode.INVALID_IGNORE_TARGET, where, 'group', group, 'must be the API group as the API server names it, which Argo CD '
        + 'compares (empty for the core group, never "core" or "v1")', meant === '' ? 'leave the group out for the core group' : `write "${meant}"`);
    }
    if (!/^[A-Za-z][A-Za-z0-9]*$/.test(coordinates.kind ?? '')) {
      throw badValue(ErrorCode.INVALID_IGNORE_TARGET, where, 'kind', coordinates.kind,
        'must be one concrete kind without glob characters', 'name the kind of the one resource the rule is for, e.g. "Deployment"');
    }
    if (!isDns1123Subdomain(coordinates.name ?? '')) {
      throw badValue(ErrorCode.INVALID_IGNORE_TARGET, where, 'name', coordinates.name,
        'must be the exact metadata.name of one object (a DNS-1123 subdomain)', 'name the one object the rule is for; a rule for every object of a kind hides real drift');
    }
    if (coordinates.namespace !== undefined && !isDns1123Label(coordinates.namespace)) {
      throw badValue(ErrorCode.INVALID_IGNORE_TARGET, where, 'namespace', coordinates.namespace,
        'must be the exact namespace of the object (a DNS-1123 label)', 'give the namespace the object lives in, or leave it out for a cluster-scoped object');
    }
    if (coordinates.namespace !== undefined && isClusterScoped(group, coordinates.kind)) {
      throw badValue(ErrorCode.INVALID_IGNORE_TARGET, where, 'namespace', coordinates.namespace,
        `must be left out: ${coordinates.kind} is cluster-scoped, so Argo CD would compare it with the live object's empty namespace and the rule would never match`, 'remove the namespace');
    }
    return new IgnoreTarget(group, coordinates.kind, coordinates.name, coordinates.namespace);
  }

  /** The API group; empty for the core group. */
  public readonly group: string;
  /** The kind. */
  public readonly kind: string;
  /** The object's name. */
  public readonly name: string;
  /** The object's namespace; undefined for cluster-scoped objects. */
  public readonly namespace?: string;

  private constructor(group: string, kind: string, name: string, namespace?: string) {
    this.group = group;
    this.kind = kind;
    this.name = name;
    this.namespace = namespace;
  }

  /** A stable, readable key: `group/Kind/namespace/name` (empty parts stay empty). */
  public get key(): string {
    return `${this.group}/${this.kind}/${this.namespace ?? ''}/${this.name}`;
  }
}
