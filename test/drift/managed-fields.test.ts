import { deployment, edited } from './support';
import { JsonMap } from '../../src/drift/json';
import { fieldsV1Members, modifiedPaths, normalizeManagedFields } from '../../src/drift/managed-fields';
import { mergeContextFor } from '../../src/drift/merge';

const DEPLOYMENT_CTX = () => mergeContextFor({ apiVersion: 'apps/v1', kind: 'Deployment' });

// Source: util/argo/managedfields/managed_fields.go (Normalize/normalize): for every managedFields entry
// of a trusted manager, the intersection of its fieldsV1 set with the comparison's Modified set
// (fields present in live and config with different values) is removed from both objects.

/** A managedFields entry. */
function owned(manager: string, fieldsV1: JsonMap, subresource?: string): JsonMap {
  return { manager, operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1, ...(subresource ? { subresource } : {}) };
}

/** The live Deployment: HPA-scaled to 8, label x changed to "live", with the given managedFields. */
function liveWith(...managedFields: JsonMap[]): JsonMap {
  return edited(deployment(8), (d) => {
    d.metadata.labels.x = 'live';
    d.metadata.managedFields = managedFields;
  });
}

/** Git's Deployment: 3 replicas, label x "git". */
function config(): JsonMap {
  return edited(deployment(3), (d) => { d.metadata.labels.x = 'git'; });
}

const REPLICAS_AND_X = { 'f:spec': { 'f:replicas': {} }, 'f:metadata': { 'f:labels': { 'f:x': {} } } };

describe('fieldsV1Members (the fieldsV1 set format of metav1.ManagedFieldsEntry)', () => {
  test('reads f: fields, k: keyed items, v: set values, i: indexes and "." (the node itself) as member paths', () => {
    // GIVEN a fieldsV1 set using every kind of path element
    const fields = {
      'f:metadata': { '.': {}, 'f:labels': { 'f:x': {} } },
      'f:spec': {
        'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {} } } } },
        'f:finalizers': { 'v:"acme.internal/cleanup"': {} },
        'f:items': { 'i:0': {} },
      },
    };

    // WHEN its members are listed
    const members = fieldsV1Members(fields);

    // THEN each leaf and each "." node is one member; k: keys, v: values and i: indexes are parsed
    expect(members).toEqual([
      [{ field: 'metadata' }],
      [{ field: 'metadata' }, { field: 'labels' }, { field: 'x' }],
      [{ field: 'spec' }, { field: 'template' }, { field: 'spec' }, { field: 'containers' }, { key: { name: 'web' } }],
      [{ field: 'spec' }, { field: 'template' }, { field: 'spec' }, { field: 'containers' }, { key: { name: 'web' } }, { field: 'image' }],
      [{ field: 'spec' }, { field: 'finalizers' }, { value: 'acme.internal/cleanup' }],
      [{ field: 'spec' }, { field: 'items' }, { index: 0 }],
    ]);
  });

  test('an empty or missing set has no members', () => {
    expect(fieldsV1Members({})).toEqual([]);
    expect(fieldsV1Members(null)).toEqual([]);
  });
});

describe('modifiedPaths (typed Comparison.Modified)', () => {
  test('maps compare field by field; a field on one side only is not modified', () => {
    const live = { spec: { replicas: 8, paused: true }, metadata: { labels: { x: 'live', app: 'web' } } };
    const cfg = { spec: { replicas: 3 }, metadata: { labels: { x: 'git', app: 'web', extra: 'only-in-git' } } };
    const f = (...names: string[]) => names.map((field) => ({ field }));
    expect(modifiedPaths(live, cfg, DEPLOYMENT_CTX())).toEqual([f('spec', 'replicas'), f('metadata', 'labels', 'x')]);
  });

  test('a list that differs is modified as a whole, at the list', () => {
    const live = { spec: { metrics: [{ type: 'Resource', name: 'memory' }, { type: 'Resource', name: 'cpu' }] } };
    const cfg = { spec: { metrics: [{ type: 'Resource', name: 'cpu' }, { type: 'Resource', name: 'memory' }] } };
    expect(modifiedPaths(live, cfg, DEPLOYMENT_CTX())).toEqual([[{ field: 'spec' }, { field: 'metrics' }]]);
  });
});

