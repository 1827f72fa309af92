import { deployment, edited } from './support';
import { applyDeletionDefaults } from '../../src/drift/defaults';
import { Json, JsonMap } from '../../src/drift/json';
import { merge3, mergeContextFor, mergeKeyFor, restoreIgnored } from '../../src/drift/merge';

// Source: gitops-engine/pkg/diff/diff.go (ThreeWayDiff, threeWayMergePatch): built-in kinds get
// strategicpatch.CreateThreeWayMergePatch(last-applied, Git, live) with the Go types' patchStrategy and
// patchMergeKey tags; kinds the scheme does not know (custom resources) get
// jsonmergepatch.CreateThreeWayJSONMergePatch, where every list is replaced whole. Merge keys per
// ARGO-FACTS "How Argo CD compares live and desired" (k8s.io/api core/v1 and apps/v1 types.go tags).

/** The three-way merge for `obj`'s kind: last-applied, Git, live. */
function merge(original: Json | undefined, modified: Json, current: Json) {
  const ctx = mergeContextFor(modified);
  return { result: merge3(original, modified, current, ctx) as any, deleted: ctx.deleted };
}

/** A Deployment whose pod template has the given containers. */
function withContainers(containers: JsonMap[], replicas?: number): JsonMap {
  return edited(deployment(replicas), (d) => { d.spec.template.spec.containers = containers; });
}

