import { ApiObject, App, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { AppOfApps, ArgoProject, GitOpsApp, GitOpsAppProps, IgnoreRule, IgnoreTarget, SafeApplication, SafeProject } from '../../src';
import { GITOPS_PART, GitOpsLayout, PartFile } from '../../src/private/gitops-part';
import * as jq from '../../src/private/jq';
import { addConfigMap, appProps, newApp, yamlOf } from '../support/app';

const REPO = 'https://git.acme.internal/platform/gitops.git';

/** A GitOps part that writes, as text, what the GitOpsApp's layout answers: the contract every part builds paths on. */
class LayoutProbe extends Construct {
  public constructor(scope: Construct, id: string) {
    super(scope, id);
    Object.defineProperty(this, GITOPS_PART, { value: true });
  }

  public _renderGitOpsFiles(layout: GitOpsLayout): PartFile[] {
    return [{
      path: 'probe/layout.json',
      text: JSON.stringify({
        extension: layout.extension,
        applicationsFolder: layout.applicationsFolder('payments'),
        rootsFolder: layout.rootsFolder,
        workloadsFolder: layout.workloadsFolder('checkout'),
        runbooksFolder: layout.runbooksFolder,
      }),
    }];
  }
}

function layoutOf(props: GitOpsAppProps): unknown {
  const gitops = new GitOpsApp(props);
  new LayoutProbe(gitops, 'probe');
  const files = gitops.renderFiles();
  expect(files.map((f) => f.path)).toEqual(['probe/layout.json']);
  return JSON.parse(files[0].content);
}

function payments(scope: Construct, id: string): SafeProject {
  return new SafeProject(scope, id, { name: 'payments', sourceRepos: [REPO], destinations: [{ namespace: 'payments' }] });
}

describe('GitOpsApp paths relative to the repository root', () => {
  test.each([
    ['outdir itself when outdirFromRepoRoot is not given', { outdir: 'dist' }, 'dist/applications/payments'],
    ['outdirFromRepoRoot, without its trailing slash', { outdir: 'out', outdirFromRepoRoot: 'deploy/rendered/' }, 'deploy/rendered/applications/payments'],
    ['the folder alone when outdir is the repository root', { outdir: 'out', outdirFromRepoRoot: '.' }, 'applications/payments'],
  ])('repoPathOf starts with %s', (_label, props, expected) => {
    // GIVEN a GitOpsApp WHEN a folder of its tree is asked for as Argo CD's source.path
    // THEN it is prefixed with where outdir lies in the repository
    expect(new GitOpsApp(props).repoPathOf('applications/payments')).toBe(expected);
  });

  test('an app-of-apps root points at its project\'s folder under outdir', () => {
    // GIVEN an app and a root for its project, with outdir "dist" at the repository's top
    const { gitops } = newApp();
    const root = new AppOfApps(gitops, 'root', { name: 'payments-root', project: ArgoProject.fromName('platform'), childProject: ArgoProject.fromName('payments'), repoUrl: REPO });
    // WHEN rendered
    const files = gitops.renderFiles();
    // THEN the root's source.path is the folder the app's Application is written to, seen from the repository root
    expect(root.sourcePath).toBe('dist/applications/payments');
    const written = yamlOf(files.find((f) => f.path === 'roots/Application.payments-root.k8s.yaml')!.content);
    expect(written.spec.source.path).toBe('dist/applications/payments');
    expect(files.map((f) => f.path)).toContain('applications/payments/Application.checkout.k8s.yaml');
  });

  test.each([
    ['outdir "dist"', { outdir: 'dist' }],
    ['outdirFromRepoRoot "deploy/rendered"', { outdir: 'out', outdirFromRepoRoot: 'deploy/rendered' }],
    ['outdirFromRepoRoot "."', { outdir: 'out', outdirFromRepoRoot: '.' }],
  ])('the layout handed to every GitOps part names folders relative to outdir, with %s', (_label, props) => {
    // GIVEN a part that records the layout WHEN the tree is rendered THEN every folder is as documented
    expect(layoutOf(props)).toEqual({
      extension: '.k8s.yaml',
      applicationsFolder: 'applications/payments',
      rootsFolder: 'roots',
      workloadsFolder: 'workloads/checkout',
      runbooksFolder: 'runbooks',
    });
  });

  test('the layout follows custom folders and extension', () => {
    expect(layoutOf({ outdir: 'out', outdirFromRepoRoot: 'gitops', applicationsDir: 'apps', workloadsDir: 'services', outputFileExtension: '.yaml' })).toEqual({
      extension: '.yaml',
      applicationsFolder: 'apps/payments',
      rootsFolder: 'roots',
      workloadsFolder: 'services/checkout',
      runbooksFolder: 'runbooks',
    });
  });
});

describe('GitOpsApp refusals at synth, in full', () => {
  test('fails when two SafeApplications share a name, with the whole message', () => {
    // GIVEN a second app reusing the name "checkout"
    const { gitops } = newApp();
    const twin = new SafeApplication(gitops, 'twin', appProps());
    addConfigMap(twin, 'other');
    // WHEN rendered THEN the synth lists the one problem and writes nothing
    expect(() => gitops.renderFiles()).toThrow('[SAFE-100] synth found 1 problem(s); nothing was written:\n'
      + '  - twin: [SAFE-011] the Application name "checkout" is also used by checkout; both would be written to the same files '
      + 'and Argo CD would see one app. Fix: give each SafeApplication its own name.');
  });

  test('fails when an object is outside every SafeApplication, with the whole message', () => {
    // GIVEN a ConfigMap in a plain chart
    const { gitops } = newApp();
    const loose = new Chart(gitops, 'loose');
    new ApiObject(loose, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'orphan' } });
    // WHEN rendered THEN the synth lists the one problem
    expect(() => gitops.renderFiles()).toThrow('[SAFE-100] synth found 1 problem(s); nothing was written:\n'
      + '  - loose/cm: [SAFE-015] ConfigMap orphan is not inside a SafeApplication, so no Application would deploy it and it would not be written. '
      + 'Fix: define it inside the SafeApplication that should deploy it.');
  });

  test('a SafeProject is written next to its Applications', () => {
    // GIVEN one SafeProject for the app's project
    const { gitops } = newApp();
    payments(gitops, 'project');
    // WHEN rendered THEN its AppProject is in the project's folder
    expect(gitops.renderFiles().map((f) => f.path)).toEqual([
      'applications/payments/AppProject.payments.k8s.yaml',
      'applications/payments/Application.checkout.k8s.yaml',
      'runbooks/checkout.md',
      'workloads/checkout/ConfigMap.settings.k8s.yaml',
    ]);
  });

  test('fails when two parts would write the same file, listing each later writer against the first', () => {
    // GIVEN three SafeProjects with the same name: all would write applications/payments/AppProject.payments.k8s.yaml
    const { gitops } = newApp();
    payments(gitops, 'p1');
    payments(gitops, 'p2');
    payments(gitops, 'p3');
    // WHEN rendered THEN both clashes are listed, one a line, and nothing is returned
    const clash = (who: string) => `  - ${who}: [SAFE-011] applications/payments/AppProject.payments.k8s.yaml is also written by p1. `
      + 'Fix: give each SafeApplication and SafeProject its own name.';
    expect(() => gitops.renderFiles()).toThrow('[SAFE-100] synth found 2 problem(s); nothing was written:\n'
      + `${clash('p2')}\n${clash('p3')}`);
  });

  test('fails when a folder prop is not a string, naming it', () => {
    expect(() => new GitOpsApp({ outdir: 'dist', workloadsDir: 7 as never }))
      .toThrow('[SAFE-017] <root>: workloadsDir is 7; it must be a relative folder without ".." and not ".". Fix: keep the default');
  });
});

