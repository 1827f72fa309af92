import { execFileSync } from 'child_process';
import { join } from 'path';
import { runCli } from './support';
import { nodeIo } from '../../src/cli/node-io';
import { applicationYaml, deploymentYaml, hpaYaml, JsonReport, kustomizeOverlayTree, writeTree } from '../audit/support';
import { tempDir } from '../support/app';

const REPO = 'https://git.acme.internal/platform/gitops.git';
const FORK = 'https://git.acme.internal/someone/gitops.git';

/** An overlay whose patch sets replicas under the base's HPA, and an Application of it, in a folder. */
function overlayRepo(): string {
  const root = tempDir();
  writeTree(root, kustomizeOverlayTree());
  return root;
}

const BUILD = `${deploymentYaml('web', 'web', 3)}---\n${hpaYaml('web', 'web')}`;

async function report(args: string[], stdin?: string): Promise<{ code: number; stderr: string; report?: JsonReport }> {
  const run = await runCli(['audit', ...args, '--format', 'json'], stdin === undefined ? {} : { readStdin: () => Buffer.from(stdin, 'utf8') });
  return { code: run.code, stderr: run.stderr, report: run.stdout ? JSON.parse(run.stdout) as JsonReport : undefined };
}

describe('safe-argocd audit --rendered', () => {
  test('kustomize build output from a file: the replicas an overlay adds under the HPA fail the run', async () => {
    // GIVEN the overlay, and its build in a file outside the repository
    const root = overlayRepo();
    const build = join(tempDir(), 'web.yaml');
    writeTree(join(build, '..'), { 'web.yaml': BUILD });

    // WHEN audited without and with --rendered
    const without = await report([root, '--repo-root', root]);
    const withBuild = await report([root, '--repo-root', root, '--rendered', `web=${build}`]);

    // THEN only the rendering shows the problem, located in the rendered file
    expect(without.code).toBe(0);
    expect(without.report!.notes).toEqual([expect.stringContaining('as a Kustomize source (workloads/web/overlays/prod/kustomization.yaml sets patches), '
      + 'not rendered here: give what Argo CD renders for it with --rendered web=<file>')]);
    expect(withBuild.code).toBe(1);
    expect(withBuild.report!.findings.map((f) => [f.ruleId, f.location.file, f.application])).toEqual([['SA102', build, 'web'], ['SA101', build, 'web']]);
  });

  test('- reads the rendering from standard input', async () => {
    const root = overlayRepo();
    const run = await report([root, '--repo-root', root, '--rendered', 'web=-'], BUILD);
    expect(run.code).toBe(1);
    expect(run.report!.findings.map((f) => [f.ruleId, f.location.file])).toEqual([['SA102', '<stdin>'], ['SA101', '<stdin>']]);
  });

  test.each([
    [['--rendered', 'web'], /--rendered is "web"; it must be <application>=<file>/],
    [['--rendered', '=x.yaml'], /must be <application>=<file>/],
    [['--rendered', 'web=/nonexistent/web.yaml'], /cannot read --rendered web=\/nonexistent\/web.yaml/],
    [['--rendered', 'web=-', '--rendered', 'api=-'], /only one --rendered can/],
  ])('%j is a usage error (exit 2) that says what to give', async (flags, message) => {
    const root = overlayRepo();
    const run = await runCli(['audit', root, '--repo-root', root, ...flags], { readStdin: () => Buffer.from(BUILD) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  test.each([
    ['an empty standard input', '-', ''],
    ['a file of comments only', 'file', '# kustomize build failed\n\n'],
  ])('fails when the rendering is %s (a render that failed in a pipe): exit 2, saying it holds no object', async (_name, kind, text) => {
    // GIVEN the overlay, and a rendering with nothing in it
    const root = overlayRepo();
    const file = join(tempDir(), 'web.yaml');
    writeTree(join(file, '..'), { 'web.yaml': text });

    // WHEN it is audited with it
    const run = await report([root, '--repo-root', root, '--rendered', `web=${kind === '-' ? '-' : file}`], text);

    // THEN the run fails, and the problem names the rendering and why
    expect(run.code).toBe(2);
    expect(run.report!.problems).toEqual([{
      file: kind === '-' ? '<stdin>' : file,
      rendered: true,
      message: expect.stringMatching(/^given with --rendered web, holds no Kubernetes object \(it is empty, or only comments or other documents\): check that the command/),
    }]);
  });

  test('a rendering no Application takes fails the run with exit 2, naming the file and the name', async () => {
    const root = overlayRepo();
    const build = join(tempDir(), 'wbe.yaml');
    writeTree(join(build, '..'), { 'wbe.yaml': BUILD });
    const run = await report([root, '--repo-root', root, '--rendered', `wbe=${build}`]);
    expect(run.code).toBe(2);
    expect(run.report!.problems).toEqual([{ file: build, rendered: true, message: expect.stringContaining('given with --rendered wbe, which names no Application') }]);
  });
});

describe('safe-argocd audit --rendered beside an unreadable file of the same path', () => {
  test('an unreadable tree file whose path equals the --rendered path does not make the rendering unusable', async () => {
    // GIVEN the overlay with an unreadable bad.yaml at the repository root, and a good rendering given as bad.yaml
    const root = overlayRepo();
    writeTree(root, { 'bad.yaml': 'key: [unclosed\n' });
    const readBytes = (p: string, limit: number) => (p === 'bad.yaml' ? Buffer.from(BUILD) : nodeIo().readBytes(p, limit));

    // WHEN audited without --fail-on-unreadable
    const run = await runCli(['audit', root, '--repo-root', root, '--rendered', 'web=bad.yaml', '--format', 'json'], { readBytes });
    const json = JSON.parse(run.stdout) as JsonReport;

    // THEN the tree file is reported unreadable, not as the rendering's own, and only the findings fail the run
    expect(json.problems).toEqual([{ file: 'bad.yaml', message: expect.stringMatching(/^YAML error/) }]);
    expect(json.findings.map((f) => [f.ruleId, f.location.file])).toEqual([['SA102', 'bad.yaml'], ['SA101', 'bad.yaml']]);
    expect(run.code).toBe(1);
  });
});

describe('safe-argocd audit --repo-url and the Git remote', () => {
  /** web of REPO and a fork of another repository, both naming workloads/web, which holds an autoscaled Deployment. */
  function forkRepo(): string {
    const root = tempDir();
    writeTree(root, {
      'apps/web.yaml': applicationYaml('web'),
      'apps/fork.yaml': applicationYaml('fork', { spec: { source: { repoURL: FORK, targetRevision: 'main', path: 'workloads/web' } } }),
      'workloads/web/deployment.yaml': deploymentYaml('web', 'web', 3),
      'workloads/web/hpa.yaml': hpaYaml('web', 'web'),
    });
    return root;
  }
  const applications = (r?: JsonReport) => r!.findings.filter((f) => f.ruleId === 'SA102').map((f) => f.application).sort();

  test('--repo-url decides which Applications the files belong to', async () => {
    const root = forkRepo();
    expect(applications((await report([root, '--repo-root', root, '--repo-url', REPO])).report)).toEqual(['web']);
    expect(applications((await report([root, '--repo-root', root, '--repo-url', FORK])).report)).toEqual(['fork']);
  });

  test('by default, the remote origin of the repository at the root', () => {
    // GIVEN the same files in a Git repository whose origin is the fork
    const root = forkRepo();
    execFileSync('git', ['init', '--quiet'], { cwd: root });
    execFileSync('git', ['remote', 'add', 'origin', 'git@git.acme.internal:someone/gitops.git'], { cwd: root });

    // WHEN audited from there / THEN the fork's Application owns the files
    return report([root, '--repo-root', root]).then((run) => expect(applications(run.report)).toEqual(['fork']));
  });

  test('a --repo-url that is no Git URL is a usage error', async () => {
    const root = forkRepo();
    const run = await runCli(['audit', root, '--repo-url', 'gitops']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--repo-url is "gitops"; it is not a Git repository URL/);
  });
});
