import { ArgoCdVersion, ExternalSource, GitOpsApp, HelmChartOptions, SafeApplication, SafeApplicationProps, SafeProject } from '../../src';
import { applicationOf, appProps } from '../support/app';
import { CRD_RELEASES, crdErrors } from '../support/crd';

const CHARTS = 'https://charts.acme.internal';
const PLATFORM = 'https://git.acme.internal/platform/values.git';

/** A ref source of the platform repository, read at `revision`. */
function values(ref = 'values', revision?: string): ExternalSource {
  return ExternalSource.gitRef(ref, { repoUrl: PLATFORM, targetRevision: revision });
}

/** ingress-nginx 4.11.3 from a Helm repository with `options`, and `additionalSources`, in a GitOpsApp. */
function chartApp(options: HelmChartOptions, additionalSources?: ExternalSource[], overrides: Partial<SafeApplicationProps> = {}) {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  const app = new SafeApplication(gitops, 'ingress', appProps({
    name: 'ingress',
    repoUrl: CHARTS,
    targetRevision: '4.11.3',
    externalSource: ExternalSource.helmChart('ingress-nginx', options),
    additionalSources,
    ...overrides,
  }));
  return { gitops, app };
}

const FROM_GIT: HelmChartOptions = { releaseName: 'edge', valueFiles: ['values-production.yaml', '$values/ingress/values-eu.yaml'] };

