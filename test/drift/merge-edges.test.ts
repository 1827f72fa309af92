import { deployment, edited } from './support';
import { isMap, Json, JsonMap } from '../../src/drift/json';
import { merge3, mergeContextFor, mergeKeyFor, restoreIgnored } from '../../src/drift/merge';

// Edge cases of the three-way merge that merge.test.ts leaves open. Sources as there: gitops-engine
// pkg/diff/diff.go (strategicpatch.CreateThreeWayMergePatch for built-in kinds, with the k8s.io/api
// patchMergeKey / patchStrategy tags; jsonmergepatch for the rest) and controller/sync.go
// normalizeTargetResources for restoreIgnored.

/** The three-way merge for `modified`'s kind: last-applied, Git, live. */
function merge(original: Json | undefined, modified: Json, current: Json) {
  const ctx = mergeContextFor(modified);
  return { result: merge3(original, modified, current, ctx) as any, deleted: ctx.deleted };
}

/** A Deployment whose pod template has the given containers. */
function withContainers(containers: Json[], replicas?: number): JsonMap {
  return edited(deployment(replicas), (d) => { d.spec.template.spec.containers = containers; });
}

/** A Deployment whose pod template has the given pod spec fields next to its containers. */
function withPodSpec(fields: JsonMap): JsonMap {
  return edited(deployment(), (d) => { Object.assign(d.spec.template.spec, fields); });
}

function podSpec(result: any): any {
  return result.spec.template.spec;
}

function container(result: any, name: string): any {
  return podSpec(result).containers.find((c: JsonMap) => c.name === name);
}