describe('GitOpsApp folder props', () => {
  const notAFolder = (prop: string, shown: string) => `[SAFE-017] <root>: ${prop} is ${shown}; it must be a relative folder without ".." and not ".". Fix: keep the default`;

  test.each([
    ['"."', '.'],
    ['empty', ''],
    ['outside outdir', '../apps'],
  ])('fails when applicationsDir is %s, naming applicationsDir', (_label, applicationsDir) => {
    expect(() => new GitOpsApp({ outdir: 'dist', applicationsDir })).toThrow(notAFolder('applicationsDir', JSON.stringify(applicationsDir)));
  });

  test('fails when outdirFromRepoRoot is absolute, with the fix for that prop', () => {
    expect(() => new GitOpsApp({ outdir: 'dist', outdirFromRepoRoot: '/abs' })).toThrow(
      '[SAFE-017] <root>: outdirFromRepoRoot is "/abs"; it must be a relative folder without "..". Fix: give the path of outdir from the repository root, e.g. \'deploy/rendered\'',
    );
  });

  test.each(['/', '//'])('fails when applicationsDir is the absolute root %p, naming applicationsDir', (applicationsDir) => {
    expect(() => new GitOpsApp({ outdir: 'dist', applicationsDir })).toThrow(notAFolder('applicationsDir', JSON.stringify(applicationsDir)));
  });

  test.each(['/', '//'])('fails when outdirFromRepoRoot is the absolute root %p, which is not the repository root', (outdirFromRepoRoot) => {
    expect(() => new GitOpsApp({ outdir: 'dist', outdirFromRepoRoot })).toThrow(
      `[SAFE-017] <root>: outdirFromRepoRoot is ${JSON.stringify(outdirFromRepoRoot)}; it must be a relative folder without "..". `
      + 'Fix: give the path of outdir from the repository root, e.g. \'deploy/rendered\'',
    );
  });

  test('fails when outdirFromRepoRoot is not a string, even though the root is allowed there', () => {
    expect(() => new GitOpsApp({ outdir: 'dist', outdirFromRepoRoot: 7 as never })).toThrow(
      '[SAFE-017] <root>: outdirFromRepoRoot is 7; it must be a relative folder without "..". Fix: give the path of outdir from the repository root, e.g. \'deploy/rendered\'',
    );
  });

  test.each([
    ['"."', '.', ''],
    ['a folder and its parent', 'deploy/..', ''],
    ['"./" and a trailing slash', './deploy/rendered/', 'deploy/rendered'],
    ['several trailing slashes', 'deploy/rendered///', 'deploy/rendered'],
    ['doubled slashes inside', 'deploy//rendered', 'deploy/rendered'],
    ['backslashes', 'deploy\\rendered', 'deploy/rendered'],
  ])('outdirFromRepoRoot given as %s resolves to %p, the documented form', (_label, outdirFromRepoRoot, resolved) => {
    expect(new GitOpsApp({ outdir: 'out', outdirFromRepoRoot }).outdirFromRepoRoot).toBe(resolved);
  });

  test('keeps a custom applicationsDir without its trailing slash', () => {
    expect(new GitOpsApp({ outdir: 'dist', applicationsDir: 'apps/' }).applicationsDir).toBe('apps');
  });
});

