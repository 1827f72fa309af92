import { ApplicationDriftReport, ResourceDrift, ResourceSyncStatus } from './application-drift-report';
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

/** `group/Kind namespace/name` of one resource, `Kind` alone for the core group. */
function resourceName(r: ResourceDrift): string {
  return `${r.group ? `${r.group}/` : ''}${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
}

/** What happens to one resource, in a few words. */
function resourceFate(r: ResourceDrift): string {
  if (r.requiresPruning) {
    return r.affectsApplication ? 'left over in the cluster: a sync with pruning deletes it'
      : 'left over in the cluster, IgnoreExtraneous: a sync with pruning deletes it, the app stays Synced';
  }
  if (r.status === ResourceSyncStatus.NOT_COMPARED) {
    return r.report ? 'a hook: run, never compared' : 'carries a tracking annotation copied from another object: not compared';
  }
  if (r.missing) {
    return 'missing in the cluster: the next sync creates it';
  }
  if (r.report?.outOfSync) {
    const heal = r.report.selfHeal ? `self-heal reverts ${r.report.selfHealReverts.join(', ') || 'nothing'}` : 'self-heal is off';
    return `differs: ${r.report.differences.join(', ')}; ${heal}`;
  }
  return '';
}

/** A whole-Application simulation, one line a resource, the Application's verdict first. */
export function formatApplicationDriftText(report: ApplicationDriftReport): string {
  const counted = report.resources.filter((r) => r.affectsApplication);
  const outOfSync = counted.filter((r) => r.status === ResourceSyncStatus.OUT_OF_SYNC).length;
  const lines = [`Application ${report.application}: ${report.outOfSync ? 'OutOfSync' : 'Synced'} `
    + `(${outOfSync} of ${counted.length} resource(s) OutOfSync)`];
  const width = Math.max(0, ...report.resources.map((r) => r.status.length));
  for (const r of report.resources) {
    const fate = resourceFate(r);
    lines.push(`  ${r.status.padEnd(width)}  ${resourceName(r)}${fate ? `: ${fate}` : ''}`);
  }
  return lines.join('\n') + '\n';
}

/** A whole-Application simulation as stable JSON (each liveAfterApply parsed back into an object). */
export function formatApplicationDriftJson(report: ApplicationDriftReport): string {
  const resources = report.resources.map((r) => ({
    ...r,
    ...(r.report ? { report: { ...r.report, liveAfterApply: JSON.parse(r.report.liveAfterApply) } } : {}),
  }));
  return JSON.stringify({ ...report, resources }, null, 2) + '\n';
}
