import { ApiObject, Chart, JsonPatch, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import * as fc from 'fast-check';
import { Autoscaler, GitOpsApp, HpaManagedDeployment, KedaTrigger, SafeApplication } from '../../src';
import { autoscalerOf, scaler } from '../properties/support';
import { applicationOf, appProps, newApp } from '../support/app';
import { crdErrors } from '../support/crd';
import { kubeErrors } from '../support/kube';

const REASONS = 'safe-argocd/ignore-reasons';
const RESPECT = 'RespectIgnoreDifferences=true';

/** The ignoreDifferences entries of an app that name one Deployment. */
function entriesFor(app: SafeApplication, name: string): any[] {
  return (applicationOf(app).spec.ignoreDifferences ?? [])
    .filter((e: any) => e.kind === 'Deployment' && e.group === 'apps' && e.name === name);
}

function replicasEntry(name: string) {
  return { group: 'apps', kind: 'Deployment', name, namespace: 'payments', jsonPointers: ['/spec/replicas'] };
}

function webDeployment(scope: Construct, id: string, autoscaler: Autoscaler, name?: string): HpaManagedDeployment {
  return new HpaManagedDeployment(scope, id, {
    metadata: name ? { name } : undefined,
    autoscaler,
    containers: [{ name: 'web', image: 'registry.acme.internal/web:1.4.2', portNumber: 8080 }],
  });
}

describe('a plain cdk8s-plus Deployment, for contrast', () => {
  test('declares replicas, which is what HpaManagedDeployment avoids', () => {
    const plain = new kplus.Deployment(new Chart(Testing.app(), 'plain'), 'web', { containers: [{ image: 'nginx' }] });
    expect(ApiObject.of(plain).toJson().spec.replicas).toBe(2);
  });
});

describe('HpaManagedDeployment with an HPA', () => {
  // GIVEN an app
  const { app, gitops } = newApp();
  // WHEN an HpaManagedDeployment with an HPA (CPU only) is added
  const web = webDeployment(app, 'web', Autoscaler.hpa({ minReplicas: 3, maxReplicas: 12, cpuUtilizationPercent: 70 }), 'web');
  const deployment = ApiObject.of(web).toJson();
  const hpa = ApiObject.of(web.hpa!).toJson();
  const application = applicationOf(app);

  test('the Deployment has no spec.replicas', () => {
    // THEN the autoscaler alone owns the replica count
    expect(deployment.kind).toBe('Deployment');
    expect(deployment.metadata.name).toBe('web');
    expect(deployment.spec).toBeDefined();
    expect('replicas' in deployment.spec).toBe(false);
  });

  test('the Deployment is the default child, so ApiObject.of reaches it', () => {
    expect(ApiObject.of(web)).toBe(ApiObject.of(web.deployment));
  });

  test('creates an autoscaling/v2 HPA named like the Deployment, with the bounds, targeting it', () => {
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.kind).toBe('HorizontalPodAutoscaler');
    expect(hpa.metadata).toEqual({ name: 'web', namespace: 'payments' });
    expect(hpa.spec.minReplicas).toBe(3);
    expect(hpa.spec.maxReplicas).toBe(12);
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' });
    expect(hpa.spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
    ]);
  });

  test('the Application gains exactly one ignore entry for the Deployment\'s /spec/replicas, and respects it', () => {
    expect(application.spec.ignoreDifferences).toEqual([replicasEntry('web')]);
    expect(application.spec.syncPolicy.syncOptions).toContain(RESPECT);
    expect(application.metadata.annotations[REASONS]).toBe('apps/Deployment payments/web /spec/replicas: replicas are owned by HorizontalPodAutoscaler web');
  });

  test('every object validates against its Kubernetes schema and the Application against the v3.5.1 CRD', () => {
    expect(kubeErrors(deployment)).toEqual([]);
    expect(kubeErrors(hpa)).toEqual([]);
    expect(crdErrors('application', '3.5', application)).toEqual([]);
  });

  test('the whole app synthesizes, writing the Deployment and the HPA into the app\'s folder', () => {
    // THEN the synth-time rules (SA101, SA102 among them) pass
    const paths = gitops.renderFiles().map((f) => f.path);
    expect(paths).toContain('workloads/checkout/Deployment.web.k8s.yaml');
    expect(paths).toContain('workloads/checkout/HorizontalPodAutoscaler.web.k8s.yaml');
  });
});