describe('a chart with value files from a Git ref source', () => {
  test('renders spec.sources, the chart first and then the ref source, and no spec.source', () => {
    // GIVEN
    const { app } = chartApp(FROM_GIT, [values('values', 'v2.3.0')]);
    // WHEN
    const spec = applicationOf(app).spec;
    // THEN
    expect(spec.source).toBeUndefined();
    expect(spec.sources).toEqual([
      { repoURL: CHARTS, targetRevision: '4.11.3', chart: 'ingress-nginx', helm: { releaseName: 'edge', valueFiles: ['values-production.yaml', '$values/ingress/values-eu.yaml'] } },
      { repoURL: PLATFORM, targetRevision: 'v2.3.0', ref: 'values' },
    ]);
    expect(spec.sources[0].helm).not.toHaveProperty('ignoreMissingValueFiles');
    expect(app.additionalSources.map((s) => s.ref)).toEqual(['values']);
    expect(app.node.validate()).toEqual([]);
  });

  test('reads the ref source at main when no revision is given', () => {
    expect(applicationOf(chartApp(FROM_GIT, [values()]).app).spec.sources[1].targetRevision).toBe('main');
  });

  test('renders spec.source alone, as before, without additional sources', () => {
    const spec = applicationOf(chartApp({ valueFiles: ['values-production.yaml'] }).app).spec;
    expect(spec.sources).toBeUndefined();
    expect(spec.source.chart).toBe('ingress-nginx');
  });

  test.each(Object.keys(CRD_RELEASES))('validates against the Application CRD of Argo CD %s', (release) => {
    // GIVEN two ref sources (one of them of a chart in Git) rendered for that release
    const { app } = chartApp({ ...FROM_GIT, valueFiles: [...FROM_GIT.valueFiles!, '$team/ingress.yaml'] },
      [values(), ExternalSource.gitRef('team', { repoUrl: 'https://git.acme.internal/edge/config.git', targetRevision: '9f2c1e7' })],
      { argoCdVersion: ArgoCdVersion.of(release) });
    const application = applicationOf(app);
    // WHEN / THEN the release's CRD accepts it, with unknown fields refused
    expect(application.spec.sources).toHaveLength(3);
    expect(crdErrors('application', release, application)).toEqual([]);
  });

  test('fails when a value file names a ref source the app does not have', () => {
    // GIVEN the ref source is called "platform" but the value file says "$values"
    const make = () => chartApp(FROM_GIT, [ExternalSource.gitRef('platform', { repoUrl: PLATFORM })]);
    // WHEN / THEN the error names the construct path, the prop, the value and the fix
    expect(make).toThrow('[SAFE-038] ingress: externalSource.helm.valueFiles[1] is "$values/ingress/values-eu.yaml"; it names the ref source "values", '
      + 'but its ref sources are "platform": Argo CD would fail to render the app. Fix: add ExternalSource.gitRef("values", { repoUrl: \'<repository of the file>\' }) '
      + 'to additionalSources, or correct the ref');
  });

  test('a value file that starts with a build variable names no ref: Argo CD substitutes it, with or without ref sources', () => {
    // GIVEN value files named after the app, as $ARGOCD_APP_NAME and ${ARGOCD_APP_NAME}, in a single-source app
    const single = chartApp({ valueFiles: ['$ARGOCD_APP_NAME/values.yaml', '${KUBE_VERSION}/values.yaml'] }).app;
    expect(applicationOf(single).spec.source.helm.valueFiles).toEqual(['$ARGOCD_APP_NAME/values.yaml', '${KUBE_VERSION}/values.yaml']);
    // and beside a real ref in a multi-source app
    const multi = chartApp({ valueFiles: ['$values/ingress/values-eu.yaml', '$ARGOCD_APP_NAME/values.yaml'] }, [values()]).app;
    expect(applicationOf(multi).spec.sources[0].helm.valueFiles).toEqual(['$values/ingress/values-eu.yaml', '$ARGOCD_APP_NAME/values.yaml']);
    // but a name that is no build variable still has to be a ref source
    expect(() => chartApp({ valueFiles: ['$ARGOCD/values.yaml'] })).toThrow(/\[SAFE-038\] ingress: externalSource\.helm\.valueFiles\[0\] is "\$ARGOCD\/values\.yaml"; it names the ref source "ARGOCD"/);
  });

  test('fails when a value file names a ref and the app has no additional source', () => {
    expect(() => chartApp(FROM_GIT)).toThrow(/\[SAFE-038\] ingress: externalSource\.helm\.valueFiles\[1\] .* the app has no ref source/);
  });

  test('fails when a ref source is named by no value file', () => {
    expect(() => chartApp(FROM_GIT, [values(), ExternalSource.gitRef('unused', { repoUrl: PLATFORM })]))
      .toThrow(/\[SAFE-013\] ingress: additionalSources\[1\] is "unused"; it is named by no value file/);
    expect(() => chartApp({ valueFiles: ['values.yaml'] }, [values()])).toThrow(/\[SAFE-013\] ingress: additionalSources\[0\] is "values"/);
  });

  test('fails when a ref is given twice, or one repository is read at two revisions', () => {
    expect(() => chartApp(FROM_GIT, [values(), ExternalSource.gitRef('values', { repoUrl: 'https://git.acme.internal/other.git' })]))
      .toThrow(/\[SAFE-011\] ingress: additionalSources\[1\]\.ref is "values"/);
    const twoRevisions = { valueFiles: ['$values/a.yaml', '$pinned/b.yaml'] };
    expect(() => chartApp(twoRevisions, [values('values', 'main'), values('pinned', 'v1.0.0')]))
      .toThrow(/\[SAFE-013\] ingress: additionalSources\[1\]\.targetRevision is "v1\.0\.0"; it differs from "main" of ref "values"/);
    // the same repository at one revision, under two refs, is what Argo CD accepts
    expect(() => chartApp(twoRevisions, [values('values', 'main'), values('pinned', 'main')])).not.toThrow();
  });

  test('fails when additionalSources is not a list', () => {
    expect(() => chartApp(FROM_GIT, values() as any)).toThrow(/\[SAFE-013\] ingress: additionalSources is .*; it must be a list of ExternalSource\.gitRef sources/);
  });

  test('fails when a ref source is the main source, or a chart or folder is an additional one', () => {
    expect(() => new SafeApplication(new GitOpsApp({ outdir: 'dist' }), 'x', appProps({ externalSource: values() })))
      .toThrow(/\[SAFE-013\] x: externalSource is "values"; it must be built with ExternalSource\.gitPath or ExternalSource\.helmChart/);
    expect(() => chartApp(FROM_GIT, [values(), ExternalSource.gitPath('extra')]))
      .toThrow(/\[SAFE-013\] ingress: additionalSources\[1\] is "extra"; it must be built with ExternalSource\.gitRef/);
  });

  test('fails when the project does not allow the ref source\'s repository', () => {
    // GIVEN a project that allows the chart repository only
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = new SafeProject(gitops, 'project', { name: 'payments', sourceRepos: [CHARTS], destinations: [{ namespace: 'payments' }] });
    const app = new SafeApplication(gitops, 'ingress', appProps({
      name: 'ingress',
      project,
      repoUrl: CHARTS,
      targetRevision: '4.11.3',
      externalSource: ExternalSource.helmChart('ingress-nginx', FROM_GIT),
      additionalSources: [values()],
    }));
    // WHEN / THEN
    expect(app.node.validate()).toEqual([expect.stringContaining(`[SAFE-031] project payments does not allow the repository "${PLATFORM}"`)]);
  });

  test('fails the synth with SA207 when the values of a multi-source chart hold a password', () => {
    const { gitops } = chartApp({ ...FROM_GIT, valuesYaml: 'auth:\n  adminPassword: hunter2\n' }, [values()]);
    const render = () => gitops.renderFiles();
    expect(render).toThrow(/SA207 secret-in-helm-values \[error\] on Application argocd\/ingress at ingress\/Resource \/spec\/sources\/0\/helm\/valuesObject\/auth\/adminPassword: .*"auth.adminPassword"/);
    expect(render).not.toThrow(/hunter2/);
  });

  test('keeps the chart version exact: a range is refused whatever the sources', () => {
    expect(() => chartApp(FROM_GIT, [values()], { targetRevision: '4.x' })).toThrow(/\[SAFE-016\] ingress: targetRevision is "4.x"/);
  });

  test('the runbook names the repository a value fix is backfilled to', () => {
    const runbook = chartApp(FROM_GIT, [values('values', 'v2.3.0')]).app._runbook()!;
    expect(runbook).toContain(`It reads Helm value files from \`${PLATFORM}\` at \`v2.3.0\` (\`$values\`).`);
    expect(runbook).toContain(`a Helm value to its value file in \`${PLATFORM}\` on \`v2.3.0\``);
    expect(runbook).toContain('`argocd app rollback` returns every source');
    // and a single-source app's runbook says nothing of it
    expect(chartApp({}).app._runbook()).not.toContain('value file');
  });
});

