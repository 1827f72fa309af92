import { ApiObject, Chart, JsonPatch, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import * as fc from 'fast-check';
import { Autoscaler, HpaManagedDeployment, HpaManagedStatefulSet, HpaManagedStatefulSetProps, KedaTrigger } from '../../src';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { runRules } from '../../src/rules/engine';
import { replicasOnAutoscaledWorkload } from '../../src/rules/sa101-replicas-on-autoscaled-workload';
import { autoscaledWithoutIgnore } from '../../src/rules/sa102-autoscaled-without-ignore';
import { autoscalerOf, scaler } from '../properties/support';
import { applicationOf, newApp, renderedForAudit } from '../support/app';
import { crdErrors } from '../support/crd';
import { kubeErrors } from '../support/kube';

const REASONS = 'safe-argocd/ignore-reasons';
const RESPECT = 'RespectIgnoreDifferences=true';

function replicasEntry(name: string) {
  return { group: 'apps', kind: 'StatefulSet', name, namespace: 'payments', jsonPointers: ['/spec/replicas'] };
}

/** An HpaManagedStatefulSet `id` with one container on port 6379, named `name`, with `extra` props. */
function cache(
  scope: Construct, id: string, autoscaler: Autoscaler, name?: string, extra: Partial<HpaManagedStatefulSetProps> = {},
): HpaManagedStatefulSet {
  return new HpaManagedStatefulSet(scope, id, {
    metadata: name ? { name } : undefined,
    autoscaler,
    containers: [{ name: 'cache', image: 'registry.acme.internal/cache:7.2.4', portNumber: 6379 }],
    ...extra,
  });
}

describe('a plain cdk8s-plus StatefulSet, for contrast', () => {
  test('declares replicas, which is what HpaManagedStatefulSet avoids', () => {
    const plain = new kplus.StatefulSet(new Chart(Testing.app(), 'plain'), 'cache', { containers: [{ image: 'redis', portNumber: 6379 }] });
    expect(ApiObject.of(plain).toJson().spec.replicas).toBe(1);
  });
});

describe('HpaManagedStatefulSet with an HPA', () => {
  // GIVEN an app WHEN an HpaManagedStatefulSet with an HPA (memory and CPU) is added
  const { app, gitops } = newApp();
  const store = cache(app, 'cache', Autoscaler.hpa({ minReplicas: 3, maxReplicas: 9, cpuUtilizationPercent: 70, memoryUtilizationPercent: 80 }), 'cache');
  const statefulSet = ApiObject.of(store).toJson();
  const hpa = ApiObject.of(store.hpa!).toJson();
  const application = applicationOf(app);

  test('the StatefulSet has no spec.replicas, and is the default child', () => {
    expect(statefulSet.kind).toBe('StatefulSet');
    expect(statefulSet.metadata.name).toBe('cache');
    expect(statefulSet.spec.serviceName).toEqual(expect.any(String));
    expect('replicas' in statefulSet.spec).toBe(false);
    expect(ApiObject.of(store)).toBe(ApiObject.of(store.statefulSet));
  });

  test('creates an autoscaling/v2 HPA named like the StatefulSet, targeting apps/v1 StatefulSet, memory before CPU', () => {
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.metadata).toEqual({ name: 'cache', namespace: 'payments' });
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'cache' });
    expect([hpa.spec.minReplicas, hpa.spec.maxReplicas]).toEqual([3, 9]);
    expect(hpa.spec.metrics.map((m: any) => m.resource.name)).toEqual(['memory', 'cpu']);
  });

  test('the Application gains exactly one ignore entry for the StatefulSet\'s /spec/replicas, and respects it', () => {
    expect(application.spec.ignoreDifferences).toEqual([replicasEntry('cache')]);
    expect(application.spec.syncPolicy.syncOptions).toContain(RESPECT);
    expect(application.metadata.annotations[REASONS]).toBe('apps/StatefulSet payments/cache /spec/replicas: replicas are owned by HorizontalPodAutoscaler cache');
  });

  test('the StatefulSet and HPA validate against their Kubernetes schemas', () => {
    expect(kubeErrors(statefulSet)).toEqual([]);
    expect(kubeErrors(hpa)).toEqual([]);
  });

  test('the Application validates against the Argo CD 3.5 CRD', () => {
    expect(crdErrors('application', '3.5', application)).toEqual([]);
  });

  test('the whole app synthesizes, writing the StatefulSet, its headless Service and the HPA into the app\'s folder', () => {
    const paths = gitops.renderFiles().map((f) => f.path);
    expect(paths).toContain('workloads/checkout/StatefulSet.cache.k8s.yaml');
    expect(paths).toContain('workloads/checkout/HorizontalPodAutoscaler.cache.k8s.yaml');
    expect(paths.filter((p) => p.startsWith('workloads/checkout/Service.'))).toHaveLength(1);
  });

  test('the audit rules SA101 and SA102 find nothing in what it renders', () => {
    const { application: rendered_, resources } = renderedForAudit(app);
    const input = { application: rendered_, resources, argoCdVersion: ArgoCdVersion.LATEST };
    const findings = runRules(input, [replicasOnAutoscaledWorkload, autoscaledWithoutIgnore]);
    expect(findings).toEqual([]);
  });
});

