import { DriftReport } from './drift-report';

/** A short human reading of a drift report, one fact per line. */
export function formatDriftText(subject: string, report: DriftReport): string {
  const lines = [`${subject}: ${report.outOfSync ? 'OutOfSync' : 'Synced'}`];
  const list = (items: readonly string[]) => items.map((p) => p || '(the whole object)').join(', ');
  if (report.outOfSync) {
    lines.push(`  differs: ${list(report.differences)}`);
    lines.push(report.selfHeal
      ? `  self-heal reverts: ${report.selfHealReverts.length > 0 ? list(report.selfHealReverts) : 'nothing'}`
      : '  self-heal is off: the difference stays until someone syncs');
  } else if (report.applyReverts.length > 0) {
    lines.push(`  not shown as drift, but the next sync of this resource changes: ${list(report.applyReverts)}`
      + (report.respectIgnoreDifferences ? '' : ' (RespectIgnoreDifferences=true is not set)'));
  } else {
    lines.push('  self-heal: nothing to revert');
  }
  if (report.keptIgnored.length > 0) {
    lines.push(`  kept as live has it (ignored): ${list(report.keptIgnored)}`);
  }
  for (const warning of report.warnings) {
    lines.push(`  warning: ${warning}`);
  }
  return lines.join('\n') + '\n';
}

/** The report as stable JSON (liveAfterApply parsed back into an object). */
export function formatDriftJson(subject: string, report: DriftReport): string {
  return JSON.stringify({ resource: subject, ...report, liveAfterApply: JSON.parse(report.liveAfterApply) }, null, 2) + '\n';
}
