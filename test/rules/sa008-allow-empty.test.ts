import { expectFindings, findingsFor, safeApplication } from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';

describe('SA008 allow-empty', () => {
  test('passes when allowEmpty is false', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { automated: { allowEmpty: false } } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when auto-sync is switched off with enabled: false', () => {
    // GIVEN
    const app = safeApplication({ metadata: { annotations: { 'safe-argocd/break-glass-reason': 'incident 42: hand-patched the config', 'safe-argocd/break-glass-expires': '2099-01-01' } }, spec: { syncPolicy: { automated: { enabled: false, allowEmpty: true } } } });
    // WHEN
    const findings = findingsFor(app, ArgoCdVersion.V3_5);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when allowEmpty is true but prune is off: Argo CD consults allowEmpty only with prune', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { automated: { prune: false, allowEmpty: true } } } });
    // WHEN / THEN
    expect(findingsFor(app).filter((f) => f.rule.id === 'SA008')).toEqual([]);
  });

  test('fails when automated sync has allowEmpty: true', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { automated: { allowEmpty: true } } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA008 /spec/syncPolicy/automated/allowEmpty']);
    expect(findings[0].value).toBe(true);
  });
});