describe('HpaManagedDeployment metrics and multiples', () => {
  test('with CPU and memory, memory comes first, then CPU (the order the HPA controller keeps)', () => {
    // GIVEN an app WHEN an HPA with both targets is added
    const { app } = newApp();
    const web = webDeployment(app, 'web', Autoscaler.hpa({ maxReplicas: 5, cpuUtilizationPercent: 70, memoryUtilizationPercent: 80 }), 'web');
    // THEN memory precedes CPU, and minReplicas defaults to 2
    const spec = ApiObject.of(web.hpa!).toJson().spec;
    expect(spec.metrics.map((m: any) => m.resource.name)).toEqual(['memory', 'cpu']);
    expect(spec.metrics[0].resource.target).toEqual({ type: 'Utilization', averageUtilization: 80 });
    expect(spec.metrics[1].resource.target).toEqual({ type: 'Utilization', averageUtilization: 70 });
    expect(spec.minReplicas).toBe(2);
    expect(kubeErrors(ApiObject.of(web.hpa!).toJson())).toEqual([]);
  });

  test('with memory only, the HPA has one memory metric', () => {
    const { app } = newApp();
    const web = webDeployment(app, 'web', Autoscaler.hpa({ maxReplicas: 5, memoryUtilizationPercent: 75 }), 'web');
    expect(ApiObject.of(web.hpa!).toJson().spec.metrics.map((m: any) => m.resource.name)).toEqual(['memory']);
  });

  test('two HpaManagedDeployments give two entries, one each, and one RespectIgnoreDifferences', () => {
    // GIVEN an app WHEN two autoscaled Deployments are added
    const { app, gitops } = newApp();
    webDeployment(app, 'web', Autoscaler.hpa({ maxReplicas: 5, cpuUtilizationPercent: 70 }), 'web');
    webDeployment(app, 'worker', Autoscaler.hpa({ maxReplicas: 9, memoryUtilizationPercent: 60 }), 'worker');
    const application = applicationOf(app);
    // THEN each has its own entry, in the order they were added
    expect(application.spec.ignoreDifferences).toEqual([replicasEntry('web'), replicasEntry('worker')]);
    expect(application.spec.syncPolicy.syncOptions.filter((o: string) => o === RESPECT)).toHaveLength(1);
    expect(crdErrors('application', '3.5', application)).toEqual([]);
    expect(() => gitops.renderFiles()).not.toThrow();
  });

  test('a Deployment without a metadata name is targeted by its generated name', () => {
    // GIVEN an HpaManagedDeployment without an explicit name
    const { app, gitops } = newApp();
    const web = webDeployment(app, 'web', Autoscaler.hpa({ maxReplicas: 5, cpuUtilizationPercent: 70 }));
    // THEN the HPA, its target and the ignore entry all use the one generated name
    const name = web.deployment.name;
    expect(ApiObject.of(web.hpa!).toJson().metadata.name).toBe(name);
    expect(ApiObject.of(web.hpa!).toJson().spec.scaleTargetRef.name).toBe(name);
    expect(entriesFor(app, name)).toEqual([replicasEntry(name)]);
    expect(() => gitops.renderFiles()).not.toThrow();
  });
});