describe('normalizeManagedFields', () => {
  test('a trusted manager owning spec.replicas and metadata.labels.x removes both from live and config where they differ', () => {
    // GIVEN one manager that owns two fields, both changed in live
    const live = liveWith(owned('kube-controller-manager', REPLICAS_AND_X));
    const cfg = config();

    // WHEN normalized with that manager trusted
    normalizeManagedFields(live, cfg, ['kube-controller-manager'], mergeContextFor(cfg));

    // THEN both fields are gone from both sides; the other label stays
    expect((live.spec as JsonMap).replicas).toBeUndefined();
    expect((cfg.spec as JsonMap).replicas).toBeUndefined();
    expect((live.metadata as any).labels).toEqual({ app: 'web' });
    expect((cfg.metadata as any).labels).toEqual({ app: 'web' });
  });

  test('a field the manager owns but that is equal on both sides stays', () => {
    // GIVEN the manager owns labels.app, equal in live and Git, and replicas, which differ
    const live = liveWith(owned('kube-controller-manager', { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:replicas': {} } }));
    const cfg = config();

    // WHEN normalized
    normalizeManagedFields(live, cfg, ['kube-controller-manager'], mergeContextFor(cfg));

    // THEN labels.app stays on both sides; only replicas is removed
    expect((live.metadata as any).labels.app).toBe('web');
    expect((cfg.metadata as any).labels.app).toBe('web');
    expect((live.spec as JsonMap).replicas).toBeUndefined();
  });

  test('a field the manager owns that only live has is not removed (it is not "modified")', () => {
    // GIVEN Git without replicas and an HPA that owns the live replica count
    const live = liveWith(owned('kube-controller-manager', { 'f:spec': { 'f:replicas': {} } }, 'scale'));
    const cfg = deployment();

    // WHEN normalized
    normalizeManagedFields(live, cfg, ['kube-controller-manager'], mergeContextFor(cfg));

    // THEN live keeps its replicas
    expect((live.spec as JsonMap).replicas).toBe(8);
  });

  test('a manager that is not trusted removes nothing', () => {
    // GIVEN the fields are owned by kube-controller-manager but only "kubectl" is trusted
    const live = liveWith(owned('kube-controller-manager', REPLICAS_AND_X));
    const cfg = config();
    const before = { live: JSON.stringify(live), cfg: JSON.stringify(cfg) };

    // WHEN normalized
    normalizeManagedFields(live, cfg, ['kubectl'], mergeContextFor(cfg));

    // THEN both objects are unchanged
    expect(JSON.stringify(live)).toBe(before.live);
    expect(JSON.stringify(cfg)).toBe(before.cfg);
  });

  test('no trusted managers is a no-op', () => {
    const live = liveWith(owned('kube-controller-manager', REPLICAS_AND_X));
    const cfg = config();
    normalizeManagedFields(live, cfg, [], mergeContextFor(cfg));
    expect((live.spec as JsonMap).replicas).toBe(8);
    expect((cfg.spec as JsonMap).replicas).toBe(3);
  });

  test('two managedFields entries of the same manager both count (one Update, one on the scale subresource)', () => {
    // GIVEN the same manager owns labels.x in one entry and replicas (through /scale) in another
    const live = liveWith(
      owned('kube-controller-manager', { 'f:metadata': { 'f:labels': { 'f:x': {} } } }),
      owned('kube-controller-manager', { 'f:spec': { 'f:replicas': {} } }, 'scale'),
    );
    const cfg = config();

    // WHEN normalized
    normalizeManagedFields(live, cfg, ['kube-controller-manager'], mergeContextFor(cfg));

    // THEN the fields of both entries are removed
    expect((live.spec as JsonMap).replicas).toBeUndefined();
    expect((cfg.spec as JsonMap).replicas).toBeUndefined();
    expect((live.metadata as any).labels.x).toBeUndefined();
    expect((cfg.metadata as any).labels.x).toBeUndefined();
  });

  test('an atomic list owned as a whole (HPA spec.metrics, f:metrics) is removed from both when it differs', () => {
    // GIVEN an HPA whose metrics the controller reordered, owned by it as one field
    const hpa = (metrics: string[]): JsonMap => ({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { maxReplicas: 10, metrics: metrics.map((name) => ({ type: 'Resource', resource: { name } })) },
    });
    const live = edited(hpa(['memory', 'cpu']), (h) => { h.metadata.managedFields = [owned('kube-controller-manager', { 'f:spec': { 'f:metrics': {} } })]; });
    const cfg = hpa(['cpu', 'memory']);

    // WHEN normalized
    normalizeManagedFields(live, cfg, ['kube-controller-manager'], mergeContextFor(cfg));

    // THEN the metrics are gone from both; maxReplicas stays
    expect(live.spec).toEqual({ maxReplicas: 10 });
    expect(cfg.spec).toEqual({ maxReplicas: 10 });
  });

  test('a custom resource\'s list without list-type keys is atomic: owned as a whole (f:containers), it is removed whole when it differs', () => {
    // GIVEN a Rollout whose containers list a trusted manager owns as one field (no x-kubernetes-list-type in its schema)
    const rollout = (image: string): JsonMap => ({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'web' },
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'web', image }] } } },
    });
    const live = edited(rollout('web:hotfix'), (r) => {
      r.metadata.managedFields = [owned('rollouts-operator', { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': {} } } } })];
    });
    const cfg = rollout('web:1.0.0');

    // WHEN normalized with that manager trusted
    normalizeManagedFields(live, cfg, ['rollouts-operator'], mergeContextFor(cfg));

    // THEN the whole list is gone from both; replicas stays
    expect(live.spec).toEqual({ replicas: 2, template: { spec: {} } });
    expect(cfg.spec).toEqual({ replicas: 2, template: { spec: {} } });
  });

  // Argo CD resolves built-in kinds with the static Kubernetes schema (gitops-engine
  // pkg/utils/kube/scheme/typed.go ResolveParseableType; util/argo/diff/diff.go preDiffNormalize passes
  // it to managedfields.Normalize), so associative lists (containers by name, webhooks by name) are
  // compared item by item and Normalize removes the intersection with TypedValue.RemoveItems, which
  // reaches fields inside keyed items. Argo CD's own test "will normalize successfully inside a list"
  // (util/argo/managedfields/managed_fields_test.go) removes webhooks[].clientConfig.caBundle this way.
  // The deduced, list-as-a-whole behaviour applies only when no schema is known.
  test('a trusted manager\'s field inside a keyed list item (k:) of a built-in kind is removed from both when it differs', () => {
    // GIVEN a webhook configuration whose caBundle the cainjector rewrote, owned through a k: path
    const webhookConfig = (caBundle: string): JsonMap => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'validator' },
      webhooks: [{ name: 'validate.acme.internal', clientConfig: { caBundle, service: { name: 'svc', namespace: 'x' } } }],
    });
    const live = edited(webhookConfig('LS0tLS1CRUdJTg=='), (w) => {
      w.metadata.managedFields = [owned('cainjector', { 'f:webhooks': { 'k:{"name":"validate.acme.internal"}': { 'f:clientConfig': { 'f:caBundle': {} } } } })];
    });
    const cfg = webhookConfig('Cg==');

    // WHEN normalized with the cainjector trusted
    normalizeManagedFields(live, cfg, ['cainjector'], mergeContextFor(cfg));

    // THEN the caBundle is removed from the webhook on both sides, the rest of the item stays
    expect((live.webhooks as any)[0].clientConfig).toEqual({ service: { name: 'svc', namespace: 'x' } });
    expect((cfg.webhooks as any)[0].clientConfig).toEqual({ service: { name: 'svc', namespace: 'x' } });
  });

  test('a field inside a keyed list item of a built-in kind that the manager owns but that is equal stays', () => {
    // GIVEN kubectl-set owns the web container's image, which equals Git's
    const live = edited(deployment(3), (d) => {
      d.metadata.managedFields = [owned('kubectl-set', { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { 'f:image': {} } } } } } })];
    });
    const cfg = deployment(3);

    // WHEN normalized
    normalizeManagedFields(live, cfg, ['kubectl-set'], mergeContextFor(cfg));

    // THEN the image stays on both sides
    expect((live as any).spec.template.spec.containers[0].image).toBe('registry.acme.internal/web:1.0.0');
    expect((cfg as any).spec.template.spec.containers[0].image).toBe('registry.acme.internal/web:1.0.0');
  });
});

