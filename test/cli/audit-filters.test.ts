import { cpSync } from 'fs';
import { join } from 'path';
import { applicationYaml, auditJson, configMapYaml, FAILURE_MODES, key, keysOf, runCli, writeTree } from '../audit/support';
import { tempDir } from '../support/app';

const ALL = [
  key('SA001', 'apps/half-enforced.yaml', 'half-enforced'),
  key('SA002', 'apps/ignore-without-respect.yaml', 'ignore-without-respect'),
  key('SA003', 'apps/wildcard-ignore.yaml', 'wildcard-ignore'),
  key('SA101', 'workloads/autoscaled/deployment.yaml', 'autoscaled'),
  key('SA102', 'workloads/autoscaled/deployment.yaml', 'autoscaled'),
  key('SA103', 'workloads/migration-in-wave/job.yaml', 'migration-in-wave'),
];
const SA003 = key('SA003', 'apps/wildcard-ignore.yaml', 'wildcard-ignore');
const REASON = 'the wildcard is reviewed by the platform team';

/** A copy of the failure-modes fixture with `files` added. */
function fixtureWith(files: Record<string, string>): string {
  const root = tempDir();
  cpSync(FAILURE_MODES, root, { recursive: true });
  writeTree(root, files);
  return root;
}

/** A repository with one error (SA001) and one warning (SA006) on Application `mixed`. */
function mixedRepo(annotations?: Record<string, string>): string {
  const root = tempDir();
  writeTree(root, {
    'apps/mixed.yaml': applicationYaml('mixed', { syncPolicy: { automated: { prune: true, selfHeal: false }, retry: undefined }, annotations }),
    'workloads/mixed/configmap.yaml': configMapYaml('settings', 'mixed'),
  });
  return root;
}

describe('safe-argocd audit --rule and --severity', () => {
  test('--rule SA001 reports only SA001', async () => {
    // GIVEN the failure-modes fixture
    // WHEN only SA001 runs
    const { run, report } = await auditJson(FAILURE_MODES, '--rule', 'SA001');

    // THEN only the half-enforced Application is reported
    expect(keysOf(report.findings)).toEqual([key('SA001', 'apps/half-enforced.yaml', 'half-enforced')]);
    expect(run.code).toBe(1);
  });

  test('--rule may repeat or take a comma list', async () => {
    // GIVEN the failure-modes fixture
    // WHEN two rules are selected each way
    const repeated = await auditJson(FAILURE_MODES, '--rule', 'SA101', '--rule', 'SA103');
    const listed = await auditJson(FAILURE_MODES, '--rule', 'SA101, SA103');

    // THEN both select the same two rules
    const expected = [key('SA101', 'workloads/autoscaled/deployment.yaml', 'autoscaled'), key('SA103', 'workloads/migration-in-wave/job.yaml', 'migration-in-wave')];
    expect(keysOf(repeated.report.findings)).toEqual(expected);
    expect(keysOf(listed.report.findings)).toEqual(expected);
  });

  test('--rule for a rule nothing violates gives exit 0', async () => {
    // GIVEN the failure-modes fixture, where every Application has a project
    // WHEN only SA005 runs
    const { run, report } = await auditJson(FAILURE_MODES, '--rule', 'SA005');

    // THEN nothing is reported
    expect(report.findings).toEqual([]);
    expect(run.code).toBe(0);
  });

  test('--severity error hides warnings', async () => {
    // GIVEN an Application with an error (SA001) and a warning (SA006)
    const root = mixedRepo();

    // WHEN it is audited with and without --severity error
    const all = await auditJson(root);
    const errors = await auditJson(root, '--severity', 'error');

    // THEN the warning is only in the unfiltered report
    expect(all.report.findings.map((f) => f.ruleId).sort()).toEqual(['SA001', 'SA006']);
    expect(errors.report.findings.map((f) => [f.ruleId, f.severity])).toEqual([['SA001', 'error']]);
    expect(errors.run.code).toBe(1);
  });

  test('--severity error with only warnings exits 0: hidden findings do not fail the run', async () => {
    // GIVEN an Application whose only finding is a warning
    const root = tempDir();
    writeTree(root, { 'apps/no-retry.yaml': applicationYaml('no-retry', { syncPolicy: { retry: undefined } }), 'workloads/no-retry/cm.yaml': configMapYaml('a', 'no-retry') });

    // WHEN warnings are hidden
    const { run, report } = await auditJson(root, '--severity', 'error');

    // THEN nothing is reported and nothing fails
    expect(report.findings).toEqual([]);
    expect(run.code).toBe(0);
  });
});

