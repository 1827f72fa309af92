import { Testing } from 'cdk8s';
import { ArgoCdVersion, ExternalSource, GitOpsApp, KustomizeOptions, SafeApplication } from '../../src';
import { applicationOf, appProps } from '../support/app';
import { CRD_RELEASES, crdErrors } from '../support/crd';

const REPO = 'https://github.com/acme/payments-deploy.git';
const DIGEST = `sha256:${'0123456789abcdef'.repeat(4)}`;

/** An app deploying the prod overlay of a Git repository with `kustomize`, in a GitOpsApp. */
function overlayApp(kustomize?: KustomizeOptions, argoCdVersion?: ArgoCdVersion) {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  const app = new SafeApplication(gitops, 'payments', appProps({
    name: 'payments', repoUrl: REPO, targetRevision: 'v1.4.2', externalSource: ExternalSource.gitPath('deploy/overlays/prod', { kustomize }), argoCdVersion,
  }));
  return { gitops, app };
}

const EVERY_OPTION: KustomizeOptions = {
  images: [
    { name: 'ghcr.io/acme/payments-api', newTag: '1.4.2' },
    { name: 'ghcr.io/acme/payments-worker', newName: 'registry.acme.internal:5000/payments-worker', digest: DIGEST },
  ],
  namePrefix: 'prod-',
  nameSuffix: '-eu',
  namespace: 'payments-prod',
  commonLabels: { 'app.kubernetes.io/part-of': 'payments', 'env': 'prod' },
  commonAnnotations: { 'acme.com/owner': 'Payments team <payments@acme.com>' },
  patches: [
    { patch: '[{"op": "replace", "path": "/spec/replicas", "value": 3}]', target: { group: 'apps', version: 'v1', kind: 'Deployment', name: 'payments-api' } },
    { patch: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: payments-settings\ndata:\n  REGION: eu-west-1\n' },
  ],
};

describe('a Git folder with Kustomize options', () => {
  test('renders each option under source.kustomize, images in Argo CD\'s string form', () => {
    // GIVEN an overlay with every option
    const { app } = overlayApp(EVERY_OPTION);
    // WHEN rendered
    const source = applicationOf(app).spec.source;
    // THEN source.kustomize holds each
    const { images: _images, ...unchanged } = EVERY_OPTION;
    expect(source).toEqual({
      repoURL: REPO,
      targetRevision: 'v1.4.2',
      path: 'deploy/overlays/prod',
      kustomize: {
        images: [
          'ghcr.io/acme/payments-api=ghcr.io/acme/payments-api:1.4.2',
          `ghcr.io/acme/payments-worker=registry.acme.internal:5000/payments-worker@${DIGEST}`,
        ],
        // every other option is rendered as given
        ...unchanged,
      },
    });
  });

  test.each<[string, KustomizeOptions, object]>([
    ['an image with a tag', { images: [{ name: 'nginx', newTag: '1.27.2' }] }, { images: ['nginx=nginx:1.27.2'] }],
    ['an image with a digest', { images: [{ name: 'nginx', digest: DIGEST }] }, { images: [`nginx=nginx@${DIGEST}`] }],
    ['an image with a new name only', { images: [{ name: 'nginx', newName: 'mirror.acme.internal/nginx' }] }, { images: ['nginx=mirror.acme.internal/nginx'] }],
    ['an image with a new name and tag', { images: [{ name: 'nginx', newName: 'mirror.acme.internal/nginx', newTag: '1.27.2' }] },
      { images: ['nginx=mirror.acme.internal/nginx:1.27.2'] }],
    ['namePrefix', { namePrefix: 'prod-' }, { namePrefix: 'prod-' }],
    ['nameSuffix', { nameSuffix: '-v2' }, { nameSuffix: '-v2' }],
    ['namespace', { namespace: 'payments-prod' }, { namespace: 'payments-prod' }],
    ['commonLabels, in key order', { commonLabels: { tier: 'api', env: '' } }, { commonLabels: { env: '', tier: 'api' } }],
    ['commonAnnotations', { commonAnnotations: { 'acme.com/runbook': 'https://runbooks.acme.internal/payments' } },
      { commonAnnotations: { 'acme.com/runbook': 'https://runbooks.acme.internal/payments' } }],
    ['a patch with a label selector', { patches: [{ patch: '{"spec": {"replicas": 2}}', target: { kind: 'Deployment', labelSelector: 'tier=api' } }] },
      { patches: [{ patch: '{"spec": {"replicas": 2}}', target: { kind: 'Deployment', labelSelector: 'tier=api' } }] }],
  ])('renders %s alone', (_name, kustomize, rendered) => {
    expect(applicationOf(overlayApp(kustomize).app).spec.source.kustomize).toEqual(rendered);
  });

  test('renders the labels in the same bytes whatever order they were given in', () => {
    const yamlOf = (labels: Record<string, string>) => JSON.stringify(applicationOf(overlayApp({ commonLabels: labels }).app).spec.source.kustomize);
    expect(yamlOf({ b: '2', a: '1' })).toBe(yamlOf({ a: '1', b: '2' }));
    expect(yamlOf({ b: '2', a: '1' })).toBe('{"commonLabels":{"a":"1","b":"2"}}');
  });

  test.each<[string, KustomizeOptions | undefined]>([
    ['no options', undefined],
    ['empty options', {}],
    ['empty lists, maps and affixes', { images: [], commonLabels: {}, commonAnnotations: {}, namePrefix: '', nameSuffix: '' }],
  ])('renders no kustomize block for %s', (_name, kustomize) => {
    expect(applicationOf(overlayApp(kustomize).app).spec.source).toEqual({ repoURL: REPO, targetRevision: 'v1.4.2', path: 'deploy/overlays/prod' });
  });

  test.each(Object.keys(CRD_RELEASES))('validates against the Application CRD of Argo CD %s, every option set', (release) => {
    // GIVEN every option, rendered for that release
    const application = applicationOf(overlayApp(EVERY_OPTION, ArgoCdVersion.of(release)).app);
    // WHEN / THEN the release's CRD accepts it, with unknown fields refused
    expect(application.spec.source.kustomize.images).toHaveLength(2);
    expect(crdErrors('application', release, application)).toEqual([]);
  });

  test('renders the images as given when the caller changes its list afterwards', () => {
    // GIVEN options whose list and map the caller changes after making the source
    const images = [{ name: 'nginx', newTag: '1.27.2' }];
    const labels: Record<string, string> = { env: 'prod' };
    const { app } = overlayApp({ images, commonLabels: labels });
    images.push({ name: 'redis', newTag: '7.4' });
    labels.env = 'staging';
    // WHEN rendered THEN the source holds what was given
    expect(applicationOf(app).spec.source.kustomize).toEqual({ images: ['nginx=nginx:1.27.2'], commonLabels: { env: 'prod' } });
  });

  test('the app synthesizes without findings', () => {
    const { gitops } = overlayApp(EVERY_OPTION);
    expect(gitops.renderFiles().some((f) => f.content.includes('namePrefix: prod-'))).toBe(true);
  });

  test('a Helm chart source has no kustomize block', () => {
    const app = new SafeApplication(Testing.chart(), 'ingress', appProps({
      name: 'ingress', repoUrl: 'https://charts.acme.internal', targetRevision: '4.11.3', externalSource: ExternalSource.helmChart('ingress-nginx'),
    }));
    expect(applicationOf(app).spec.source).not.toHaveProperty('kustomize');
  });
});
