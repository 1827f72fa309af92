import { escapeControl as e } from './escape';
import { Severity } from '../../rules/severity';
import { AuditResult } from '../types';

const COLORS: Record<Severity, string> = { [Severity.ERROR]: '\u001b[31m', [Severity.WARNING]: '\u001b[33m', [Severity.NOTE]: '\u001b[36m' };
const RESET = '\u001b[0m';

/** Findings grouped by file, for a human; colour only when asked (on a terminal). */
export function formatText(result: AuditResult, color: boolean): string {
  const paint = (severity: Severity, text: string) => (color ? `${COLORS[severity]}${text}${RESET}` : text);
  const lines: string[] = [];
  let file = '';
  for (const f of result.findings) {
    if (f.location.file !== file) {
      file = f.location.file;
      lines.push(lines.length > 0 ? '' : '', e(file));
    }
    lines.push(`  ${f.location.line}:${f.location.column}  ${paint(f.severity, f.severity.padEnd(7))}  ${f.ruleId} ${f.ruleName}  ${e(f.object)}${f.application ? ` (Application ${e(f.application)})` : ''}`);
    lines.push(`    ${f.pointer ? `${e(f.pointer)}: ` : ''}${e(f.message)}`);
    lines.push(`    fix: ${f.fix}`);
  }
  if (result.suppressed.length > 0) {
    lines.push('', `suppressed (${result.suppressed.length}):`);
    for (const f of result.suppressed) {
      lines.push(`  ${e(f.location.file)}:${f.location.line}:${f.location.column}  ${f.ruleId}  ${e(f.object)}: ${e(f.suppression!.reason)} (${f.suppression!.source})`);
    }
  }
  if (result.problems.length > 0) {
    lines.push('', `unreadable files (${result.problems.length}):`);
    for (const p of result.problems) {
      lines.push(`  ${e(p.file)}: ${e(p.message)}`);
    }
  }
  if (result.notes.length > 0) {
    lines.push('', 'not audited:');
    for (const n of result.notes) {
      lines.push(`  ${e(n)}`);
    }
  }
  const s = result.stats;
  const counts = [Severity.ERROR, Severity.WARNING, Severity.NOTE]
    .map((sev) => `${result.findings.filter((f) => f.severity === sev).length} ${sev}(s)`).join(', ');
  lines.push('', `${counts}; ${result.suppressed.length} suppressed; ${s.applications} Application(s), ${s.manifests} manifest(s) in ${s.files} file(s); `
    + `${s.skippedDocuments} non-Kubernetes document(s) and ${s.skippedTemplates} Helm chart file(s) skipped; ${result.problems.length} unreadable file(s)`);
  return `${lines.join('\n').replace(/^\n+/, '')}\n`;
}
