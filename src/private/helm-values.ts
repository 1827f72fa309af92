import { badValue, ErrorCode } from '../core/errors';
import { parseYamlDocument } from '../core/yaml-text';

/** How deep Helm values may nest: deeper is data no chart reads. */
const MAX_VALUES_DEPTH = 64;

/**
 * Helm values given as YAML (or JSON) text, as the map Argo CD renders into `valuesObject`: one document, a map of
 * plain data (strings, finite numbers, booleans, lists, maps), no aliases, no `null` (cdk8s would drop it and the
 * chart's default would stay). Refused with the offending path otherwise; the text itself is never echoed, as it
 * may hold what SA207 refuses.
 */
export function readHelmValues(text: string, where: string, prop: string): { [key: string]: unknown } {
  const refuse = (path: string, value: unknown, allowed: string, fix: string) =>
    badValue(ErrorCode.INVALID_HELM_SOURCE, where, path, value, allowed, fix);
  if (typeof text !== 'string') {
    throw refuse(prop, text, 'must be YAML or JSON text of Helm values', 'give the values as text, e.g. JSON.stringify({ controller: { replicaCount: 2 } })');
  }
  const doc = parseYamlDocument(text, { schema: 'core', uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw refuse(prop, `text of ${text.length} characters`, `must be YAML: ${doc.errors[0].message.split('\n')[0]}`,
      'correct the YAML, or build it with JSON.stringify');
  }
  let tree: unknown;
  try {
    tree = doc.toJS({ maxAliasCount: 0 });
  } catch {
    throw refuse(prop, 'an anchor or alias', 'must be plain values, without aliases', 'write the values out instead of referring to them');
  }
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) {
    throw refuse(prop, tree, 'must be a map of Helm values', 'give the values as the chart\'s values.yaml nests them, e.g. "controller:\\n  replicaCount: 2"');
  }
  const check = (value: unknown, path: string, depth: number): void => {
    if (depth > MAX_VALUES_DEPTH) {
      throw refuse(path, `more than ${MAX_VALUES_DEPTH} levels`, `must nest at most ${MAX_VALUES_DEPTH} levels`, 'give the values as the chart reads them');
    }
    if (value === null || value === undefined) {
      throw refuse(path, value, 'must be a value: cdk8s leaves null out of the Application, so the chart\'s default would stay',
        'give the value the chart should use ([] empties a list), or leave the key out (a chart default cannot be removed with null here)');
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw refuse(path, value, 'must be a finite number', 'give a number JSON can hold');
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => check(item, `${path}.${i}`, depth + 1));
    } else if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value as object)) {
        check(v, `${path}.${k}`, depth + 1);
      }
    }
  };
  check(tree, prop, 0);
  return tree as { [key: string]: unknown };
}
