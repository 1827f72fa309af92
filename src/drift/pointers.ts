import { deepEqual, hasOwn, isMap, Json, JsonMap, own } from './json';
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
    const keys = [...Object.keys(ma), ...Object.keys(mb).filter((k) => !hasOwn(ma, k))];
    const found: string[] = [];
    for (const k of keys) {
      for (const p of differingPointers(own(ma, k), own(mb, k), `${prefix}/${escapeToken(k)}`)) {
        found.push(p);
      }
    }
    return found.length > 0 ? found : [prefix];
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    const found: string[] = [];
    a.forEach((item, i) => {
      for (const p of differingPointers(item, b[i], `${prefix}/${i}`)) {
        found.push(p);
      }
    });
    return found;
  }
  return [prefix];
}