describe('ExternalSource.gitRef', () => {
  test.each<[string, () => ExternalSource, RegExp]>([
    ['a ref with a dot', () => ExternalSource.gitRef('my.values', { repoUrl: PLATFORM }), /\[SAFE-013\] ExternalSource\.gitRef: ref is "my\.values"; it must be a ref name Argo CD accepts/],
    ['an empty ref', () => ExternalSource.gitRef('', { repoUrl: PLATFORM }), /\[SAFE-013\] ExternalSource\.gitRef: ref is ""/],
    ['a Helm repository URL that is not Git', () => ExternalSource.gitRef('values', { repoUrl: 'oci://registry.acme.internal/charts' }), /\[SAFE-003\] ExternalSource\.gitRef: options\.repoUrl/],
    ['HEAD', () => ExternalSource.gitRef('values', { repoUrl: PLATFORM, targetRevision: 'HEAD' }), /\[SAFE-016\] ExternalSource\.gitRef: options\.targetRevision is "HEAD"; it is refused: .*default branch/],
    ['an empty revision', () => ExternalSource.gitRef('values', { repoUrl: PLATFORM, targetRevision: ' ' }), /\[SAFE-016\] ExternalSource\.gitRef: options\.targetRevision/],
    ['a revision with a space inside', () => ExternalSource.gitRef('values', { repoUrl: PLATFORM, targetRevision: 'release 2' }), /\[SAFE-016\] ExternalSource\.gitRef: options\.targetRevision is "release 2"; it is refused: contains whitespace/],
    ['no options', () => ExternalSource.gitRef('values', undefined as any), /\[SAFE-013\] ExternalSource\.gitRef: options is missing/],
  ])('fails on %s', (_name, make, error) => {
    expect(make).toThrow(error);
  });
});

describe('value files naming a ref', () => {
  test.each<[string, string]>([
    ['$values', 'no "/" after the ref'],
    ['$my.values/a.yaml', 'a ref Argo CD refuses'],
    ['$values/../secrets.yaml', 'a path climbing out'],
    ['$values//etc/values.yaml', 'an absolute path'],
    ['$values/', 'no file'],
  ])('fails on %p (%s)', (file) => {
    expect(() => ExternalSource.helmChart('ingress-nginx', { valueFiles: [file] })).toThrow(/\[SAFE-038\] ExternalSource\.helmChart: options\.valueFiles\[0\]/);
  });
});