describe('fieldsV1Members, on every element kind and on malformed entries', () => {
  test('fields, keys, values and indexes are read; a node marked "." is a member itself', () => {
    expect(fieldsV1Members({
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {} } }, 'f:finalizers': { 'v:"keep"': {} }, 'f:ports': { 'i:2': {} } },
    })).toEqual([
      [{ field: 'metadata' }, { field: 'labels' }],
      [{ field: 'metadata' }, { field: 'labels' }, { field: 'app' }],
      [{ field: 'spec' }, { field: 'containers' }, { key: { name: 'web' } }],
      [{ field: 'spec' }, { field: 'containers' }, { key: { name: 'web' } }, { field: 'image' }],
      [{ field: 'spec' }, { field: 'finalizers' }, { value: 'keep' }],
      [{ field: 'spec' }, { field: 'ports' }, { index: 2 }],
    ]);
  });

  test.each([
    ['a key that is not JSON', 'k:{name'],
    ['a key that is not an object', 'k:["web"]'],
    ['a value that is not JSON', 'v:keep'],
    ['an index that is not a number', 'i:two'],
    ['an unknown prefix', 'x:spec'],
    ['no prefix', 'spec'],
  ])('skips %s, and keeps reading the rest', (_what, element) => {
    expect(fieldsV1Members({ [element]: {}, 'f:kept': {} })).toEqual([[{ field: 'kept' }]]);
  });

  test('anything but a map owns nothing', () => {
    expect(fieldsV1Members(null)).toEqual([]);
    expect(fieldsV1Members(['f:spec'])).toEqual([]);
    expect(fieldsV1Members('f:spec')).toEqual([]);
  });
});

