import { parse } from 'yaml';
import { simulatorPerFile } from './support';
import { buildCheckoutApp } from '../../examples/checkout/app';
import { ArgoCdVersion, RenderedFile, TrackingMethod } from '../../src';
import { clone, isMap, JsonMap } from '../../src/drift/json';

// The checkout example's every rendered object against a live copy written out by hand as a Kubernetes 1.29+
// API server returns it after Argo CD 3.x applied it client-side: the tracking annotation, the namespace,
// last-applied as kubectl writes it, the API defaults, quantities in canonical form, omitempty zero values
// gone, managedFields, uid and status. Argo CD reports all of it Synced; so must the model.

const sim = simulatorPerFile();

const FIXED = '2026-01-01T00:00:00Z';
/** The quantities the example renders, as the API server stores them (k8s.io/apimachinery resource.Quantity). */
const CANONICAL: Record<string, string> = { '1000m': '1', '2048Mi': '2Gi', '1500m': '1500m', '512Mi': '512Mi' };

function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
}

/** Pod template defaults, written out as the API server returns them. */
function servedPodTemplate(template: any): void {
  template.metadata = { creationTimestamp: null, ...(template.metadata ?? {}) };
  const spec = template.spec;
  delete spec.hostNetwork; // false is omitted
  spec.schedulerName = 'default-scheduler';
  for (const c of spec.containers ?? []) {
    c.terminationMessagePath = '/dev/termination-log';
    c.terminationMessagePolicy = 'File';
    for (const p of c.ports ?? []) {
      p.protocol = 'TCP';
    }
    for (const list of ['limits', 'requests']) {
      for (const [k, v] of Object.entries(c.resources?.[list] ?? {})) {
        c.resources[list][k] = CANONICAL[String(v)] ?? v;
      }
    }
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
      if (c[probe]) {
        c[probe] = { periodSeconds: 10, successThreshold: 1, timeoutSeconds: 1, failureThreshold: 3, ...c[probe] };
      }
    }
  }
}

/** What the API server adds or changes for each kind the example renders (objects of other kinds are kept as applied). */
const SERVED: Record<string, (live: any) => void> = {
  'apps/Deployment': (live) => {
    delete live.spec.minReadySeconds; // 0 is omitted
    live.spec.replicas = 3; // the HPA's minimum; Git has no replicas
    live.spec.revisionHistoryLimit = 10;
    servedPodTemplate(live.spec.template);
    live.status = { observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3 };
  },
  '/Service': (live) => {
    Object.assign(live.spec, {
      type: live.spec.type ?? 'ClusterIP',
      sessionAffinity: 'None',
      clusterIP: '10.96.40.12',
      clusterIPs: ['10.96.40.12'],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
    });
    for (const p of live.spec.ports) {
      p.protocol = p.protocol ?? 'TCP';
      p.targetPort = p.targetPort ?? p.port;
    }
    live.status = { loadBalancer: {} };
  },
  'autoscaling/HorizontalPodAutoscaler': (live) => {
    live.status = { currentReplicas: 3, desiredReplicas: 3, currentMetrics: null };
  },
  'rbac.authorization.k8s.io/RoleBinding': (live) => {
    for (const s of live.subjects ?? []) {
      if (s.kind === 'Group' || s.kind === 'User') {
        s.apiGroup = s.apiGroup ?? 'rbac.authorization.k8s.io';
      }
    }
  },
  'argoproj.io/Application': (live) => {
    live.status = { sync: { status: 'Synced' }, health: { status: 'Healthy' } };
  },
};

/** `desired` as the cluster returns it after Argo CD (annotation tracking) applied it for `app` into `namespace`. */
function asServed(desired: JsonMap, app: string, namespace: string): JsonMap {
  const target: any = clone(desired);
  target.metadata.namespace = target.metadata.namespace ?? namespace;
  const group = groupOf(target.apiVersion);
  target.metadata.annotations = {
    ...(target.metadata.annotations ?? {}),
    'argocd.argoproj.io/tracking-id': `${app}:${group}/${target.kind}:${target.metadata.namespace}/${target.metadata.name ?? target.metadata.generateName}`,
  };
  const live: any = clone(target);
  live.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] = `${JSON.stringify(target)}\n`;
  if (live.metadata.name === undefined) {
    live.metadata.name = `${live.metadata.generateName}x7k2q`;
  }
  Object.assign(live.metadata, {
    uid: '5f0c2a9e-0000-4000-8000-00000000c0de',
    resourceVersion: '918273',
    generation: 1,
    creationTimestamp: FIXED,
    managedFields: [{ manager: 'argocd-controller', operation: 'Update', apiVersion: live.apiVersion, time: FIXED, fieldsType: 'FieldsV1', fieldsV1: {} }],
  });
  SERVED[`${group}/${live.kind}`]?.(live);
  return live;
}

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
