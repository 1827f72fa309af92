import { expectFindings, findingsOf, manifest, safeApplication } from './support';
import { ArgoCdVersion } from '../../src';
import { Manifest } from '../../src/core/manifest';
import { manualSyncWithoutRecord } from '../../src/rules/sa206-manual-sync-without-record';
import { newApp } from '../support/app';

const RECORD = { 'safe-argocd/break-glass-reason': 'INC-42: ledger migration fixed by hand', 'safe-argocd/break-glass-expires': '2999-12-31' };

/** An Application whose sync policy has no automated sync. */
function manual(): Manifest {
  return safeApplication({ spec: { syncPolicy: { automated: undefined } } });
}

/** An Application whose automated sync is switched off with enabled: false. */
function disabled(): Manifest {
  return safeApplication({ spec: { syncPolicy: { automated: { enabled: false } } } });
}

describe('SA206 manual-sync-without-record', () => {
  test('passes when automated sync is on', () => {
    // GIVEN
    const app = safeApplication();
    // WHEN
    const findings = findingsOf(manualSyncWithoutRecord, [], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when automated sync is on with enabled: true, or with an empty automated block', () => {
    // GIVEN
    const enabled = safeApplication({ spec: { syncPolicy: { automated: { enabled: true } } } });
    const empty = safeApplication({ spec: { syncPolicy: { automated: {} } } });
    // WHEN / THEN
    expect(findingsOf(manualSyncWithoutRecord, [], enabled)).toEqual([]);
    expect(findingsOf(manualSyncWithoutRecord, [], empty)).toEqual([]);
  });

  test('passes when manual sync carries a break-glass record', () => {
    // GIVEN
    const app = safeApplication({ metadata: { annotations: RECORD }, spec: { syncPolicy: { automated: undefined } } });
    // WHEN
    const findings = findingsOf(manualSyncWithoutRecord, [], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when enabled: false carries a break-glass record', () => {
    // GIVEN
    const app = safeApplication({ metadata: { annotations: RECORD }, spec: { syncPolicy: { automated: { enabled: false } } } });
    // WHEN
    const findings = findingsOf(manualSyncWithoutRecord, [], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test.each([['3.0', ArgoCdVersion.V3_0], ['2.14', ArgoCdVersion.V2_14]])('passes when enabled: false is set for Argo CD %s, which does not read it', (_, version) => {
    // GIVEN
    const app = disabled();
    // WHEN
    const findings = findingsOf(manualSyncWithoutRecord, [], app, version);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when there is no Application, or the input is not an Application', () => {
    // GIVEN
    const configMap = manifest('v1', 'ConfigMap', 'settings');
    // WHEN / THEN
    expect(findingsOf(manualSyncWithoutRecord, [configMap])).toEqual([]);
    expect(findingsOf(manualSyncWithoutRecord, [], configMap)).toEqual([]);
  });

  test('passes on what a SafeApplication renders, with and without a declarative break-glass', () => {
    // GIVEN
    const normal = newApp().app.resource.toJson() as Manifest;
    const suspended = newApp({ breakGlass: { reason: 'INC-42: ledger migration fixed by hand', expires: '2999-12-31' } }).app.resource.toJson() as Manifest;
    // WHEN / THEN
    expect(findingsOf(manualSyncWithoutRecord, [], normal)).toEqual([]);
    expect(findingsOf(manualSyncWithoutRecord, [], suspended)).toEqual([]);
  });

  test('fails when the Application has no automated sync and no record', () => {
    // GIVEN
    const app = manual();
    // WHEN
    const findings = findingsOf(manualSyncWithoutRecord, [], app);
    // THEN
    expectFindings(findings, app, ['SA206 /spec/syncPolicy']);
    expect(findings[0].message).toBe('the Application has no automated sync and no recorded break-glass');
  });

  test('fails when the Application has no syncPolicy at all', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: undefined } });
    // WHEN
    const findings = findingsOf(manualSyncWithoutRecord, [], app);
    // THEN
    expectFindings(findings, app, ['SA206 /spec/syncPolicy']);
  });

  test('fails when only an expiry is recorded, without a reason', () => {
    // GIVEN
    const app = safeApplication({ metadata: { annotations: { 'safe-argocd/break-glass-expires': '2999-12-31' } }, spec: { syncPolicy: { automated: undefined } } });
    // WHEN
    const findings = findingsOf(manualSyncWithoutRecord, [], app);
    // THEN
    expectFindings(findings, app, ['SA206 /spec/syncPolicy']);
  });

  test.each([['3.1', ArgoCdVersion.V3_1], ['3.5', ArgoCdVersion.V3_5]])('fails when automated has enabled: false for Argo CD %s', (_, version) => {
    // GIVEN
    const app = disabled();
    // WHEN
    const findings = findingsOf(manualSyncWithoutRecord, [], app, version);
    // THEN
    expectFindings(findings, app, ['SA206 /spec/syncPolicy/automated/enabled']);
    expect(findings[0].message).toBe('automated sync is disabled (enabled: false) and no break-glass records why');
  });

  test('fails when a SafeApplication\'s Application is suspended by an escape hatch without a record', () => {
    // GIVEN
    const application = newApp().app.resource.toJson() as any;
    delete application.spec.syncPolicy.automated;
    // WHEN
    const findings = findingsOf(manualSyncWithoutRecord, [], application);
    // THEN
    expectFindings(findings, application, ['SA206 /spec/syncPolicy']);
  });

  test('fails at /spec/syncPolicy, not at a field that does not exist, when automated is null', () => {
    // GIVEN `automated: null` (YAML `automated: ~`), which Argo CD reads as no automated sync
    const app = safeApplication({ spec: { syncPolicy: { automated: null } } });
    // WHEN
    const findings = findingsOf(manualSyncWithoutRecord, [], app);
    // THEN
    expectFindings(findings, app, ['SA206 /spec/syncPolicy']);
    expect(findings[0].message).toBe('the Application has no automated sync and no recorded break-glass');
  });
});
