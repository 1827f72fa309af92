import { application, deployment, edited, jqPerFile, RESPECTING, withLastApplied } from './support';
import { simulate } from '../../src/drift/engine';
import { entriesFor, IgnoreEntry, ignoreEntriesOf, ResourceKey, resourceKeyOf } from '../../src/drift/ignore-entries';
import { JsonMap } from '../../src/drift/json';

// Matching follows util/argo/normalizers/diff_normalizer.go (ignoreNormalizer.Normalize) and
// util/argo/diff/ignore.go (HasIgnoreDifference): group and kind by glob.Match, name and namespace
// exactly, an empty name or namespace matching any.

const jq = jqPerFile();

function entry(fields: Partial<IgnoreEntry>): IgnoreEntry {
  return { group: '', kind: '', name: '', namespace: '', jsonPointers: ['/spec/replicas'], jqPathExpressions: [], managedFieldsManagers: [], ...fields };
}

const WEB: ResourceKey = { group: 'apps', kind: 'Deployment', name: 'web', namespace: 'payments' };
const SETTINGS: ResourceKey = { group: '', kind: 'ConfigMap', name: 'settings', namespace: 'payments' };

function matches(e: IgnoreEntry, key: ResourceKey): boolean {
  return entriesFor([e], key).length === 1;
}

describe('ignoreEntriesOf', () => {
  test('reads every entry, with missing fields and lists as empty ones (as the CRD\'s omitempty fields decode)', () => {
    // GIVEN an Application with one full and one bare entry
    const app = application({
      ignoreDifferences: [
        { group: 'apps', kind: 'Deployment', name: 'web', namespace: 'payments', jsonPointers: ['/spec/replicas'], jqPathExpressions: ['.x'], managedFieldsManagers: ['kube-controller-manager'] },
        { kind: 'ConfigMap' },
      ],
    });

    // WHEN the entries are read
    const entries = ignoreEntriesOf(app);

    // THEN both are there, the bare one with empty strings and lists
    expect(entries).toEqual([
      { group: 'apps', kind: 'Deployment', name: 'web', namespace: 'payments', jsonPointers: ['/spec/replicas'], jqPathExpressions: ['.x'], managedFieldsManagers: ['kube-controller-manager'] },
      { group: '', kind: 'ConfigMap', name: '', namespace: '', jsonPointers: [], jqPathExpressions: [], managedFieldsManagers: [] },
    ]);
  });

  test('an Application without ignoreDifferences has no entries', () => {
    expect(ignoreEntriesOf(application())).toEqual([]);
  });
});

describe('resourceKeyOf', () => {
  test('takes group (without version), kind, name and namespace from the manifest', () => {
    expect(resourceKeyOf(deployment(), 'other')).toEqual(WEB);
  });

  test('uses the destination namespace when a namespaced manifest names none (controller/state.go sets it on targets)', () => {
    const noNamespace = edited(deployment(), (d) => { delete d.metadata.namespace; });
    expect(resourceKeyOf(noNamespace, 'payments').namespace).toBe('payments');
  });

  test('the core group of apiVersion v1 is the empty string', () => {
    expect(resourceKeyOf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'payments' } }, '')).toEqual(SETTINGS);
  });
});

describe('entriesFor: group and kind match by glob (util/glob, diff_normalizer.go)', () => {
  test('"*" as group and kind matches a Deployment and a core ConfigMap alike', () => {
    const everything = entry({ group: '*', kind: '*' });
    expect(matches(everything, WEB)).toBe(true);
    expect(matches(everything, SETTINGS)).toBe(true);
  });

  test('"apps*" matches the apps group and groups that start with it, not the core or batch groups', () => {
    const appsLike = entry({ group: 'apps*', kind: '*' });
    expect(matches(appsLike, WEB)).toBe(true);
    expect(matches(appsLike, { ...WEB, group: 'apps.acme.internal' })).toBe(true);
    expect(matches(appsLike, SETTINGS)).toBe(false);
    expect(matches(appsLike, { ...WEB, group: 'batch', kind: 'Job' })).toBe(false);
  });

  test('a kind glob such as "Deploy*" matches Deployment; kinds compare case-sensitively', () => {
    expect(matches(entry({ group: 'apps', kind: 'Deploy*' }), WEB)).toBe(true);
    expect(matches(entry({ group: 'apps', kind: 'deployment' }), WEB)).toBe(false);
  });

  test('the core group "" matches a ConfigMap and not an apps Deployment; "apps" does the reverse', () => {
    // GIVEN a core-group entry and an apps entry, both for any kind
    const core = entry({ group: '', kind: '*' });
    const apps = entry({ group: 'apps', kind: '*' });

    // THEN each matches only its own group
    expect(matches(core, SETTINGS)).toBe(true);
    expect(matches(core, WEB)).toBe(false);
    expect(matches(apps, WEB)).toBe(true);
    expect(matches(apps, SETTINGS)).toBe(false);
  });
});

