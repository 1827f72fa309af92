import { Duration, Testing } from 'cdk8s';
import { appProjectOf, expectFindings, findingsOf, modified, Overrides, safeApplication } from './support';
import { SafeProject, SyncWindowKind } from '../../src';
import { Manifest } from '../../src/core/manifest';
import { syncWindowBlocksManualSync } from '../../src/rules/sa208-sync-window-blocks-manual-sync';

/** An AppProject "payments" with the given sync windows. */
function appProject(syncWindows: unknown[], overrides: Overrides = {}): Manifest {
  return modified(appProjectOf({ spec: { syncWindows } }), overrides);
}

/** A Friday night window of `kind`, with `extra` fields. */
function window(kind: string, extra: { [key: string]: unknown } = {}): { [key: string]: unknown } {
  return { kind, schedule: '0 22 * * 5', duration: '58h', applications: ['*'], ...extra };
}

describe('SA208 sync-window-blocks-manual-sync', () => {
  test('passes when every window lets manual syncs through', () => {
    // GIVEN
    const project = appProject([window('deny', { manualSync: true }), window('allow', { schedule: '0 8 * * 1-5', manualSync: true })]);
    // WHEN
    const findings = findingsOf(syncWindowBlocksManualSync, [project], safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the project has no sync windows', () => {
    expect(findingsOf(syncWindowBlocksManualSync, [appProject([], { spec: { syncWindows: undefined } })])).toEqual([]);
  });

  test('passes on the windows a SafeProject renders by default', () => {
    // GIVEN
    const project = new SafeProject(Testing.app(), 'project', {
      name: 'payments',
      sourceRepos: ['https://git.acme.internal/payments/checkout.git'],
      destinations: [{ namespace: 'checkout' }],
      syncWindows: [{ kind: SyncWindowKind.DENY, schedule: '0 22 * * fri', duration: Duration.hours(58), applications: ['*'] }],
    }).resource.toJson() as Manifest;
    // THEN
    expect(findingsOf(syncWindowBlocksManualSync, [project])).toEqual([]);
  });

  test('fails when a deny window leaves manualSync out, at that window, with why it matters', () => {
    // GIVEN a hand-written project whose second window is a deny window without manualSync
    const project = appProject([window('deny', { manualSync: true }), window('deny', { schedule: '0 1 1 * *' })]);
    // WHEN
    const findings = findingsOf(syncWindowBlocksManualSync, [project], safeApplication());
    // THEN
    expectFindings(findings, project, ['SA208 /spec/syncWindows/1/manualSync']);
    expect(findings[0].message).toBe('the deny window "0 1 1 * *" blocks manual syncs while it is active, so a break-glass fix cannot be synced until it ends');
    expect(findings[0].value).toBeUndefined();
  });

  test('fails when a deny window sets manualSync to false, or to the string "true"', () => {
    // GIVEN
    const project = appProject([window('deny', { manualSync: false }), window('deny', { schedule: '0 6 * * *', manualSync: 'true' })]);
    // WHEN
    const findings = findingsOf(syncWindowBlocksManualSync, [project]);
    // THEN
    expectFindings(findings, project, ['SA208 /spec/syncWindows/0/manualSync', 'SA208 /spec/syncWindows/1/manualSync']);
    expect(findings.map((f) => f.value)).toEqual([false, 'true']);
  });

  test('fails when an allow window leaves manualSync out: outside it, manual syncs are blocked', () => {
    // GIVEN
    const project = appProject([window('allow', { schedule: '0 8 * * 1-5' })]);
    // WHEN
    const findings = findingsOf(syncWindowBlocksManualSync, [project]);
    // THEN
    expectFindings(findings, project, ['SA208 /spec/syncWindows/0/manualSync']);
    expect(findings[0].message).toBe('the allow window "0 8 * * 1-5" blocks manual syncs outside it, so a break-glass fix cannot be synced until it opens');
  });

  test('passes on an allow window open around the clock (a 24h window started every minute): it has no outside', () => {
    // GIVEN an always-open allow window without manualSync, and one open half of each day
    const project = appProject([window('allow', { schedule: '* * * * *', duration: '24h' }), window('allow', { schedule: '0 */12 * * *', duration: '6h' })]);
    // WHEN
    const findings = findingsOf(syncWindowBlocksManualSync, [project]);
    // THEN only the second blocks manual syncs, outside its hours
    expectFindings(findings, project, ['SA208 /spec/syncWindows/1/manualSync']);
  });

  test('fails when the AppProject is audited as the application itself', () => {
    const project = appProject([window('deny')]);
    expectFindings(findingsOf(syncWindowBlocksManualSync, [], project), project, ['SA208 /spec/syncWindows/0/manualSync']);
  });

  test('fails, marked suppressed with the reason, on a SafeProject window that blocks manual syncs on purpose', () => {
    // GIVEN
    const reason = 'The payment processor forbids any change during its weekend batch';
    const project = new SafeProject(Testing.app(), 'project', {
      name: 'payments',
      sourceRepos: ['https://git.acme.internal/payments/checkout.git'],
      destinations: [{ namespace: 'checkout' }],
      syncWindows: [{ kind: SyncWindowKind.DENY, schedule: '0 22 * * fri', duration: Duration.hours(58), applications: ['*'], manualSync: false, manualSyncBlockedReason: reason }],
    }).resource.toJson() as Manifest;
    // WHEN
    const findings = findingsOf(syncWindowBlocksManualSync, [project]);
    // THEN
    expectFindings(findings, project, ['SA208 /spec/syncWindows/0/manualSync']);
    expect(findings[0].suppressedBecause).toBe(`window 0 (deny 0 22 * * fri): ${reason}`);
  });
});

describe('SA208 edges', () => {
  test('windows that are not objects, and kinds other than allow and deny, are skipped', () => {
    const project = appProject([null, 'junk', window('block'), window('deny')]);
    expectFindings(findingsOf(syncWindowBlocksManualSync, [project]), project, ['SA208 /spec/syncWindows/3/manualSync']);
  });

  test('objects other than AppProjects are not read', () => {
    const notAProject = appProject([window('deny')], { kind: 'ConfigMap', apiVersion: 'v1' });
    expect(findingsOf(syncWindowBlocksManualSync, [notAProject])).toEqual([]);
  });
});
