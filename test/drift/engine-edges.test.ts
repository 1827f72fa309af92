import { application, deployment, edited, jqPerFile, RESPECTING, withLastApplied } from './support';
import { DriftResult, simulate } from '../../src/drift/engine';
import { JsonMap } from '../../src/drift/json';

// Edges of the engine that engine.test.ts leaves open. Sources: gitops-engine pkg/sync/hook/hook.go (IsHook:
// an argocd.argoproj.io/hook annotation makes a hook unless its only type is Skip; otherwise helm.sh/hook
// makes one unless it is crd-install), argo-cd controller/state.go (hooks never get a sync status; a namespaced
// resource without a namespace gets the destination namespace), gitops-engine pkg/diff/diff.go (custom
// resources: a JSON merge three-way patch of the last-applied annotation as it is).

const jq = jqPerFile();

const IMAGE = '/spec/template/spec/containers/0/image';
const HOOK_WARNING = 'the resource is a sync hook: Argo CD runs hooks and never compares them';
const SKIP_WARNING = 'the resource is marked argocd.argoproj.io/hook: Skip: Argo CD neither applies nor compares it';

/** A migration Job in `payments` with the given annotations. */
function job(annotations: JsonMap, image = 'registry.acme.internal/migrate:1.0.0'): JsonMap {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'migrate', namespace: 'payments', annotations },
    spec: {
      backoffLimit: 2,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'migrate', image }] } },
    },
  };
}

/** Live for `desired` as applied, then run by hand with another image, with a status. */
function driftedLive(desired: JsonMap): JsonMap {
  return edited(withLastApplied(desired, desired), (d) => {
    d.spec.template.spec.containers[0].image = 'registry.acme.internal/migrate:hotfix';
    d.status = { succeeded: 1 };
  });
}

/** The result of a resource that is compared and in sync: nothing differs, nothing to revert. */
function syncedResult(liveAfterApply: unknown, respect = false): DriftResult {
  return {
    outOfSync: false,
    differences: [],
    selfHeal: true,
    selfHealReverts: [],
    applyReverts: [],
    keptIgnored: [],
    liveAfterApply: liveAfterApply as any,
    respectIgnoreDifferences: respect,
    warnings: [],
  };
}

