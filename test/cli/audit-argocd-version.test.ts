import { applicationYaml, auditJson, configMapYaml, runCli, writeTree } from '../audit/support';
import { tempDir } from '../support/app';

/** A repository whose one Application sets automated.enabled, a field Argo CD has from 3.1 (SA004 before). */
function enabledRepo(config?: string): string {
  const root = tempDir();
  writeTree(root, {
    'apps/checkout.yaml': applicationYaml('checkout', { syncPolicy: { automated: { enabled: true, prune: true, selfHeal: true } } }),
    'workloads/checkout/configmap.yaml': configMapYaml('settings', 'checkout'),
    ...(config !== undefined ? { '.safe-argocd.yaml': config } : {}),
  });
  return root;
}

describe('safe-argocd audit --argocd-version', () => {
  test.each(['3.4', 'v3.2.1', '3.3.x', '3.6'])('accepts %p: the Application is audited for a release with automated.enabled', async (release) => {
    // GIVEN an Application that sets automated.enabled
    const root = enabledRepo();
    // WHEN it is audited for that release
    const { run, report } = await auditJson(root, '--argocd-version', release);
    // THEN the release is accepted and has the field: no finding, exit 0
    expect(run.stderr).toBe('');
    expect(report.findings).toEqual([]);
    expect(run.code).toBe(0);
  });

  test.each(['2.14.3', '3.0'])('reaches the rules: for %p, which lacks automated.enabled, SA004 reports the field', async (release) => {
    // GIVEN the same Application
    const root = enabledRepo();
    // WHEN it is audited for a release before 3.1
    const { run, report } = await auditJson(root, '--argocd-version', release);
    // THEN the version-dependent rule fires, so the flag is not ignored
    expect(report.findings.map((f) => [f.ruleId, f.pointer])).toEqual([['SA004', '/spec/syncPolicy/automated/enabled']]);
    expect(run.code).toBe(1);
  });

  test.each([
    ['2.13', /\[SAFE-005\] ArgoCdVersion\.of: version is "2\.13"; it must be Argo CD 2\.14 or newer.*Fix: upgrade Argo CD to 2\.14 or newer/],
    ['4.0', /\[SAFE-005\] ArgoCdVersion\.of: version is "4\.0"; it must be Argo CD 2\.14 to 3\.5 or a later 3\.x/],
    ['latest', /\[SAFE-005\] ArgoCdVersion\.of: version is "latest"; it must name an Argo CD release as major\.minor/],
  ])('refuses %p: exit 2, the SAFE-005 message and the usage, nothing on stdout', async (release, message) => {
    // GIVEN a repository with nothing wrong for a supported release
    const root = enabledRepo();
    // WHEN the release is not one this library renders for
    const run = await runCli(['audit', root, '--repo-root', root, '--format', 'json', '--argocd-version', release]);
    // THEN the command line is refused before anything is audited
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain('usage:');
  });
});

describe('safe-argocd audit with argocdVersion in .safe-argocd.yaml', () => {
  test.each(['"3.4"', 'v3.2.1'])('accepts argocdVersion: %s', async (written) => {
    // GIVEN the Application and a config file naming the release
    const root = enabledRepo(`argocdVersion: ${written}\n`);
    // WHEN it is audited without the flag
    const { run, report } = await auditJson(root);
    // THEN the config's release is used: it has automated.enabled, so nothing is reported
    expect(report.findings).toEqual([]);
    expect(run.code).toBe(0);
  });

  test('uses the config\'s release: argocdVersion: 3.0 reports SA004, and the flag wins over it', async () => {
    // GIVEN a config naming 3.0
    const root = enabledRepo('argocdVersion: "3.0"\n');
    // WHEN it is audited with and without --argocd-version
    const fromConfig = await auditJson(root);
    const fromFlag = await auditJson(root, '--argocd-version', '3.4');
    // THEN 3.0 lacks the field, and 3.4 from the flag has it
    expect(fromConfig.report.findings.map((f) => f.ruleId)).toEqual(['SA004']);
    expect(fromFlag.report.findings).toEqual([]);
  });

  test('refuses argocdVersion: 2.13: exit 2, the file and the SAFE-005 message', async () => {
    // GIVEN a config naming a release older than 2.14
    const root = enabledRepo('argocdVersion: 2.13\n');
    // WHEN it is audited
    const run = await runCli(['audit', root, '--repo-root', root, '--format', 'json']);
    // THEN the config is refused
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/\.safe-argocd\.yaml: \[SAFE-005\] ArgoCdVersion\.of: version is "2\.13"; it must be Argo CD 2\.14 or newer/);
  });
});