const WEB: JsonMap = { name: 'web', image: 'registry.acme.internal/web:1.0.0' };
const SIDECAR: JsonMap = { name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.22.0' };
const LOGGER: JsonMap = { name: 'logger', image: 'registry.acme.internal/logger:1.0.0' };

/** The containers of a merged Deployment, by name. */
function containerNames(result: any): string[] {
  return result.spec.template.spec.containers.map((c: JsonMap) => c.name);
}

function container(result: any, name: string): any {
  return result.spec.template.spec.containers.find((c: JsonMap) => c.name === name);
}

describe('fields', () => {
  test('a field only live has is kept: it is not drift', () => {
    // GIVEN Git and last-applied without replicas, live scaled to 8 by an HPA
    const { result } = merge(deployment(), deployment(), deployment(8));

    // THEN the predicted live keeps 8
    expect(result.spec.replicas).toBe(8);
  });

  test('a value Git declares and live changed is set back to Git\'s value', () => {
    const { result } = merge(deployment(3), deployment(3), deployment(8));
    expect(result.spec.replicas).toBe(3);
  });

  test('a field in last-applied that left Git is deleted, and recorded as deleted', () => {
    // GIVEN replicas: 3 was applied, Git no longer declares it, an HPA scaled live to 8
    const { result, deleted } = merge(deployment(3), deployment(), deployment(8));

    // THEN the merge deletes it
    expect(result.spec.replicas).toBeUndefined();
    expect(deleted).toEqual([['spec', 'replicas']]);
  });

  test('a deleted Deployment spec.replicas falls back to 1: the one-time scale to 1 (Kubernetes HPA migration docs)', () => {
    // GIVEN the merge above
    const ctx = mergeContextFor(deployment());
    const merged = merge3(deployment(3), deployment(), deployment(8), ctx) as Json;

    // WHEN the API server defaults the deleted field
    const applied = applyDeletionDefaults(merged, ctx.deleted) as any;

    // THEN the Deployment is scaled to 1
    expect(applied.spec.replicas).toBe(1);
  });

  test('a field deleted from a kind without a modelled default stays absent', () => {
    // GIVEN a label that was applied and left Git
    const ctx = mergeContextFor(deployment());
    const lastApplied = edited(deployment(), (d) => { d.metadata.labels.team = 'payments'; });
    const merged = applyDeletionDefaults(merge3(lastApplied, deployment(), lastApplied, ctx) as Json, ctx.deleted) as any;

    // THEN it is removed and nothing takes its place
    expect(merged.metadata.labels).toEqual({ app: 'web' });
  });

  test('an annotation only live has (never applied) is kept and nothing is recorded as deleted', () => {
    // GIVEN live has an annotation added by someone else; last-applied and Git have none
    const live = edited(deployment(), (d) => { d.metadata.annotations = { 'deployment.kubernetes.io/revision': '4' }; });
    const { result, deleted } = merge(deployment(), deployment(), live);
    expect(result.metadata.annotations).toEqual({ 'deployment.kubernetes.io/revision': '4' });
    expect(deleted).toEqual([]);
  });
});

describe('lists with a merge key (strategic merge)', () => {
  test('containers by name: a container only live has (an injected sidecar) is kept', () => {
    const { result } = merge(withContainers([WEB]), withContainers([WEB]), withContainers([WEB, SIDECAR]));
    expect(containerNames(result)).toEqual(['web', 'istio-proxy']);
    expect(container(result, 'istio-proxy')).toEqual(SIDECAR);
  });

  test('containers by name: a container removed from Git but in last-applied is removed', () => {
    // GIVEN logger was applied, has left Git, and live still runs it next to an injected sidecar
    const { result } = merge(withContainers([WEB, LOGGER]), withContainers([WEB]), withContainers([WEB, LOGGER, SIDECAR]));

    // THEN logger goes, the sidecar stays
    expect(containerNames(result)).toEqual(['web', 'istio-proxy']);
  });

  test('containers by name: a field Git declares inside a container is set back, item by item', () => {
    const live = withContainers([{ ...WEB, image: 'registry.acme.internal/web:hotfix' }, SIDECAR]);
    const { result } = merge(withContainers([WEB]), withContainers([WEB]), live);
    expect(container(result, 'web').image).toBe('registry.acme.internal/web:1.0.0');
    expect(container(result, 'istio-proxy')).toEqual(SIDECAR);
  });

  test('containers by name: a container new in Git is added', () => {
    const { result } = merge(withContainers([WEB]), withContainers([WEB, LOGGER]), withContainers([WEB]));
    expect(containerNames(result)).toEqual(['web', 'logger']);
  });

  test('env by name: a variable only live has is kept, a Git-declared value is set back', () => {
    // GIVEN Git declares MODE=prod; live changed MODE and has an injected variable
    const git = withContainers([{ ...WEB, env: [{ name: 'MODE', value: 'prod' }] }]);
    const live = withContainers([{ ...WEB, env: [{ name: 'MODE', value: 'debug' }, { name: 'ISTIO_META', value: '1' }] }]);

    // WHEN merged
    const { result } = merge(git, git, live);

    // THEN both variables are there, MODE with Git's value
    expect(container(result, 'web').env).toEqual([{ name: 'MODE', value: 'prod' }, { name: 'ISTIO_META', value: '1' }]);
  });

  test('env by name: a variable removed from Git but in last-applied is removed', () => {
    const applied = withContainers([{ ...WEB, env: [{ name: 'MODE', value: 'prod' }, { name: 'OLD', value: 'x' }] }]);
    const git = withContainers([{ ...WEB, env: [{ name: 'MODE', value: 'prod' }] }]);
    const { result } = merge(applied, git, applied);
    expect(container(result, 'web').env).toEqual([{ name: 'MODE', value: 'prod' }]);
  });

  test('volumeMounts by mountPath: a mount only live has is kept, a mount removed from Git is removed', () => {
    // GIVEN /config was applied and left Git, /data stays, live has an injected /var/run/secrets/istio mount
    const mounts = (...paths: string[]) => paths.map((mountPath) => ({ name: mountPath.split('/').pop() ?? '', mountPath }));
    const applied = withContainers([{ ...WEB, volumeMounts: mounts('/data', '/config') }]);
    const git = withContainers([{ ...WEB, volumeMounts: mounts('/data') }]);
    const live = withContainers([{ ...WEB, volumeMounts: mounts('/data', '/config', '/var/run/secrets/istio') }]);

    // WHEN merged
    const { result } = merge(applied, git, live);

    // THEN /config is gone, the other two stay
    expect(container(result, 'web').volumeMounts.map((m: JsonMap) => m.mountPath)).toEqual(['/data', '/var/run/secrets/istio']);
  });

  test('container ports by containerPort: a port only live has is kept, Git\'s port fields are set back', () => {
    const git = withContainers([{ ...WEB, ports: [{ containerPort: 8080, name: 'http' }] }]);
    const live = withContainers([{ ...WEB, ports: [{ containerPort: 8080, name: 'renamed' }, { containerPort: 15090, name: 'http-envoy-prom' }] }]);
    const { result } = merge(git, git, live);
    expect(container(result, 'web').ports).toEqual([{ containerPort: 8080, name: 'http' }, { containerPort: 15090, name: 'http-envoy-prom' }]);
  });

  test('Service ports by port: a port only live has is kept, a port removed from Git is removed', () => {
    // GIVEN port 9090 was applied and left Git; live has an extra port 15021 added by someone else
    const service = (...ports: number[]): JsonMap => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'payments' },
      spec: { selector: { app: 'web' }, ports: ports.map((port) => ({ port, targetPort: port + 1 })) },
    });

    // WHEN merged
    const { result } = merge(service(80, 9090), service(80), service(80, 9090, 15021));

    // THEN 9090 is removed, 80 and 15021 stay
    expect(result.spec.ports.map((p: JsonMap) => p.port)).toEqual([80, 15021]);
  });

  test('mergeKeyFor knows container ports, Service ports and webhooks, and nothing for lists without a strategy', () => {
    const dep = mergeContextFor(deployment());
    const svc = mergeContextFor({ apiVersion: 'v1', kind: 'Service' });
    const vwc = mergeContextFor({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration' });
    expect(mergeKeyFor(['spec', 'template', 'spec', 'containers', '0', 'ports'], dep)).toBe('containerPort');
    expect(mergeKeyFor(['spec', 'template', 'spec', 'containers'], dep)).toBe('name');
    expect(mergeKeyFor(['spec', 'template', 'spec', 'containers', '0', 'volumeMounts'], dep)).toBe('mountPath');
    expect(mergeKeyFor(['spec', 'ports'], svc)).toBe('port');
    expect(mergeKeyFor(['webhooks'], vwc)).toBe('name');
    expect(mergeKeyFor(['spec', 'template', 'spec', 'containers', '0', 'args'], dep)).toBeUndefined();
    expect(mergeKeyFor(['spec', 'template', 'spec', 'tolerations'], dep)).toBeUndefined();
  });
});

