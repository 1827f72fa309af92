import { parse } from 'yaml';
import { asServed } from './as-served';
import { simulatorPerFile } from './support';
import { buildCheckoutApp } from '../../examples/checkout/app';
import { ArgoCdVersion, RenderedFile, TrackingMethod } from '../../src';
import { clone, isMap, JsonMap } from '../../src/drift/json';

// The checkout example's every rendered object against a live copy written out by hand as a Kubernetes 1.29+
// API server returns it after Argo CD 3.x applied it client-side: the tracking annotation, the namespace,
// last-applied as kubectl writes it, the API defaults, quantities in canonical form, omitempty zero values
// gone, managedFields, uid and status. Argo CD reports all of it Synced; so must the model.

const sim = simulatorPerFile();

/** The Argo CD Application that deploys each rendered directory of the example. */
const DEPLOYED_BY: Record<string, string> = { 'workloads/checkout/': 'checkout', 'applications/payments/': 'payments-apps' };

describe('the checkout example, every rendered object against live as a 1.29 API server returns it', () => {
  let files: RenderedFile[];
  beforeAll(() => {
    files = buildCheckoutApp({ outdir: 'dist' }).renderFiles().filter((f) => f.path.endsWith('.yaml'));
  });

  function applicationNamed(name: string): string {
    const found = files.find((f) => { const o = parse(f.content); return o.kind === 'Application' && o.metadata.name === name; });
    if (!found) {
      throw new Error(`no rendered Application ${name}`);
    }
    return found.content;
  }

  test('GIVEN each object deployed by an Application of the example WHEN Argo CD compares it THEN it is Synced', () => {
    const deployed = files.filter((f) => Object.keys(DEPLOYED_BY).some((dir) => f.path.startsWith(dir)));
    expect(deployed.map((f) => parse(f.content).kind).sort()).toEqual(expect.arrayContaining(['Deployment', 'HorizontalPodAutoscaler', 'Job', 'Service']));
    const verdicts = deployed.map((f) => {
      const appName = DEPLOYED_BY[Object.keys(DEPLOYED_BY).find((dir) => f.path.startsWith(dir))!];
      const application = applicationNamed(appName);
      const destination = parse(application).spec.destination.namespace as string;
      const desired = parse(f.content) as JsonMap;
      const report = sim().simulateDrift({
        application,
        desired: f.content,
        live: JSON.stringify(asServed(desired, appName, destination)),
        argoCdVersion: ArgoCdVersion.V3_5,
        trackingMethod: TrackingMethod.ANNOTATION,
      });
      const hook = isMap(desired.metadata) && isMap(desired.metadata.annotations) && 'argocd.argoproj.io/hook' in desired.metadata.annotations;
      return [f.path, report.outOfSync ? `OutOfSync ${report.differences.join(' ')}` : 'Synced', hook, report.warnings.length];
    });
    // A hook is run, not compared: its one warning says so.
    expect(verdicts).toEqual(verdicts.map(([path, , hook]) => [path, 'Synced', hook, hook ? 1 : 0]));
    expect(verdicts.filter(([, , hook]) => hook)).toHaveLength(1);
  });

  test('GIVEN the Deployment as served WHEN a human changes its memory limit THEN it is OutOfSync on that field alone', () => {
    // The same live copy with one real change: the comparison still sees drift through the normalizations.
    const file = files.find((f) => f.path.endsWith('Deployment.checkout-web.k8s.yaml'))!;
    const live: any = asServed(parse(file.content), 'checkout', 'payments');
    live.spec.template.spec.containers[0].resources.limits.memory = '4Gi';
    const report = sim().simulateDrift({
      application: applicationNamed('checkout'), desired: file.content, live: JSON.stringify(live), trackingMethod: TrackingMethod.ANNOTATION,
    });
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual(['/spec/template/spec/containers/0/resources/limits/memory']);
  });

  test('GIVEN the Deployment as served but never applied by Argo CD WHEN compared with annotation tracking THEN the missing tracking annotation is drift', () => {
    const file = files.find((f) => f.path.endsWith('Deployment.checkout-web.k8s.yaml'))!;
    const live: any = asServed(parse(file.content), 'checkout', 'payments');
    delete live.metadata.annotations['argocd.argoproj.io/tracking-id'];
    const applied = JSON.parse(live.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
    delete applied.metadata.annotations['argocd.argoproj.io/tracking-id'];
    live.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] = JSON.stringify(applied);
    const report = sim().simulateDrift({
      application: applicationNamed('checkout'), desired: file.content, live: JSON.stringify(live), trackingMethod: TrackingMethod.ANNOTATION,
    });
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual(['/metadata/annotations/argocd.argoproj.io~1tracking-id']);
  });

  test('GIVEN Argo CD 2.14 WHEN the live object carries the instance label THEN the label method is the default and it is Synced', () => {
    const file = files.find((f) => f.path.endsWith('Service.checkout-web.k8s.yaml')) ?? files.find((f) => parse(f.content).kind === 'Service')!;
    const desired = parse(file.content) as JsonMap;
    const labelled = clone(desired) as any;
    labelled.metadata.labels = { ...(labelled.metadata.labels ?? {}), 'app.kubernetes.io/instance': 'checkout' };
    const live: any = asServed(labelled, 'checkout', 'payments');
    // Label tracking: neither live nor its last-applied has the annotation (kubectl writes `annotations: {}`).
    delete live.metadata.annotations['argocd.argoproj.io/tracking-id'];
    const applied = JSON.parse(live.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
    delete applied.metadata.annotations['argocd.argoproj.io/tracking-id'];
    live.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] = JSON.stringify(applied);
    const report = sim().simulateDrift({ application: applicationNamed('checkout'), desired: file.content, live: JSON.stringify(live), argoCdVersion: ArgoCdVersion.V2_14 });
    expect([report.outOfSync, report.differences]).toEqual([false, []]);
  });
});