const WEB: JsonMap = { name: 'web', image: 'registry.acme.internal/web:1.0.0' };
const SIDECAR: JsonMap = { name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.22.0' };
const LOGGER: JsonMap = { name: 'logger', image: 'registry.acme.internal/logger:1.0.0' };

describe('mergeContextFor, on manifests without a usable apiVersion or kind', () => {
  test('no apiVersion reads as the core group (strategic merge); the kind is kept', () => {
    expect(mergeContextFor({ kind: 'ConfigMap' })).toEqual({ strategic: true, kind: 'ConfigMap', deleted: [] });
  });

  test('an apiVersion or kind that is not a string reads as empty, and does not throw', () => {
    expect(mergeContextFor({ apiVersion: 1, kind: 2 })).toEqual({ strategic: true, kind: '', deleted: [] });
    expect(mergeContextFor({ apiVersion: 'keda.sh/v1alpha1' })).toEqual({ strategic: false, kind: '', deleted: [] });
  });
});

describe('mergeKeyFor gives a key only to the list that has it', () => {
  const ctx = (apiVersion: string, kind: string) => mergeContextFor({ apiVersion, kind });
  const SERVICE = ctx('v1', 'Service');
  const WEBHOOKS = ctx('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration');

  test.each([
    // EndpointSlice.ports and NetworkPolicyPort lists have no patchMergeKey: atomic
    ['EndpointSlice ports', ctx('discovery.k8s.io/v1', 'EndpointSlice'), ['ports'], undefined],
    ['NetworkPolicy ingress ports', ctx('networking.k8s.io/v1', 'NetworkPolicy'), ['spec', 'ingress', '0', 'ports'], undefined],
    ['spec.ports of a kind that is not a Service', ctx('v1', 'ReplicationController'), ['spec', 'ports'], undefined],
    ['a list named ports deeper in a Service spec', SERVICE, ['spec', 'template', 'ports'], undefined],
    ['a list named ports outside a Service spec', SERVICE, ['status', 'ports'], undefined],
    ['Service spec.ports', SERVICE, ['spec', 'ports'], 'port'],
    ['MutatingWebhookConfiguration webhooks', WEBHOOKS, ['webhooks'], 'name'],
    // webhooks[].rules and other lists of a webhook configuration are atomic
    ['a webhook\'s rules', WEBHOOKS, ['webhooks', '0', 'rules'], undefined],
    ['webhooks of a kind that is not a webhook configuration', ctx('v1', 'ConfigMap'), ['webhooks'], undefined],
  ])('%s', (_what, context, path, key) => {
    expect(mergeKeyFor(path, context)).toBe(key);
  });
});

describe('merge3 on values the happy path does not meet', () => {
  test('with nothing from Git (modified undefined) the prediction is a copy of live', () => {
    const live = deployment(8);
    const ctx = mergeContextFor(live);

    const result = merge3(deployment(3), undefined, live, ctx) as any;

    expect(result).toEqual(deployment(8));
    expect(result).not.toBe(live);
    expect(ctx.deleted).toEqual([]);
  });

  test('a key Git maps to undefined (a JavaScript object, not JSON) is not written when live has none', () => {
    const git = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web' }, data: { MODE: 'prod', EXTRA: undefined } } as unknown as JsonMap;
    const live: JsonMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web' }, data: { MODE: 'debug' } };

    const { result } = merge(null, git, live);

    expect(result).toStrictEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web' }, data: { MODE: 'prod' } });
  });

  test('a ConfigMap data key named like a keyed list (env, containers) is a plain string value', () => {
    // GIVEN data keys that share their names with pod spec lists
    const configMap = (env: string): JsonMap => ({
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web' }, data: { env, containers: '2', volumes: 'none' },
    });

    // WHEN live's value was edited by hand
    const { result, deleted } = merge(configMap('production'), configMap('production'), configMap('staging'));

    // THEN Git's strings are set back
    expect(result.data).toEqual({ env: 'production', containers: '2', volumes: 'none' });
    expect(deleted).toEqual([]);
  });

  test('an atomic list Git empties (tolerations: []) is emptied, live\'s items go', () => {
    const spot = withPodSpec({ tolerations: [{ key: 'spot', operator: 'Exists', effect: 'NoSchedule' }] });
    const { result } = merge(spot, withPodSpec({ tolerations: [] }), spot);
    expect(podSpec(result).tolerations).toEqual([]);
  });

  test('a keyed list new in Git, absent from live, is Git\'s list', () => {
    // GIVEN Git adds imagePullSecrets (merge key name) to a Deployment that never had any
    const git = withPodSpec({ imagePullSecrets: [{ name: 'regcred' }] });

    const { result } = merge(deployment(), git, deployment());

    expect(podSpec(result).imagePullSecrets).toEqual([{ name: 'regcred' }]);
  });

  test('a container removed from Git is recorded as deleted at its index in live', () => {
    // GIVEN logger was applied and left Git; live runs web, logger and an injected sidecar
    const { result, deleted } = merge(withContainers([WEB, LOGGER]), withContainers([WEB]), withContainers([WEB, LOGGER, SIDECAR]));

    expect(podSpec(result).containers).toEqual([WEB, SIDECAR]);
    expect(deleted).toEqual([['spec', 'template', 'spec', 'containers', '1']]);
  });
});

// A list whose items do not all carry the merge key cannot be merged by key (kubectl's strategic patch
// rejects it: "does not contain declared merge key"); the model falls back to replacing the list whole.
describe('a keyed list with an item that has no usable merge key is replaced whole', () => {
  const live = () => withContainers([{ ...WEB, env: [{ name: 'MODE', value: 'debug' }, { name: 'ISTIO_META', value: '1' }] }, SIDECAR]);

  test('a container without a name', () => {
    const nameless = { image: 'docker.io/library/busybox:1.36' };
    const git = withContainers([WEB, nameless]);
    const { result } = merge(git, git, withContainers([WEB, SIDECAR]));
    expect(podSpec(result).containers).toEqual([WEB, nameless]);
  });

  test('an empty list item (YAML "- " with nothing after it is null)', () => {
    const git = withContainers([{ ...WEB, env: [{ name: 'MODE', value: 'prod' }, null] }]);
    const { result } = merge(git, git, live());
    expect(container(result, 'web').env).toEqual([{ name: 'MODE', value: 'prod' }, null]);
  });

  test('an item whose key is null (YAML "- name:" with no value)', () => {
    const git = withContainers([{ ...WEB, env: [{ name: null, value: 'x' }, { name: 'MODE', value: 'prod' }] }]);
    const { result } = merge(git, git, live());
    expect(container(result, 'web').env).toEqual([{ name: null, value: 'x' }, { name: 'MODE', value: 'prod' }]);
  });

  test('metadata.ownerReferences without uid is replaced whole, not merged as a set like finalizers', () => {
    const ref = (name: string, uid?: string) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, ...(uid ? { uid } : {}) });
    const git = edited(deployment(), (d) => { d.metadata.ownerReferences = [ref('web-a')]; });
    const current = edited(deployment(), (d) => { d.metadata.ownerReferences = [ref('web-a', 'u-1'), ref('web-b', 'u-2')]; });
    const { result } = merge(git, git, current);
    expect(result.metadata.ownerReferences).toEqual([ref('web-a')]);
  });
});

