import { isMap, Json } from './json';
import { entryMatches, ResourceKey } from '../core/ignore-match';

/** One `spec.ignoreDifferences` entry, with missing lists as empty ones. */
export interface IgnoreEntry {
  readonly group: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly jsonPointers: string[];
  readonly jqPathExpressions: string[];
  readonly managedFieldsManagers: string[];
}

function strings(value: Json | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function text(value: Json | undefined): string {
  return typeof value === 'string' ? value : '';
}

/** The ignoreDifferences entries of an Application. */
export function ignoreEntriesOf(application: Json): IgnoreEntry[] {
  const spec = isMap(application) ? application.spec : undefined;
  const list = isMap(spec) && Array.isArray(spec.ignoreDifferences) ? spec.ignoreDifferences : [];
  return list.filter(isMap).map((e) => ({
    group: text(e.group),
    kind: text(e.kind),
    name: text(e.name),
    namespace: text(e.namespace),
    jsonPointers: strings(e.jsonPointers),
    jqPathExpressions: strings(e.jqPathExpressions),
    managedFieldsManagers: strings(e.managedFieldsManagers),
  }));
}

export { ResourceKey, resourceKeyOf } from '../core/ignore-match';

/**
 * The entries that apply to a resource: group and kind match by glob, name and namespace exactly,
 * an empty name or namespace matches any (util/argo/normalizers/diff_normalizer.go).
 */
export function entriesFor(entries: readonly IgnoreEntry[], key: ResourceKey): IgnoreEntry[] {
  return entries.filter((e) => entryMatches(e, key));
}