describe('sync hooks are never compared', () => {
  test('an Argo CD PreSync hook that differs from live: Synced, nothing reverted, live left as it is, and said so', () => {
    // GIVEN a PreSync Job whose live copy ran another image and has a status
    const desired = job({ 'argocd.argoproj.io/hook': 'PreSync' });
    const live = driftedLive(desired);

    // WHEN simulated under RespectIgnoreDifferences with self-heal
    const result = simulate(jq(), application({}, RESPECTING), desired, live);

    // THEN nothing is compared or applied: the result says it is a hook and carries live unchanged
    expect(result).toEqual({
      outOfSync: false,
      differences: [],
      selfHeal: true,
      selfHealReverts: [],
      applyReverts: [],
      keptIgnored: [],
      liveAfterApply: live,
      respectIgnoreDifferences: true,
      warnings: [HOOK_WARNING],
    });
    expect(result.liveAfterApply).not.toBe(live);
  });

  test('a hook that does not exist yet is not OutOfSync either; liveAfterApply is Git\'s object', () => {
    const desired = job({ 'argocd.argoproj.io/hook': 'PostSync', 'argocd.argoproj.io/hook-delete-policy': 'HookSucceeded' });
    const result = simulate(jq(), application({}, { automated: { prune: true } }), desired, undefined);
    expect(result).toEqual({
      outOfSync: false,
      differences: [],
      selfHeal: false,
      selfHealReverts: [],
      applyReverts: [],
      keptIgnored: [],
      liveAfterApply: desired,
      respectIgnoreDifferences: false,
      warnings: [HOOK_WARNING],
    });
  });

  test.each([
    ['argocd.argoproj.io/hook', 'Sync'],
    ['argocd.argoproj.io/hook', ' PreSync , PostSync '],
    // Skip with another type is not a skip (hook.go Skip: only when Skip is the only type)
    ['argocd.argoproj.io/hook', 'Skip,PreSync'],
    ['helm.sh/hook', 'pre-install'],
    ['helm.sh/hook', 'pre-install,pre-upgrade'],
    // only the exact value crd-install is not a hook (helm/hook.go IsHook)
    ['helm.sh/hook', 'crd-install,pre-install'],
  ])('%s: %j is a hook', (annotation, value) => {
    const desired = job({ [annotation]: value });
    const result = simulate(jq(), application(), desired, driftedLive(desired));
    expect(result.outOfSync).toBe(false);
    expect(result.differences).toEqual([]);
    expect(result.applyReverts).toEqual([]);
    expect(result.warnings).toEqual([HOOK_WARNING]);
  });

  test('a Helm crd-install "hook" is an ordinary resource: compared, and its drift reverted', () => {
    // GIVEN helm.sh/hook: crd-install, which Helm uses to mark CRDs, not hooks
    const desired = job({ 'helm.sh/hook': 'crd-install' });

    // WHEN live runs another image
    const result = simulate(jq(), application(), desired, driftedLive(desired));

    // THEN it is drift like any resource
    expect(result.outOfSync).toBe(true);
    expect(result.differences).toEqual([IMAGE]);
    expect(result.selfHealReverts).toEqual([IMAGE]);
    expect(result.warnings).toEqual([]);
  });

  test.each([
    ['Skip alone', { 'argocd.argoproj.io/hook': 'Skip' }],
    ['Skip with blank entries and spaces', { 'argocd.argoproj.io/hook': ' Skip, ' }],
    ['Skip twice (the types are a set)', { 'argocd.argoproj.io/hook': 'Skip,Skip' }],
    ['Skip with an unknown type', { 'argocd.argoproj.io/hook': 'Skip,Later' }],
    ['Skip, which decides over a Helm hook (Helm\'s annotation is read only without Argo CD\'s)', { 'argocd.argoproj.io/hook': 'Skip', 'helm.sh/hook': 'pre-install' }],
  ])('skipped: %s; drifted live is neither compared nor reverted (controller/state.go stores no sync status)', (_what, annotations) => {
    // GIVEN a Job marked Skip whose live copy ran another image
    const desired = job(annotations as JsonMap);
    const live = driftedLive(desired);

    // WHEN simulated with self-heal
    const result = simulate(jq(), application(), desired, live);

    // THEN Argo CD leaves it alone, and says why
    expect(result).toEqual({ ...syncedResult(live), warnings: [SKIP_WARNING] });
  });

  test('skipped and missing from live: not created, so nothing exists after the sync', () => {
    const result = simulate(jq(), application(), job({ 'argocd.argoproj.io/hook': 'Skip' }), undefined);
    expect(result).toEqual({ ...syncedResult(null), warnings: [SKIP_WARNING] });
  });

  test.each([
    ['an empty Argo CD hook annotation (the key alone makes a hook)', { 'argocd.argoproj.io/hook': '' }],
    ['an Argo CD hook annotation of unknown types only', { 'argocd.argoproj.io/hook': 'Later' }],
    ['an empty Helm hook annotation', { 'helm.sh/hook': '' }],
  ])('a hook: %s', (_what, annotations) => {
    const desired = job(annotations as JsonMap);
    const result = simulate(jq(), application(), desired, driftedLive(desired));
    expect(result.outOfSync).toBe(false);
    expect(result.applyReverts).toEqual([]);
    expect(result.warnings).toEqual([HOOK_WARNING]);
  });

  test.each([
    ['an annotation value that is not a string (Kubernetes reads no annotations then)', { 'argocd.argoproj.io/hook': true }],
    ['a Skip next to an annotation that is not a string', { 'argocd.argoproj.io/hook': 'Skip', 'acme.internal/replicas': 3 }],
    ['other annotations only', { 'acme.internal/owner': 'payments' }],
  ])('not a hook: %s; in sync with live, it is Synced without a hook warning', (_what, annotations) => {
    // GIVEN a Job that live has exactly as applied
    const desired = job(annotations as JsonMap);
    const live = withLastApplied(desired, desired);

    // WHEN simulated
    const result = simulate(jq(), application(), desired, live);

    // THEN it went through the comparison: Synced, nothing to revert, no hook warning
    expect(result).toEqual(syncedResult(live));
  });
});

describe('a resource that does not exist yet', () => {
  test('without self-heal: OutOfSync as a whole, created by the next sync, nothing for self-heal', () => {
    const result = simulate(jq(), application({}, { automated: { prune: true } }), deployment(3), undefined);
    expect(result).toEqual({
      outOfSync: true,
      differences: [''],
      selfHeal: false,
      selfHealReverts: [],
      applyReverts: [''],
      keptIgnored: [],
      liveAfterApply: deployment(3),
      respectIgnoreDifferences: false,
      warnings: [],
    });
  });
});

