import { ApiObject, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  AwsSecretsManagerOptions, GcpSecretManagerOptions, SecretStore, SecretStoreKind, SecretStoreProvider, VaultKvVersion, VaultOptions,
} from '../../src/secrets/secret-store';
import { newApp } from '../support/app';
import { esoErrors } from '../support/eso-schema';

/** A reference to an existing service account; asking twice for one name gives the same reference. */
function serviceAccount(scope: Construct, name: string): kplus.IServiceAccount {
  const id = `sa-${name}`;
  return (scope.node.tryFindChild(id) as kplus.IServiceAccount | undefined) ?? kplus.ServiceAccount.fromServiceAccountName(scope, id, name);
}

function manifestOf(store: SecretStore): any {
  return ApiObject.of(store).toJson();
}

function aws(scope: Construct, options: Partial<AwsSecretsManagerOptions> = {}): SecretStoreProvider {
  return SecretStoreProvider.awsSecretsManager({ region: 'eu-central-1', serviceAccount: serviceAccount(scope, 'checkout-secrets'), ...options });
}

function vault(options: Partial<VaultOptions> = {}): SecretStoreProvider {
  return SecretStoreProvider.vault({ server: 'https://vault.acme.internal:8200', path: 'secret', kubernetesAuthRole: 'checkout', ...options });
}

function gcp(scope: Construct, options: Partial<GcpSecretManagerOptions> = {}): SecretStoreProvider {
  return SecretStoreProvider.gcpSecretManager({
    projectId: 'payments-prod',
    workloadIdentity: { clusterLocation: 'europe-west1', clusterName: 'prod', serviceAccount: serviceAccount(scope, 'checkout-secrets') },
    ...options,
  });
}

describe('SecretStore', () => {
  test('renders a namespaced external-secrets.io/v1 SecretStore in the app\'s namespace', () => {
    // GIVEN an app WHEN a SecretStore is added
    const { app, gitops } = newApp();
    const store = new SecretStore(app, 'store', { name: 'checkout-aws', provider: aws(app) });
    const manifest = manifestOf(store);
    // THEN
    expect(manifest.apiVersion).toBe('external-secrets.io/v1');
    expect(manifest.kind).toBe('SecretStore');
    expect(manifest.metadata).toEqual({ name: 'checkout-aws', namespace: 'payments' });
    expect(Object.keys(manifest.spec)).toEqual(['provider']);
    expect(esoErrors(manifest)).toEqual([]);
    expect(gitops.renderFiles().map((f) => f.path)).toContain('workloads/checkout/SecretStore.checkout-aws.k8s.yaml');
  });

  test('is an ISecretStore of kind SecretStore, and its object is the default child', () => {
    const { app } = newApp();
    const provider = aws(app);
    const store = new SecretStore(app, 'store', { name: 'checkout-aws', provider });
    expect(store.storeName).toBe('checkout-aws');
    expect(store.storeKind).toBe(SecretStoreKind.SECRET_STORE);
    expect(store.namespace).toBe('payments');
    expect(store.provider).toBe(provider);
    expect(ApiObject.of(store)).toBe(store.resource);
    expect(SecretStore.isSecretStore(store)).toBe(true);
    expect(SecretStore.isSecretStore(app)).toBe(false);
  });

  test('fails when it is not inside a SafeApplication', () => {
    const chart = new Chart(Testing.app(), 'plain');
    expect(() => new SecretStore(chart, 'store', { name: 'checkout-aws', provider: vault() }))
      .toThrow(/^\[SAFE-010\] plain\/store: scope is "plain\/store"; it is not inside a SafeApplication/);
  });

  test.each([
    ['the name has capitals', 'Checkout'],
    ['the name is empty', ''],
  ])('fails when %s', (_label, name) => {
    const { app } = newApp();
    expect(() => new SecretStore(app, 'store', { name, provider: vault() }))
      .toThrow(new RegExp(`^\\[SAFE-001\\] checkout/store: name is "${name}"`));
  });

  test('fails when the provider was not built by a factory', () => {
    const { app } = newApp();
    const provider = { providerKey: 'aws' } as unknown as SecretStoreProvider;
    expect(() => new SecretStore(app, 'store', { name: 'checkout-aws', provider }))
      .toThrow(/^\[SAFE-028\] checkout\/store: provider is \{"providerKey":"aws"\}; it must be built with a SecretStoreProvider factory/);
  });
});

