import { ApiObject, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { ISecretStore, SecretStore, SecretStoreKind } from './secret-store';
import { SafeApplication } from '../application/safe-application';
import { badValue, ErrorCode } from '../core/errors';
import { isDns1123Subdomain } from '../core/names';
import { goDuration } from '../private/go-duration';

const EXTERNAL_SECRET = Symbol.for('cdk8s-safe-argocd.ExternalSecret');

/** The keys of a Kubernetes Secret, as ESO's CRD checks `secretKey`. */
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;

/**
 * References to stores of the External Secrets Operator defined outside this app, such as a
 * ClusterSecretStore run by the platform team.
 */
export class ExternalSecretStore {
  /**
   * An existing SecretStore (in the ExternalSecret's namespace) or ClusterSecretStore, by name.
   *
   * @param storeName the store's `metadata.name`
   * @param storeKind whether it is a namespaced SecretStore or a ClusterSecretStore
   */
  public static fromName(storeName: string, storeKind: SecretStoreKind): ISecretStore {
    const where = 'ExternalSecretStore.fromName';
    if (typeof storeName !== 'string' || !isDns1123Subdomain(storeName)) {
      throw badValue(ErrorCode.INVALID_NAME, where, 'storeName', storeName,
        'must be a store name: a DNS-1123 subdomain (lowercase letters, digits, "-" and ".")', 'use the metadata.name of the SecretStore or ClusterSecretStore');
    }
    if (!Object.values(SecretStoreKind).includes(storeKind)) {
      throw badValue(ErrorCode.INVALID_SECRET_STORE, where, 'storeKind', storeKind,
        'must be a SecretStoreKind', 'use SecretStoreKind.SECRET_STORE or SecretStoreKind.CLUSTER_SECRET_STORE');
    }
    return { storeName, storeKind };
  }

  private constructor() {}
}

/**
 * One key of the Kubernetes Secret, and where its value comes from.
 *
 * @see https://external-secrets.io/latest/api/externalsecret/
 */
export interface ExternalSecretData {
  /** The key in the Kubernetes Secret: letters, digits, `-`, `_` and `.`. */
  readonly secretKey: string;

  /** The secret in the provider: its name, path or ARN, as the provider names it (`remoteRef.key`). */
  readonly remoteKey: string;

  /**
   * One property of a structured (JSON) provider secret (`remoteRef.property`).
   *
   * @default - the whole value of the provider secret
   * @see https://external-secrets.io/latest/api/externalsecret/
   */
  readonly remoteProperty?: string;
}

/**
 * Props of an {@link ExternalSecret}.
 */
export interface ExternalSecretProps {
  /** The ExternalSecret's name, a DNS-1123 subdomain. */
  readonly name: string;

  /** The store the values are read from: a `SecretStore` of this namespace, or `ExternalSecretStore.fromName(...)`. */
  readonly store: ISecretStore;

  /** The keys of the Secret, at least one, each `secretKey` once. */
  readonly data: ExternalSecretData[];

  /**
   * The name of the Kubernetes Secret the operator writes (`spec.target.name`).
   *
   * @default - the ExternalSecret's `name`, written out
   * @see https://external-secrets.io/latest/api/externalsecret/
   */
  readonly targetSecretName?: string;

  /**
   * How often the operator reads the values again, so that a rotation in the provider reaches the cluster.
   * From 1 minute to 24 hours, in whole seconds. 0 is refused: it would fetch once and never again.
   *
   * @default Duration.hours(1) - the operator's own default, written out
   * @see https://external-secrets.io/latest/api/externalsecret/
   */
  readonly refreshInterval?: Duration;
}

/**
 * A Kubernetes Secret whose values live in a secret manager, never in Git: an `ExternalSecret` of the
 * External Secrets Operator (`external-secrets.io/v1`).
 *
 * - `target.creationPolicy: Owner`: the operator creates the Secret with an ownerReference to the
 *   ExternalSecret. Argo CD never treats an object with an ownerReference as one of its own (gitops-engine
 *   `GetManagedLiveObjs`), so it neither prunes nor self-heals the Secret, and deleting the ExternalSecret
 *   garbage-collects it.
 * - `target.deletionPolicy: Retain`: deletionPolicy is about the provider, not the ExternalSecret. When a
 *   provider secret is deleted or renamed, the Secret keeps its last values and the ExternalSecret reports
 *   `SecretSyncedError`; with `Delete` the Secret would vanish silently and pods would fail at their next start.
 * - Everything the operator's CRD would default (refreshInterval, target policies, and each remoteRef's
 *   conversionStrategy, decodingStrategy and metadataPolicy) is written out, so that the live object
 *   equals Git and Argo CD shows no permanent diff (external-secrets #5895).
 *
 * The ExternalSecret object is the child `Resource` (`ApiObject.of(secret)`).
 *
 * @see https://external-secrets.io/latest/api/externalsecret/
 * @see https://external-secrets.io/latest/guides/ownership-deletion-policy/
 */
export class ExternalSecret extends Construct {
  /** Whether `x` is an ExternalSecret. */
  public static isExternalSecret(x: unknown): x is ExternalSecret {
    return typeof x === 'object' && x !== null && EXTERNAL_SECRET in x;
  }

  /** The ExternalSecret's name. */
  public readonly externalSecretName: string;
  /** The name of the Kubernetes Secret the operator writes. */
  public readonly targetSecretName: string;
  /** The namespace of the ExternalSecret and its Secret: its SafeApplication's destination namespace. */
  public readonly namespace: string;
  /** The store the values are read from. */
  public readonly store: ISecretStore;
  /** How often the values are read again. */
  public readonly refreshInterval: Duration;
  /** The keys of the Secret, in the order given. */
  public readonly secretKeys: string[];
  /** The ExternalSecret object. */
  public readonly resource: ApiObject;

  public constructor(scope: Construct, id: string, props: ExternalSecretProps) {
    super(scope, id);
    Object.defineProperty(this, EXTERNAL_SECRET, { value: true });
    const app = SafeApplication.enclosing(this);
    this.namespace = app.destinationNamespace;

    this.externalSecretName = checkName(this, 'name', props.name);
    this.targetSecretName = props.targetSecretName === undefined
      ? this.externalSecretName
      : checkName(this, 'targetSecretName', props.targetSecretName);
    this.store = checkStore(this, props.store, this.namespace);
    this.refreshInterval = checkRefresh(this, props.refreshInterval ?? Duration.hours(1));
    const data = checkData(this, props.data);
    this.secretKeys = data.map((d) => d.secretKey);

    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      metadata: { name: this.externalSecretName },
      spec: {
        secretStoreRef: { name: this.store.storeName, kind: this.store.storeKind },
        refreshInterval: goDuration(this.refreshInterval),
        target: {
          name: this.targetSecretName,
          creationPolicy: 'Owner',
          deletionPolicy: 'Retain',
        },
        data: data.map((d) => ({
          secretKey: d.secretKey,
          remoteRef: {
            key: d.remoteKey,
            property: d.remoteProperty,
            conversionStrategy: 'Default',
            decodingStrategy: 'None',
            metadataPolicy: 'None',
          },
        })),
      },
    });

    this.node.addValidation({ validate: () => this.validateTargets(app) });
  }

  /** Two ExternalSecrets that own one Secret would overwrite each other; the second is refused by the operator. */
  private validateTargets(app: SafeApplication): string[] {
    const same = app.node.findAll()
      .filter((c): c is ExternalSecret => ExternalSecret.isExternalSecret(c))
      .filter((e) => e.targetSecretName === this.targetSecretName);
    // Reported once, by the first of them.
    if (same.length < 2 || same[0] !== this) {
      return [];
    }
    return [`[${ErrorCode.DUPLICATE}] ${same.length} ExternalSecrets of app ${app.applicationName} write Secret ${this.namespace}/${this.targetSecretName} `
      + `(${same.map((e) => e.node.path).join(', ')}); with creationPolicy Owner the operator lets one of them own it and fails the others with a conflict. `
      + 'Fix: give each ExternalSecret its own targetSecretName, or put all keys into one ExternalSecret.'];
  }
}