describe('HpaManagedDeployment with an autoscaler defined elsewhere', () => {
  test.each([
    ['a KEDA ScaledObject', Autoscaler.kedaScaledObject('x'), 'replicas are owned by KEDA ScaledObject x (through the HPA it manages)'],
    ['an external HPA', Autoscaler.externalHpa('x'), 'replicas are owned by HorizontalPodAutoscaler x, managed outside this app'],
  ])('with %s: no HPA, no replicas, the same ignore rule, and a reason naming the owner', (_label, autoscaler, reason) => {
    // GIVEN an app WHEN the autoscaler is defined outside the construct
    const { app, gitops } = newApp();
    const web = webDeployment(app, 'web', autoscaler, 'web');
    const deployment = ApiObject.of(web).toJson();
    const application = applicationOf(app);
    // THEN nothing but the Deployment is created, it has no replicas, and the Application ignores them
    expect(web.hpa).toBeUndefined();
    expect(web.node.findAll().filter((c) => ApiObject.isApiObject(c)).map((o) => (o as ApiObject).kind)).toEqual(['Deployment']);
    expect('replicas' in deployment.spec).toBe(false);
    expect(application.spec.ignoreDifferences).toEqual([replicasEntry('web')]);
    expect(application.spec.syncPolicy.syncOptions).toContain(RESPECT);
    expect(application.metadata.annotations[REASONS]).toBe(`apps/Deployment payments/web /spec/replicas: ${reason}`);
    expect(kubeErrors(deployment)).toEqual([]);
    expect(crdErrors('application', '3.5', application)).toEqual([]);
    expect(() => gitops.renderFiles()).not.toThrow();
  });
});

describe('HpaManagedDeployment with a KEDA ScaledObject it creates', () => {
  test('renders a keda.sh/v1alpha1 ScaledObject named like the Deployment, targeting it, and one ignore entry', () => {
    // GIVEN
    const { app, gitops } = newApp();
    // WHEN
    const web = webDeployment(app, 'web', Autoscaler.keda({ minReplicaCount: 1, maxReplicaCount: 8, triggers: [KedaTrigger.cpuUtilization(65)] }), 'checkout-web');
    // THEN
    const scaled = web.scaledObject!.toJson();
    expect([scaled.apiVersion, scaled.kind, scaled.metadata.name]).toEqual(['keda.sh/v1alpha1', 'ScaledObject', 'checkout-web']);
    expect(scaled.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout-web' },
      minReplicaCount: 1,
      maxReplicaCount: 8,
      triggers: [{ type: 'cpu', metricType: 'Utilization', metadata: { value: '65' } }],
    });
    expect(web.hpa).toBeUndefined();
    expect(ApiObject.of(web).toJson().spec.replicas).toBeUndefined();
    expect(applicationOf(app).spec.ignoreDifferences).toEqual([replicasEntry('checkout-web')]);
    expect(gitops.renderFiles().map((f) => f.path)).toContain('workloads/checkout/ScaledObject.checkout-web.k8s.yaml');
  });

  test('fails at synth when an escape hatch adds spec.replicas back (SA101 names the ScaledObject)', () => {
    const { app, gitops } = newApp();
    const web = webDeployment(app, 'web', Autoscaler.keda({ maxReplicaCount: 8, triggers: [KedaTrigger.cpuUtilization(65)] }), 'checkout-web');
    ApiObject.of(web).addJsonPatch(JsonPatch.add('/spec/replicas', 2));
    expect(() => gitops.renderFiles()).toThrow(/SA101 [^\n]*Deployment payments\/checkout-web[^\n]*ScaledObject checkout-web scales it/);
  });
});

describe('HpaManagedDeployment refusals', () => {
  test('fails when defined in a plain cdk8s Chart, outside a SafeApplication', () => {
    // GIVEN a plain chart
    const chart = new Chart(Testing.app(), 'plain', { namespace: 'payments' });
    // WHEN an HpaManagedDeployment is added THEN it refuses, and creates nothing
    expect(() => webDeployment(chart, 'web', Autoscaler.hpa({ maxReplicas: 5, cpuUtilizationPercent: 70 })))
      .toThrow(/^\[SAFE-010\] plain\/web: scope /);
    expect(chart.node.findAll().filter((c) => ApiObject.isApiObject(c))).toEqual([]);
  });

  test('fails when defined in a chart of a GitOpsApp that is not a SafeApplication', () => {
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const chart = new Chart(gitops, 'plain');
    expect(() => webDeployment(chart, 'web', Autoscaler.externalHpa('x'))).toThrow(/\[SAFE-010\]/);
  });

  test('fails at synth when an escape hatch adds spec.replicas back (SA101)', () => {
    // GIVEN an autoscaled Deployment whose ApiObject is patched to declare replicas
    const { app, gitops } = newApp();
    const web = webDeployment(app, 'web', Autoscaler.hpa({ maxReplicas: 5, cpuUtilizationPercent: 70 }), 'web');
    ApiObject.of(web).addJsonPatch(JsonPatch.add('/spec/replicas', 3));
    // WHEN synthesized THEN the rule that guards the invariant reports it
    expect(() => gitops.renderFiles()).toThrow(/SA101 [^\n]*Deployment payments\/web/);
  });
});

