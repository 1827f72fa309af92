import { parse, stringify } from 'yaml';
import { asServed } from './as-served';
import { simulatorPerFile } from './support';
import { buildCheckoutApp } from '../../examples/checkout/app';
import { ApplicationDriftReport, ResourceSyncStatus, TrackingMethod } from '../../src';
import { JsonMap } from '../../src/drift/json';

const sim = simulatorPerFile();

/** The checkout Application and its rendered workloads, each object once. */
function checkout() {
  const files = buildCheckoutApp({ outdir: 'dist' }).renderFiles().filter((f) => f.path.endsWith('.yaml'));
  const application = files.find((f) => f.path === 'applications/payments/Application.checkout.k8s.yaml')!.content;
  const workloads = files.filter((f) => f.path.startsWith('workloads/checkout/'));
  const objects = workloads.map((f) => parse(f.content) as JsonMap);
  return { application, workloads, objects };
}

/** `objects` as a `kubectl get -o yaml` List, as the cluster returns them. */
function kubectlList(objects: JsonMap[]): string {
  return stringify({ apiVersion: 'v1', kind: 'List', items: objects, metadata: { resourceVersion: '' } });
}

function verdicts(report: ApplicationDriftReport): string[] {
  return report.resources.map((r) => `${r.status}${r.missing ? ' missing' : ''}${r.requiresPruning ? ' prune' : ''} ${r.kind} ${r.name}`
    + (r.report?.outOfSync ? ` ${r.report.differences.join(' ')}` : ''));
}

