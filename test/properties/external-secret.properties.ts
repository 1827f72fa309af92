import { Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as fc from 'fast-check';
import {
  anyText, argoCdVersion, checkTree, dnsLabel, Doc, durationBetween, newApp, notSubdomain, refusalProperties, REPO, runs, subdomain,
} from './support';
import {
  ArgoProject, ExternalSecret, ExternalSecretData, ExternalSecretProps, ExternalSecretStore, ISecretStore, SafeApplication, SecretStore,
  SecretStoreKind,
  SecretStoreProvider, VaultKvVersion,
} from '../../src';

/** A provider as a recipe: it needs the app to reference its service account in. */
type ProviderOf = (app: SafeApplication) => SecretStoreProvider;
const sa = (app: SafeApplication, name: string) => kplus.ServiceAccount.fromServiceAccountName(app, `sa-${app.node.children.length}`, name);

const provider: fc.Arbitrary<ProviderOf> = fc.oneof(
  fc.record({
    region: fc.stringMatching(/^[a-z]{2}(-[a-z]{3,10}){1,2}-\d$/),
    role: fc.option(fc.tuple(fc.stringMatching(/^\d{12}$/), fc.stringMatching(/^[\w+=,.@-]{1,20}$/)).map(([acct, r]) => `arn:aws:iam::${acct}:role/${r}`), { nil: undefined }),
    account: subdomain,
  }).map((o): ProviderOf => (app) => SecretStoreProvider.awsSecretsManager({ region: o.region, role: o.role, serviceAccount: sa(app, o.account) })),
  fc.record({
    server: fc.tuple(subdomain, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), fc.constantFrom('', '/v1', '/vault/')).map(([h, p, path]) => `https://${h}${p ? `:${p}` : ''}${path}`),
    path: fc.stringMatching(/^[\w.-]{1,10}(\/[\w.-]{1,10}){0,2}$/),
    version: fc.option(fc.constantFrom(VaultKvVersion.V1, VaultKvVersion.V2), { nil: undefined }),
    role: fc.stringMatching(/^[\w.@-]{1,20}$/),
    mount: fc.option(fc.stringMatching(/^[\w.-]{1,10}(\/[\w.-]{1,10})?$/), { nil: undefined }),
    account: fc.option(subdomain, { nil: undefined }),
  }).map((o): ProviderOf => (app) => SecretStoreProvider.vault({
    server: o.server,
    path: o.path,
    version: o.version,
    kubernetesAuthRole: o.role,
    kubernetesAuthMountPath: o.mount,
    serviceAccount: o.account === undefined ? undefined : sa(app, o.account),
  })),
  fc.record({
    projectId: fc.stringMatching(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/),
    location: fc.stringMatching(/^[a-z]{2,10}-[a-z]{2,10}\d{1,2}(-[a-z])?$/),
    cluster: fc.stringMatching(/^[a-z]([-a-z0-9]{0,38}[a-z0-9])?$/),
    account: subdomain,
  }).map((o): ProviderOf => (app) => SecretStoreProvider.gcpSecretManager({
    projectId: o.projectId, workloadIdentity: { clusterLocation: o.location, clusterName: o.cluster, serviceAccount: sa(app, o.account) },
  })),
);

/** Where the values come from: a store defined elsewhere, or a SecretStore of this app. */
type StoreOf = { kind: 'ref'; name: string; storeKind: SecretStoreKind } | { kind: 'own'; name: string; provider: ProviderOf };
const store: fc.Arbitrary<StoreOf> = fc.oneof(
  fc.record({ kind: fc.constant('ref' as const), name: subdomain, storeKind: fc.constantFrom(SecretStoreKind.SECRET_STORE, SecretStoreKind.CLUSTER_SECRET_STORE) }),
  fc.record({ kind: fc.constant('own' as const), name: subdomain, provider }),
);

const remote = anyText(1, 30).filter((s) => s.trim() !== '' && s.trim() === s);
const data = fc.uniqueArray(fc.record({
  secretKey: fc.stringMatching(/^[-._a-zA-Z0-9]{1,30}$/),
  remoteKey: remote,
  remoteProperty: fc.option(remote, { nil: undefined }),
}), { minLength: 1, maxLength: 4, selector: (d) => d.secretKey });

const secret = fc.record({
  name: subdomain,
  targetSecretName: fc.option(subdomain, { nil: undefined }),
  refresh: fc.option(durationBetween(60, 86400), { nil: undefined }),
  data,
});
const input = fc.record({
  appName: dnsLabel,
  version: argoCdVersion,
  store,
  // Each ExternalSecret writes its own Secret; two writing one are refused at synth.
  secrets: fc.uniqueArray(secret, { minLength: 1, maxLength: 2, selector: (s) => s.targetSecretName ?? s.name }),
}).filter((i) => new Set(i.secrets.map((s) => s.name)).size === i.secrets.length);

function goDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}` || '0s';
}

describe('ExternalSecret properties', () => {
  test('for any props the constructor accepts: ESO objects that validate, operator-owned Secrets, and no Secret data in Git', () => {
    fc.assert(fc.property(input, (i) => {
      // GIVEN a fresh app with a store and one or two ExternalSecrets of arbitrary valid props
      const build = () => {
        const { gitops, app } = newApp(i.appName, i.version);
        const s: ISecretStore = i.store.kind === 'ref'
          ? ExternalSecretStore.fromName(i.store.name, i.store.storeKind)
          : new SecretStore(app, 'store', { name: i.store.name, provider: i.store.provider(app) });
        i.secrets.forEach((x, n) => new ExternalSecret(app, `secret-${n}`, {
          name: x.name, store: s, data: x.data as ExternalSecretData[], targetSecretName: x.targetSecretName, refreshInterval: x.refresh?.duration,
        }));
        return gitops;
      };
      // WHEN the tree is rendered THEN it passes every check (ESO schemas, no Secret with data)
      const { docs, byKindName } = checkTree(build);
      expect(docs.filter((d) => d.kind === 'Secret')).toEqual([]);
      for (const x of i.secrets) {
        const spec = byKindName.get(`ExternalSecret/${x.name}`)!.spec;
        // THEN the operator creates and owns the Secret, keeps it when the provider loses a key, and refreshes it
        expect(spec.target).toEqual({ name: x.targetSecretName ?? x.name, creationPolicy: 'Owner', deletionPolicy: 'Retain' });
        expect(spec.secretStoreRef).toEqual({ name: i.store.name, kind: i.store.kind === 'ref' ? i.store.storeKind : 'SecretStore' });
        expect(spec.refreshInterval).toBe(goDuration(x.refresh?.seconds ?? 3600));
        expect(spec.data.map((d: Doc) => [d.secretKey, d.remoteRef.key, d.remoteRef.property]))
          .toEqual(x.data.map((d) => [d.secretKey, d.remoteKey, d.remoteProperty]));
      }
    }), runs(5101));
  });
});

// ---------------------------------------------------------------------------------------------------------
// Refusals

const validProps: ExternalSecretProps = {
  name: 'checkout-db',
  store: ExternalSecretStore.fromName('vault', SecretStoreKind.CLUSTER_SECRET_STORE),
  data: [{ secretKey: 'password', remoteKey: 'checkout/db', remoteProperty: 'password' }],
};
const make = (override: Partial<ExternalSecretProps>) => () => new ExternalSecret(newApp('checkout').app, 'db', { ...validProps, ...override });
const badKey = fc.oneof(fc.constantFrom('', 'a b', 'a/b', 'ä', 'a:b', 'x'.repeat(254)), fc.string({ maxLength: 12 }).filter((k) => !/^[-._a-zA-Z0-9]{1,253}$/.test(k)));
const badRemote = fc.oneof(fc.constantFrom('', ' ', ' a', 'a ', '\n'), fc.string({ maxLength: 8 }).filter((r) => r.trim() === '' || r.trim() !== r));
const sa0 = (name: string) => kplus.ServiceAccount.fromServiceAccountName(newApp('x').app, 'sa', name);
const vault = { server: 'https://vault.acme.internal', path: 'secret', kubernetesAuthRole: 'checkout' };
const gcpIdentity = () => ({ clusterLocation: 'europe-west1', clusterName: 'prod', serviceAccount: sa0('checkout') });

refusalProperties('ExternalSecret and SecretStore refusals', {
  'name': notSubdomain.map((name) => make({ name })),
  'targetSecretName': notSubdomain.map((targetSecretName) => make({ targetSecretName })),
  'store (a malformed reference)': fc.oneof(
    notSubdomain.map((storeName) => ({ storeName, storeKind: SecretStoreKind.SECRET_STORE })),
    fc.constantFrom('Vault', 'secretstore', '', undefined).map((storeKind) => ({ storeName: 'vault', storeKind })),
  ).map((s) => make({ store: s as ISecretStore })),
  'store (a SecretStore of another namespace)': dnsLabel.filter((ns) => ns !== 'payments').map((ns) => () => {
    const { gitops, app } = newApp('checkout');
    const elsewhere = new SafeApplication(gitops, 'elsewhere', { name: 'elsewhere', project: ArgoProject.fromName('payments'), repoUrl: REPO, destinationNamespace: ns });
    const foreign = new SecretStore(elsewhere, 'store', { name: 'vault', provider: SecretStoreProvider.vault(vault) });
    return new ExternalSecret(app, 'db', { ...validProps, store: foreign });
  }),
  'data (none)': fc.constantFrom([], undefined).map((d) => make({ data: d as unknown as ExternalSecretData[] })),
  'data[0].secretKey': badKey.map((secretKey) => make({ data: [{ secretKey, remoteKey: 'k' }] })),
  'data[1].secretKey (a duplicate)': fc.stringMatching(/^[-._a-zA-Z0-9]{1,20}$/).map((k) => make({ data: [{ secretKey: k, remoteKey: 'a' }, { secretKey: k, remoteKey: 'b' }] })),
  'data[0].remoteKey': badRemote.map((remoteKey) => make({ data: [{ secretKey: 'k', remoteKey }] })),
  'data[0].remoteProperty': badRemote.map((remoteProperty) => make({ data: [{ secretKey: 'k', remoteKey: 'k', remoteProperty }] })),
  'refreshInterval': fc.oneof(
    fc.integer({ min: 0, max: 59 }), fc.integer({ min: 86401, max: 1e7 }),
  ).map((s) => make({ refreshInterval: Duration.seconds(s) })),
  'SecretStore name': notSubdomain.map((name) => () => new SecretStore(newApp('checkout').app, 'store', { name, provider: SecretStoreProvider.vault(vault) })),
  'SecretStore provider': fc.constantFrom({}, { providerKey: 'aws' }, undefined).map((p) => () => new SecretStore(newApp('checkout').app, 'store', { name: 'vault', provider: p as SecretStoreProvider })),
  'SecretStoreProvider.awsSecretsManager region': fc.constantFrom('', 'eu', 'EU-CENTRAL-1', 'eu-central', 'europe', 'eu-central-1a').map((region) => () => SecretStoreProvider.awsSecretsManager({ region, serviceAccount: sa0('a') })),
  'SecretStoreProvider.awsSecretsManager role': fc.constantFrom('', 'admin', 'arn:aws:iam::12345:role/x', 'arn:aws:iam::123456789012:user/x').map((role) => () => SecretStoreProvider.awsSecretsManager({ region: 'eu-central-1', role, serviceAccount: sa0('a') })),
  'SecretStoreProvider.awsSecretsManager serviceAccount': notSubdomain.map((n) => () => SecretStoreProvider.awsSecretsManager({ region: 'eu-central-1', serviceAccount: { name: n } as kplus.IServiceAccount })),
  'SecretStoreProvider.vault server': fc.constantFrom('', 'http://vault.acme.internal', 'vault.acme.internal', 'https://', 'https:// x').map((server) => () => SecretStoreProvider.vault({ ...vault, server })),
  'SecretStoreProvider.vault path': fc.constantFrom('', '/secret', 'secret/', 'a//b', 'a b').map((path) => () => SecretStoreProvider.vault({ ...vault, path })),
  'SecretStoreProvider.vault version': fc.constantFrom('v3', 'V2', '2').map((version) => () => SecretStoreProvider.vault({ ...vault, version: version as VaultKvVersion })),
  'SecretStoreProvider.vault kubernetesAuthRole': fc.constantFrom('', 'a b', 'a/b').map((kubernetesAuthRole) => () => SecretStoreProvider.vault({ ...vault, kubernetesAuthRole })),
  'SecretStoreProvider.vault kubernetesAuthMountPath': fc.constantFrom('', '/kubernetes', 'k8s/').map((m) => () => SecretStoreProvider.vault({ ...vault, kubernetesAuthMountPath: m })),
  'SecretStoreProvider.gcpSecretManager projectId': fc.constantFrom('', '123456789012', 'Payments', 'ab', 'payments-').map((projectId) => () => SecretStoreProvider.gcpSecretManager({ projectId, workloadIdentity: gcpIdentity() })),
  'SecretStoreProvider.gcpSecretManager workloadIdentity': fc.constantFrom(undefined, null).map((w) => () => SecretStoreProvider.gcpSecretManager({ projectId: 'payments-prod', workloadIdentity: w as any })),
  'SecretStoreProvider.gcpSecretManager workloadIdentity.clusterLocation': fc.constantFrom('', 'europe', 'EU-WEST1').map((clusterLocation) => () => SecretStoreProvider.gcpSecretManager({ projectId: 'payments-prod', workloadIdentity: { ...gcpIdentity(), clusterLocation } })),
  'SecretStoreProvider.gcpSecretManager workloadIdentity.clusterName': fc.constantFrom('', 'Prod', '1prod', 'prod-').map((clusterName) => () => SecretStoreProvider.gcpSecretManager({ projectId: 'payments-prod', workloadIdentity: { ...gcpIdentity(), clusterName } })),
  'ExternalSecretStore.fromName storeName': notSubdomain.map((n) => () => ExternalSecretStore.fromName(n, SecretStoreKind.SECRET_STORE)),
  'ExternalSecretStore.fromName storeKind': fc.constantFrom('Vault', '', 'secretstore').map((k) => () => ExternalSecretStore.fromName('vault', k as SecretStoreKind)),
}, 5200);
