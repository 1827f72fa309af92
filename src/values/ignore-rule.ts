import { IgnoreTarget } from './ignore-target';
import { JqPath } from './jq-path';
import { badValue, ErrorCode } from '../core/errors';
import { pointerFromKeys, pointerProblem } from '../core/json-pointer';

/**
 * Which of Argo CD's three ways of ignoring a field a rule uses.
 */
export enum IgnoreRuleKind {
  /** `jsonPointers`: one field, by RFC 6901 pointer. */
  JSON_POINTER = 'JSON_POINTER',
  /** `jqPathExpressions`: the fields a jq path expression selects. */
  JQ_PATH_EXPRESSION = 'JQ_PATH_EXPRESSION',
  /** `managedFieldsManagers`: every field the named field manager owns. */
  MANAGED_FIELDS_MANAGER = 'MANAGED_FIELDS_MANAGER',
}

/**
 * One entry of an Application's `ignoreDifferences`, always scoped to one concrete resource and
 * always carrying the reason it exists.
 *
 * An Application that has any ignore rule also gets the `RespectIgnoreDifferences=true` sync option,
 * so that the ignored fields are left alone when Argo CD syncs, not only hidden from the diff.
 * The reasons are recorded in the Application's `safe-argocd/ignore-reasons` annotation.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/diffing/
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/sync-options/#respect-ignore-difference-configs
 */
export class IgnoreRule {
  /**
   * Ignore one field, named by an RFC 6901 JSON pointer (`/` inside a key is written `~1`, `~` is `~0`).
   *
   * @param target the one resource the rule applies to
   * @param pointer e.g. `/spec/replicas`
   * @param reason why this field belongs to someone other than Git, e.g. `owned by HPA checkout-web`
   */
  public static jsonPointer(target: IgnoreTarget, pointer: string, reason: string): IgnoreRule {
    const problem = typeof pointer === 'string' ? pointerProblem(pointer) : 'a JSON pointer is a string';
    if (problem) {
      throw badValue(ErrorCode.INVALID_POINTER, 'IgnoreRule.jsonPointer', 'pointer', pointer,
        `is not a valid RFC 6901 pointer: ${problem}`, 'write the pointer like "/spec/replicas", or build it with IgnoreRule.jsonPointerFromKeys');
    }
    return new IgnoreRule(target, IgnoreRuleKind.JSON_POINTER, pointer, requireReason('IgnoreRule.jsonPointer', reason), false);
  }

  /**
   * Ignore one field named by its unescaped keys; the pointer is escaped for you
   * (`['metadata', 'annotations', 'example.com/owner']` becomes `/metadata/annotations/example.com~1owner`).
   *
   * @param target the one resource the rule applies to
   * @param keys the keys leading to the field
   * @param reason why this field belongs to someone other than Git
   */
  public static jsonPointerFromKeys(target: IgnoreTarget, keys: string[], reason: string): IgnoreRule {
    if (!Array.isArray(keys) || keys.length === 0 || keys.some((k) => typeof k !== 'string')) {
      throw badValue(ErrorCode.INVALID_POINTER, 'IgnoreRule.jsonPointerFromKeys', 'keys', keys,
        'must be a non-empty list of keys', 'name every key on the way to the field, e.g. ["spec", "replicas"]');
    }
    return IgnoreRule.jsonPointer(target, pointerFromKeys(keys), reason);
  }

  /**
   * Ignore the fields a typed jq path selects (for example one container, by name).
   *
   * @param target the one resource the rule applies to
   * @param path the typed path, e.g. `JqPath.podTemplateContainer('istio-proxy')`
   * @param reason why these fields belong to someone other than Git
   */
  public static jq(target: IgnoreTarget, path: JqPath, reason: string): IgnoreRule {
    return new IgnoreRule(target, IgnoreRuleKind.JQ_PATH_EXPRESSION, path.expression, requireReason('IgnoreRule.jq', reason), false);
  }

  /**
   * Ignore the fields a hand-written jq path expression selects.
   *
   * The expression is compiled by a real jq engine (as `del(<expression>)`, the way Argo CD runs it)
   * when the app is synthesized, and the synth fails if it does not compile. Prefer `IgnoreRule.jq`
   * with a typed `JqPath`, which cannot be malformed.
   *
   * @param target the one resource the rule applies to
   * @param expression a jq path expression, e.g. `.spec.template.spec.volumes[] | select(.name == "istio-envoy")`
   * @param reason why these fields belong to someone other than Git
   */
  public static rawJq(target: IgnoreTarget, expression: string, reason: string): IgnoreRule {
    if (typeof expression !== 'string' || expression.trim().length === 0) {
      throw badValue(ErrorCode.INVALID_JQ, 'IgnoreRule.rawJq', 'expression', expression,
        'must be a non-empty jq path expression', 'write a path such as ".spec.replicas", or use IgnoreRule.jq with a typed JqPath');
    }
    return new IgnoreRule(target, IgnoreRuleKind.JQ_PATH_EXPRESSION, expression.trim(), requireReason('IgnoreRule.rawJq', reason), true);
  }

  /**
   * Ignore EVERY field that the named field manager owns in this resource, as recorded in the live
   * object's `metadata.managedFields`.
   *
   * This is Argo CD's real meaning of `managedFieldsManagers`: it does not narrow to any pointer, and a
   * JSON pointer in the same entry does not restrict it. It only applies when the resource exists both
   * in Git and live. Use it for a controller that owns a well-defined set of fields of one object.
   *
   * @param target the one resource the rule applies to
   * @param manager the field manager's name, as it appears in `managedFields[].manager`, e.g. `kube-controller-manager`
   * @param reason why every field this manager owns belongs to it rather than to Git
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/diffing/#application-level-configuration
   */
  public static managedFieldsManager(target: IgnoreTarget, manager: string, reason: string): IgnoreRule {
    if (typeof manager !== 'string' || manager.trim().length === 0 || manager.includes('*')) {
      throw badValue(ErrorCode.INVALID_IGNORE_TARGET, 'IgnoreRule.managedFieldsManager', 'manager', manager,
        'must be the exact name of one field manager', 'copy the manager name from the live object\'s metadata.managedFields');
    }
    return new IgnoreRule(target, IgnoreRuleKind.MANAGED_FIELDS_MANAGER, manager, requireReason('IgnoreRule.managedFieldsManager', reason), false);
  }

  /** The one resource this rule applies to. */
  public readonly target: IgnoreTarget;
  /** Which of Argo CD's ways of ignoring a field this rule uses. */
  public readonly kind: IgnoreRuleKind;
  /** The JSON pointer, jq path expression or field manager name. */
  public readonly value: string;
  /** Why the field belongs to someone other than Git. */
  public readonly reason: string;
  /** Whether the value is a hand-written jq expression that must be compiled before it reaches Git. */
  public readonly needsJqCompile: boolean;

  private constructor(target: IgnoreTarget, kind: IgnoreRuleKind, value: string, reason: string, needsJqCompile: boolean) {
    this.target = target;
    this.kind = kind;
    this.value = value;
    this.reason = reason;
    this.needsJqCompile = needsJqCompile;
  }
}

function requireReason(where: string, reason: string): string {
  if (typeof reason !== 'string' || reason.trim().length < 3) {
    throw badValue(ErrorCode.INVALID_REASON, where, 'reason', reason,
      'must say why the field belongs to someone other than Git', 'give a short reason, e.g. "replicas are owned by HPA checkout-web"');
  }
  return reason.trim().replace(/\s+/g, ' ');
}