describe('HpaManagedStatefulSet options', () => {
  test('passes the StatefulSet props through: pod management policy, update strategy, service', () => {
    // GIVEN
    const { app } = newApp();
    const service = new kplus.Service(app, 'peers', { metadata: { name: 'cache-peers' }, clusterIP: 'None', ports: [{ port: 6379 }] });
    // WHEN
    const store = cache(app, 'cache', Autoscaler.hpa({ maxReplicas: 5, cpuUtilizationPercent: 60 }), 'cache', {
      service, podManagementPolicy: kplus.PodManagementPolicy.PARALLEL, strategy: kplus.StatefulSetUpdateStrategy.rollingUpdate({ partition: 1 }),
    });
    const spec = ApiObject.of(store).toJson().spec;
    // THEN
    expect(spec.serviceName).toBe('cache-peers');
    expect(spec.podManagementPolicy).toBe('Parallel');
    expect(spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 1 } });
    expect(spec.replicas).toBeUndefined();
  });

  test.each([
    ['a KEDA ScaledObject', Autoscaler.kedaScaledObject('cache'), 'replicas are owned by KEDA ScaledObject cache (through the HPA it manages)'],
    ['an external HPA', Autoscaler.externalHpa('cache'), 'replicas are owned by HorizontalPodAutoscaler cache, managed outside this app'],
  ])('with %s: no HPA, no replicas, the same ignore rule, and a reason naming the owner', (_label, autoscaler, reason) => {
    // GIVEN an app WHEN the autoscaler is defined outside the construct
    const { app, gitops } = newApp();
    const store = cache(app, 'cache', autoscaler, 'cache');
    const application = applicationOf(app);
    // THEN
    expect(store.hpa).toBeUndefined();
    expect(store.node.findAll().filter((c) => ApiObject.isApiObject(c)).map((o) => (o as ApiObject).kind).sort()).toEqual(['Service', 'StatefulSet']);
    expect('replicas' in ApiObject.of(store).toJson().spec).toBe(false);
    expect(application.spec.ignoreDifferences).toEqual([replicasEntry('cache')]);
    expect(application.metadata.annotations[REASONS]).toBe(`apps/StatefulSet payments/cache /spec/replicas: ${reason}`);
    expect(() => gitops.renderFiles()).not.toThrow();
  });

  test('beside an HpaManagedDeployment of the same name, each gets its own entry, for its own kind', () => {
    // GIVEN a StatefulSet and a Deployment both named "cache" (different kinds, so no clash in Kubernetes)
    const { app, gitops } = newApp();
    cache(app, 'cache', Autoscaler.externalHpa('cache-sts'), 'cache');
    new HpaManagedDeployment(app, 'web', { metadata: { name: 'cache' }, autoscaler: Autoscaler.externalHpa('cache-deploy'), containers: [{ image: 'registry.acme.internal/web:1.0.0' }] });
    // THEN
    expect(applicationOf(app).spec.ignoreDifferences).toEqual([replicasEntry('cache'), { ...replicasEntry('cache'), kind: 'Deployment' }]);
    expect(() => gitops.renderFiles()).not.toThrow();
  });
});

