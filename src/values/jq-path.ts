import { badValue, ErrorCode } from '../core/errors';

/**
 * A jq path expression for ignoreDifferences, built from typed parts so that it cannot be malformed.
 *
 * Argo CD compiles each expression as `del(<expression>)` with gojq and a one-second limit.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/diffing/#application-level-configuration
 */
export class JqPath {
  /**
   * A path through object keys, e.g. `['metadata', 'annotations', 'example.com/owner']`.
   */
  public static field(keys: string[]): JqPath {
    requireKeys('JqPath.field', 'keys', keys);
    return new JqPath(keysToJq(keys));
  }

  /**
   * The items of a list whose `matchKey` equals `matchValue`, optionally narrowed to a field inside them.
   *
   * @param listKeys keys leading to the list, e.g. `['spec', 'template', 'spec', 'containers']`
   * @param matchKey the key that identifies an item, e.g. `name`
   * @param matchValue the value that identifies the item, e.g. `istio-proxy`
   * @param itemKeys keys inside the matched item; none selects the whole item
   */
  public static listItem(listKeys: string[], matchKey: string, matchValue: string, itemKeys?: string[]): JqPath {
    requireKeys('JqPath.listItem', 'listKeys', listKeys);
    requireKeys('JqPath.listItem', 'matchKey', [matchKey]);
    // `[]?` so that an object without the list is left alone instead of failing the whole expression.
    let expression = `${keysToJq(listKeys)}[]? | select(${keysToJq([matchKey])} == ${JSON.stringify(String(matchValue))})`;
    if (itemKeys && itemKeys.length > 0) {
      requireKeys('JqPath.listItem', 'itemKeys', itemKeys);
      expression += ` | ${keysToJq(itemKeys)}`;
    }
    return new JqPath(expression);
  }

  /**
   * One field of every item of a list, e.g. the `clientConfig.caBundle` of every webhook of a webhook
   * configuration.
   *
   * @param listKeys keys leading to the list, e.g. `['webhooks']`
   * @param itemKeys keys inside each item, e.g. `['clientConfig', 'caBundle']`
   */
  public static listItemsField(listKeys: string[], itemKeys: string[]): JqPath {
    requireKeys('JqPath.listItemsField', 'listKeys', listKeys);
    requireKeys('JqPath.listItemsField', 'itemKeys', itemKeys);
    return new JqPath(`${keysToJq(listKeys)}[]? | ${keysToJq(itemKeys)}`);
  }

  /**
   * A container of a workload's pod template (`spec.template.spec.containers`), selected by name.
   *
   * @param containerName the container's name, e.g. `istio-proxy`
   * @param itemKeys keys inside the container; none selects the whole container
   */
  public static podTemplateContainer(containerName: string, itemKeys?: string[]): JqPath {
    return JqPath.listItem(['spec', 'template', 'spec', 'containers'], 'name', containerName, itemKeys);
  }

  /**
   * An init container of a workload's pod template (`spec.template.spec.initContainers`), selected by name.
   *
   * @param containerName the init container's name, e.g. `istio-init`
   * @param itemKeys keys inside the init container; none selects the whole init container
   */
  public static podTemplateInitContainer(containerName: string, itemKeys?: string[]): JqPath {
    return JqPath.listItem(['spec', 'template', 'spec', 'initContainers'], 'name', containerName, itemKeys);
  }

  /** The jq expression, without the `del(...)` Argo CD wraps around it. */
  public readonly expression: string;

  private constructor(expression: string) {
    this.expression = expression;
  }
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function keysToJq(keys: readonly string[]): string {
  // `.a["b/c"]` is understood by jq 1.5+ and gojq alike; `.a.["b/c"]` is not.
  return keys.map((k, i) => {
    if (IDENTIFIER.test(k)) {
      return `.${k}`;
    }
    return i === 0 ? `.[${JSON.stringify(k)}]` : `[${JSON.stringify(k)}]`;
  }).join('');
}

function requireKeys(where: string, prop: string, keys: readonly string[]): void {
  if (!Array.isArray(keys) || keys.length === 0 || keys.some((k) => typeof k !== 'string' || k.length === 0)) {
    throw badValue(ErrorCode.INVALID_JQ, where, prop, keys,
      'must be a non-empty list of non-empty keys', 'name every key on the way to the field, e.g. ["spec", "replicas"]');
  }
}