describe('lists without a strategy are replaced whole (atomic)', () => {
  test('args: an argument added in live is dropped, Git\'s list wins', () => {
    const git = withContainers([{ ...WEB, args: ['--port=8080'] }]);
    const live = withContainers([{ ...WEB, args: ['--port=8080', '--debug'] }]);
    const { result } = merge(git, git, live);
    expect(container(result, 'web').args).toEqual(['--port=8080']);
  });

  test('tolerations: a toleration only live has is dropped', () => {
    const tolerations = (...keys: string[]) => keys.map((key) => ({ key, operator: 'Exists', effect: 'NoSchedule' }));
    const git = edited(deployment(), (d) => { d.spec.template.spec.tolerations = tolerations('dedicated'); });
    const live = edited(deployment(), (d) => { d.spec.template.spec.tolerations = tolerations('dedicated', 'spot'); });
    const { result } = merge(git, git, live);
    expect(result.spec.template.spec.tolerations).toEqual(tolerations('dedicated'));
  });

  test('HPA metrics: the controller\'s reordering is replaced by Git\'s order, so it differs (kubernetes #74099)', () => {
    const metric = (name: string) => ({ type: 'Resource', resource: { name, target: { type: 'Utilization', averageUtilization: 70 } } });
    const hpa = (...names: string[]): JsonMap => ({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'payments' },
      spec: { minReplicas: 2, maxReplicas: 10, metrics: names.map(metric) },
    });
    const { result } = merge(hpa('cpu', 'memory'), hpa('cpu', 'memory'), hpa('memory', 'cpu'));
    expect(result.spec.metrics).toEqual([metric('cpu'), metric('memory')]);
  });
});

