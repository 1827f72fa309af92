import { expectFindings, findingsFor, safeApplication } from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';

describe('SA004 automated-enabled-unsupported', () => {
  test.each([ArgoCdVersion.V2_14, ArgoCdVersion.V3_0])('fails when automated.enabled is set for Argo CD $version', (version) => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { automated: { enabled: true } } } });
    // WHEN
    const findings = findingsFor(app, version);
    // THEN
    expectFindings(findings, app, ['SA004 /spec/syncPolicy/automated/enabled']);
    expect(findings[0].value).toBe(true);
    expect(findings[0].message).toContain(version.version);
  });

  test('fails when enabled: false is meant to pause auto-sync on Argo CD 2.14', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { automated: { enabled: false } } } });
    // WHEN
    const findings = findingsFor(app, ArgoCdVersion.V2_14);
    // THEN
    expectFindings(findings, app, ['SA004 /spec/syncPolicy/automated/enabled']);
    expect(findings[0].value).toBe(false);
  });

  test.each([ArgoCdVersion.V3_1, ArgoCdVersion.V3_5])('passes when automated.enabled is set for Argo CD $version', (version) => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { automated: { enabled: true } } } });
    // WHEN
    const findings = findingsFor(app, version);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when an old release gets no enabled field', () => {
    // GIVEN
    const app = safeApplication();
    // WHEN
    const findings = findingsFor(app, ArgoCdVersion.V2_14);
    // THEN
    expect(findings).toEqual([]);
  });
});
