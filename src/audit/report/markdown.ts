import { codeSpan, escapeControl } from './escape';
import { Severity } from '../../rules/severity';
import { AuditResult } from '../types';

const ICON: Record<Severity, string> = { [Severity.ERROR]: 'error', [Severity.WARNING]: 'warning', [Severity.NOTE]: 'note' };

function cell(text: string): string {
  return escapeControl(text.replace(/\n/g, ' ')).replace(/\|/g, '\\|');
}

/** Text shown literally in a table cell: a code span that no backtick in it can close. */
function code(text: string): string {
  return codeSpan(escapeControl(text)).replace(/\|/g, '\\|');
}

/** A pull-request comment: a summary line and one table row per finding. */
export function formatMarkdown(result: AuditResult): string {
  const lines: string[] = ['## safe-argocd audit', ''];
  const count = (s: Severity) => result.findings.filter((f) => f.severity === s).length;
  lines.push(`**${count(Severity.ERROR)} error(s), ${count(Severity.WARNING)} warning(s), ${count(Severity.NOTE)} note(s)**; `
    + `${result.suppressed.length} suppressed; ${result.stats.applications} Application(s) and ${result.stats.manifests} manifest(s) in ${result.stats.files} file(s).`);
  if (result.findings.length > 0) {
    lines.push('', '| severity | rule | object | where | finding | fix |', '|---|---|---|---|---|---|');
    for (const f of result.findings) {
      lines.push(`| ${ICON[f.severity]} | ${f.ruleId} ${f.ruleName} | ${cell(f.object)}${f.application ? ` (${cell(f.application)})` : ''} | `
        + `${code(`${f.location.file}:${f.location.line}`)} ${f.pointer ? code(f.pointer) : ''} | ${cell(f.message)} | ${cell(f.fix)} |`);
    }
  }
  if (result.suppressed.length > 0) {
    lines.push('', '<details><summary>Suppressed</summary>', '', '| rule | object | where | reason |', '|---|---|---|---|');
    for (const f of result.suppressed) {
      lines.push(`| ${f.ruleId} | ${cell(f.object)} | ${code(`${f.location.file}:${f.location.line}`)} | ${cell(f.suppression!.reason)} (${f.suppression!.source}) |`);
    }
    lines.push('', '</details>');
  }
  if (result.problems.length > 0) {
    lines.push('', '**Unreadable files**', '');
    for (const p of result.problems) {
      lines.push(`- ${code(p.file)}: ${cell(p.message)}`);
    }
  }
  if (result.notes.length > 0) {
    lines.push('', '**Not audited**', '');
    for (const n of result.notes) {
      lines.push(`- ${cell(n)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