describe('kubeErrors (test support) is not vacuous', () => {
  test('fails when a Deployment has no pod template, or an HPA no maxReplicas', () => {
    expect(kubeErrors({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { selector: {} } }).join('\n')).toContain('template');
    expect(kubeErrors({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'x' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'x' } } }).join('\n')).toContain('maxReplicas');
    expect(kubeErrors({ apiVersion: 'v1', kind: 'Service', metadata: { name: 5 } }).join('\n')).toContain('/metadata/name');
    expect(() => kubeErrors({ apiVersion: 'v1', kind: 'Pod' })).toThrow(/no schema for v1\/Pod/);
  });
});

// Arbitraries for valid props.
const dnsLabel = fc.stringMatching(/^[a-z]([-a-z0-9]{0,20}[a-z0-9])?$/);
const image = fc.tuple(
  fc.constantFrom('', 'registry.acme.internal/', 'ghcr.io/acme/', 'localhost:5000/'),
  fc.stringMatching(/^[a-z0-9]+([._-][a-z0-9]+)*$/).filter((s) => s.length <= 30),
  fc.oneof(fc.stringMatching(/^:[A-Za-z0-9_][A-Za-z0-9_.-]{0,20}$/), fc.constant(`@sha256:${'a'.repeat(64)}`)),
).map(([registry, repo, ref]) => `${registry}${repo}${ref}`);
const containers = fc.uniqueArray(fc.record({ name: dnsLabel, image }), { minLength: 1, maxLength: 3, selector: (c) => c.name });
describe('HpaManagedDeployment properties', () => {
  test('for any valid props: no spec.replicas, exactly one ignore entry for the Deployment, RespectIgnoreDifferences', () => {
    fc.assert(
      fc.property(scaler, containers, fc.option(dnsLabel, { nil: undefined }), (v, cs, name) => {
        // GIVEN a fresh app WHEN one HpaManagedDeployment with arbitrary valid props is added
        const gitops = new GitOpsApp({ outdir: 'dist' });
        const app = new SafeApplication(gitops, 'checkout', appProps());
        const web = new HpaManagedDeployment(app, 'web', {
          metadata: name === undefined ? undefined : { name },
          autoscaler: autoscalerOf(v),
          containers: cs,
        });
        const deployment = ApiObject.of(web).toJson();
        const application = applicationOf(app);
        // THEN the invariants hold
        expect(deployment.spec.replicas).toBeUndefined();
        expect(entriesFor(app, deployment.metadata.name)).toEqual([replicasEntry(deployment.metadata.name)]);
        expect(application.spec.ignoreDifferences).toHaveLength(1);
        expect(application.spec.syncPolicy.syncOptions).toContain(RESPECT);
        expect(deployment.spec.template.spec.containers.map((c: any) => c.name)).toEqual(cs.map((c) => c.name));
        if (v.kind === 'hpa') {
          const hpa = ApiObject.of(web.hpa!).toJson();
          expect(hpa.spec.scaleTargetRef.name).toBe(deployment.metadata.name);
          expect([hpa.spec.minReplicas, hpa.spec.maxReplicas]).toEqual([v.options.minReplicas ?? 2, v.options.maxReplicas]);
        } else {
          expect(web.hpa).toBeUndefined();
        }
      }),
      { numRuns: 1000 },
    );
  });
});

