import { deepEqual, isMap, Json, JsonMap } from './json';

/** A path element of a fieldsV1 set: `f:` field, `k:` list item by key, `v:` set item by value, `i:` index. */
type PathElement = { field: string } | { other: string };

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
    const element: PathElement = key.startsWith('f:') ? { field: key.slice(2) } : { other: key };
    const path = [...prefix, element];
    if (isMap(child) && Object.keys(child).length > 0) {
      members.push(...fieldsV1Members(child, path));
    } else {
      members.push(path);
    }
  }
  return members;
}

/**
 * Paths whose values differ between live and config, compared as Argo CD's deduced typed values do:
 * maps field by field, lists and scalars as a whole; fields on one side only are not "modified".
 */
export function modifiedPaths(live: Json | undefined, config: Json | undefined, prefix: string[] = []): string[][] {
  if (isMap(live) && isMap(config)) {
    const found: string[][] = [];
    for (const key of Object.keys(config)) {
      if (key in live) {
        found.push(...modifiedPaths(live[key], config[key], [...prefix, key]));
      }
    }
    return found;
  }
  return deepEqual(live, config) ? [] : [prefix];
}

function removeField(obj: JsonMap, fields: readonly string[]): void {
  let current: JsonMap = obj;
  for (const f of fields.slice(0, -1)) {
    const next = current[f];
    if (!isMap(next)) {
      return;
    }
    current = next;
  }
  delete current[fields[fields.length - 1]];
}

/**
 * managedFieldsManagers, as Argo CD applies it (util/argo/managedfields/managed_fields.go): for every
 * managedFields entry of a trusted manager, the fields it owns that differ between live and config are
 * removed from both. Only field-name paths can match, since lists compare as a whole. Changes both objects in place.
 */
export function normalizeManagedFields(live: JsonMap, config: JsonMap, managers: readonly string[]): void {
  if (managers.length === 0) {
    return;
  }
  const modified = modifiedPaths(live, config).map((p) => p.join('\u0000'));
  const metadata = isMap(live.metadata) ? live.metadata : {};
  const entries = Array.isArray(metadata.managedFields) ? metadata.managedFields : [];
  const toRemove: string[][] = [];
  for (const entry of entries) {
    if (!isMap(entry) || typeof entry.manager !== 'string' || !managers.includes(entry.manager)) {
      continue;
    }
    for (const member of fieldsV1Members(entry.fieldsV1 ?? null)) {
      if (member.length === 0 || member.some((e) => !('field' in e))) {
        continue;
      }
      const fields = member.map((e) => (e as { field: string }).field);
      if (modified.includes(fields.join('\u0000'))) {
        toRemove.push(fields);
      }
    }
  }
  for (const fields of toRemove) {
    removeField(config, fields);
    removeField(live, fields);
  }
}
