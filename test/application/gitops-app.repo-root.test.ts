import { mkdirSync, readdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { parseAllDocuments } from 'yaml';
import { GitOpsApp, GitOpsAppProps, SafeApplication } from '../../src';
import { addConfigMap, appProps, readTree, tempDir, yamlOf } from '../support/app';

/**
 * Where the tree lies in the repository when the app does not say: the cdk8s CLI runs the app from its own folder,
 * which may be deep inside a platform repository, with CDK8S_OUTDIR relative (`cdk8s synth`), absolute
 * (`cdk8s synth -o /abs`) or a temporary folder outside the repository (`cdk8s synth --stdout`).
 */
describe('GitOpsApp: the repository root is the Git work tree of the working directory', () => {
  const startedIn = process.cwd();
  let repo: string;
  let appDir: string;

  beforeEach(() => {
    // GIVEN a repository with the cdk8s app two folders down
    repo = join(tempDir(), 'platform');
    appDir = join(repo, 'services', 'shop');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(appDir, { recursive: true });
    process.chdir(appDir);
  });

  afterEach(() => {
    process.chdir(startedIn);
  });

  function sourcePathWith(props: GitOpsAppProps): string {
    const gitops = new GitOpsApp(props);
    addConfigMap(new SafeApplication(gitops, 'checkout', appProps()), 'settings');
    const application = gitops.renderFiles().find((f) => f.path === 'applications/payments/Application.checkout.k8s.yaml')!;
    return yamlOf(application.content).spec.source.path;
  }

  test('a relative outdir is read from the working directory, then from the work tree root', () => {
    expect(sourcePathWith({ outdir: 'dist' })).toBe('services/shop/dist/workloads/checkout');
  });

  test('an absolute outdir inside the work tree (cdk8s synth -o /abs/dir) is its path from the root', () => {
    expect(sourcePathWith({ outdir: join(repo, 'deploy', 'rendered') })).toBe('deploy/rendered/workloads/checkout');
  });

  test('a .git file (a linked work tree or a submodule) marks the root too', () => {
    // GIVEN the app's folder is itself a linked work tree
    writeFileSync(join(appDir, '.git'), 'gitdir: elsewhere\n');
    expect(sourcePathWith({ outdir: 'dist' })).toBe('dist/workloads/checkout');
  });

  test('an outdir outside the work tree (cdk8s synth --stdout) is taken to be where cdk8s.yaml writes', () => {
    // GIVEN cdk8s.yaml names the output folder
    writeFileSync(join(appDir, 'cdk8s.yaml'), 'language: typescript\napp: npx ts-node main.ts\noutput: rendered\n');
    expect(sourcePathWith({ outdir: join(tempDir(), 'cdk8s-stdout') })).toBe('services/shop/rendered/workloads/checkout');
  });

  test('an outdir outside the work tree without an output in cdk8s.yaml is taken to be dist/, the cdk8s default', () => {
    writeFileSync(join(appDir, 'cdk8s.yaml'), 'language: typescript\napp: npx ts-node main.ts\n');
    expect(sourcePathWith({ outdir: join(tempDir(), 'cdk8s-stdout') })).toBe('services/shop/dist/workloads/checkout');
  });

  test('a cdk8s.yaml output outside the work tree is not used: dist/ is', () => {
    writeFileSync(join(appDir, 'cdk8s.yaml'), `output: ${join(tempDir(), 'away')}\n`);
    expect(sourcePathWith({ outdir: join(tempDir(), 'cdk8s-stdout') })).toBe('services/shop/dist/workloads/checkout');
  });

  test('outdirFromRepoRoot, when given, wins', () => {
    expect(sourcePathWith({ outdir: join(tempDir(), 'x'), outdirFromRepoRoot: 'gitops' })).toBe('gitops/workloads/checkout');
  });
});

describe('GitOpsApp: output the cdk8s CLI can print and a failure that says what is true', () => {
  test('every manifest file starts a YAML document, so the files printed one after another are one stream', () => {
    // GIVEN an app with two apps and workloads
    const gitops = new GitOpsApp({ outdir: 'dist', outdirFromRepoRoot: 'dist' });
    addConfigMap(new SafeApplication(gitops, 'checkout', appProps()), 'settings');
    addConfigMap(new SafeApplication(gitops, 'ledger', appProps({ name: 'ledger', destinationNamespace: 'ledger' })), 'settings');

    // WHEN the YAML files are concatenated, as `cdk8s synth --stdout` prints them
    const yamlFiles = gitops.renderFiles().filter((f) => f.path.endsWith('.yaml'));
    const stream = yamlFiles.map((f) => f.content).join('');

    // THEN the stream parses without errors into one document per file, each its file's manifest
    const documents = parseAllDocuments(stream);
    expect(documents.flatMap((d) => d.errors)).toEqual([]);
    expect(documents.map((d) => d.toJS())).toEqual(yamlFiles.map((f) => yamlOf(f.content)));
    expect(documents.length).toBe(4);
  });

  test('fails when a synth into a folder that does not exist is invalid, without saying the folder is unchanged', () => {
    // GIVEN an invalid app whose output folder is missing (the cdk8s CLI removed it)
    const dir = tempDir();
    const gitops = new GitOpsApp({ outdir: join(dir, 'dist'), outdirFromRepoRoot: 'dist' });
    new SafeApplication(gitops, 'checkout', appProps());
    new SafeApplication(gitops, 'twin', appProps());

    // WHEN synthesized THEN the message says nothing was written there, and nothing is
    expect(() => gitops.synth()).toThrow(`problem(s); nothing was written to ${JSON.stringify(join(dir, 'dist'))}:\n`);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('fails when a synth over an earlier tree is invalid, saying the tree is unchanged', () => {
    // GIVEN an earlier good tree
    const dir = tempDir();
    const good = new GitOpsApp({ outdir: join(dir, 'dist'), outdirFromRepoRoot: 'dist' });
    addConfigMap(new SafeApplication(good, 'checkout', appProps()), 'settings');
    good.synth();
    const before = readTree(join(dir, 'dist'));
    const bad = new GitOpsApp({ outdir: join(dir, 'dist'), outdirFromRepoRoot: 'dist' });
    new SafeApplication(bad, 'checkout', appProps());
    new SafeApplication(bad, 'twin', appProps());

    // WHEN synthesized THEN it says so, and it is so
    expect(() => bad.synth()).toThrow(`problem(s); nothing was written and ${JSON.stringify(join(dir, 'dist'))} is unchanged:\n`);
    expect(readTree(join(dir, 'dist'))).toEqual(before);
  });

  test('fails with a trace that starts at the caller\'s synth() line, not inside the library', () => {
    // GIVEN an invalid app
    const gitops = new GitOpsApp({ outdir: join(tempDir(), 'dist'), outdirFromRepoRoot: 'dist' });
    new SafeApplication(gitops, 'checkout', appProps());
    new SafeApplication(gitops, 'twin', appProps());

    // WHEN synthesized
    let error: Error | undefined;
    try {
      gitops.synth();
    } catch (e) {
      error = e as Error;
    }

    // THEN the first frame is this file, where synth() was called
    const frames = (error?.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
    expect(error?.message).toMatch(/^\[SAFE-100\] /);
    expect(frames[0]).toContain('gitops-app.repo-root.test.ts');
  });
});
