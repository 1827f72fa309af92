import { globMatches } from './glob';
import { groupOf, isClusterScoped } from './kinds';
import { isObject } from './manifest';

/** The identity Argo CD matches `ignoreDifferences` entries against. */
export interface ResourceKey {
  readonly group: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
}

/** What an entry says of the objects it covers, in the same fields: group and kind globs; empty strings match any name or namespace. */
export type EntryTarget = ResourceKey;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The identity of a manifest as Argo CD compares it; `defaultNamespace` stands in when the manifest names none.
 * Cluster-scoped kinds have no namespace, whatever the manifest says (controller/state.go clears it); a kind whose
 * scope is not known here counts as namespaced.
 */
export function resourceKeyOf(obj: unknown, defaultNamespace: string): ResourceKey {
  const m = isObject(obj) ? obj : {};
  const metadata = isObject(m.metadata) ? m.metadata : {};
  const group = groupOf(text(m.apiVersion));
  const kind = text(m.kind);
  return {
    group,
    kind,
    name: text(metadata.name),
    namespace: isClusterScoped(group, kind) ? '' : text(metadata.namespace) || defaultNamespace,
  };
}

/**
 * Whether an entry applies to a resource: group and kind match by glob, name and namespace exactly, an empty name or
 * namespace matches any (util/argo/normalizers/diff_normalizer.go).
 */
export function entryMatches(entry: EntryTarget, key: ResourceKey): boolean {
  return globMatches(entry.group, key.group)
    && globMatches(entry.kind, key.kind)
    && (entry.name === '' || entry.name === key.name)
    && (entry.namespace === '' || entry.namespace === key.namespace);
}