describe('DriftSimulator.simulateApplication: a whole Application against the cluster', () => {
  test('GIVEN the checkout example as the cluster serves it after Argo CD synced it WHEN simulated THEN every resource and the app are Synced', () => {
    const { application, workloads, objects } = checkout();
    const live = objects.filter((o) => !(o.metadata as any).annotations?.['argocd.argoproj.io/hook']).map((o) => asServed(o, 'checkout', 'payments'));
    const report = sim().simulateApplication({
      application,
      desired: workloads.map((f) => ({ name: f.path, text: f.content })),
      live: [{ name: '-', text: kubectlList(live) }],
      trackingMethod: TrackingMethod.ANNOTATION,
    });
    expect(report.outOfSync).toBe(false);
    const statuses = report.resources.map((r) => `${r.kind} ${r.status}`).sort();
    // The migration Job is a PreSync hook: run, never compared.
    expect(statuses).toEqual(objects.map((o) => `${o.kind} ${o.kind === 'Job' ? ResourceSyncStatus.NOT_COMPARED : ResourceSyncStatus.SYNCED}`).sort());
    expect(statuses).toContain('Job NotCompared');
    expect(report.resources.length).toBe(objects.length);
  });

  test('GIVEN one change, one missing object and one left-over tracked object WHEN simulated THEN each has its verdict and the app is OutOfSync', () => {
    const { application, workloads, objects } = checkout();
    const served = objects.filter((o) => !(o.metadata as any).annotations?.['argocd.argoproj.io/hook']).map((o) => asServed(o, 'checkout', 'payments'));
    const deployment: any = served.find((o) => o.kind === 'Deployment');
    deployment.spec.template.spec.containers[0].image = 'registry.acme.internal/checkout:hotfix';
    const withoutService = served.filter((o) => o.kind !== 'Service');
    const leftOver = asServed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'old-settings' }, data: { a: '1' } }, 'checkout', 'payments');
    const someoneElses = asServed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-root-ca.crt' }, data: { a: '1' } }, 'other-app', 'payments');
    const report = sim().simulateApplication({
      application,
      desired: workloads.map((f) => ({ name: f.path, text: f.content })),
      live: [{ name: 'live.yaml', text: [...withoutService, leftOver, someoneElses].map((o) => stringify(o)).join('---\n') }],
      trackingMethod: TrackingMethod.ANNOTATION,
    });
    expect(report.outOfSync).toBe(true);
    const lines = verdicts(report);
    expect(lines).toContain('OutOfSync prune ConfigMap old-settings');
    expect(lines).toContainEqual(expect.stringMatching(/^OutOfSync missing Service /));
    expect(lines).toContainEqual(expect.stringMatching(/^OutOfSync Deployment \S+ \/spec\/template\/spec\/containers\/0\/image$/));
    // Tracked by another Application: not part of this one.
    expect(lines.filter((l) => l.includes('kube-root-ca.crt'))).toEqual([]);
  });

  test('GIVEN a left-over object annotated IgnoreExtraneous WHEN simulated THEN it still requires pruning but the app stays Synced', () => {
    const application = stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'cfg', namespace: 'argocd' },
      spec: { destination: { namespace: 'payments' }, syncPolicy: { automated: { prune: true, selfHeal: true } } },
    });
    const desired = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { a: '1' } };
    const extra: any = asServed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' }, data: { b: '2' } }, 'cfg', 'payments');
    extra.metadata.annotations['argocd.argoproj.io/compare-options'] = 'IgnoreExtraneous';
    const report = sim().simulateApplication({
      application,
      desired: [{ name: 'cfg.yaml', text: stringify(desired) }],
      live: [{ name: 'live.yaml', text: `${stringify(asServed(desired as JsonMap, 'cfg', 'payments'))}---\n${stringify(extra)}` }],
      trackingMethod: TrackingMethod.ANNOTATION,
    });
    expect([report.outOfSync, verdicts(report)]).toEqual([false, ['Synced ConfigMap cfg', 'OutOfSync prune ConfigMap extra']]);
    expect(report.resources.map((r) => r.affectsApplication)).toEqual([true, false]);
  });

  test('GIVEN a tracking annotation copied onto another object WHEN simulated THEN that object is not compared and does not count', () => {
    const application = stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'cfg' }, spec: { destination: { namespace: 'payments' } } });
    const copied: any = asServed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: {} }, 'cfg', 'payments');
    copied.metadata.name = 'cfg-copy';
    const report = sim().simulateApplication({ application, desired: [], live: [{ name: 'live.yaml', text: stringify(copied) }] });
    expect([report.outOfSync, verdicts(report)]).toEqual([false, ['NotCompared ConfigMap cfg-copy']]);
  });

  test('fails when two desired objects have the same group, kind, namespace and name, naming both places', () => {
    const application = stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'cfg' }, spec: { destination: { namespace: 'payments' } } });
    const cm = stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: {} });
    expect(() => sim().simulateApplication({ application, desired: [{ name: 'a.yaml', text: cm }, { name: 'b.yaml', text: cm }], live: [] }))
      .toThrow('[SAFE-011] desired b.yaml:1: /ConfigMap payments/cfg is also at a.yaml:1; Argo CD pairs Git and the cluster by group, kind, '
        + 'namespace and name, so each may appear once. Fix: remove one of them.');
  });

  test('fails when a List holds something that is not a Kubernetes object, naming the item', () => {
    const application = stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'cfg' }, spec: { destination: { namespace: 'payments' } } });
    const list = stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'payments' } }, 'garbage'] });
    expect(() => sim().simulateApplication({ application, desired: [], live: [{ name: '-', text: list }] }))
      .toThrow(/^\[SAFE-102\] live -: 1 document\(s\) or List item\(s\) are not Kubernetes objects/);
  });

  test('fails when a typed list from the API (a DeploymentList) holds something that is not a Kubernetes object, naming the item', () => {
    const application = stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'cfg' }, spec: { destination: { namespace: 'payments' } } });
    const list = stringify({ apiVersion: 'apps/v1', kind: 'DeploymentList', items: [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a', namespace: 'payments' } }, { metadata: {} }] });
    expect(() => sim().simulateApplication({ application, desired: [], live: [{ name: 'live.json', text: list }] }))
      .toThrow(/^\[SAFE-102\] live live\.json:1: item 1 of the DeploymentList is not a Kubernetes object/);
  });

  test('fails when a source is not YAML, naming it', () => {
    const application = stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'cfg' }, spec: { destination: { namespace: 'payments' } } });
    expect(() => sim().simulateApplication({ application, desired: [{ name: 'broken.yaml', text: 'a: [1,\n' }], live: [] }))
      .toThrow(/^\[SAFE-102\] desired broken\.yaml: /);
  });
});