describe('finalizers: only metadata.finalizers is a set', () => {
  const withFinalizers = (...finalizers: string[]) => edited(deployment(), (d) => { d.metadata.finalizers = finalizers; });

  test('finalizers Git adds to an object that has none are Git\'s list', () => {
    const { result } = merge(deployment(), withFinalizers('acme.internal/cleanup'), deployment());
    expect(result.metadata.finalizers).toEqual(['acme.internal/cleanup']);
  });

  test('with nothing changed in Git, live\'s finalizers stay exactly as they are, in live\'s order', () => {
    // GIVEN Git and last-applied declare a and c; a controller added d in live
    const { result } = merge(
      withFinalizers('acme.internal/a', 'acme.internal/c'),
      withFinalizers('acme.internal/a', 'acme.internal/c'),
      withFinalizers('acme.internal/a', 'acme.internal/c', 'acme.internal/d'),
    );

    // THEN the prediction equals live: nothing is removed and re-added
    expect(result.metadata.finalizers).toEqual(['acme.internal/a', 'acme.internal/c', 'acme.internal/d']);
  });

  test('a Namespace\'s spec.finalizers (no patch strategy) is replaced whole', () => {
    const namespace = (...finalizers: string[]): JsonMap => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'payments' }, spec: { finalizers } });
    const { result } = merge(namespace('kubernetes'), namespace('kubernetes'), namespace('kubernetes', 'acme.internal/x'));
    expect(result.spec.finalizers).toEqual(['kubernetes']);
  });
});