describe('entriesFor: name and namespace match exactly, empty matches all', () => {
  test('a name matches only that exact name, not a prefix of it', () => {
    const web = entry({ group: 'apps', kind: 'Deployment', name: 'web' });
    expect(matches(web, WEB)).toBe(true);
    expect(matches(web, { ...WEB, name: 'web-canary' })).toBe(false);
    expect(matches(entry({ group: 'apps', kind: 'Deployment', name: 'web*' }), { ...WEB, name: 'web-canary' })).toBe(false);
  });

  test('a namespace matches only that exact namespace', () => {
    const inPayments = entry({ group: 'apps', kind: 'Deployment', namespace: 'payments' });
    expect(matches(inPayments, WEB)).toBe(true);
    expect(matches(inPayments, { ...WEB, namespace: 'payments-staging' })).toBe(false);
  });

  test('an empty name and namespace match every object of the group and kind', () => {
    const any = entry({ group: 'apps', kind: 'Deployment' });
    expect(matches(any, WEB)).toBe(true);
    expect(matches(any, { ...WEB, name: 'worker', namespace: 'batch-jobs' })).toBe(true);
  });

  test('every matching entry is returned, in order, so their fields are merged (ignore.go mergeIgnoreDifferences)', () => {
    // GIVEN a broad and a narrow entry that both match, and one that does not
    const broad = entry({ group: '*', kind: '*', jsonPointers: ['/metadata/labels'] });
    const narrow = entry({ group: 'apps', kind: 'Deployment', name: 'web' });
    const other = entry({ group: 'apps', kind: 'Deployment', name: 'worker' });

    // WHEN the entries for web are selected
    const found = entriesFor([broad, other, narrow], WEB);

    // THEN both matching entries are kept
    expect(found).toEqual([broad, narrow]);
  });
});

describe('entries that match nothing change nothing (engine)', () => {
  test('an entry for another Deployment leaves a changed replica count as drift', () => {
    // GIVEN an entry for "worker" and a live "web" that an HPA scaled from 3 to 8
    const app = application({ ignoreDifferences: [{ group: 'apps', kind: 'Deployment', name: 'worker', jsonPointers: ['/spec/replicas'] }] }, RESPECTING);
    const desired = deployment(3);
    const live = withLastApplied(deployment(8), desired);

    // WHEN Argo CD compares
    const result = simulate(jq(), app, desired, live);

    // THEN web is OutOfSync on its replicas and a sync puts 3 back
    expect(result.outOfSync).toBe(true);
    expect(result.differences).toEqual(['/spec/replicas']);
    expect(result.applyReverts).toEqual(['/spec/replicas']);
    expect(result.keptIgnored).toEqual([]);
  });

  test('the same entry naming "web" hides the replica count', () => {
    // GIVEN the entry names the Deployment
    const app = application({ ignoreDifferences: [{ group: 'apps', kind: 'Deployment', name: 'web', jsonPointers: ['/spec/replicas'] }] }, RESPECTING);
    const desired = deployment(3);
    const live = withLastApplied(deployment(8), desired);

    // WHEN Argo CD compares
    const result = simulate(jq(), app, desired, live);

    // THEN it is Synced and the replica count is kept
    expect(result.outOfSync).toBe(false);
    expect(result.keptIgnored).toEqual(['/spec/replicas']);
  });
});

describe('cluster-scoped resources have no namespace to match', () => {
  // controller/state.go (normalizeClusterScopeTracking) clears metadata.namespace of cluster-scoped
  // targets, and diff_normalizer.go compares the entry's namespace with un.GetNamespace(), which is
  // then "": an entry that names a namespace never matches a cluster-scoped resource.
  // (src/core/kinds.ts and IgnoreTarget.resource state the same.)
  const webhookConfig = (caBundle: string): JsonMap => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'checkout-validator' },
    webhooks: [{ name: 'validate.checkout.acme.internal', clientConfig: { caBundle, service: { name: 'checkout', namespace: 'payments' } } }],
  });

  test('an entry with a namespace does not match a ValidatingWebhookConfiguration, so a changed caBundle stays drift', () => {
    // GIVEN an entry scoped to namespace "payments" (the app's destination) for a cluster-scoped webhook
    // configuration whose Git caBundle is a placeholder the cainjector has replaced
    const app = application({
      ignoreDifferences: [{
        group: 'admissionregistration.k8s.io',
        kind: 'ValidatingWebhookConfiguration',
        name: 'checkout-validator',
        namespace: 'payments',
        jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'],
      }],
    }, RESPECTING);
    const desired = webhookConfig('Cg==');
    const live = withLastApplied(webhookConfig('LS0tLS1CRUdJTg=='), desired);

    // WHEN Argo CD compares
    const result = simulate(jq(), app, desired, live);

    // THEN the entry does not apply: the caBundle is drift
    expect(result.outOfSync).toBe(true);
    expect(result.differences).toEqual(['/webhooks/0/clientConfig/caBundle']);
  });

  test('the same entry without a namespace matches and hides the caBundle', () => {
    // GIVEN the entry without a namespace
    const app = application({
      ignoreDifferences: [{
        group: 'admissionregistration.k8s.io',
        kind: 'ValidatingWebhookConfiguration',
        name: 'checkout-validator',
        jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'],
      }],
    }, RESPECTING);
    const desired = webhookConfig('Cg==');
    const live = withLastApplied(webhookConfig('LS0tLS1CRUdJTg=='), desired);

    // WHEN Argo CD compares
    const result = simulate(jq(), app, desired, live);

    // THEN it is Synced and the injected bundle is kept
    expect(result.outOfSync).toBe(false);
    expect(result.keptIgnored).toEqual(['/webhooks/0/clientConfig/caBundle']);
  });
});