describe('ignoreDifferences entries with a namespace', () => {
  // A namespaced resource without metadata.namespace is deployed to, and matched in, the destination namespace.
  const IGNORE_REPLICAS_IN = (namespace: string) => [{ group: 'apps', kind: 'Deployment', name: 'web', namespace, jsonPointers: ['/spec/replicas'] }];
  const withoutNamespace = (obj: JsonMap): JsonMap => edited(obj, (d) => { delete d.metadata.namespace; });

  test('match a manifest without a namespace through the destination namespace', () => {
    // GIVEN a Deployment without namespace, destination payments, replicas ignored in payments and respected
    const desired = withoutNamespace(deployment(3));
    const live = withLastApplied(withoutNamespace(deployment(8)), desired);
    const app = application({ ignoreDifferences: IGNORE_REPLICAS_IN('payments') }, RESPECTING);

    // WHEN the HPA scaled live to 8
    const result = simulate(jq(), app, desired, live);

    // THEN the entry applies: Synced and 8 kept
    expect(result.outOfSync).toBe(false);
    expect(result.applyReverts).toEqual([]);
    expect(result.keptIgnored).toEqual(['/spec/replicas']);
    expect((result.liveAfterApply as any).spec.replicas).toBe(8);
  });

  test('do not match when the Application names no destination namespace', () => {
    // GIVEN the same Deployment, but the Application's destination has no namespace
    const desired = withoutNamespace(deployment(3));
    const live = withLastApplied(withoutNamespace(deployment(8)), desired);
    const app = edited(application({ ignoreDifferences: IGNORE_REPLICAS_IN('payments') }, RESPECTING), (a) => { delete a.spec.destination.namespace; });

    // WHEN compared
    const result = simulate(jq(), app, desired, live);

    // THEN the entry does not apply: replicas is drift and reverted to 3
    expect(result.outOfSync).toBe(true);
    expect(result.differences).toEqual(['/spec/replicas']);
    expect(result.selfHealReverts).toEqual(['/spec/replicas']);
    expect(result.keptIgnored).toEqual([]);
    expect((result.liveAfterApply as any).spec.replicas).toBe(3);
  });
});

describe('the last-applied annotation', () => {
  test('a live object without it gives a two-way diff and no warning', () => {
    const result = simulate(jq(), application(), deployment(3), deployment(3));
    expect(result.warnings).toEqual([]);
    expect(result.outOfSync).toBe(false);
    expect(result.applyReverts).toEqual([]);
  });

  test('a jq ignore rule and no last-applied: the two-way diff runs the expression only on Git and live, without warnings', () => {
    const app = application({ ignoreDifferences: [{ group: 'apps', kind: 'Deployment', jqPathExpressions: ['.spec.replicas'] }] }, RESPECTING);
    const result = simulate(jq(), app, deployment(3), deployment(8));
    expect(result.warnings).toEqual([]);
    expect(result.outOfSync).toBe(false);
    expect(result.keptIgnored).toEqual(['/spec/replicas']);
  });

  test('a custom resource: an empty list last-applied has and Git dropped is drift, and the apply deletes it', () => {
    // GIVEN a custom resource applied with tags: [] (JSON merge, no re-encoding: the empty list stays in
    // last-applied and in live), and Git without tags
    const widget = (spec: JsonMap): JsonMap => ({ apiVersion: 'acme.internal/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'payments' }, spec });
    const applied = widget({ size: 2, tags: [] });
    const live = withLastApplied(applied, applied);

    // WHEN compared with Git
    const result = simulate(jq(), application(), widget({ size: 2 }), live);

    // THEN tags is drift and the patch deletes it
    expect(result.outOfSync).toBe(true);
    expect(result.differences).toEqual(['/spec/tags']);
    expect(result.applyReverts).toEqual(['/spec/tags']);
    expect(result.selfHealReverts).toEqual(['/spec/tags']);
    expect((result.liveAfterApply as any).spec).toEqual({ size: 2 });
    expect(result.warnings).toEqual([]);
  });
});

describe('the last-applied annotation is compared as it is stored', () => {
  test('a built-in kind whose last-applied holds an empty list: the diff sees what the sync will remove', () => {
    // GIVEN a Deployment last applied with `finalizers: []`, to which a controller has since added a finalizer
    const desired = deployment(3);
    const lastApplied = edited(desired, (d) => {
      d.metadata.finalizers = [];
    });
    const live = edited(withLastApplied(desired, lastApplied), (d) => {
      d.metadata.finalizers = ['acme.internal/cleanup'];
    });

    // WHEN simulated
    const result = simulate(jq(), application(), desired, live);

    // THEN the diff (gitops-engine does not re-encode the annotation) and the sync agree: the finalizer goes
    expect(result.differences).toEqual(['/metadata/finalizers']);
    expect(result.outOfSync).toBe(true);
    expect(result.applyReverts).toEqual(['/metadata/finalizers']);
    expect(result.selfHealReverts).toEqual(['/metadata/finalizers']);
  });
});
