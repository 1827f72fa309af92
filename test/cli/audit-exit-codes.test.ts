import { cpSync } from 'fs';
import { join } from 'path';
import { main } from '../../src/cli/main';
import { applicationYaml, auditJson, cleanRepo, configMapYaml, FAILURE_MODES, runCli, writeTree } from '../audit/support';
import { tempDir } from '../support/app';

/** A repository whose only finding is a warning: Application `no-retry` has automated sync without retry (SA006). */
function warningsOnlyRepo(): string {
  const root = tempDir();
  writeTree(root, {
    'apps/no-retry.yaml': applicationYaml('no-retry', { syncPolicy: { retry: undefined } }),
    'workloads/no-retry/configmap.yaml': configMapYaml('settings', 'no-retry'),
  });
  return root;
}

describe('safe-argocd audit exit codes', () => {
  test('0 when the repository is clean', async () => {
    // GIVEN a compliant Application and its ConfigMap
    const root = cleanRepo();

    // WHEN it is audited
    const { run, report } = await auditJson(root);

    // THEN there is nothing to report and the exit code is 0
    expect(report.findings).toEqual([]);
    expect(report.stats.applications).toBe(1);
    expect(run.code).toBe(0);
  });

  test('1 when there are errors (the default --fail-on is warning)', async () => {
    // GIVEN the failure-modes fixture, whose findings are errors
    // WHEN it is audited with the defaults
    const run = await runCli(['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES]);

    // THEN the exit code says "findings"
    expect(run.code).toBe(1);
  });

  test('1 when there are only warnings, with the default --fail-on', async () => {
    // GIVEN a repository whose only finding is SA006 (a warning)
    const root = warningsOnlyRepo();

    // WHEN it is audited with the defaults
    const { run, report } = await auditJson(root);

    // THEN the warning is reported and fails the run
    expect(report.findings.map((f) => [f.ruleId, f.severity])).toEqual([['SA006', 'warning']]);
    expect(run.code).toBe(1);
  });

  test.each([
    ['error', 0],
    ['warning', 1],
    ['note', 1],
  ])('--fail-on %s with only warnings exits %i', async (failOn, code) => {
    // GIVEN a repository whose only finding is a warning
    const root = warningsOnlyRepo();

    // WHEN it is audited with this threshold
    const { run, report } = await auditJson(root, '--fail-on', String(failOn));

    // THEN the warning is still reported, and only the exit code depends on the threshold
    expect(report.findings).toHaveLength(1);
    expect(run.code).toBe(code);
  });

  test('failOn in .safe-argocd.yaml sets the threshold, and --fail-on overrides it', async () => {
    // GIVEN a warnings-only repository whose config says failOn: error
    const root = warningsOnlyRepo();
    writeTree(root, { '.safe-argocd.yaml': 'failOn: error\n' });

    // WHEN it is audited without and with --fail-on
    const fromConfig = await auditJson(root);
    const fromFlag = await auditJson(root, '--fail-on', 'warning');

    // THEN the config lets warnings pass, and the flag wins over it
    expect(fromConfig.run.code).toBe(0);
    expect(fromFlag.run.code).toBe(1);
  });

  test.each([
    ['an unknown option', ['--bogus'], /--bogus is not an option of safe-argocd audit/],
    ['a bad --format', ['--format', 'xml'], /--format is "xml"; it must be text, json, sarif or markdown/],
    ['an unknown --rule id', ['--rule', 'SA999'], /unknown rule id\(s\) SA999/],
    ['an unknown id in a --rule list', ['--rule', 'SA001,SA0001'], /unknown rule id\(s\) SA0001/],
    ['a bad --argocd-version', ['--argocd-version', '9.9'], /\b9\.9\b/],
    ['a non-numeric --max-file-size', ['--max-file-size', 'big'], /--max-file-size is "big"; it must be a size in MB/],
    ['a zero --max-file-size', ['--max-file-size', '0'], /--max-file-size is "0"/],
    ['a bad --fail-on', ['--fail-on', 'fatal'], /--fail-on is "fatal"; it must be error, warning or note/],
    ['a bad --severity', ['--severity', 'loud'], /--severity is "loud"; it must be error, warning or note/],
    ['a missing option value', ['--format'], /argument missing|requires|expects/i],
  ])('fails when the command line has %s: exit 2 with a message and the usage', async (_name, args, message) => {
    // GIVEN the failure-modes fixture, which has findings
    // WHEN the command line is wrong
    const run = await runCli(['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES, ...(args as string[])]);

    // THEN the usage error wins over the findings: exit 2, nothing on stdout, the reason on stderr
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message as RegExp);
    expect(run.stderr).toContain('usage:');
  });

  test('an unreadable file is reported but does not decide the exit code by default: the findings do', async () => {
    // GIVEN the failure-modes fixture plus a file that is not YAML
    const root = tempDir();
    cpSync(FAILURE_MODES, root, { recursive: true });
    writeTree(root, { 'workloads/autoscaled/broken.yaml': 'spec: [unclosed\n' });

    // WHEN it is audited with the defaults
    const { run, report } = await auditJson(root);

    // THEN the problem is reported, the other files were audited, and the exit code is that of the findings
    expect(report.problems.map((p) => p.file)).toEqual(['workloads/autoscaled/broken.yaml']);
    expect(report.findings).toHaveLength(6);
    expect(run.code).toBe(1);
  });

  test('a stray data file in a clean repository is reported and the run passes', async () => {
    // GIVEN a clean repository plus a broken JSON data file
    const root = cleanRepo();
    writeTree(root, { 'apps/broken.json': '{"apiVersion": "v1",' });

    // WHEN it is audited as text
    const run = await runCli(['audit', root, '--repo-root', root]);

    // THEN it is named, with how to make it fail the run or leave it out, and the exit code is 0
    expect(run.stdout).toMatch(/unreadable files \(1\):\n {2}apps\/broken\.json: /);
    expect(run.code).toBe(0);
  });

  test('fails when a file is unreadable with --fail-on-unreadable (or failOnUnreadable: true): exit 2 even with --fail-on error', async () => {
    // GIVEN a clean repository plus a broken file, and the same with the config setting
    const root = cleanRepo();
    writeTree(root, { 'apps/broken.json': '{"apiVersion": "v1",' });
    const configured = cleanRepo();
    writeTree(configured, { 'apps/broken.json': '{"apiVersion": "v1",', '.safe-argocd.yaml': 'failOnUnreadable: true\n' });

    // WHEN they are audited with the most lenient threshold
    const { run, report } = await auditJson(root, '--fail-on', 'error', '--fail-on-unreadable');
    const fromConfig = await auditJson(configured, '--fail-on', 'error');

    // THEN the unreadable file fails the run
    expect(report.findings).toEqual([]);
    expect(report.problems.map((p) => p.file)).toEqual(['apps/broken.json']);
    expect(run.code).toBe(2);
    expect(fromConfig.run.code).toBe(2);
  });

  test('fails when a given path does not exist: exit 2 naming it', async () => {
    // GIVEN a clean repository and a path that is not there
    const root = cleanRepo();
    const missing = join(root, 'no-such-folder');

    // WHEN both are audited
    const run = await runCli(['audit', root, missing, '--repo-root', root, '--format', 'json']);

    // THEN the missing path is a problem, and fails the run without --fail-on-unreadable: a typo must not pass
    expect(JSON.parse(run.stdout).problems).toEqual([{ file: missing, message: 'does not exist or cannot be resolved' }]);
    expect(run.code).toBe(2);
  });

  test('fails when --output cannot be written: exit 2', async () => {
    // GIVEN a clean repository
    const root = cleanRepo();

    // WHEN the report is sent to a file the io refuses to write
    let stderr = '';
    const code = await main(['audit', root, '--repo-root', root, '--output', join(root, 'out.txt')], {
      stdout: () => undefined,
      stderr: (t) => { stderr += t; },
      readBytes: () => { throw new Error('no file expected'); },
      writeFile: () => { throw new Error('EACCES: permission denied'); },
      exists: () => false,
      mkdir: () => undefined,
      color: false,
    });

    // THEN the CLI says so and exits 2
    expect(code).toBe(2);
    expect(stderr).toContain('cannot write');
    expect(stderr).toContain('EACCES');
  });
});