describe('restoreIgnored, list by list', () => {
  test('Service ports by port: an ignored nodePort comes back from live, Git\'s targetPort stays', () => {
    // GIVEN ignoreDifferences on .spec.ports[].nodePort and a Git change of targetPort
    const service = (ports: JsonMap[]): JsonMap => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { type: 'NodePort', ports } });
    const live = service([{ port: 80, targetPort: 8080, nodePort: 30080 }]);
    const normalizedLive = service([{ port: 80, targetPort: 8080 }]);
    const target = service([{ port: 80, targetPort: 9090 }]);

    // WHEN the ignored live values are restored
    const restored = restoreIgnored(target, normalizedLive, live, mergeContextFor(target)) as any;

    // THEN the port carries both
    expect(restored.spec.ports).toEqual([{ port: 80, targetPort: 9090, nodePort: 30080 }]);
  });

  test('an atomic list (tolerations) with an ignored item comes back whole from live', () => {
    // GIVEN a jq rule that drops the spot toleration a webhook adds
    const toleration = (key: string) => ({ key, operator: 'Exists', effect: 'NoSchedule' });
    const live = withPodSpec({ tolerations: [toleration('dedicated'), toleration('spot')] });
    const normalizedLive = withPodSpec({ tolerations: [toleration('dedicated')] });
    const target = withPodSpec({ tolerations: [toleration('dedicated')] });

    const restored = restoreIgnored(target, normalizedLive, live, mergeContextFor(target)) as any;

    expect(podSpec(restored).tolerations).toEqual([toleration('dedicated'), toleration('spot')]);
  });

  test('a keyed list with an item that lacks its key comes back whole from live', () => {
    // GIVEN env with a nameless entry (the API would reject it) and an ignored value of MODE
    const live = withContainers([{ ...WEB, env: [{ name: 'MODE', value: 'debug' }, { value: 'no-name' }] }]);
    const normalizedLive = withContainers([{ ...WEB, env: [{ name: 'MODE' }, { value: 'no-name' }] }]);
    const target = withContainers([{ ...WEB, env: [{ name: 'MODE' }] }]);

    const restored = restoreIgnored(target, normalizedLive, live, mergeContextFor(target)) as any;

    expect(container(restored, 'web').env).toEqual([{ name: 'MODE', value: 'debug' }, { value: 'no-name' }]);
  });

  test('a container ignored whole in live replaces Git\'s container of the same name, in place', () => {
    // GIVEN a jq rule `.spec.template.spec.containers[] | select(.image | startswith("mirror.acme.internal/"))`:
    // a webhook rewrote web's image to a mirror in live, so normalized live has no web; Git's web keeps its registry
    const mirrored = { ...WEB, image: 'mirror.acme.internal/web:1.0.0' };
    const live = withContainers([mirrored, SIDECAR]);
    const normalizedLive = withContainers([SIDECAR]);
    const target = withContainers([WEB, LOGGER]);

    const restored = restoreIgnored(target, normalizedLive, live, mergeContextFor(target)) as any;

    // THEN web is live's, once, at Git's position; the sidecar, not ignored and not in Git, is left to the merge
    expect(podSpec(restored).containers).toEqual([mirrored, LOGGER]);
  });

  const RW = { requests: { cpu: '250m' } };
  const RK = { requests: { cpu: '500m' } };

  test('ignored fields inside keyed items come back into each item Git still has, at any index', () => {
    // GIVEN a VPA owns .spec.template.spec.containers[].resources (ignored); Git changes web's image and
    // removed logger, whose live copy has no ignored field
    const live = withContainers([{ ...WEB, resources: RW }, { name: 'worker', image: 'worker:1', resources: RK }, LOGGER]);
    const normalizedLive = withContainers([WEB, { name: 'worker', image: 'worker:1' }, LOGGER]);
    const target = withContainers([{ ...WEB, image: 'registry.acme.internal/web:2.0.0' }, { name: 'worker', image: 'worker:1' }]);

    const restored = restoreIgnored(target, normalizedLive, live, mergeContextFor(target)) as any;

    // THEN web and worker get their resources back; logger stays removed
    const containers = podSpec(restored).containers;
    expect(containers).toEqual([
      { ...WEB, image: 'registry.acme.internal/web:2.0.0', resources: RW },
      { name: 'worker', image: 'worker:1', resources: RK },
    ]);
    expect(Object.keys(containers)).toEqual(['0', '1']);
  });

  test('a container Git removed whose live copy has an ignored field leaves the list a plain list', () => {
    // GIVEN as above, but the removed logger also has VPA resources in live
    const live = withContainers([{ ...WEB, resources: RW }, { ...LOGGER, resources: RK }]);
    const normalizedLive = withContainers([WEB, LOGGER]);
    const target = withContainers([WEB]);

    const restored = restoreIgnored(target, normalizedLive, live, mergeContextFor(target)) as any;

    // THEN web has its resources back, and nothing is written beside the list's indexes
    const containers = podSpec(restored).containers;
    expect(containers.find((c: JsonMap) => c.name === 'web')).toEqual({ ...WEB, resources: RW });
    expect(Object.keys(containers)).toEqual(containers.map((_: Json, i: number) => String(i)));
  });

  test('a keyed list Git dropped whole, whose live copy has an ignored field, gets no stray item', () => {
    // GIVEN Git no longer declares env; live's MODE has an ignored value
    const live = withContainers([{ ...WEB, env: [{ name: 'MODE', value: 'debug' }] }]);
    const normalizedLive = withContainers([{ ...WEB, env: [{ name: 'MODE' }] }]);
    const target = withContainers([WEB]);

    const restored = restoreIgnored(target, normalizedLive, live, mergeContextFor(target)) as any;

    // THEN whatever the restored env holds is one of live's variables, by name
    const env: Json[] = container(restored, 'web').env;
    expect(env.filter((item) => !(isMap(item) && item.name === 'MODE'))).toEqual([]);
  });
});

describe('restoreIgnored merges a map that normalized live lacks into the target\'s map', () => {
  test('an ignore rule that matched live only: live\'s annotations are added to Git\'s, as the patch from normalized live does', () => {
    // GIVEN Git annotates b; live has a (ignored, so normalized live has no annotations at all)
    const target = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'flags', annotations: { b: '2', nested: { x: 1 } } } } as JsonMap;
    const normalizedLive = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'flags' } } as JsonMap;
    const live = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'flags', annotations: { a: '1', nested: { y: 2 } } } } as JsonMap;

    // WHEN restored
    const restored = restoreIgnored(target, normalizedLive, live, mergeContextFor(target));

    // THEN both sides' keys are kept, nested maps merged too; the target itself is untouched
    expect(restored).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'flags', annotations: { a: '1', b: '2', nested: { x: 1, y: 2 } } } });
    expect(target.metadata).toEqual({ name: 'flags', annotations: { b: '2', nested: { x: 1 } } });
  });
});
