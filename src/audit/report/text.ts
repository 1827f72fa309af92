import { escapeControl as e } from './escape';
import { chartHintText, testDataHint, testDataHintText, undeployedHint, undeployedHintText } from './test-data';
import { Severity } from '../../rules/severity';
import { AuditResult } from '../types';

const COLORS: Record<Severity, string> = { [Severity.ERROR]: '\u001b[31m', [Severity.WARNING]: '\u001b[33m', [Severity.NOTE]: '\u001b[36m' };
const RESET = '\u001b[0m';

/** How to print a text report. */
export interface TextOptions {
  /** Colour the severities (on a terminal). */
  readonly color: boolean;
  /** List what is otherwise counted in one line: what was not audited, and the findings a baseline holds. */
  readonly verbose?: boolean;
}

/**
 * Findings grouped by file, for a human, each rule's fix under its first finding in the file; quiet about the rest: what could not be audited and what a baseline
 * holds are one line each, with a count, unless `verbose`. Colour only when asked.
 */
export function formatText(result: AuditResult, options: TextOptions | boolean): string {
  const { color, verbose } = typeof options === 'boolean' ? { color: options, verbose: false } : options;
  const paint = (severity: Severity, text: string) => (color ? `${COLORS[severity]}${text}${RESET}` : text);
  const lines: string[] = [];
  let file = '';
  // A rule's fix is the same for each of its findings: it is printed under the first of them in each file.
  const fixShown = new Set<string>();
  for (const f of result.findings) {
    if (f.location.file !== file) {
      file = f.location.file;
      fixShown.clear();
      lines.push(lines.length > 0 ? '' : '', e(file));
    }
    lines.push(`  ${f.location.line}:${f.location.column}  ${paint(f.severity, f.severity.padEnd(7))}  ${f.ruleId} ${f.ruleName}  ${e(f.object)}${f.application ? ` (Application ${e(f.application)})` : ''}`);
    lines.push(`    ${f.pointer ? `${e(f.pointer)}: ` : ''}${e(f.message)}`);
    if (!fixShown.has(f.ruleId)) {
      fixShown.add(f.ruleId);
      lines.push(`    fix: ${f.fix}`);
    }
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
    lines.push('  (--exclude leaves out files that are not manifests; --fail-on-unreadable makes unreadable files fail the run)');
  }
  if (result.notes.length > 0 && verbose) {
    lines.push('', `not audited (${result.notes.length}):`);
    for (const n of result.notes) {
      lines.push(`  ${e(n)}`);
    }
  } else if (result.notes.length > 0) {
    lines.push('', `not audited: ${result.notes.length} Application(s) or ApplicationSet(s) whose manifests are not in the audited files `
      + '(Helm charts, Kustomize, ApplicationSet generators not expanded, empty source paths); --verbose lists them');
  }
  if (result.baselined.length > 0 && verbose) {
    lines.push('', `in the baseline (${result.baselined.length}):`);
    for (const f of result.baselined) {
      lines.push(`  ${e(f.location.file)}:${f.location.line}:${f.location.column}  ${f.ruleId}  ${e(f.object)}${f.pointer ? ` ${e(f.pointer)}` : ''}`);
    }
  } else if (result.baselined.length > 0) {
    lines.push('', `in the baseline: ${result.baselined.length} known finding(s), not shown and not failing the run; --verbose lists them`);
  }
  if (result.staleBaselineEntries > 0) {
    lines.push(`baseline: ${result.staleBaselineEntries} entr${result.staleBaselineEntries === 1 ? 'y' : 'ies'} no longer found (fixed, or renamed); `
      + 'rewrite it with --write-baseline to drop them');
  }
  if (result.stats.excludedFiles > 0) {
    lines.push('', `excluded: ${result.stats.excludedFiles} file(s), not read`);
  }
  if (result.stats.manifests === 0 && result.stats.skippedTemplates > 0) {
    lines.push('', `nothing audited: the ${result.stats.skippedTemplates} Helm chart file(s) are templates, and no other file holds a `
      + 'Kubernetes object; audit what the charts render (helm template ... > rendered.yaml), or give it with --rendered <application>=<file>');
  }
  const testData = testDataHint(result.findings);
  if (testData) {
    lines.push('', `test data: ${testDataHintText(testData, e)}`);
  }
  const undeployed = undeployedHint(result.findings, result.undeployedFolders);
  if (undeployed) {
    lines.push('', `not deployed: ${undeployedHintText(undeployed, e)}`);
  }
  if (result.chartArgoCdFiles !== undefined && result.chartArgoCdFiles.length > 0) {
    lines.push('', `not rendered: ${chartHintText(result.chartArgoCdFiles, e)}`);
  }
  const s = result.stats;
  const counts = [Severity.ERROR, Severity.WARNING, Severity.NOTE]
    .map((sev) => `${result.findings.filter((f) => f.severity === sev).length} ${sev}(s)`).join(', ');
  lines.push('', `${counts}; ${result.suppressed.length} suppressed; ${s.applications} Application(s), ${s.manifests} manifest(s) in ${s.files} file(s); `
    + `${s.skippedDocuments} non-Kubernetes document(s) and ${s.skippedTemplates} Helm chart file(s) skipped; ${result.problems.length} unreadable file(s)`
    + (s.applicationSets ? `; ${applicationSetsLine(s.applicationSets)}` : ''));
  return `${lines.join('\n').replace(/^\n+/, '')}\n`;
}

/** `2 ApplicationSet(s): 1 expanded into 5 Application(s), 1 audited as its literal template`. */
export function applicationSetsLine(sets: { readonly expanded: number; readonly literal: number; readonly generated: number }): string {
  return `${sets.expanded + sets.literal} ApplicationSet(s): ${sets.expanded} expanded into ${sets.generated} Application(s), `
    + `${sets.literal} audited as their literal template`;
}