describe('SecretStoreProvider.awsSecretsManager', () => {
  test('authenticates with the service account token (jwt), no static keys', () => {
    // GIVEN an app WHEN an AWS Secrets Manager store is added
    const { app } = newApp();
    const manifest = manifestOf(new SecretStore(app, 'store', { name: 'checkout-aws', provider: aws(app) }));
    // THEN
    expect(manifest.spec.provider).toEqual({
      aws: {
        service: 'SecretsManager',
        region: 'eu-central-1',
        auth: { jwt: { serviceAccountRef: { name: 'checkout-secrets' } } },
      },
    });
    expect(esoErrors(manifest)).toEqual([]);
  });

  test('role is assumed when given', () => {
    const { app } = newApp();
    const role = 'arn:aws:iam::123456789012:role/checkout-secrets';
    const provider = aws(app, { role });
    const manifest = manifestOf(new SecretStore(app, 'store', { name: 'checkout-aws', provider }));
    expect(provider.providerKey).toBe('aws');
    expect(manifest.spec.provider.aws.role).toBe(role);
    expect(esoErrors(manifest)).toEqual([]);
  });

  test.each([
    ['region is not a region code', { region: 'Frankfurt' }, 'region is "Frankfurt"'],
    ['region is empty', { region: '' }, 'region is ""'],
    ['role is a role name, not an ARN', { role: 'checkout-secrets' }, 'role is "checkout-secrets"'],
    ['role is a user ARN', { role: 'arn:aws:iam::123456789012:user/ci' }, 'role is "arn:aws:iam::123456789012:user/ci"'],
  ])('fails when %s', (_label, options, message) => {
    const { app } = newApp();
    expect(() => aws(app, options)).toThrow(/^\[SAFE-028\] SecretStoreProvider\.awsSecretsManager: /);
    expect(() => aws(app, options)).toThrow(message);
  });

  test('fails when the service account is missing', () => {
    const { app } = newApp();
    expect(() => aws(app, { serviceAccount: undefined }))
      .toThrow(/^\[SAFE-028\] SecretStoreProvider\.awsSecretsManager: serviceAccount is missing/);
  });
});

describe('SecretStoreProvider.vault', () => {
  test('reads KV v2 with Vault\'s Kubernetes auth at "kubernetes", as the operator\'s own service account by default', () => {
    // GIVEN an app WHEN a Vault store with only the required options is added
    const { app } = newApp();
    const manifest = manifestOf(new SecretStore(app, 'store', { name: 'checkout-vault', provider: vault() }));
    // THEN
    expect(manifest.spec.provider).toEqual({
      vault: {
        server: 'https://vault.acme.internal:8200',
        path: 'secret',
        version: 'v2',
        auth: { kubernetes: { mountPath: 'kubernetes', role: 'checkout' } },
      },
    });
    expect(esoErrors(manifest)).toEqual([]);
  });

  test('version, auth mount path and service account render as given', () => {
    const { app } = newApp();
    const provider = vault({
      path: 'kv/payments',
      version: VaultKvVersion.V1,
      kubernetesAuthMountPath: 'kubernetes-prod',
      serviceAccount: serviceAccount(app, 'checkout-vault'),
    });
    const manifest = manifestOf(new SecretStore(app, 'store', { name: 'checkout-vault', provider }));
    expect(manifest.spec.provider.vault).toEqual({
      server: 'https://vault.acme.internal:8200',
      path: 'kv/payments',
      version: 'v1',
      auth: { kubernetes: { mountPath: 'kubernetes-prod', role: 'checkout', serviceAccountRef: { name: 'checkout-vault' } } },
    });
    expect(esoErrors(manifest)).toEqual([]);
  });

  test.each([
    ['server is plain http', { server: 'http://vault.acme.internal:8200' }, /^\[SAFE-003\] SecretStoreProvider\.vault: server is "http:\/\/vault\.acme\.internal:8200"; it must be an https:\/\/ URL/],
    ['server is a host name only', { server: 'vault.acme.internal' }, /^\[SAFE-003\] SecretStoreProvider\.vault: server is "vault\.acme\.internal"/],
    ['path has a leading slash', { path: '/secret' }, /^\[SAFE-028\] SecretStoreProvider\.vault: path is "\/secret"/],
    ['path is empty', { path: '' }, /^\[SAFE-028\] SecretStoreProvider\.vault: path is ""/],
    ['version is not a VaultKvVersion', { version: 'v3' as VaultKvVersion }, /^\[SAFE-028\] SecretStoreProvider\.vault: version is "v3"/],
    ['kubernetesAuthRole is empty', { kubernetesAuthRole: '' }, /^\[SAFE-028\] SecretStoreProvider\.vault: kubernetesAuthRole is ""/],
    ['kubernetesAuthMountPath ends with a slash', { kubernetesAuthMountPath: 'kubernetes/' }, /^\[SAFE-028\] SecretStoreProvider\.vault: kubernetesAuthMountPath is "kubernetes\/"/],
  ])('fails when %s', (_label, options, message) => {
    expect(() => vault(options)).toThrow(message);
  });

  test('fails when the service account has no valid name', () => {
    expect(() => vault({ serviceAccount: { name: 'Bad_Name' } as kplus.IServiceAccount }))
      .toThrow(/^\[SAFE-028\] SecretStoreProvider\.vault: serviceAccount is "Bad_Name"/);
  });
});

