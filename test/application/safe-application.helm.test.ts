import { Testing } from 'cdk8s';
import { ArgoCdVersion, ExternalSource, GitOpsApp, HelmChartOptions, SafeApplication } from '../../src';
import { secretInHelmValues } from '../../src/rules/sa207-secret-in-helm-values';
import { applicationOf, appProps } from '../support/app';
import { CRD_RELEASES, crdErrors } from '../support/crd';

const CHARTS = 'https://charts.acme.internal';

/** An app deploying ingress-nginx 4.11.3 from a Helm repository with `options`, in a GitOpsApp. */
function chartApp(options?: HelmChartOptions, argoCdVersion?: ArgoCdVersion) {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  const app = new SafeApplication(gitops, 'ingress', appProps({
    name: 'ingress', repoUrl: CHARTS, targetRevision: '4.11.3', externalSource: ExternalSource.helmChart('ingress-nginx', options), argoCdVersion,
  }));
  return { gitops, app };
}

const EVERY_OPTION: HelmChartOptions = {
  releaseName: 'edge',
  valueFiles: ['values-production.yaml', 'ci/values-eu.yaml'],
  valuesYaml: 'controller:\n  replicaCount: 3\n  service:\n    annotations:\n      example.com/zone: eu\n  tolerations: []\nrbac:\n  create: true\n',
  parameters: [{ name: 'controller.image.tag', value: '1.11.3' }, { name: 'controller.podLabels.build', value: '0123', forceString: true }],
};

describe('a Helm chart source with options', () => {
  test('renders each option under source.helm, and never ignoreMissingValueFiles', () => {
    // GIVEN a chart with a release name, value files, a values tree and parameters
    const { app } = chartApp(EVERY_OPTION);
    // WHEN rendered
    const source = applicationOf(app).spec.source;
    // THEN source.helm holds each, parameters in order, forceString only where asked
    expect(source).toEqual({
      repoURL: CHARTS,
      targetRevision: '4.11.3',
      chart: 'ingress-nginx',
      helm: {
        releaseName: 'edge',
        valueFiles: ['values-production.yaml', 'ci/values-eu.yaml'],
        valuesObject: { controller: { replicaCount: 3, service: { annotations: { 'example.com/zone': 'eu' } }, tolerations: [] }, rbac: { create: true } },
        parameters: [{ name: 'controller.image.tag', value: '1.11.3' }, { name: 'controller.podLabels.build', value: '0123', forceString: true }],
      },
    });
    expect(source.helm).not.toHaveProperty('ignoreMissingValueFiles');
  });

  test.each<[string, HelmChartOptions, object]>([
    ['releaseName', { releaseName: 'edge' }, { releaseName: 'edge' }],
    ['valueFiles', { valueFiles: ['values-production.yaml'] }, { valueFiles: ['values-production.yaml'] }],
    ['valuesYaml as YAML', { valuesYaml: 'controller:\n  replicaCount: 2\n' }, { valuesObject: { controller: { replicaCount: 2 } } }],
    ['valuesYaml as JSON', { valuesYaml: JSON.stringify({ controller: { replicaCount: 2 } }) }, { valuesObject: { controller: { replicaCount: 2 } } }],
    ['parameters', { parameters: [{ name: 'controller.replicaCount', value: '2' }] }, { parameters: [{ name: 'controller.replicaCount', value: '2' }] }],
    ['parameters with forceString false', { parameters: [{ name: 'a', value: 'b', forceString: false }] }, { parameters: [{ name: 'a', value: 'b' }] }],
  ])('renders %s alone', (_name, options, helm) => {
    expect(applicationOf(chartApp(options).app).spec.source.helm).toEqual(helm);
  });

  test.each<[string, HelmChartOptions | undefined]>([
    ['no options', undefined],
    ['empty options', {}],
    ['empty lists and an empty values map', { valueFiles: [], parameters: [], valuesYaml: '{}' }],
  ])('renders no helm block for %s', (_name, options) => {
    expect(applicationOf(chartApp(options).app).spec.source).toEqual({ repoURL: CHARTS, targetRevision: '4.11.3', chart: 'ingress-nginx' });
  });

  test.each(Object.keys(CRD_RELEASES))('validates against the Application CRD of Argo CD %s, every option set', (release) => {
    // GIVEN every option, rendered for that release
    const application = applicationOf(chartApp(EVERY_OPTION, ArgoCdVersion.of(release)).app);
    // WHEN / THEN the release's CRD accepts it, with unknown fields refused
    expect(application.spec.source.helm.valuesObject).toBeDefined();
    expect(crdErrors('application', release, application)).toEqual([]);
  });

  test('renders the value files as given when the caller changes its list afterwards', () => {
    // GIVEN options whose list the caller changes after making the source
    const files = ['values-production.yaml'];
    const { app } = chartApp({ valuesYaml: 'controller: {replicaCount: 2}', valueFiles: files });
    files.push('values-other.yaml');
    // WHEN rendered THEN the source holds what was given
    expect(applicationOf(app).spec.source.helm).toEqual({ valuesObject: { controller: { replicaCount: 2 } }, valueFiles: ['values-production.yaml'] });
  });

  test('synthesizes without findings when the values name an existing Secret', () => {
    const { app } = chartApp({ valuesYaml: JSON.stringify({ auth: { existingSecret: 'ingress-auth' } }), parameters: [{ name: 'auth.passwordSecretRef', value: 'ingress-auth' }] });
    expect(app.node.validate()).toEqual([]);
    expect(Testing.synth(app)).toHaveLength(1);
  });
});

describe('secrets in a chart source fail the synth with SA207', () => {
  test.each<[string, HelmChartOptions, string, string]>([
    ['a password in valuesYaml', { valuesYaml: 'auth:\n  adminPassword: hunter2\n' }, '/spec/source/helm/valuesObject/auth/adminPassword', '"auth.adminPassword"'],
    ['a token in a parameter', { parameters: [{ name: 'replicaCount', value: '2' }, { name: 'slack.apiToken', value: 'xoxb-123456' }] }, '/spec/source/helm/parameters/1/value', '"slack.apiToken"'],
    ['a private key in a parameter', { parameters: [{ name: 'tls.key', value: '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----' }] }, '/spec/source/helm/parameters/0/value', '"tls.key"'],
  ])('fails when %s is given', (_name, options, path, key) => {
    // GIVEN a chart with secret material in its values
    const { gitops } = chartApp(options);
    // WHEN the tree is rendered THEN SA207 stops it, naming the key, never the value, and pointing to an ExternalSecret
    const render = () => gitops.renderFiles();
    expect(render).toThrow(new RegExp(`SA207 secret-in-helm-values \\[error\\] on Application argocd/ingress at ingress/Resource ${path}: .*${key}.* in plain text`));
    expect(render).toThrow(secretInHelmValues.fix);
    expect(render).toThrow(/ExternalSecret/);
    expect(render).not.toThrow(/hunter2|xoxb-123456|MHcCAQEE/);
  });

  test('synthesizes when the finding is accepted with a reasoned suppression', () => {
    // GIVEN a value under a secret-looking key that is not a secret, and the suppression that says why
    const { gitops, app } = chartApp({ valuesYaml: 'oidc:\n  clientSecret: public-client\n' });
    app.addSuppression({ ruleId: 'SA207', reason: 'a public OIDC client: the identity provider issues no secret for it' });
    // WHEN / THEN
    expect(() => gitops.renderFiles()).not.toThrow();
  });
});
