import { atLeast } from './audit';
import { AuditFinding, AuditResult } from './types';
import { isObject } from '../core/manifest';
import { compareStrings } from '../core/order';
import { findRule } from '../rules/registry';
import { Severity } from '../rules/severity';

/**
 * One known finding, named by what does not move when lines do: the rule, the file, the object
 * (`Kind namespace/name`) and the RFC 6901 pointer into it. No line numbers: a baseline survives edits
 * above the finding, and goes stale only when the finding is fixed or its file, object or field renamed.
 */
export interface BaselineEntry {
  readonly ruleId: string;
  readonly file: string;
  readonly object: string;
  readonly pointer: string;
}

const VERSION = 1;
const FIELDS = ['ruleId', 'file', 'object', 'pointer'] as const;

function keyOf(e: BaselineEntry): string {
  return JSON.stringify(FIELDS.map((f) => e[f]));
}

/**
 * What a run looked at, when narrowed: a baseline entry outside it could not have been matched, so it is neither
 * stale nor dropped when the baseline is rewritten.
 */
export interface BaselineScope {
  /** The rules the run reported (`--rule`); none: every rule. */
  readonly ruleIds?: readonly string[];
  /** The least severity the run reported (`--severity`); unset: every severity. */
  readonly minSeverity?: Severity;
  /** The files and folders audited, relative to the repository root with `/`; none, or `.` among them: the whole tree. */
  readonly paths?: readonly string[];
  /** Files the run left out unread (exclude patterns). */
  readonly excluded?: (file: string) => boolean;
}

/** Whether a run of `scope` could have found what `entry` records. */
export function inBaselineScope(entry: BaselineEntry, scope: BaselineScope = {}): boolean {
  const rule = findRule(entry.ruleId);
  if (scope.ruleIds && scope.ruleIds.length > 0 && !scope.ruleIds.includes(entry.ruleId)) {
    return false;
  }
  // An id no rule has any more (renamed or removed) is stale unless the run chose its rules.
  if (scope.minSeverity && rule && !atLeast(rule.severity, scope.minSeverity)) {
    return false;
  }
  const paths = scope.paths ?? [];
  if (paths.length > 0 && !paths.some((p) => p === '.' || entry.file === p || entry.file.startsWith(`${p}/`))) {
    return false;
  }
  return !scope.excluded?.(entry.file);
}

/**
 * The baseline of a result: its unsuppressed findings, those a baseline already held included, and the entries of
 * `kept` (those of the old baseline outside a narrowed run), as stable JSON (entries sorted by file, rule, object and
 * pointer; no dates), for `--write-baseline`.
 */
export function renderBaseline(result: AuditResult, kept: readonly BaselineEntry[] = []): string {
  const entries = new Map<string, BaselineEntry>();
  for (const entry of kept) {
    entries.set(keyOf(entry), { ruleId: entry.ruleId, file: entry.file, object: entry.object, pointer: entry.pointer });
  }
  for (const f of [...result.findings, ...result.baselined]) {
    const entry = { ruleId: f.ruleId, file: f.location.file, object: f.object, pointer: f.pointer };
    entries.set(keyOf(entry), entry);
  }
  const sorted = [...entries.values()].sort((a, b) => compareStrings(a.file, b.file) || compareStrings(a.ruleId, b.ruleId)
    || compareStrings(a.object, b.object) || compareStrings(a.pointer, b.pointer));
  return `${JSON.stringify({ version: VERSION, findings: sorted }, null, 2)}\n`;
}

/**
 * Reads a baseline written by {@link renderBaseline}.
 *
 * @throws naming the file and the first entry that is not one
 */
export function parseBaseline(text: string, file: string): BaselineEntry[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: not JSON: ${String((e as Error).message).split('\n')[0]}`);
  }
  if (!isObject(raw) || raw.version !== VERSION || !Array.isArray(raw.findings)) {
    throw new Error(`${file}: not a safe-argocd baseline (expected {"version": ${VERSION}, "findings": [...]})`);
  }
  return raw.findings.map((e, i) => {
    if (!isObject(e) || FIELDS.some((f) => typeof e[f] !== 'string')) {
      throw new Error(`${file}: findings[${i}] must have the strings ${FIELDS.join(', ')}`);
    }
    return { ruleId: e.ruleId as string, file: e.file as string, object: e.object as string, pointer: e.pointer as string };
  });
}

/**
 * The result with the findings `baseline` holds moved to `baselined` (they are known and do not fail a run),
 * and the number of its entries that no finding matched any more, of those the run of `scope` could have matched.
 */
export function applyBaseline(result: AuditResult, baseline: readonly BaselineEntry[], scope: BaselineScope = {}): AuditResult {
  if (baseline.length === 0) {
    // Nothing is known: no key of any finding is needed (a run without --baseline).
    return { ...result, staleBaselineEntries: 0 };
  }
  const known = new Set(baseline.map(keyOf));
  const inScope = new Set(baseline.filter((e) => inBaselineScope(e, scope)).map(keyOf));
  const matched = new Set<string>();
  const findings: AuditFinding[] = [];
  const baselined: AuditFinding[] = [...result.baselined];
  for (const f of result.findings) {
    const key = keyOf({ ruleId: f.ruleId, file: f.location.file, object: f.object, pointer: f.pointer });
    if (known.has(key)) {
      matched.add(key);
      baselined.push(f);
    } else {
      findings.push(f);
    }
  }
  return { ...result, findings, baselined, staleBaselineEntries: [...inScope].filter((k) => !matched.has(k)).length };
}