function checkName(scope: Construct, prop: string, value: string): string {
  if (typeof value !== 'string' || !isDns1123Subdomain(value)) {
    throw badValue(ErrorCode.INVALID_NAME, scope, prop, value,
      'must be a DNS-1123 subdomain: lowercase letters, digits, "-" and ".", at most 253 characters', 'use e.g. "checkout-db"');
  }
  return value;
}

function checkStore(scope: Construct, store: ISecretStore, namespace: string): ISecretStore {
  const valid = typeof store === 'object' && store !== null
    && typeof store.storeName === 'string' && isDns1123Subdomain(store.storeName)
    && Object.values(SecretStoreKind).includes(store.storeKind);
  if (!valid) {
    throw badValue(ErrorCode.INVALID_SECRET_STORE, scope, 'store', store,
      'must be a SecretStore or a store reference with a name and a SecretStoreKind', 'pass a SecretStore of this app, or ExternalSecretStore.fromName(\'name\', SecretStoreKind.CLUSTER_SECRET_STORE)');
  }
  if (SecretStore.isSecretStore(store) && store.namespace !== namespace) {
    throw badValue(ErrorCode.INVALID_SECRET_STORE, scope, 'store', `SecretStore ${store.namespace}/${store.storeName}`,
      `is in another namespace than the ExternalSecret (${namespace}); a SecretStore serves its own namespace only`, 'define a SecretStore in this namespace, or use a ClusterSecretStore');
  }
  return store;
}

