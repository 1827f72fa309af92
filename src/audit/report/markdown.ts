import { codeSpan, escapeControl, markdownText } from './escape';
import { chartHintText, testDataHint, testDataHintText, undeployedHint, undeployedHintText } from './test-data';
import { applicationSetsLine } from './text';
import { compareStrings } from '../../core/order';
import { Severity } from '../../rules/severity';
import { AuditFinding, AuditResult } from '../types';

const ICON: Record<Severity, string> = { [Severity.ERROR]: 'error', [Severity.WARNING]: 'warning', [Severity.NOTE]: 'note' };

/**
 * The most a Markdown report holds: a pull-request comment holds 65,536 characters, and the rest is left for
 * what a CI step puts around it.
 */
export const MARKDOWN_LIMIT = 60_000;
/** What is kept for the sections after the findings (suppressed, unreadable, not audited) and the closing lines. */
const TAIL_RESERVE = 12_000;
/** The longest cell: a value from the audited files (a key, a name) cannot fill the comment alone. */
const MAX_CELL = 300;

/** Where the whole report is, for when this one had to leave rows out. */
export const FULL_REPORT_HINT = 'The full report: run `safe-argocd audit --format sarif --output safe-argocd.sarif` '
  + '(for code scanning) or `--format json --output safe-argocd.json`, and keep it as a build artifact.';

function clip(text: string): string {
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

/** Text from the audited files (or a rule) shown literally in a table cell or list item: no HTML, no Markdown syntax. */
function cell(text: string): string {
  return markdownText(escapeControl(clip(text).replace(/\n/g, ' ')));
}

/** Text shown literally in a table cell: a code span that no backtick in it can close. */
function code(text: string): string {
  return codeSpan(escapeControl(clip(text))).replace(/\|/g, '\\|');
}

/** Lines that stop growing at a limit of characters (newlines included). */
class Page {
  readonly lines: string[] = [];
  private size = 0;
  constructor(private readonly limit: number) {}
  /** Adds the lines if all fit within `limit - reserve`; returns whether they did. */
  add(reserve: number, ...lines: string[]): boolean {
    const added = lines.reduce((n, l) => n + l.length + 1, 0);
    if (this.size + added > this.limit - reserve) {
      return false;
    }
    this.lines.push(...lines);
    this.size += added;
    return true;
  }
  get length(): number {
    return this.size;
  }
}

function counts(findings: readonly AuditFinding[]): Map<string, { finding: AuditFinding; count: number }> {
  const byRule = new Map<string, { finding: AuditFinding; count: number }>();
  for (const f of findings) {
    const entry = byRule.get(f.ruleId) ?? { finding: f, count: 0 };
    entry.count++;
    byRule.set(f.ruleId, entry);
  }
  return new Map([...byRule.entries()].sort(([a], [b]) => compareStrings(a, b)));
}

/**
 * A pull-request comment, always under {@link MARKDOWN_LIMIT} characters: a summary line, one row a rule with
 * its count and fix, then one row a finding, as many as fit; then what was suppressed, what could not be read and
 * what was not audited, as much as fits. When rows are left out, it says how many and where the full report is.
 */
export function formatMarkdown(result: AuditResult): string {
  const page = new Page(MARKDOWN_LIMIT);
  const count = (s: Severity) => result.findings.filter((f) => f.severity === s).length;
  let omitted = false;
  page.add(0, '## safe-argocd audit', '',
    `**${count(Severity.ERROR)} error(s), ${count(Severity.WARNING)} warning(s), ${count(Severity.NOTE)} note(s)**; `
    + `${result.suppressed.length} suppressed; ${result.baselined.length > 0 ? `${result.baselined.length} in the baseline (not shown); ` : ''}`
    + `${result.stats.applications} Application(s) and ${result.stats.manifests} manifest(s) in ${result.stats.files} file(s)`
    + `${result.stats.applicationSets ? `; ${applicationSetsLine(result.stats.applicationSets)}` : ''}.`);
  const testData = testDataHint(result.findings);
  if (testData) {
    page.add(0, '', `_${testDataHintText(testData, code)}_`);
  }
  const undeployed = undeployedHint(result.findings, result.undeployedFolders);
  if (undeployed) {
    page.add(0, '', `_${undeployedHintText(undeployed, code)}_`);
  }
  if (result.chartArgoCdFiles !== undefined && result.chartArgoCdFiles.length > 0) {
    page.add(0, '', `_${chartHintText(result.chartArgoCdFiles, code)}_`);
  }

  if (result.findings.length > 0) {
    page.add(TAIL_RESERVE, '', '| rule | severity | findings | fix |', '|---|---|---|---|');
    for (const { finding: f, count: n } of counts(result.findings).values()) {
      page.add(TAIL_RESERVE, `| ${f.ruleId} ${f.ruleName} | ${ICON[f.severity]} | ${n} | ${cell(f.fix)} |`);
    }
    page.add(TAIL_RESERVE, '', '| severity | rule | object | where | finding |', '|---|---|---|---|---|');
    let shown = 0;
    for (const f of result.findings) {
      const row = `| ${ICON[f.severity]} | ${f.ruleId} ${f.ruleName} | ${cell(f.object)}${f.application ? ` (${cell(f.application)})` : ''} | `
        + `${code(`${f.location.file}:${f.location.line}`)} ${f.pointer ? code(f.pointer) : ''} | ${cell(f.message)} |`;
      if (!page.add(TAIL_RESERVE, row)) {
        break;
      }
      shown++;
    }
    if (shown < result.findings.length) {
      omitted = true;
      page.add(0, '', `_${result.findings.length - shown} more finding(s) not shown: this comment holds at most ${MARKDOWN_LIMIT.toLocaleString('en-US')} characters._`);
    }
  }
  // The tail sections share what is left, each keeping room for the ones after it and the closing lines.
  const closing = FULL_REPORT_HINT.length + 200;
  const section = (title: string[], rows: string[], end: string[], reserve: number): void => {
    if (rows.length === 0 || !page.add(reserve + closing, ...title)) {
      omitted = omitted || rows.length > 0;
      return;
    }
    let shown = 0;
    for (const row of rows) {
      if (!page.add(reserve + closing, row)) {
        break;
      }
      shown++;
    }
    if (shown < rows.length) {
      omitted = true;
      page.add(reserve, `- _${rows.length - shown} more not shown_`);
    }
    page.add(reserve, ...end);
  };
  section(['', '<details><summary>Suppressed</summary>', '', '| rule | object | where | reason |', '|---|---|---|---|'],
    result.suppressed.map((f) => `| ${f.ruleId} | ${cell(f.object)} | ${code(`${f.location.file}:${f.location.line}`)} | ${cell(f.suppression!.reason)} (${f.suppression!.source}) |`),
    ['', '</details>'], 4000);
  section(['', `**Unreadable files (${result.problems.length})**`, ''],
    result.problems.map((p) => `- ${code(p.file)}: ${cell(p.message)}`), [], 2000);
  section(['', `<details><summary>Not audited (${result.notes.length})</summary>`, ''],
    result.notes.map((n) => `- ${cell(n)}`), ['', '</details>'], 0);
  if (omitted) {
    page.add(0, '', FULL_REPORT_HINT);
  }
  return `${page.lines.join('\n')}\n`;
}
