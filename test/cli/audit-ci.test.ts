import { readFileSync, symlinkSync, writeFileSync } from 'fs';
import { join } from 'path';
import { applicationYaml, auditJson, cleanRepo, configMapYaml, runCli, writeGoodRepo, writeTree } from '../audit/support';
import { tempDir } from '../support/app';

/** The good repository (SA001 on Application half) and a broken JSON data file under dashboards/. */
function repoWithData(): string {
  const root = tempDir();
  writeGoodRepo(root);
  writeTree(root, { 'dashboards/cpu.json': '{"panels": [', 'dashboards/deep/mem.json': '{"panels": [' });
  return root;
}

describe('safe-argocd audit --exclude', () => {
  test('excluded files are left out unread: no problem, counted, the rest audited', async () => {
    // GIVEN a repository with broken data files in dashboards/
    const root = repoWithData();

    // WHEN it is audited without and with --exclude
    const without = await auditJson(root);
    const { report } = await auditJson(root, '--exclude', 'dashboards/**');

    // THEN without, both are problems; with, neither is, both are counted, and SA001 is still found
    expect(without.report.problems.map((p) => p.file)).toEqual(['dashboards/cpu.json', 'dashboards/deep/mem.json']);
    expect(report.problems).toEqual([]);
    expect((report.stats as unknown as { excludedFiles: number }).excludedFiles).toBe(2);
    expect(report.findings.map((f) => f.ruleId)).toEqual(['SA001']);
  });

  test('--exclude is repeatable and adds to exclude in .safe-argocd.yaml; a file over the size limit there is not reported', async () => {
    // GIVEN the data files, one excluded by the config and one by the flag, and a large file under dashboards/deep
    const root = repoWithData();
    writeTree(root, { '.safe-argocd.yaml': 'exclude: [dashboards/cpu.json]\n', 'dashboards/deep/big.json': 'x'.repeat(2 * 1048576) });

    // WHEN it is audited with a 1 MB limit
    const { run, report } = await auditJson(root, '--exclude', 'dashboards/deep', '--max-file-size', '1');

    // THEN nothing is unreadable and the run fails on SA001 only
    expect(report.problems).toEqual([]);
    expect(run.code).toBe(1);
  });

  test('fails when --exclude is not a glob: exit 2 with the usage', async () => {
    // GIVEN a clean repository / WHEN the pattern is a reversed class
    const run = await runCli(['audit', cleanRepo(), '--exclude', '[z-a]']);

    // THEN it is a usage error naming the pattern
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--exclude "[z-a]" is not a valid glob');
    expect(run.stderr).toContain('usage: safe-argocd audit');
  });
});

