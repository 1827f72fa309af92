import { IgnoreRule, IgnoreRuleKind } from '../values/ignore-rule';

/** One rendered `spec.ignoreDifferences` entry, with Argo CD's field names. */
export interface IgnoreDifferencesEntry {
  group?: string;
  kind: string;
  name: string;
  namespace?: string;
  jsonPointers?: string[];
  jqPathExpressions?: string[];
  managedFieldsManagers?: string[];
}

const LIST_OF: Record<IgnoreRuleKind, 'jsonPointers' | 'jqPathExpressions' | 'managedFieldsManagers'> = {
  [IgnoreRuleKind.JSON_POINTER]: 'jsonPointers',
  [IgnoreRuleKind.JQ_PATH_EXPRESSION]: 'jqPathExpressions',
  [IgnoreRuleKind.MANAGED_FIELDS_MANAGER]: 'managedFieldsManagers',
};

/**
 * Merges rules into one entry per resource, in the order resources were first named, with each field
 * listed once. Argo CD merges all matching entries anyway; one entry per resource keeps the diff readable.
 */
export function renderIgnoreDifferences(rules: readonly IgnoreRule[]): IgnoreDifferencesEntry[] {
  const entries = new Map<string, IgnoreDifferencesEntry>();
  for (const rule of rules) {
    const t = rule.target;
    let entry = entries.get(t.key);
    if (!entry) {
      entry = {
        ...(t.group ? { group: t.group } : {}),
        kind: t.kind,
        name: t.name,
        ...(t.namespace ? { namespace: t.namespace } : {}),
      };
      entries.set(t.key, entry);
    }
    const list = LIST_OF[rule.kind];
    const values = entry[list] ?? (entry[list] = []);
    if (!values.includes(rule.value)) {
      values.push(rule.value);
    }
  }
  return [...entries.values()];
}

/**
 * One line per distinct (resource, field): `apps/Deployment payments/web /spec/replicas: <reason>`.
 * Two reasons for the same field are joined with "; ".
 */
export function renderIgnoreReasons(rules: readonly IgnoreRule[]): string {
  const lines = new Map<string, string[]>();
  for (const rule of rules) {
    const t = rule.target;
    const head = `${t.group ? `${t.group}/` : ''}${t.kind} ${t.namespace ? `${t.namespace}/` : ''}${t.name} ${rule.value}`;
    const reasons = lines.get(head) ?? [];
    if (!reasons.includes(rule.reason)) {
      reasons.push(rule.reason);
    }
    lines.set(head, reasons);
  }
  return [...lines.entries()].map(([head, reasons]) => `${head}: ${reasons.join('; ')}`).join('\n');
}
