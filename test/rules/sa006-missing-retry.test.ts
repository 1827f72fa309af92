import { expectFindings, findingsFor, safeApplication } from './support';

describe('SA006 missing-retry', () => {
  test('passes when automated sync retries with backoff', () => {
    // GIVEN
    const app = safeApplication();
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the retry limit is -1 (unlimited)', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { retry: { limit: -1 } } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when a manual-sync app has no retry', () => {
    // GIVEN
    const app = safeApplication({ metadata: { annotations: { 'safe-argocd/break-glass-reason': 'incident 42: hand-patched the config', 'safe-argocd/break-glass-expires': '2099-01-01' } }, spec: { syncPolicy: { automated: undefined, retry: undefined } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when automated sync has no retry', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { retry: undefined } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA006 /spec/syncPolicy/retry']);
  });

  test('fails when the retry limit is 0', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { retry: { limit: 0 } } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA006 /spec/syncPolicy/retry/limit']);
    expect(findings[0].value).toBe(0);
  });

  test('fails when the retry limit is unset', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { retry: { limit: undefined } } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA006 /spec/syncPolicy/retry/limit']);
    expect(findings[0].message).toContain('unset');
  });
});
