import { deepEqual, isMap, Json, JsonMap } from './json';
import { escapeToken } from '../core/json-pointer';

/**
 * The JSON pointers of the leaves where `a` and `b` differ; a list of another length differs as a whole,
 * and a map on one side only is reported by its leaves.
 */
export function differingPointers(a: Json | undefined, b: Json | undefined, prefix = ''): string[] {
  if (deepEqual(a, b)) {
    return [];
  }
  if ((isMap(a) || a === undefined) && (isMap(b) || b === undefined) && (isMap(a) || isMap(b))) {
    a = a ?? {};
    b = b ?? {};
    const ma = a as JsonMap;
    const mb = b as JsonMap;
    const keys = [...Object.keys(ma), ...Object.keys(mb).filter((k) => !(k in ma))];
    const found = keys.flatMap((k) => differingPointers(ma[k], mb[k], `${prefix}/${escapeToken(k)}`));
    return found.length > 0 ? found : [prefix];
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((item, i) => differingPointers(item, b[i], `${prefix}/${i}`));
  }
  return [prefix];
}
