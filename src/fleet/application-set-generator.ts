import { badValue, ErrorCode } from '../core/errors';
import { isLabelValue, isQualifiedName } from '../core/names';

/** The parameters the cluster generator gives every cluster (applicationset/generators/cluster.go, v3.5.1). */
const CLUSTER_PARAMETERS = ['name', 'nameNormalized', 'server', 'project'];

/** A parameter name Go templates can read as `.name`. */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Options of the cluster generator.
 */
export interface ClusterGeneratorOptions {
  /**
   * Only the clusters whose Argo CD cluster Secret carries all these labels. A selector also leaves out
   * the local cluster when it has no Secret.
   *
   * @default - every cluster registered in Argo CD, now and in the future, including the local cluster
   * (`in-cluster`, `https://kubernetes.default.svc`), for which the generator gives no `metadata` parameter
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-Cluster/#label-selector
   */
  readonly matchLabels?: { [key: string]: string };
}

/**
 * Where the parameters of a `SafeApplicationSet`'s template come from. Each generator produces one
 * set of parameters per Application; the template reads them as `{{.name}}`.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators/
 */
export class ApplicationSetGenerator {
  /**
   * One Application per element. Each element maps parameter names (letters, digits and `_`, so that
   * `{{.name}}` can read them) to string values; every parameter the template reads must be in every element.
   *
   * @param elements e.g. `[{ name: 'eu', namespace: 'checkout-eu' }, { name: 'us', namespace: 'checkout-us' }]`
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-List/
   */
  public static list(elements: { [key: string]: string }[]): ApplicationSetGenerator {
    const where = 'ApplicationSetGenerator.list';
    if (!Array.isArray(elements) || elements.length === 0) {
      throw badValue(ErrorCode.INVALID_GENERATOR, where, 'elements', elements,
        'must be a non-empty list: a list generator without elements generates no Application', 'give one element per Application, e.g. [{ name: \'eu\' }, { name: \'us\' }]');
    }
    const copies = elements.map((element, i) => {
      if (typeof element !== 'object' || element === null || Array.isArray(element) || Object.keys(element).length === 0) {
        throw badValue(ErrorCode.INVALID_GENERATOR, where, `elements[${i}]`, element,
          'must be a non-empty map of parameter names to string values', 'give the parameters this Application is made from, e.g. { name: \'eu\', namespace: \'checkout-eu\' }');
      }
      for (const [key, value] of Object.entries(element)) {
        if (!PARAMETER_NAME.test(key)) {
          throw badValue(ErrorCode.INVALID_GENERATOR, where, `elements[${i}]`, key,
            'has a parameter name that a Go template cannot read as {{.name}}: use letters, digits and "_", not starting with a digit', `rename the parameter, e.g. ${JSON.stringify(key.replace(/\W+/g, '_').replace(/^(\d)/, '_$1') || 'name')}`);
        }
        if (typeof value !== 'string') {
          throw badValue(ErrorCode.INVALID_GENERATOR, where, `elements[${i}].${key}`, value,
            'must be a string', 'write the value as a string, e.g. "3"');
        }
      }
      // Sorted, so the output does not depend on the order the caller built the element in.
      return Object.fromEntries(Object.keys(element).sort().map((k) => [k, element[k]]));
    });
    return new ApplicationSetGenerator({ list: { elements: copies } }, copies, undefined);
  }

  /**
   * One Application per cluster registered in Argo CD, optionally only those whose cluster Secret has
   * the given labels. The template can read `name`, `nameNormalized` (name made safe for Kubernetes names:
   * prefer it in Application names), `server`, `project` and, for clusters with a Secret,
   * `metadata.labels.<key>` and `metadata.annotations.<key>`.
   *
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-Cluster/
   */
  public static clusters(options: ClusterGeneratorOptions = {}): ApplicationSetGenerator {
    const labels = options.matchLabels ?? {};
    if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) {
      throw badValue(ErrorCode.INVALID_GENERATOR, 'ApplicationSetGenerator.clusters', 'matchLabels', labels,
        'must be a map of label keys to values', 'give the labels of the cluster Secrets to select, e.g. { env: \'prod\' }');
    }
    for (const [key, value] of Object.entries(labels)) {
      if (!isQualifiedName(key)) {
        throw badValue(ErrorCode.INVALID_GENERATOR, 'ApplicationSetGenerator.clusters', 'matchLabels', key,
          'is not a Kubernetes label key: an optional DNS subdomain and "/", then up to 63 letters, digits, "-", "_" or "."', 'use the label key as it is set on the cluster Secret, e.g. "env" or "example.com/tier"');
      }
      if (typeof value !== 'string' || !isLabelValue(value)) {
        throw badValue(ErrorCode.INVALID_GENERATOR, 'ApplicationSetGenerator.clusters', `matchLabels.${key}`, value,
          'is not a Kubernetes label value: up to 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit', 'use the label value as it is set on the cluster Secret, e.g. "prod"');
      }
    }
    const keys = Object.keys(labels).sort();
    const selected = keys.length > 0;
    const spec = selected ? { selector: { matchLabels: Object.fromEntries(keys.map((k) => [k, labels[k]])) } } : {};
    return new ApplicationSetGenerator({ clusters: spec }, undefined, selected);
  }

  private readonly spec: Record<string, unknown>;
  private readonly elements?: ReadonlyArray<{ readonly [key: string]: string }>;
  private readonly selected?: boolean;

  private constructor(spec: Record<string, unknown>, elements: { [key: string]: string }[] | undefined, selected: boolean | undefined) {
    this.spec = spec;
    this.elements = elements;
    this.selected = selected;
  }

  /**
   * The generator as the ApplicationSet's `spec.generators[]` entry.
   * @internal
   */
  public _render(): Record<string, unknown> {
    return JSON.parse(JSON.stringify(this.spec));
  }

  /**
   * The list elements; empty for other generators.
   * @internal
   */
  public _elements(): ReadonlyArray<{ readonly [key: string]: string }> {
    return this.elements ?? [];
  }

  /**
   * Whether this generator makes one Application per cluster.
   * @internal
   */
  public _perCluster(): boolean {
    return this.elements === undefined;
  }

  /**
   * Why this generator does not give `parameter` to every Application it makes, or undefined when it does.
   * @internal
   */
  public _missing(parameter: string): string | undefined {
    if (this.elements) {
      const i = this.elements.findIndex((e) => !Object.prototype.hasOwnProperty.call(e, parameter));
      return i < 0 ? undefined : `list element ${i} has no such parameter (it has ${Object.keys(this.elements[i]).join(', ')})`;
    }
    if (CLUSTER_PARAMETERS.includes(parameter)) {
      return undefined;
    }
    if (parameter === 'metadata') {
      return this.selected ? undefined
        : 'the clusters generator gives no "metadata" for the local cluster, which it includes when no matchLabels select clusters';
    }
    return `the clusters generator gives only ${CLUSTER_PARAMETERS.join(', ')} and metadata`;
  }
}
