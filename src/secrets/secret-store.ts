import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { SafeApplication } from '../application/safe-application';
import { badValue, ErrorCode } from '../core/errors';
import { isDns1123Subdomain } from '../core/names';

const SECRET_STORE_SYMBOL = Symbol.for('cdk8s-safe-argocd.SecretStore');

/**
 * The two kinds of store an ExternalSecret can read from.
 *
 * @see https://external-secrets.io/latest/api/secretstore/
 * @see https://external-secrets.io/latest/api/clustersecretstore/
 */
export enum SecretStoreKind {
  /** A namespaced `SecretStore`: only ExternalSecrets of its own namespace can use it. */
  SECRET_STORE = 'SecretStore',
  /** A cluster-wide `ClusterSecretStore`, usually run by the platform team. */
  CLUSTER_SECRET_STORE = 'ClusterSecretStore',
}

/**
 * A store of the External Secrets Operator that an ExternalSecret reads from.
 */
export interface ISecretStore {
  /** The store's `metadata.name`. */
  readonly storeName: string;
  /** Whether it is a namespaced SecretStore or a ClusterSecretStore. */
  readonly storeKind: SecretStoreKind;
}

/**
 * Options of {@link SecretStoreProvider.awsSecretsManager}.
 */
export interface AwsSecretsManagerOptions {
  /** The AWS region the secrets are in, e.g. `eu-central-1`. */
  readonly region: string;

  /**
   * An IAM role ARN the operator assumes after authenticating, to narrow access to this app's secrets.
   *
   * @default - no role is assumed: the service account's own IAM role is used
   * @see https://external-secrets.io/latest/provider/aws-secrets-manager/
   */
  readonly role?: string;

  /**
   * The service account whose token the operator exchanges for AWS credentials (IRSA, `auth.jwt`). It must
   * be in the store's namespace and carry the `eks.amazonaws.com/role-arn` annotation. No static keys are
   * ever stored in the cluster.
   */
  readonly serviceAccount: kplus.IServiceAccount;
}

/** The version of a Vault KV secrets engine. */
export enum VaultKvVersion {
  /** KV version 1: no versioning. */
  V1 = 'v1',
  /** KV version 2: versioned secrets, read under `<path>/data/`. */
  V2 = 'v2',
}

/**
 * Options of {@link SecretStoreProvider.vault}.
 */
export interface VaultOptions {
  /** The Vault server, an `https://` URL, e.g. `https://vault.example.com:8200`. */
  readonly server: string;

  /** The mount path of the KV secrets engine, e.g. `secret`, without leading or trailing `/`. */
  readonly path: string;

  /**
   * The version of the KV secrets engine at `path`.
   *
   * @default VaultKvVersion.V2 - the operator's own default, written out
   * @see https://external-secrets.io/latest/provider/hashicorp-vault/
   */
  readonly version?: VaultKvVersion;

  /** The Vault role of the Kubernetes auth method that binds the service account to this app's policies. */
  readonly kubernetesAuthRole: string;

  /**
   * The path the Kubernetes auth method is mounted at in Vault.
   *
   * @default 'kubernetes'
   * @see https://external-secrets.io/latest/provider/hashicorp-vault/
   */
  readonly kubernetesAuthMountPath?: string;

  /**
   * The service account whose token is presented to Vault. It must be in the store's namespace.
   *
   * @default - the operator's own service account, shared by every namespace; give the app its own
   * service account so that Vault can tell apps apart
   * @see https://external-secrets.io/latest/provider/hashicorp-vault/
   */
  readonly serviceAccount?: kplus.IServiceAccount;
}

/**
 * GKE Workload Identity of {@link GcpSecretManagerOptions}.
 */
export interface GcpWorkloadIdentityOptions {
  /** The cluster's location: its region for a regional cluster (`europe-west1`), its zone for a zonal one (`europe-west1-b`). */
  readonly clusterLocation: string;
  /** The GKE cluster's name. */
  readonly clusterName: string;
  /** The Kubernetes service account bound to a Google service account. It must be in the store's namespace. */
  readonly serviceAccount: kplus.IServiceAccount;
}

/**
 * Options of {@link SecretStoreProvider.gcpSecretManager}.
 */
export interface GcpSecretManagerOptions {
  /** The Google Cloud project ID the secrets are in (not its number nor its display name). */
  readonly projectId: string;
  /** How the operator authenticates: GKE Workload Identity, no static key. */
  readonly workloadIdentity: GcpWorkloadIdentityOptions;
}

