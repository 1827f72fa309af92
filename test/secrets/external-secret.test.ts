import { ApiObject, Chart, Duration, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { SafeApplication } from '../../src';
import { Manifest } from '../../src/core/manifest';
import { runRules } from '../../src/rules/engine';
import { secretDataInGit } from '../../src/rules/sa203-secret-data-in-git';
import { ExternalSecret, ExternalSecretProps, ExternalSecretStore } from '../../src/secrets/external-secret';
import { ISecretStore, SecretStore, SecretStoreKind, SecretStoreProvider } from '../../src/secrets/secret-store';
import { appProps, newApp } from '../support/app';
import { esoErrors } from '../support/eso-schema';

const CLUSTER_STORE = ExternalSecretStore.fromName('platform-vault', SecretStoreKind.CLUSTER_SECRET_STORE);

function externalSecret(scope: Construct, id: string, props: Partial<ExternalSecretProps> = {}): ExternalSecret {
  return new ExternalSecret(scope, id, {
    name: 'checkout-db',
    store: CLUSTER_STORE,
    data: [{ secretKey: 'password', remoteKey: 'checkout/db', remoteProperty: 'password' }],
    ...props,
  });
}

function manifestOf(secret: ExternalSecret): any {
  return ApiObject.of(secret).toJson();
}

describe('ExternalSecret defaults', () => {
  // GIVEN an app
  const { app, gitops } = newApp();
  // WHEN one ExternalSecret with only the required props is added
  const secret = externalSecret(app, 'db');
  const es = manifestOf(secret);

  test('renders an external-secrets.io/v1 ExternalSecret in the app\'s namespace', () => {
    expect(es.apiVersion).toBe('external-secrets.io/v1');
    expect(es.kind).toBe('ExternalSecret');
    expect(es.metadata).toEqual({ name: 'checkout-db', namespace: 'payments' });
  });

  test('writes out everything the operator would default, so the live object equals Git', () => {
    expect(es.spec).toEqual({
      secretStoreRef: { name: 'platform-vault', kind: 'ClusterSecretStore' },
      refreshInterval: '1h',
      target: { name: 'checkout-db', creationPolicy: 'Owner', deletionPolicy: 'Retain' },
      data: [{
        secretKey: 'password',
        remoteRef: { key: 'checkout/db', property: 'password', conversionStrategy: 'Default', decodingStrategy: 'None', metadataPolicy: 'None' },
      }],
    });
  });

  test('validates against the ESO v1 schema', () => {
    expect(esoErrors(es)).toEqual([]);
  });

  test('exposes what it resolved', () => {
    expect(secret.externalSecretName).toBe('checkout-db');
    expect(secret.targetSecretName).toBe('checkout-db');
    expect(secret.namespace).toBe('payments');
    expect(secret.refreshInterval.toSeconds()).toBe(3600);
    expect(secret.secretKeys).toEqual(['password']);
    expect(secret.store).toBe(CLUSTER_STORE);
  });

  test('the ExternalSecret is the default child', () => {
    expect(ApiObject.of(secret)).toBe(secret.resource);
    expect(ExternalSecret.isExternalSecret(secret)).toBe(true);
    expect(ExternalSecret.isExternalSecret(app)).toBe(false);
  });

  test('synthesizes with every registered rule, and emits no Secret for SA203 to find', () => {
    const files = gitops.renderFiles();
    expect(files.map((f) => f.path)).toContain('workloads/checkout/ExternalSecret.checkout-db.k8s.yaml');
    for (const file of files) {
      expect(file.content).not.toMatch(/^kind: Secret$/m);
    }
    const findings = runRules({
      application: app.resource.toJson() as Manifest,
      resources: workloadsOf(app),
      argoCdVersion: app.argoCdVersion,
    }, [secretDataInGit]);
    expect(findings).toEqual([]);
  });
});

describe('ExternalSecret options', () => {
  test('targetSecretName names the Secret the operator writes', () => {
    // GIVEN an app WHEN the target name differs from the ExternalSecret's
    const { app } = newApp();
    const secret = externalSecret(app, 'db', { targetSecretName: 'checkout-db-credentials' });
    // THEN
    expect(secret.targetSecretName).toBe('checkout-db-credentials');
    expect(manifestOf(secret).spec.target.name).toBe('checkout-db-credentials');
    expect(manifestOf(secret).metadata.name).toBe('checkout-db');
    expect(esoErrors(manifestOf(secret))).toEqual([]);
  });

  test.each([
    ['1 minute', Duration.minutes(1), '1m'],
    ['15 minutes', Duration.minutes(15), '15m'],
    ['90 minutes', Duration.minutes(90), '1h30m'],
    ['24 hours', Duration.hours(24), '24h'],
  ])('refreshInterval of %s renders as the Go duration %j', (_label, interval, rendered) => {
    // GIVEN an app WHEN a refresh interval within bounds is given
    const { app } = newApp();
    const secret = externalSecret(app, 'db', { refreshInterval: interval });
    // THEN
    expect(manifestOf(secret).spec.refreshInterval).toBe(rendered);
    expect(esoErrors(manifestOf(secret))).toEqual([]);
  });

  test('remoteProperty left out takes the whole provider value: no property is rendered', () => {
    const { app } = newApp();
    const secret = externalSecret(app, 'db', { data: [{ secretKey: 'config.json', remoteKey: 'checkout/config' }] });
    const remoteRef = manifestOf(secret).spec.data[0].remoteRef;
    expect(remoteRef).toEqual({ key: 'checkout/config', conversionStrategy: 'Default', decodingStrategy: 'None', metadataPolicy: 'None' });
    expect('property' in remoteRef).toBe(false);
  });

  test('several keys render in the order given', () => {
    const { app } = newApp();
    const secret = externalSecret(app, 'db', {
      data: [
        { secretKey: 'username', remoteKey: 'checkout/db', remoteProperty: 'username' },
        { secretKey: 'password', remoteKey: 'checkout/db', remoteProperty: 'password' },
        { secretKey: 'DB_HOST', remoteKey: 'checkout/db-host' },
      ],
    });
    expect(manifestOf(secret).spec.data.map((d: any) => d.secretKey)).toEqual(['username', 'password', 'DB_HOST']);
    expect(secret.secretKeys).toEqual(['username', 'password', 'DB_HOST']);
    expect(esoErrors(manifestOf(secret))).toEqual([]);
  });

  test('a SecretStore of the same namespace is referenced as kind SecretStore', () => {
    // GIVEN an app with its own SecretStore
    const { app } = newApp();
    const store = new SecretStore(app, 'store', {
      name: 'checkout-aws',
      provider: SecretStoreProvider.awsSecretsManager({
        region: 'eu-central-1', serviceAccount: kplus.ServiceAccount.fromServiceAccountName(app, 'sa', 'checkout-secrets'),
      }),
    });
    // WHEN an ExternalSecret reads from it
    const secret = externalSecret(app, 'db', { store });
    // THEN
    expect(manifestOf(secret).spec.secretStoreRef).toEqual({ name: 'checkout-aws', kind: 'SecretStore' });
    expect(secret.store).toBe(store);
  });

  test('a SecretStore defined in another app with the same namespace is accepted', () => {
    // GIVEN a platform app in the same namespace that owns the store
    const { app, gitops } = newApp();
    const platform = new SafeApplication(gitops, 'platform', appProps({ name: 'checkout-platform' }));
    const store = new SecretStore(platform, 'store', {
      name: 'checkout-vault',
      provider: SecretStoreProvider.vault({ server: 'https://vault.acme.internal:8200', path: 'secret', kubernetesAuthRole: 'checkout' }),
    });
    // WHEN / THEN
    expect(manifestOf(externalSecret(app, 'db', { store })).spec.secretStoreRef).toEqual({ name: 'checkout-vault', kind: 'SecretStore' });
  });

  test('ExternalSecretStore.fromName references a namespaced store defined elsewhere', () => {
    const store = ExternalSecretStore.fromName('team.store', SecretStoreKind.SECRET_STORE);
    expect(store).toEqual({ storeName: 'team.store', storeKind: SecretStoreKind.SECRET_STORE });
    const { app } = newApp();
    expect(manifestOf(externalSecret(app, 'db', { store })).spec.secretStoreRef).toEqual({ name: 'team.store', kind: 'SecretStore' });
  });

  test('two ExternalSecrets with different targets synthesize', () => {
    const { app, gitops } = newApp();
    externalSecret(app, 'db');
    externalSecret(app, 'api', { name: 'checkout-api', data: [{ secretKey: 'token', remoteKey: 'checkout/api' }] });
    expect(() => gitops.renderFiles()).not.toThrow();
  });
});

describe('ExternalSecret refusals', () => {
  test('fails when it is not inside a SafeApplication', () => {
    // GIVEN a plain chart
    const chart = new Chart(Testing.app(), 'plain');
    // WHEN / THEN
    expect(() => externalSecret(chart, 'db')).toThrow(/^\[SAFE-010\] plain\/db: scope is "plain\/db"; it is not inside a SafeApplication/);
  });

  test.each([
    ['name has capitals', { name: 'Checkout-DB' }, /^\[SAFE-001\] checkout\/es: name is "Checkout-DB"/],
    ['name is empty', { name: '' }, /^\[SAFE-001\] checkout\/es: name is ""/],
    ['name is longer than 253 characters', { name: 'a'.repeat(254) }, /^\[SAFE-001\] checkout\/es: name is "a{10}/],
    ['targetSecretName has an underscore', { targetSecretName: 'db_credentials' }, /^\[SAFE-001\] checkout\/es: targetSecretName is "db_credentials"/],
  ])('fails when %s', (_label, props, message) => {
    const { app } = newApp();
    expect(() => externalSecret(app, 'es', props)).toThrow(message);
  });

  test.each([
    ['data is empty', { data: [] }, /^\[SAFE-026\] checkout\/es: data is \[\]; it must list at least one key/],
    ['data is missing', { data: undefined as any }, /^\[SAFE-026\] checkout\/es: data is missing/],
    ['a secretKey has a slash', { data: [{ secretKey: 'db/password', remoteKey: 'checkout/db' }] }, /^\[SAFE-026\] checkout\/es: data\[0\]\.secretKey is "db\/password"/],
    ['a secretKey is empty', { data: [{ secretKey: '', remoteKey: 'checkout/db' }] }, /^\[SAFE-026\] checkout\/es: data\[0\]\.secretKey is ""/],
    ['a remoteKey is empty', { data: [{ secretKey: 'password', remoteKey: '' }] }, /^\[SAFE-026\] checkout\/es: data\[0\]\.remoteKey is ""/],
    ['a remoteKey has surrounding spaces', { data: [{ secretKey: 'password', remoteKey: ' checkout/db' }] }, /^\[SAFE-026\] checkout\/es: data\[0\]\.remoteKey is " checkout\/db"/],
    ['a remoteProperty is empty', { data: [{ secretKey: 'password', remoteKey: 'checkout/db', remoteProperty: '' }] }, /^\[SAFE-026\] checkout\/es: data\[0\]\.remoteProperty is ""/],
  ])('fails when %s', (_label, props, message) => {
    const { app } = newApp();
    expect(() => externalSecret(app, 'es', props)).toThrow(message);
  });

  test('fails when a secretKey is given twice', () => {
    const { app } = newApp();
    const data = [
      { secretKey: 'password', remoteKey: 'checkout/db', remoteProperty: 'password' },
      { secretKey: 'password', remoteKey: 'checkout/db-v2', remoteProperty: 'password' },
    ];
    expect(() => externalSecret(app, 'es', { data })).toThrow(/^\[SAFE-011\] checkout\/es: data\[1\]\.secretKey is "password"; it is already used/);
  });

  test.each([
    ['refreshInterval is 0, which would never refresh', Duration.seconds(0), 'refreshInterval is "0s"'],
    ['refreshInterval is 30 s', Duration.seconds(30), 'refreshInterval is "30s"'],
    ['refreshInterval is 25 h', Duration.hours(25), 'refreshInterval is "90000s"'],
    ['refreshInterval is 90.5 s', Duration.millis(90500), 'refreshInterval is "90.5s"'],
  ])('fails when %s', (_label, refreshInterval, message) => {
    const { app } = newApp();
    expect(() => externalSecret(app, 'es', { refreshInterval })).toThrow(/^\[SAFE-027\] checkout\/es: refreshInterval /);
    expect(() => externalSecret(app, 'es2', { refreshInterval })).toThrow(message);
  });

  test.each([
    ['the store has no name', { storeName: '', storeKind: SecretStoreKind.SECRET_STORE }],
    ['the store kind is not a SecretStoreKind', { storeName: 'vault', storeKind: 'Vault' as SecretStoreKind }],
    ['the store is missing', undefined as unknown as ISecretStore],
  ])('fails when %s', (_label, store) => {
    const { app } = newApp();
    expect(() => externalSecret(app, 'es', { store: store as ISecretStore })).toThrow(/^\[SAFE-028\] checkout\/es: store /);
  });

  test('fails when the SecretStore is in another namespace', () => {
    // GIVEN a SecretStore of an app in namespace "platform"
    const { app, gitops } = newApp();
    const platform = new SafeApplication(gitops, 'platform', appProps({ name: 'platform', destinationNamespace: 'platform' }));
    const store = new SecretStore(platform, 'store', {
      name: 'vault',
      provider: SecretStoreProvider.vault({ server: 'https://vault.acme.internal:8200', path: 'secret', kubernetesAuthRole: 'platform' }),
    });
    // WHEN / THEN an ExternalSecret in namespace "payments" cannot use it
    expect(() => externalSecret(app, 'es', { store })).toThrow(
      /^\[SAFE-028\] checkout\/es: store is "SecretStore platform\/vault"; it is in another namespace than the ExternalSecret \(payments\)/);
  });

  test('fails at synth when two ExternalSecrets of one app write the same Secret', () => {
    // GIVEN two ExternalSecrets whose targets are the same Secret
    const { app, gitops } = newApp();
    externalSecret(app, 'db');
    externalSecret(app, 'db2', { name: 'checkout-db-extra', targetSecretName: 'checkout-db' });
    // WHEN / THEN
    expect(() => gitops.renderFiles()).toThrow(
      /\[SAFE-011\] 2 ExternalSecrets of app checkout write Secret payments\/checkout-db \(checkout\/db, checkout\/db2\)/);
  });
});

describe('ExternalSecretStore.fromName refusals', () => {
  test.each([
    ['the name has capitals', 'Vault'],
    ['the name is empty', ''],
  ])('fails when %s', (_label, name) => {
    expect(() => ExternalSecretStore.fromName(name, SecretStoreKind.CLUSTER_SECRET_STORE))
      .toThrow(new RegExp(`^\\[SAFE-001\\] ExternalSecretStore\\.fromName: storeName is "${name}"`));
  });

  test('fails when the kind is not a SecretStoreKind', () => {
    expect(() => ExternalSecretStore.fromName('vault', 'Vault' as SecretStoreKind))
      .toThrow(/^\[SAFE-028\] ExternalSecretStore\.fromName: storeKind is "Vault"; it must be a SecretStoreKind/);
  });
});

describe('ESO schema (test support)', () => {
  test('fails when a field is misspelt or a policy is unknown, so the checks above can fail', () => {
    // GIVEN a rendered ExternalSecret with two mistakes
    const { app } = newApp();
    const es = manifestOf(externalSecret(app, 'db'));
    const broken = { ...es, spec: { ...es.spec, target: { ...es.spec.target, creationpolicy: 'Owner', deletionPolicy: 'Keep' } } };
    // WHEN / THEN both are reported
    const errors = esoErrors(broken).join('\n');
    expect(errors).toContain('(creationpolicy)');
    expect(errors).toContain('/spec/target/deletionPolicy must be equal to one of the allowed values');
  });
});

/** The manifests an app deploys: every ApiObject in it but the Application. */
function workloadsOf(app: SafeApplication): Manifest[] {
  return app.node.findAll()
    .filter((c): c is ApiObject => ApiObject.isApiObject(c) && c !== app.resource)
    .map((o) => o.toJson() as Manifest);
}