describe('safe-argocd audit --baseline and --write-baseline', () => {
  test('--write-baseline writes every finding and the run passes; with --baseline only new findings fail, after lines moved', async () => {
    // GIVEN the good repository (SA001)
    const root = tempDir();
    writeGoodRepo(root);
    const file = join(tempDir(), 'baseline.json');

    // WHEN a baseline is written
    const written = await runCli(['audit', root, '--repo-root', root, '--write-baseline', file]);

    // THEN it holds SA001, and the run passes
    expect(written.code).toBe(0);
    const text = written.written.get(file)!;
    expect(JSON.parse(text).findings.map((f: { ruleId: string }) => f.ruleId)).toEqual(['SA001']);
    writeFileSync(file, text);

    // WHEN lines move above the finding, and a new Application with a finding is added
    writeTree(root, {
      'apps/half.yaml': `# moved\n# down\n${readFileSync(join(root, 'apps/half.yaml'), 'utf8')}`,
      'apps/new.yaml': applicationYaml('new', { syncPolicy: { automated: { prune: false, selfHeal: true } } }),
      'workloads/new/configmap.yaml': configMapYaml('settings', 'new'),
    });
    const { run, report } = await auditJson(root, '--baseline', file);
    const raw = report as unknown as { baselined: { ruleId: string; location: { file: string } }[]; staleBaselineEntries: number };

    // THEN the old finding is baselined, only the new one is a finding, and it fails the run
    expect(raw.baselined.map((f) => `${f.ruleId} ${f.location.file}`)).toEqual(['SA001 apps/half.yaml']);
    expect(report.findings.map((f) => `${f.ruleId} ${f.location.file}`)).toEqual(['SA001 apps/new.yaml']);
    expect(raw.staleBaselineEntries).toBe(0);
    expect(run.code).toBe(1);
  });

  test('with only baselined findings the run passes, and text says how many in one line', async () => {
    // GIVEN a baseline of the good repository
    const root = tempDir();
    writeGoodRepo(root);
    const file = join(tempDir(), 'baseline.json');
    writeFileSync(file, (await runCli(['audit', root, '--repo-root', root, '--write-baseline', file])).written.get(file)!);

    // WHEN it is audited as text with the baseline, and with --verbose
    const run = await runCli(['audit', root, '--repo-root', root, '--baseline', file]);
    const verbose = await runCli(['audit', root, '--repo-root', root, '--baseline', file, '--verbose']);

    // THEN the run passes; the known finding is one line, listed with --verbose
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('in the baseline: 1 known finding(s), not shown and not failing the run; --verbose lists them');
    expect(run.stdout).not.toContain('SA001 half-enforced-sync-policy');
    expect(verbose.stdout).toMatch(/in the baseline \(1\):\n {2}apps\/half\.yaml:\d+:\d+ {2}SA001 {2}Application argocd\/half \/spec\/syncPolicy\/automated\/selfHeal/);
  });

  test.each([
    ['--rule SA014', ['--rule', 'SA014']],
    ['--severity error', ['--severity', 'error']],
    ['a sub-path', ['workloads']],
  ])('a run narrowed by %s counts no entry outside it as stale, and rewriting the baseline keeps them', async (_name, narrowing) => {
    // GIVEN the good repository (SA001, an error) with an Application without retry (SA006, a warning), and its full baseline
    const root = tempDir();
    writeGoodRepo(root);
    writeTree(root, { 'apps/plain.yaml': applicationYaml('plain', { syncPolicy: { retry: undefined } }), 'workloads/plain/configmap.yaml': configMapYaml('settings', 'plain') });
    const file = join(tempDir(), 'baseline.json');
    const full = (await runCli(['audit', root, '--repo-root', root, '--write-baseline', file])).written.get(file)!;
    expect(JSON.parse(full).findings.map((f: { ruleId: string }) => f.ruleId)).toEqual(['SA001', 'SA006']);
    writeFileSync(file, full);
    const args = narrowing[0].startsWith('-') ? [root, '--repo-root', root, ...narrowing] : [join(root, narrowing[0]), '--repo-root', root];

    // WHEN a narrowed run reads it, and another rewrites it
    const json = await runCli(['audit', ...args, '--baseline', file, '--format', 'json']);
    const read = await runCli(['audit', ...args, '--baseline', file]);
    const rewritten = await runCli(['audit', ...args, '--baseline', file, '--write-baseline', file]);

    // THEN no entry is stale, the text says nothing about stale entries, and the rewritten baseline still holds both
    expect(JSON.parse(json.stdout).staleBaselineEntries).toBe(0);
    expect(read.stdout).not.toContain('no longer found');
    expect(rewritten.code).toBe(0);
    expect(rewritten.written.get(file)).toBe(full);
  });

  test.each([
    ['the same path', (file: string) => file],
    ['a symbolic link to it', (file: string) => { const link = join(tempDir(), 'link.json'); writeFileSync(file, '{}'); symlinkSync(file, link); return link; }],
  ])('fails when --write-baseline and --output name one file (%s): exit 2 naming both, nothing written', async (_name, other) => {
    // GIVEN the good repository, and one file for both
    const root = tempDir();
    writeGoodRepo(root);
    const file = join(tempDir(), 'same.json');
    const output = other(file);

    // WHEN the baseline and the report are written to it
    const run = await runCli(['audit', root, '--repo-root', root, '--write-baseline', file, '--output', output]);

    // THEN the run stops before writing, naming both flags
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--write-baseline ${file} and --output ${output} name the same file: the report would overwrite the baseline`);
    expect(run.written.size).toBe(0);
  });

  test('fails when --write-baseline is -: standard output carries the report', async () => {
    // GIVEN / WHEN the baseline is sent to standard output / THEN a usage error, nothing written
    const run = await runCli(['audit', cleanRepo(), '--write-baseline', '-']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--write-baseline is "-"');
    expect(run.written.size).toBe(0);
  });

  test('--output - prints the report on standard output, as --rendered app=- reads standard input', async () => {
    // GIVEN the good repository / WHEN the report goes to -
    const root = tempDir();
    writeGoodRepo(root);
    const run = await runCli(['audit', root, '--repo-root', root, '--output', '-', '--format', 'json']);

    // THEN it is on stdout, and no file named - is written
    expect(run.written.size).toBe(0);
    expect(JSON.parse(run.stdout).findings.map((f: { ruleId: string }) => f.ruleId)).toEqual(['SA001']);
    expect(run.code).toBe(1);
  });

  test('a full run still counts a fixed finding\'s entry as stale', async () => {
    // GIVEN the good repository's baseline, then its finding fixed (the file removed)
    const root = tempDir();
    writeGoodRepo(root);
    const file = join(tempDir(), 'baseline.json');
    writeFileSync(file, (await runCli(['audit', root, '--repo-root', root, '--write-baseline', file])).written.get(file)!);
    writeTree(root, { 'apps/half.yaml': '' });

    // WHEN the whole tree is audited with it / THEN the entry is stale
    const run = await runCli(['audit', root, '--repo-root', root, '--baseline', file]);
    expect(run.stdout).toContain('baseline: 1 entry no longer found (fixed, or renamed)');
  });

  test.each([
    ['a file that does not exist', undefined, /cannot use --baseline .*missing\.json/],
    ['a file that is not a baseline', '{"findings": 3}', /not a safe-argocd baseline/],
  ])('fails when --baseline is %s: exit 2', async (_name, content, message) => {
    // GIVEN a clean repository and a bad baseline
    const dir = tempDir();
    const file = join(dir, content === undefined ? 'missing.json' : 'bad.json');
    if (content !== undefined) {
      writeFileSync(file, content);
    }

    // WHEN it is audited with it / THEN the run stops with the reason
    const run = await runCli(['audit', cleanRepo(), '--baseline', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain('[SAFE-103]');
  });
});

describe('safe-argocd audit text output is quiet about the rest', () => {
  test('what was not audited is one line with a count; --verbose lists it', async () => {
    // GIVEN two Applications whose source paths hold no manifests (only jsonnet)
    const root = tempDir();
    writeTree(root, { 'apps/a.yaml': applicationYaml('a'), 'apps/b.yaml': applicationYaml('b'), 'workloads/a/main.jsonnet': '{}', 'workloads/b/main.jsonnet': '{}' });

    // WHEN it is audited as text, with and without --verbose
    const quiet = await runCli(['audit', root, '--repo-root', root]);
    const verbose = await runCli(['audit', root, '--repo-root', root, '--verbose']);

    // THEN the default says how many in one line; --verbose names each
    expect(quiet.stdout).toContain('not audited: 2 Application(s) or ApplicationSet(s) whose manifests are not in the audited files');
    expect(quiet.stdout).not.toContain('holds no manifests');
    expect(verbose.stdout).toContain('not audited (2):\n  Application a (apps/a.yaml): source path workloads/a holds no manifests in the audited files\n');
    expect(quiet.code).toBe(0);
  });
});