/**
 * Where a SecretStore reads secrets from, and how it authenticates. Every provider authenticates with a
 * Kubernetes service account token; none keeps a static credential in the cluster.
 *
 * @see https://external-secrets.io/latest/api/secretstore/
 */
export class SecretStoreProvider {
  /**
   * AWS Secrets Manager, authenticated with a service account token (IRSA).
   *
   * @see https://external-secrets.io/latest/provider/aws-secrets-manager/
   */
  public static awsSecretsManager(options: AwsSecretsManagerOptions): SecretStoreProvider {
    const where = 'SecretStoreProvider.awsSecretsManager';
    const region = matching(where, 'region', options.region, /^[a-z]{2}(-[a-z]+)+-\d+$/,
      'must be an AWS region code', 'use e.g. "eu-central-1"');
    const role = options.role === undefined ? undefined : matching(where, 'role', options.role,
      /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/, 'must be an IAM role ARN',
      'use e.g. "arn:aws:iam::123456789012:role/checkout-secrets", or leave role out');
    const serviceAccount = serviceAccountName(where, 'serviceAccount', options.serviceAccount);
    return new SecretStoreProvider('aws', {
      service: 'SecretsManager',
      region,
      role,
      auth: { jwt: { serviceAccountRef: { name: serviceAccount } } },
    });
  }

  /**
   * HashiCorp Vault's KV secrets engine, authenticated with Vault's Kubernetes auth method.
   *
   * @see https://external-secrets.io/latest/provider/hashicorp-vault/
   */
  public static vault(options: VaultOptions): SecretStoreProvider {
    const where = 'SecretStoreProvider.vault';
    if (typeof options.server !== 'string' || !/^https:\/\/[^\s/]+(\/\S*)?$/.test(options.server)) {
      throw badValue(ErrorCode.INVALID_URL, where, 'server', options.server,
        'must be an https:// URL: over plain http the Vault token and every secret travel in clear text', 'use e.g. "https://vault.example.com:8200"');
    }
    const vaultPath = /^[\w.-]+(\/[\w.-]+)*$/;
    const path = matching(where, 'path', options.path, vaultPath,
      'must be the mount path of a KV secrets engine, without leading or trailing "/"', 'use e.g. "secret"');
    const version = options.version ?? VaultKvVersion.V2;
    if (!Object.values(VaultKvVersion).includes(version)) {
      throw badValue(ErrorCode.INVALID_SECRET_STORE, where, 'version', version,
        'must be a VaultKvVersion', 'use VaultKvVersion.V2 (or V1 for a KV version 1 engine)');
    }
    const role = matching(where, 'kubernetesAuthRole', options.kubernetesAuthRole, /^[\w.@-]+$/,
      'must be the name of a role of Vault\'s Kubernetes auth method', 'use e.g. "checkout"');
    const mountPath = matching(where, 'kubernetesAuthMountPath', options.kubernetesAuthMountPath ?? 'kubernetes', vaultPath,
      'must be the path the Kubernetes auth method is mounted at, without leading or trailing "/"', 'use e.g. "kubernetes"');
    const serviceAccount = options.serviceAccount === undefined
      ? undefined
      : serviceAccountName(where, 'serviceAccount', options.serviceAccount);
    return new SecretStoreProvider('vault', {
      server: options.server,
      path,
      version,
      auth: {
        kubernetes: {
          mountPath,
          role,
          serviceAccountRef: serviceAccount === undefined ? undefined : { name: serviceAccount },
        },
      },
    });
  }

  /**
   * Google Cloud Secret Manager, authenticated with GKE Workload Identity.
   *
   * @see https://external-secrets.io/latest/provider/google-secrets-manager/
   */
  public static gcpSecretManager(options: GcpSecretManagerOptions): SecretStoreProvider {
    const where = 'SecretStoreProvider.gcpSecretManager';
    const projectId = matching(where, 'projectId', options.projectId, /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/,
      'must be a Google Cloud project ID: 6 to 30 lowercase letters, digits and "-", starting with a letter',
      'use the project ID, e.g. "payments-prod", not the project number');
    const identity = options.workloadIdentity;
    if (typeof identity !== 'object' || identity === null) {
      throw badValue(ErrorCode.INVALID_SECRET_STORE, where, 'workloadIdentity', identity,
        'is required', 'give { clusterLocation, clusterName, serviceAccount } of the GKE cluster');
    }
    const clusterLocation = matching(where, 'workloadIdentity.clusterLocation', identity.clusterLocation,
      /^[a-z]+-[a-z]+\d+(-[a-z])?$/, 'must be a Google Cloud region or zone',
      'use the region of a regional cluster ("europe-west1") or the zone of a zonal one ("europe-west1-b")');
    const clusterName = matching(where, 'workloadIdentity.clusterName', identity.clusterName,
      /^[a-z]([-a-z0-9]{0,38}[a-z0-9])?$/, 'must be a GKE cluster name', 'use the cluster\'s name, e.g. "prod"');
    const serviceAccount = serviceAccountName(where, 'workloadIdentity.serviceAccount', identity.serviceAccount);
    return new SecretStoreProvider('gcpsm', {
      projectID: projectId,
      auth: { workloadIdentity: { clusterLocation, clusterName, serviceAccountRef: { name: serviceAccount } } },
    });
  }