describe('HpaManagedStatefulSet with a KEDA ScaledObject it creates', () => {
  test('the ScaledObject targets apps/v1 StatefulSet and may scale it to zero on an event trigger', () => {
    // GIVEN
    const { app, gitops } = newApp();
    const trigger = KedaTrigger.custom('rabbitmq', { queueName: 'orders', mode: 'QueueLength', value: '20' });
    // WHEN
    const store = cache(app, 'cache', Autoscaler.keda({ minReplicaCount: 0, maxReplicaCount: 6, triggers: [trigger] }), 'cache');
    // THEN
    const scaled = store.scaledObject!.toJson();
    expect(scaled.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'cache' });
    expect([scaled.spec.minReplicaCount, scaled.spec.maxReplicaCount]).toEqual([0, 6]);
    expect(ApiObject.of(store).toJson().spec.replicas).toBeUndefined();
    expect(applicationOf(app).spec.ignoreDifferences).toEqual([replicasEntry('cache')]);
    expect(() => gitops.renderFiles()).not.toThrow();
  });

  test('fails at synth when an escape hatch adds spec.replicas back (SA101 names the ScaledObject)', () => {
    const { app, gitops } = newApp();
    const store = cache(app, 'cache', Autoscaler.keda({ maxReplicaCount: 6, triggers: [KedaTrigger.memoryUtilization(75)] }), 'cache');
    ApiObject.of(store).addJsonPatch(JsonPatch.add('/spec/replicas', 3));
    expect(() => gitops.renderFiles()).toThrow(/SA101 [^\n]*StatefulSet payments\/cache[^\n]*ScaledObject cache scales it/);
  });
});

describe('HpaManagedStatefulSet refusals', () => {
  test('fails when defined in a plain cdk8s Chart, outside a SafeApplication, and creates nothing', () => {
    const chart = new Chart(Testing.app(), 'plain', { namespace: 'payments' });
    expect(() => cache(chart, 'cache', Autoscaler.hpa({ maxReplicas: 5, cpuUtilizationPercent: 70 }))).toThrow(/^\[SAFE-010\] plain\/cache: scope /);
    expect(chart.node.findAll().filter((c) => ApiObject.isApiObject(c))).toEqual([]);
  });

  test('fails when no container declares a port and no service is given, before creating anything', () => {
    const { app } = newApp();
    const create = () => new HpaManagedStatefulSet(app, 'cache', { autoscaler: Autoscaler.externalHpa('cache'), containers: [{ image: 'registry.acme.internal/cache:7.2.4' }] });
    expect(create).toThrow(/^\[SAFE-037\] checkout\/cache: service is missing; it must be given when no container declares a port.*Fix: give a container a portNumber, or pass a headless kplus.Service$/);
    expect(app.node.tryFindChild('cache')?.node.findAll().filter((c) => ApiObject.isApiObject(c)) ?? []).toEqual([]);
  });

  test('fails at synth when an escape hatch adds spec.replicas back (SA101)', () => {
    const { app, gitops } = newApp();
    const store = cache(app, 'cache', Autoscaler.hpa({ maxReplicas: 5, cpuUtilizationPercent: 70 }), 'cache');
    ApiObject.of(store).addJsonPatch(JsonPatch.add('/spec/replicas', 3));
    expect(() => gitops.renderFiles()).toThrow(/SA101 [^\n]*StatefulSet payments\/cache/);
  });
});

describe('HpaManagedStatefulSet properties', () => {
  test('for any autoscaler and name: no spec.replicas, exactly one ignore entry for the StatefulSet, the HPA targeting it', () => {
    fc.assert(
      fc.property(scaler, fc.option(fc.stringMatching(/^[a-z]([-a-z0-9]{0,20}[a-z0-9])?$/), { nil: undefined }), (v, name) => {
        // GIVEN a fresh app WHEN one HpaManagedStatefulSet is added
        const { app } = newApp();
        const store = cache(app, 'cache', autoscalerOf(v), name);
        const statefulSet = ApiObject.of(store).toJson();
        const application = applicationOf(app);
        // THEN the invariants hold
        expect(statefulSet.spec.replicas).toBeUndefined();
        expect(application.spec.ignoreDifferences).toEqual([replicasEntry(statefulSet.metadata.name)]);
        expect(application.spec.syncPolicy.syncOptions).toContain(RESPECT);
        if (v.kind === 'hpa') {
          expect(ApiObject.of(store.hpa!).toJson().spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: statefulSet.metadata.name });
        } else {
          expect(store.hpa).toBeUndefined();
        }
      }),
      { numRuns: 200 },
    );
  });
});