describe('normalizeManagedFields, on entries it must pass over', () => {
  test('entries without a manager name, or that are not maps, are passed over; a trusted one still applies', () => {
    // GIVEN managedFields with junk before the HPA's entry
    const live = liveWith({ fieldsV1: { 'f:spec': { 'f:replicas': {} } } } as JsonMap, 'junk' as unknown as JsonMap,
      owned('kube-controller-manager', { 'f:spec': { 'f:replicas': {} } }));
    const git = config();
    // WHEN only the controller manager is trusted
    normalizeManagedFields(live, git, ['kube-controller-manager'], DEPLOYMENT_CTX());
    // THEN replicas left both objects, and the label it does not own stayed
    expect([live.spec, git.spec].map((s: any) => s.replicas)).toEqual([undefined, undefined]);
    expect([(live.metadata as any).labels.x, (git.metadata as any).labels.x]).toEqual(['live', 'git']);
  });

  test('a live object without managedFields changes nothing', () => {
    const live = edited(deployment(8), (d) => { delete d.metadata.managedFields; });
    const git = config();
    normalizeManagedFields(live, git, ['kube-controller-manager'], DEPLOYMENT_CTX());
    expect([(live.spec as any).replicas, (git.spec as any).replicas]).toEqual([8, 3]);
  });

  test('a list item owned by key is removed only when its owned field differs, matched by key', () => {
    // GIVEN a sidecar injector that owns the image of container "proxy", which differs, and container "web" the same
    const live = edited(deployment(3), (d) => {
      d.spec.template.spec.containers = [{ name: 'web', image: 'web:1' }, { name: 'proxy', image: 'proxy:live' }];
      d.metadata.managedFields = [owned('injector', {
        'f:spec': {
          'f:template': {
            'f:spec': {
              'f:containers': {
                'k:{"name":"proxy"}': { 'f:image': {} }, 'k:{"name":"web"}': { 'f:image': {} }, 'k:{"name":"gone"}': { 'f:image': {} },
              },
            },
          },
        },
      })];
    });
    const git = edited(deployment(3), (d) => {
      d.spec.template.spec.containers = [{ name: 'proxy', image: 'proxy:git' }, { name: 'web', image: 'web:1' }];
    });
    // WHEN the injector is trusted
    normalizeManagedFields(live, git, ['injector'], DEPLOYMENT_CTX());
    // THEN proxy's image left both sides; web's equal image stayed
    const images = (o: JsonMap) => (o.spec as any).template.spec.containers.map((c: any) => `${c.name}=${c.image}`);
    expect(images(live)).toEqual(['web=web:1', 'proxy=undefined']);
    expect(images(git)).toEqual(['proxy=undefined', 'web=web:1']);
  });
});