  /** The provider's key under `spec.provider`: `aws`, `vault` or `gcpsm`. */
  public readonly providerKey: string;
  private readonly config: { readonly [key: string]: unknown };

  private constructor(providerKey: string, config: { readonly [key: string]: unknown }) {
    this.providerKey = providerKey;
    this.config = config;
  }

  /**
   * The `spec.provider` of a store.
   * @internal
   */
  public _render(): { [key: string]: unknown } {
    return { [this.providerKey]: this.config };
  }
}

/**
 * Props of a {@link SecretStore}.
 */
export interface SecretStoreProps {
  /** The store's name, a DNS-1123 subdomain; ExternalSecrets refer to it by this name. */
  readonly name: string;
  /** Where the secrets are read from, and how the operator authenticates. */
  readonly provider: SecretStoreProvider;
}

/**
 * A namespaced SecretStore of the External Secrets Operator (`external-secrets.io/v1`), in the namespace
 * of the SafeApplication it is defined in. Only ExternalSecrets of that namespace can use it.
 *
 * The SecretStore object is the child `Resource` (`ApiObject.of(store)`).
 *
 * @see https://external-secrets.io/latest/api/secretstore/
 */
export class SecretStore extends Construct implements ISecretStore {
  /** Whether `x` is a SecretStore construct. */
  public static isSecretStore(x: unknown): x is SecretStore {
    return typeof x === 'object' && x !== null && SECRET_STORE_SYMBOL in x;
  }

  /** The store's name. */
  public readonly storeName: string;
  /** Always `SecretStoreKind.SECRET_STORE`. */
  public readonly storeKind: SecretStoreKind = SecretStoreKind.SECRET_STORE;
  /** The namespace the store is in: its SafeApplication's destination namespace. */
  public readonly namespace: string;
  /** Where the secrets are read from. */
  public readonly provider: SecretStoreProvider;
  /** The SecretStore object. */
  public readonly resource: ApiObject;

  public constructor(scope: Construct, id: string, props: SecretStoreProps) {
    super(scope, id);
    Object.defineProperty(this, SECRET_STORE_SYMBOL, { value: true });
    const app = SafeApplication.enclosing(this);

    if (typeof props.name !== 'string' || !isDns1123Subdomain(props.name)) {
      throw badValue(ErrorCode.INVALID_NAME, this, 'name', props.name,
        'must be a DNS-1123 subdomain: lowercase letters, digits, "-" and ".", at most 253 characters', 'use e.g. "checkout-secrets"');
    }
    if (!(props.provider instanceof SecretStoreProvider)) {
      throw badValue(ErrorCode.INVALID_SECRET_STORE, this, 'provider', props.provider,
        'must be built with a SecretStoreProvider factory', 'use e.g. SecretStoreProvider.awsSecretsManager({ region, serviceAccount })');
    }
    this.storeName = props.name;
    this.provider = props.provider;
    this.namespace = app.destinationNamespace;

    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'external-secrets.io/v1',
      kind: 'SecretStore',
      metadata: { name: this.storeName },
      spec: { provider: this.provider._render() },
    });
  }
}

function matching(where: string, prop: string, value: string, pattern: RegExp, allowed: string, fix: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw badValue(ErrorCode.INVALID_SECRET_STORE, where, prop, value, allowed, fix);
  }
  return value;
}

function serviceAccountName(where: string, prop: string, serviceAccount: kplus.IServiceAccount): string {
  const name = serviceAccount?.name;
  if (typeof name !== 'string' || !isDns1123Subdomain(name)) {
    throw badValue(ErrorCode.INVALID_SECRET_STORE, where, prop, name,
      'must be a service account with a DNS-1123 name', 'pass a kplus.ServiceAccount, or kplus.ServiceAccount.fromServiceAccountName(scope, id, \'name\')');
  }
  return name;
}