describe('a Helm chart in a Git folder', () => {
  /** The chart in deploy/chart of the platform repository, with `helm` options. */
  function gitChart(helm: HelmChartOptions, additionalSources?: ExternalSource[], argoCdVersion?: ArgoCdVersion) {
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const app = new SafeApplication(gitops, 'api', appProps({
      name: 'api',
      repoUrl: 'https://git.acme.internal/payments/api.git',
      targetRevision: 'v1.4.2',
      externalSource: ExternalSource.gitPath('deploy/chart', { helm }),
      additionalSources,
      argoCdVersion,
    }));
    return { gitops, app };
  }

  test('renders the Helm options under source.helm beside the path', () => {
    const { app } = gitChart({ releaseName: 'api', valueFiles: ['values-prod.yaml'], valuesYaml: 'replicaCount: 3\n', parameters: [{ name: 'image.tag', value: '1.4.2' }] });
    expect(applicationOf(app).spec.source).toEqual({
      repoURL: 'https://git.acme.internal/payments/api.git',
      targetRevision: 'v1.4.2',
      path: 'deploy/chart',
      helm: { releaseName: 'api', valueFiles: ['values-prod.yaml'], valuesObject: { replicaCount: 3 }, parameters: [{ name: 'image.tag', value: '1.4.2' }] },
    });
    expect(app.node.validate()).toEqual([]);
  });

  test.each(Object.keys(CRD_RELEASES))('validates against the Application CRD of Argo CD %s, with values from a ref source', (release) => {
    const { app } = gitChart({ valueFiles: ['$values/api/prod.yaml'] }, [values()], ArgoCdVersion.of(release));
    const application = applicationOf(app);
    expect(application.spec.sources[0].path).toBe('deploy/chart');
    expect(crdErrors('application', release, application)).toEqual([]);
  });

  test('fails when a ref source reads the app\'s own repository at another revision', () => {
    // GIVEN the chart's repository, read at v1.4.2, and a ref source of it at main
    const own = (revision: string) => ExternalSource.gitRef('values', { repoUrl: 'https://git.acme.internal/payments/api.git', targetRevision: revision });
    // WHEN / THEN refused, as Argo CD's repo server refuses it; at the app's revision it is accepted
    expect(() => gitChart({ valueFiles: ['$values/env/prod.yaml'] }, [own('main')]))
      .toThrow(/\[SAFE-013\] api: additionalSources\[0\]\.targetRevision is "main"; it differs from the app's targetRevision "v1\.4\.2" of the same repository/);
    expect(gitChart({ valueFiles: ['$values/env/prod.yaml'] }, [own('v1.4.2')]).app.node.validate()).toEqual([]);
  });

  test('fails when the options are given with Kustomize options', () => {
    expect(() => ExternalSource.gitPath('deploy', { kustomize: { namePrefix: 'prod-' }, helm: { releaseName: 'api' } }))
      .toThrow('[SAFE-013] ExternalSource.gitPath: options is ["helm","kustomize"]; it must not hold both kustomize and helm');
  });

  test('checks the options as helmChart does, naming gitPath and options.helm', () => {
    expect(() => ExternalSource.gitPath('deploy', { helm: { releaseName: 'Edge_EU' } }))
      .toThrow(/\[SAFE-038\] ExternalSource\.gitPath: options\.helm\.releaseName is "Edge_EU"/);
    expect(() => ExternalSource.gitPath('deploy', { helm: { valueFiles: ['../values.yaml'] } }))
      .toThrow(/\[SAFE-038\] ExternalSource\.gitPath: options\.helm\.valueFiles\[0\] is "\.\.\/values\.yaml".*as the chart folder holds it/);
    expect(() => ExternalSource.gitPath('deploy', { helm: { valuesYaml: 'a: null' } }))
      .toThrow(/\[SAFE-038\] ExternalSource\.gitPath: options\.helm\.valuesYaml\.a is null/);
    expect(() => ExternalSource.gitPath('deploy', { helm: { parameters: [{ name: 'a', value: '1' }, { name: 'a', value: '2' }] } }))
      .toThrow(/\[SAFE-011\] ExternalSource\.gitPath: options\.helm\.parameters\[1\] is "a"/);
  });

  test('fails the synth with SA207 when a parameter holds a token', () => {
    const { gitops } = gitChart({ parameters: [{ name: 'slack.apiToken', value: 'xoxb-123456' }] });
    expect(() => gitops.renderFiles()).toThrow(/SA207 secret-in-helm-values \[error\] on Application argocd\/api at api\/Resource \/spec\/source\/helm\/parameters\/0\/value/);
  });
});