describe('safe-argocd audit with .safe-argocd.yaml suppressions', () => {
  test('a reasoned suppression moves the finding to the suppressed list', async () => {
    // GIVEN the fixture with SA003 suppressed everywhere
    const root = fixtureWith({ '.safe-argocd.yaml': `suppressions:\n  - ruleId: SA003\n    reason: ${REASON}\n` });

    // WHEN it is audited
    const { run, report } = await auditJson(root);

    // THEN SA003 is suppressed with the config's reason, and the rest is still reported
    expect(keysOf(report.suppressed)).toEqual([SA003]);
    expect(report.suppressed.find((f) => f.ruleId === 'SA003')!.suppression).toEqual({ reason: REASON, source: 'config' });
    expect(keysOf(report.findings)).toEqual(ALL.filter((k) => k !== SA003));
    expect(run.code).toBe(1);
  });

  test('the text report lists the suppressed finding with its reason', async () => {
    // GIVEN the fixture with SA003 suppressed
    const root = fixtureWith({ '.safe-argocd.yaml': `suppressions:\n  - ruleId: SA003\n    reason: ${REASON}\n` });

    // WHEN it is audited as text
    const run = await runCli(['audit', root, '--repo-root', root]);

    // THEN a suppressed section names the place, rule, object and reason
    expect(run.stdout).toContain(`\nsuppressed (1):\n  apps/wildcard-ignore.yaml:17:7  SA003  Application argocd/wildcard-ignore: ${REASON} (config)\n`);
    expect(run.stdout).not.toMatch(/^ {2}\d+:\d+ {2}error +SA003/m);
  });

  test('the Markdown report lists it in a Suppressed section', async () => {
    // GIVEN the fixture with SA003 suppressed
    const root = fixtureWith({ '.safe-argocd.yaml': `suppressions:\n  - ruleId: SA003\n    reason: ${REASON}\n` });

    // WHEN it is audited as Markdown
    const run = await runCli(['audit', root, '--repo-root', root, '--format', 'markdown']);

    // THEN the details table has the row
    expect(run.stdout).toContain('<summary>Suppressed</summary>');
    expect(run.stdout).toContain(`| SA003 | Application argocd/wildcard-ignore | \`apps/wildcard-ignore.yaml:17\` | ${REASON} (config) |`);
  });

  test.each([
    { limit: 'paths: [apps/wildcard-ignore.yaml]', applies: true },
    { limit: 'paths: [apps/]', applies: true },
    { limit: 'paths: [apps]', applies: true },
    { limit: 'paths: [workloads/]', applies: false },
    { limit: 'paths: [app]', applies: false },
    { limit: 'applications: [wildcard-ignore]', applies: true },
    { limit: 'applications: [autoscaled]', applies: false },
    { limit: 'paths: [apps/], applications: [wildcard-ignore]', applies: true },
    { limit: 'paths: [apps/], applications: [autoscaled]', applies: false },
  ])('a suppression limited by { $limit } suppresses SA003: $applies', async ({ limit, applies }) => {
    // GIVEN the fixture with SA003 suppressed under a limit
    const root = fixtureWith({ '.safe-argocd.yaml': `suppressions:\n  - { ruleId: SA003, reason: ${REASON}, ${limit} }\n` });

    // WHEN it is audited
    const { report } = await auditJson(root);

    // THEN SA003 is suppressed exactly when the limit matches
    expect(keysOf(report.suppressed)).toEqual(applies ? [SA003] : []);
    expect(keysOf(report.findings).includes(SA003)).toBe(!applies);
  });

  test('a workload finding can be suppressed for one Application\'s folder', async () => {
    // GIVEN SA101 suppressed for the autoscaled Application's workloads
    const root = fixtureWith({
      '.safe-argocd.yaml': 'suppressions:\n  - ruleId: SA101\n    reason: replicas are removed in the next release\n    paths: [workloads/autoscaled/]\n    applications: [autoscaled]\n',
    });

    // WHEN it is audited
    const { report } = await auditJson(root);

    // THEN SA101 is suppressed but SA102 on the same Deployment is not
    expect(keysOf(report.suppressed)).toEqual([key('SA101', 'workloads/autoscaled/deployment.yaml', 'autoscaled')]);
    expect(keysOf(report.findings)).toContain(key('SA102', 'workloads/autoscaled/deployment.yaml', 'autoscaled'));
  });

  test('exit 0 when every finding is suppressed', async () => {
    // GIVEN an Application with SA001 and SA006, both suppressed by config
    const root = mixedRepo();
    writeTree(root, {
      '.safe-argocd.yaml': 'suppressions:\n  - ruleId: SA001\n    reason: selfHeal is off during the database move\n  - ruleId: SA006\n    reason: retries are done by the release pipeline\n',
    });

    // WHEN it is audited
    const { run, report } = await auditJson(root);

    // THEN nothing is left and the run passes
    expect(report.findings).toEqual([]);
    expect(report.suppressed.map((f) => f.ruleId).sort()).toEqual(['SA001', 'SA006']);
    expect(run.code).toBe(0);
  });

  test('--config reads a config file from elsewhere', async () => {
    // GIVEN a config outside the repository
    const configDir = tempDir();
    writeTree(configDir, { 'audit.yaml': `suppressions:\n  - ruleId: SA003\n    reason: ${REASON}\n` });

    // WHEN the fixture is audited with it
    const { report } = await auditJson(FAILURE_MODES, '--config', join(configDir, 'audit.yaml'));

    // THEN its suppression applies
    expect(keysOf(report.suppressed)).toEqual([SA003]);
  });

  test('argocdVersion in the config sets the target release', async () => {
    // GIVEN the fixture with argocdVersion "3.0" in its config
    const root = fixtureWith({ '.safe-argocd.yaml': 'argocdVersion: "3.0"\n' });

    // WHEN it is audited
    const { report } = await auditJson(root);

    // THEN SA004 appears for the old target
    expect(keysOf(report.findings)).toEqual([...ALL, key('SA004', 'apps/old-target.yaml', 'old-target')].sort());
  });

  test('argocdVersion: 3.0 written without quotes means Argo CD 3.0, not the number 3', async () => {
    // GIVEN the fixture with an unquoted argocdVersion: 3.0, the way versions are usually written in YAML
    const root = fixtureWith({ '.safe-argocd.yaml': 'argocdVersion: 3.0\n' });

    // WHEN it is audited
    const run = await runCli(['audit', root, '--repo-root', root, '--format', 'json']);

    // THEN it is read as release 3.0: no usage error, and SA004 appears
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(keysOf(JSON.parse(run.stdout).findings)).toContain(key('SA004', 'apps/old-target.yaml', 'old-target'));
  });

  test.each([
    ['an unknown rule', 'suppressions:\n  - ruleId: SA999\n    reason: this rule does not exist at all\n', 'suppressions[0].ruleId "SA999" is not a rule id'],
    ['a short reason', 'suppressions:\n  - ruleId: SA003\n    reason: ok\n', 'suppressions[0].reason must say, in at least 10 characters'],
    ['a missing reason', 'suppressions:\n  - ruleId: SA003\n', 'suppressions[0].reason must say'],
    ['an unknown key', 'suppresions:\n  - ruleId: SA003\n', 'unknown key "suppresions"'],
    ['paths that are not a list', `suppressions:\n  - ruleId: SA003\n    reason: ${REASON}\n    paths: apps/\n`, 'suppressions[0].paths must be a list of strings'],
    ['a bad failOn', 'failOn: fatal\n', 'failOn is "fatal"'],
    ['a bad argocdVersion', 'argocdVersion: "9.9"\n', '9.9'],
    ['invalid YAML', 'suppressions: [\n', 'not valid YAML'],
    ['a list instead of a mapping', '- SA003\n', 'expected a mapping'],
  ])('fails when the config has %s: exit 2 with a message naming the file', async (_name, config, message) => {
    // GIVEN the fixture with a wrong config
    const root = fixtureWith({ '.safe-argocd.yaml': config });

    // WHEN it is audited
    const run = await runCli(['audit', root, '--repo-root', root, '--format', 'json']);

    // THEN the run stops before auditing, with a message that names the config file and the problem
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('.safe-argocd.yaml');
    expect(run.stderr).toContain(message);
  });

  test('fails when --config names a missing file: exit 2', async () => {
    // GIVEN a config path that does not exist
    const missing = join(tempDir(), 'nope.yaml');

    // WHEN the fixture is audited with it
    const run = await runCli(['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES, '--config', missing]);

    // THEN it is a usage error
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('nope.yaml');
  });
});

describe('safe-argocd audit with annotation suppressions', () => {
  test('safe-argocd/suppress.SA006 on the Application is honoured and listed', async () => {
    // GIVEN an Application with SA001 and SA006, and a reasoned annotation for SA006
    const root = mixedRepo({ 'safe-argocd/suppress.SA006': 'retries are done by the release pipeline' });

    // WHEN it is audited as JSON and as text
    const { run, report } = await auditJson(root);
    const text = await runCli(['audit', root, '--repo-root', root]);

    // THEN SA006 is suppressed from the annotation, SA001 is not, and the text lists the suppression
    expect(report.findings.map((f) => f.ruleId)).toEqual(['SA001']);
    expect(report.suppressed.map((f) => [f.ruleId, f.suppression])).toEqual([
      ['SA006', { reason: 'retries are done by the release pipeline', source: 'annotation' }],
    ]);
    expect(text.stdout).toContain('suppressed (1):\n  apps/mixed.yaml:17:3  SA006  Application argocd/mixed: retries are done by the release pipeline (annotation)\n');
    expect(run.code).toBe(1);
  });

  test('an annotation on a workload suppresses the workload rule', async () => {
    // GIVEN the fixture whose migration Job carries a reasoned SA103 suppression
    const root = fixtureWith({
      'workloads/migration-in-wave/job.yaml': [
        'apiVersion: batch/v1', 'kind: Job', 'metadata:', '  name: migrate', '  namespace: migration-in-wave', '  annotations:',
        '    argocd.argoproj.io/sync-wave: "-1"', '    safe-argocd/suppress.SA103: the migration is idempotent and additive only',
        'spec:', '  template:', '    spec:', '      restartPolicy: Never', '      containers: [{name: migrate, image: "registry.acme.internal/web:1.0.0"}]', '',
      ].join('\n'),
    });

    // WHEN it is audited
    const { report } = await auditJson(root);

    // THEN SA103 is suppressed with the annotation's reason
    expect(keysOf(report.suppressed)).toEqual([key('SA103', 'workloads/migration-in-wave/job.yaml', 'migration-in-wave')]);
    expect(report.suppressed.find((f) => f.ruleId === 'SA103')!.suppression).toEqual({ reason: 'the migration is idempotent and additive only', source: 'annotation' });
  });

  test('fails when the suppression annotation has no reason: the finding stays', async () => {
    // GIVEN an Application with an empty SA006 suppression
    const root = mixedRepo({ 'safe-argocd/suppress.SA006': '  ' });

    // WHEN it is audited
    const { report } = await auditJson(root);

    // THEN SA006 is still reported
    expect(report.findings.map((f) => f.ruleId).sort()).toEqual(['SA001', 'SA006']);
    expect(report.suppressed).toEqual([]);
  });
});