function checkRefresh(scope: Construct, interval: Duration): Duration {
  const seconds = interval?.toSeconds?.({ integral: false });
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 60 || seconds > 86400) {
    throw badValue(ErrorCode.REFRESH_OUT_OF_BOUNDS, scope, 'refreshInterval', typeof seconds === 'number' ? `${seconds}s` : interval,
      'must be a whole number of seconds from 60s (1 minute) to 86400s (24 hours); 0 would fetch once and never refresh', 'use e.g. Duration.hours(1)');
  }
  return interval;
}

function checkData(scope: Construct, data: ExternalSecretData[]): ExternalSecretData[] {
  if (!Array.isArray(data) || data.length === 0) {
    throw badValue(ErrorCode.INVALID_SECRET_DATA, scope, 'data', data,
      'must list at least one key', 'add e.g. { secretKey: \'password\', remoteKey: \'checkout/db\', remoteProperty: \'password\' }');
  }
  const seen = new Set<string>();
  data.forEach((d, i) => {
    const key = d?.secretKey;
    if (typeof key !== 'string' || key.length > 253 || !SECRET_KEY.test(key)) {
      throw badValue(ErrorCode.INVALID_SECRET_DATA, scope, `data[${i}].secretKey`, key,
        'must be a Secret key: letters, digits, "-", "_" and ".", at most 253 characters', 'use e.g. "password" or "DB_PASSWORD"');
    }
    if (seen.has(key)) {
      throw badValue(ErrorCode.DUPLICATE, scope, `data[${i}].secretKey`, key,
        'is already used by an earlier entry; the later value would silently win', 'give each key of the Secret once');
    }
    seen.add(key);
    if (typeof d.remoteKey !== 'string' || d.remoteKey.trim() === '' || d.remoteKey.trim() !== d.remoteKey) {
      throw badValue(ErrorCode.INVALID_SECRET_DATA, scope, `data[${i}].remoteKey`, d.remoteKey,
        'must name the secret in the provider, without surrounding whitespace', 'use the provider\'s name or path of the secret, e.g. "checkout/db"');
    }
    if (d.remoteProperty !== undefined
      && (typeof d.remoteProperty !== 'string' || d.remoteProperty.trim() === '' || d.remoteProperty.trim() !== d.remoteProperty)) {
      throw badValue(ErrorCode.INVALID_SECRET_DATA, scope, `data[${i}].remoteProperty`, d.remoteProperty,
        'must name one property of the provider secret, without surrounding whitespace', 'use e.g. "password", or leave remoteProperty out to take the whole value');
    }
  });
  return data;
}