describe('custom resources get a JSON merge patch: every list is replaced whole', () => {
  test('an argoproj.io Rollout: a container only live has is dropped, unlike in a Deployment', () => {
    // GIVEN a Rollout with an injected sidecar in live
    const rollout = (...containers: JsonMap[]): JsonMap => ({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'web', namespace: 'payments' },
      spec: { template: { spec: { containers } } },
    });

    // WHEN merged
    const { result } = merge(rollout(WEB), rollout(WEB), rollout(WEB, SIDECAR));

    // THEN Git's container list wins whole
    expect(containerNames(result)).toEqual(['web']);
  });

  test('a keda.sh ScaledObject: the triggers list is replaced whole', () => {
    const scaledObject = (...queues: string[]): JsonMap => ({
      apiVersion: 'keda.sh/v1alpha1',
      kind: 'ScaledObject',
      metadata: { name: 'web', namespace: 'payments' },
      spec: { scaleTargetRef: { name: 'web' }, triggers: queues.map((queueName) => ({ type: 'rabbitmq', metadata: { queueName } })) },
    });
    const { result } = merge(scaledObject('orders'), scaledObject('orders'), scaledObject('orders', 'added-by-hand'));
    expect(result.spec.triggers).toEqual([{ type: 'rabbitmq', metadata: { queueName: 'orders' } }]);
  });

  test('a field that left Git is still deleted and a field only live has is kept (RFC 7386 three-way)', () => {
    const cr = (spec: JsonMap): JsonMap => ({ apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'web' }, spec });
    const { result } = merge(
      cr({ minReplicaCount: 1, pollingInterval: 30 }),
      cr({ pollingInterval: 30 }),
      cr({ minReplicaCount: 1, pollingInterval: 30, paused: true }),
    );
    expect(result.spec).toEqual({ pollingInterval: 30, paused: true });
  });
});

describe('metadata.finalizers is merged as a set (ObjectMeta patchStrategy "merge")', () => {
  const withFinalizers = (...finalizers: string[]) => edited(deployment(), (d) => { d.metadata.finalizers = finalizers; });

  test('a finalizer only live has is kept, one removed from Git is removed, one added in Git is added', () => {
    // GIVEN a/b applied, Git now has a/c, live has a/b/d
    const { result } = merge(withFinalizers('acme.internal/a', 'acme.internal/b'), withFinalizers('acme.internal/a', 'acme.internal/c'), withFinalizers('acme.internal/a', 'acme.internal/b', 'acme.internal/d'));

    // THEN b goes, d stays, c comes (a set: the order is not modelled)
    expect([...result.metadata.finalizers].sort()).toEqual(['acme.internal/a', 'acme.internal/c', 'acme.internal/d']);
  });

  test('on a custom resource the finalizers list is replaced whole', () => {
    const cr = (...finalizers: string[]): JsonMap => ({ apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'web', finalizers } });
    const { result } = merge(cr('acme.internal/a'), cr('acme.internal/a'), cr('acme.internal/a', 'finalizer.keda.sh'));
    expect(result.metadata.finalizers).toEqual(['acme.internal/a']);
  });
});

describe('restoreIgnored (RespectIgnoreDifferences: controller/sync.go normalizeTargetResources)', () => {
  test('copies what live has beyond its normalized copy into the target: a field and a keyed list item', () => {
    // GIVEN live with replicas and an injected sidecar, its normalized copy without both, and a normalized Git object
    const live = withContainers([WEB, SIDECAR], 8);
    const normalizedLive = withContainers([WEB]);
    const target = withContainers([{ ...WEB, image: 'registry.acme.internal/web:2.0.0' }]);

    // WHEN the ignored live values are restored into the target
    const restored = restoreIgnored(target, normalizedLive, live, mergeContextFor(target)) as any;

    // THEN the target has live's replicas and sidecar, and keeps Git's image for web
    expect(restored.spec.replicas).toBe(8);
    expect(containerNames(restored)).toEqual(['web', 'istio-proxy']);
    expect(container(restored, 'web').image).toBe('registry.acme.internal/web:2.0.0');
  });
});
