import { deepEqual, hasOwn, isMap, Json, JsonMap, own } from './json';
import { MergeContext, mergeKeyFor } from './merge';

/**
 * A path element of a fieldsV1 set: `f:` a field, `k:` a list item by its key fields, `v:` a set item by
 * value, `i:` a list item by index.
 */
export type PathElement = { field: string } | { key: JsonMap } | { value: Json } | { index: number };

function parseElement(key: string): PathElement | undefined {
  const body = key.slice(2);
  try {
    switch (key.slice(0, 2)) {
      case 'f:': return { field: body };
      case 'k:': { const k = JSON.parse(body); return isMap(k) ? { key: k } : undefined; }
      case 'v:': return { value: JSON.parse(body) as Json };
      case 'i:': return /^\d+$/.test(body) ? { index: Number(body) } : undefined;
      default: return undefined;
    }
  } catch {
    return undefined;
  }
}

/** The member paths of a fieldsV1 set: leaves, and nodes marked with `.`. */
export function fieldsV1Members(fields: Json, prefix: PathElement[] = []): PathElement[][] {
  const members: PathElement[][] = [];
  if (!isMap(fields)) {
    return members;
  }
  for (const [key, child] of Object.entries(fields)) {
    if (key === '.') {
      members.push(prefix);
      continue;
    }
    const element = parseElement(key);
    if (!element) {
      continue;
    }
    const path = [...prefix, element];
    if (isMap(child) && Object.keys(child).length > 0) {
      for (const member of fieldsV1Members(child, path)) {
        members.push(member);
      }
    } else {
      members.push(path);
    }
  }
  return members;
}

function keyOfItem(item: Json, mergeKey: string): JsonMap | undefined {
  const value = isMap(item) ? own(item, mergeKey) : undefined;
  return value !== undefined ? { [mergeKey]: value } : undefined;
}

function pathId(path: readonly PathElement[]): string {
  return JSON.stringify(path.map((e) => ('key' in e ? { key: sortKeys(e.key) } : e)));
}

function sortKeys(m: JsonMap): JsonMap {
  return Object.fromEntries(Object.keys(m).sort().map((k) => [k, m[k]]));
}

/**
 * Paths whose values differ between live and config, compared the way Argo CD's typed comparison does:
 * maps field by field; for built-in kinds, lists with a merge key item by item (by key); other lists and
 * scalars as a whole. Fields on one side only are not "modified".
 */
export function modifiedPaths(
  live: Json | undefined, config: Json | undefined, ctx: MergeContext, prefix: PathElement[] = [], names: string[] = [],
): PathElement[][] {
  if (isMap(live) && isMap(config)) {
    const found: PathElement[][] = [];
    for (const key of Object.keys(config)) {
      if (hasOwn(live, key)) {
        for (const path of modifiedPaths(live[key], config[key], ctx, [...prefix, { field: key }], [...names, key])) {
          found.push(path);
        }
      }
    }
    return found;
  }
  const mergeKey = Array.isArray(live) && Array.isArray(config) ? mergeKeyFor(names, ctx) : undefined;
  if (mergeKey && Array.isArray(live) && Array.isArray(config)) {
    const found: PathElement[][] = [];
    for (const item of config) {
      const key = keyOfItem(item, mergeKey);
      const other = key && live.find((l) => deepEqual(keyOfItem(l, mergeKey), key));
      if (key && other !== undefined) {
        for (const path of modifiedPaths(other, item, ctx, [...prefix, { key }], [...names, '0'])) {
          found.push(path);
        }
      }
    }
    return found;
  }
  return deepEqual(live, config) ? [] : [prefix];
}

/**
 * `member` with each list-item key replaced by the item's merge key, as the comparison names items: the API
 * server keys some items by more fields than the merge key (`k:{"port":80,"protocol":"TCP"}`), and Git's
 * item may lack the others. Items live does not have, and value or index elements, leave the rest as written.
 */
function byMergeKey(live: Json, member: readonly PathElement[], ctx: MergeContext): PathElement[] {
  const out: PathElement[] = [];
  const names: string[] = [];
  let current: Json | undefined = live;
  for (const [i, element] of member.entries()) {
    if ('field' in element) {
      current = isMap(current) ? own(current, element.field) : undefined;
      names.push(element.field);
      out.push(element);
      continue;
    }
    const mergeKey = 'key' in element ? mergeKeyFor(names, ctx) : undefined;
    const item = 'key' in element && mergeKey && Array.isArray(current) ? current.find((x) => matchesKey(x, element.key)) : undefined;
    const key = mergeKey && item !== undefined ? keyOfItem(item, mergeKey) : undefined;
    if (!key) {
      return [...out, ...member.slice(i)];
    }
    out.push({ key });
    names.push('0');
    current = item;
  }
  return out;
}

function matchesKey(item: Json, key: JsonMap): boolean {
  return isMap(item) && Object.entries(key).every(([k, v]) => deepEqual(own(item, k), v));
}

/** Removes the value at a typed path in place: fields by name, list items by key. */
function removePath(obj: Json, path: readonly PathElement[]): void {
  let current: Json = obj;
  for (let i = 0; i < path.length; i++) {
    const element = path[i];
    const last = i === path.length - 1;
    if ('field' in element) {
      if (!isMap(current) || !hasOwn(current, element.field)) {
        return;
      }
      if (last) {
        delete current[element.field];
        return;
      }
      current = current[element.field];
    } else if ('key' in element) {
      if (!Array.isArray(current)) {
        return;
      }
      const index = current.findIndex((item) => matchesKey(item, element.key));
      if (index === -1) {
        return;
      }
      if (last) {
        current.splice(index, 1);
        return;
      }
      current = current[index];
    } else {
      return;
    }
  }
}

/**
 * managedFieldsManagers, as Argo CD applies it (util/argo/managedfields/managed_fields.go, with the typed
 * comparison of util/argo/diff/diff.go): for every managedFields entry of a trusted manager, the fields
 * it owns that differ between live and config are removed from both; inside lists with a merge key the
 * items are matched by key. Changes both objects in place.
 */
export function normalizeManagedFields(live: JsonMap, config: JsonMap, managers: readonly string[], ctx: MergeContext): void {
  if (managers.length === 0) {
    return;
  }
  const modified = new Set(modifiedPaths(live, config, ctx).map(pathId));
  const metadata = isMap(live.metadata) ? live.metadata : {};
  const entries = Array.isArray(metadata.managedFields) ? metadata.managedFields : [];
  const toRemove: PathElement[][] = [];
  for (const entry of entries) {
    if (!isMap(entry) || typeof entry.manager !== 'string' || !managers.includes(entry.manager)) {
      continue;
    }
    for (const member of fieldsV1Members(entry.fieldsV1 ?? null).map((m) => byMergeKey(live, m, ctx))) {
      if (member.length > 0 && modified.has(pathId(member))) {
        toRemove.push(member);
      }
    }
  }
  for (const path of toRemove) {
    removePath(config, path);
    removePath(live, path);
  }
}