describe('GitOpsApp.isGitOpsApp and findRoot', () => {
  test.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'dist'],
    ['a plain object', {}],
    ['a cdk8s App', Testing.app()],
  ])('%s is not a GitOpsApp', (_label, x) => {
    expect(GitOpsApp.isGitOpsApp(x)).toBe(false);
  });

  test('a GitOpsApp is one, and is the root found from anywhere in its tree', () => {
    const { gitops, config } = newApp();
    expect(GitOpsApp.isGitOpsApp(gitops)).toBe(true);
    expect(GitOpsApp.findRoot(config)).toBe(gitops);
    expect(GitOpsApp.findRoot(gitops)).toBe(gitops);
  });

  test('findRoot answers undefined in a plain cdk8s App', () => {
    const app = new App({ outdir: 'dist' });
    expect(GitOpsApp.findRoot(new Chart(app, 'chart'))).toBeUndefined();
  });
});

describe('GitOpsApp compiles the raw jq of every app at once', () => {
  test('the first jq compile of a synth holds the raw expressions of all apps, and only those', () => {
    // GIVEN two apps with raw jq rules (expressions no other test compiles) and one app with a JSON pointer rule too
    const { gitops, app, config } = newApp();
    const target = IgnoreTarget.fromApiObject(config);
    app.addIgnoreRule(IgnoreRule.rawJq(target, '.data["gitops-edges-first"]', 'written by the settings operator'));
    app.addIgnoreRule(IgnoreRule.jsonPointer(target, '/data/key', 'written by the settings operator'));
    const refunds = new SafeApplication(gitops, 'refunds', appProps({ name: 'refunds' }));
    const refundsConfig = addConfigMap(refunds, 'settings');
    refunds.addIgnoreRule(IgnoreRule.rawJq(IgnoreTarget.fromApiObject(refundsConfig), '.data["gitops-edges-second"]', 'written by the settings operator'));
    const compile = jest.spyOn(jq, 'compileJq');
    try {
      // WHEN rendered
      gitops.renderFiles();
      // THEN one call compiled both apps' raw expressions before any app validated itself
      expect(compile.mock.calls[0]).toEqual([['.data["gitops-edges-first"]', '.data["gitops-edges-second"]']]);
    } finally {
      compile.mockRestore();
    }
  });
});