describe('SecretStoreProvider.gcpSecretManager', () => {
  test('reads from the project with GKE Workload Identity', () => {
    // GIVEN an app WHEN a GCP Secret Manager store is added
    const { app } = newApp();
    const provider = gcp(app);
    const manifest = manifestOf(new SecretStore(app, 'store', { name: 'checkout-gcp', provider }));
    // THEN
    expect(provider.providerKey).toBe('gcpsm');
    expect(manifest.spec.provider).toEqual({
      gcpsm: {
        projectID: 'payments-prod',
        auth: { workloadIdentity: { clusterLocation: 'europe-west1', clusterName: 'prod', serviceAccountRef: { name: 'checkout-secrets' } } },
      },
    });
    expect(esoErrors(manifest)).toEqual([]);
  });

  test('a zonal cluster\'s location is its zone', () => {
    const { app } = newApp();
    const provider = gcp(app, {
      workloadIdentity: { clusterLocation: 'us-central1-a', clusterName: 'zonal-1', serviceAccount: serviceAccount(app, 'eso') },
    });
    expect(manifestOf(new SecretStore(app, 'store', { name: 'checkout-gcp', provider })).spec.provider.gcpsm.auth.workloadIdentity)
      .toEqual({ clusterLocation: 'us-central1-a', clusterName: 'zonal-1', serviceAccountRef: { name: 'eso' } });
  });

  test.each([
    ['projectId is a project number', { projectId: '123456789012' }, 'projectId is "123456789012"'],
    ['projectId is too short', { projectId: 'pay' }, 'projectId is "pay"'],
    ['workloadIdentity is missing', { workloadIdentity: undefined }, 'workloadIdentity is missing'],
  ])('fails when %s', (_label, options, message) => {
    const { app } = newApp();
    expect(() => gcp(app, options as Partial<GcpSecretManagerOptions>)).toThrow(/^\[SAFE-028\] SecretStoreProvider\.gcpSecretManager: /);
    expect(() => gcp(app, options as Partial<GcpSecretManagerOptions>)).toThrow(message);
  });

  test.each([
    ['clusterLocation is not a region or zone', { clusterLocation: 'Europe' }, 'workloadIdentity.clusterLocation is "Europe"'],
    ['clusterName has capitals', { clusterName: 'Prod' }, 'workloadIdentity.clusterName is "Prod"'],
    ['the service account is missing', { serviceAccount: undefined }, 'workloadIdentity.serviceAccount is missing'],
  ])('fails when %s', (_label, identity, message) => {
    const { app } = newApp();
    const workloadIdentity = { clusterLocation: 'europe-west1', clusterName: 'prod', serviceAccount: serviceAccount(app, 'eso'), ...identity };
    expect(() => gcp(app, { workloadIdentity: workloadIdentity as any })).toThrow(/^\[SAFE-028\] SecretStoreProvider\.gcpSecretManager: /);
    expect(() => gcp(app, { workloadIdentity: workloadIdentity as any })).toThrow(message);
  });
});
