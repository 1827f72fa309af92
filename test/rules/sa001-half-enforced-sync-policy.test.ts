import { expectFindings, findingsFor, safeApplication } from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';

describe('SA001 half-enforced-sync-policy', () => {
  test('passes when automated sync has prune and selfHeal', () => {
    // GIVEN
    const app = safeApplication();
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when auto-sync is switched off with enabled: false (Argo CD 3.1+)', () => {
    // GIVEN
    const app = safeApplication({ metadata: { annotations: { 'safe-argocd/break-glass-reason': 'incident 42: hand-patched the config', 'safe-argocd/break-glass-expires': '2099-01-01' } }, spec: { syncPolicy: { automated: { enabled: false, prune: false, selfHeal: false } } } });
    // WHEN
    const findings = findingsFor(app, ArgoCdVersion.V3_5);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when sync is manual', () => {
    // GIVEN
    const app = safeApplication({ metadata: { annotations: { 'safe-argocd/break-glass-reason': 'incident 42: hand-patched the config', 'safe-argocd/break-glass-expires': '2099-01-01' } }, spec: { syncPolicy: { automated: undefined } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when prune is unset', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { automated: { prune: undefined } } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA001 /spec/syncPolicy/automated/prune']);
    expect(findings[0].value).toBeUndefined();
    expect(findings[0].message).toContain('unset');
  });

  test('fails when prune is false', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { automated: { prune: false } } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA001 /spec/syncPolicy/automated/prune']);
    expect(findings[0].value).toBe(false);
  });

  test('fails when selfHeal is false', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { automated: { selfHeal: false } } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA001 /spec/syncPolicy/automated/selfHeal']);
  });

  test('fails twice when automated is empty, prune first', () => {
    // GIVEN automated: {} (auto-sync on, both fields default to false)
    const app = safeApplication({ spec: { syncPolicy: { automated: { prune: undefined, selfHeal: undefined } } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA001 /spec/syncPolicy/automated/prune', 'SA001 /spec/syncPolicy/automated/selfHeal']);
  });

  test('fails when enabled: true is set explicitly and prune is not', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { automated: { enabled: true, prune: 'true' } } } });
    // WHEN
    const findings = findingsFor(app, ArgoCdVersion.V3_1);
    // THEN only a boolean true counts
    expectFindings(findings, app, ['SA001 /spec/syncPolicy/automated/prune']);
  });

  test('fails on Argo CD 3.0 even with enabled: false, which 3.0 does not read', () => {
    // GIVEN a release without automated.enabled: the field is dropped and auto-sync stays on
    const app = safeApplication({ spec: { syncPolicy: { automated: { enabled: false, prune: false } } } });
    // WHEN
    const findings = findingsFor(app, ArgoCdVersion.V3_0);
    // THEN the half policy is reported, not only the unsupported field
    expectFindings(findings, app, ['SA001 /spec/syncPolicy/automated/prune', 'SA004 /spec/syncPolicy/automated/enabled']);
  });
});
