import { isMap, Json } from './json';
import { globMatches } from '../core/glob';
import { groupOf, isClusterScoped } from '../core/kinds';

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

/** The identity Argo CD matches entries against. */
export interface ResourceKey {
  readonly group: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
}

/**
 * The identity of a manifest; `defaultNamespace` stands in when the manifest names none. Cluster-scoped
 * kinds have no namespace, whatever the manifest says (controller/state.go clears it).
 */
export function resourceKeyOf(obj: Json, defaultNamespace: string): ResourceKey {
  const m = isMap(obj) ? obj : {};
  const metadata = isMap(m.metadata) ? m.metadata : {};
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
 * The entries that apply to a resource: group and kind match by glob, name and namespace exactly,
 * an empty name or namespace matches any (util/argo/normalizers/diff_normalizer.go).
 */
export function entriesFor(entries: readonly IgnoreEntry[], key: ResourceKey): IgnoreEntry[] {
  return entries.filter((e) => globMatches(e.group, key.group)
    && globMatches(e.kind, key.kind)
    && (e.name === '' || e.name === key.name)
    && (e.namespace === '' || e.namespace === key.namespace));
}
