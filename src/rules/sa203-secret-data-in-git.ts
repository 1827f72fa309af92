import { Severity } from './severity';
import { Rule, Violation } from './types';
import { SECRET_TYPE_LABEL } from '../core/annotations';
import { describeObject, isObject, listAt, Manifest, stringAt } from '../core/manifest';
import { holdsPrivateKey, isArgoCdSecretReference, isEncryptedValue, isSecretKey } from '../core/secret-values';
import { parseYamlValue } from '../core/yaml-text';

/** The fields of a core v1 Secret that hold values. */
const VALUE_FIELDS = ['data', 'stringData'] as const;

/** A core v1 Secret. */
function isCoreSecret(obj: Manifest): boolean {
  return obj.apiVersion === 'v1' && obj.kind === 'Secret';
}

/** PEM blocks of certificates only, and nothing else: a chain or a CA bundle, public by design (no private key). */
const CERTIFICATES = /^(?:-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+-----END CERTIFICATE-----\s*)+$/;

/** One absolute file path (`/var/run/secrets/kubernetes.io/serviceaccount/token`): where a secret is read from, not one. */
const FILE_PATH = /^\/(?:[\w.-]+\/)*[\w.-]+$/;

/** An HTML page (OpenShift's OAuth login, provider selection and error templates must be kept in Secrets): shown to everyone. */
const HTML_PAGE = /^(?:<!DOCTYPE html|<html)[\s>]/i;

/**
 * A ytt template or overlay (`#@ load("@ytt:overlay", "overlay")`, `#@overlay/match ...`, `#@data/values`): Carvel's
 * kapp-controller reads a PackageInstall's overlays from Secrets only, so configuration lives there.
 */
const YTT_TEMPLATE = /^#@(?:\s*load\(\s*"@ytt:|overlay\/|data\/values)/;

/**
 * OpenSSH public keys, one a line (`ssh-ed25519 AAAA... user@host`, an authorized_keys list, `#` comments between): public
 * by design, unlike the private key they pair with, whose PEM block matches none of these lines.
 */
const SSH_PUBLIC_KEY_LINE = /^(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp(?:256|384|521)|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)[ \t]+AAAA[A-Za-z0-9+/]+={0,3}(?:[ \t]+[^\s].*)?$/;

/** Whether a text holds OpenSSH public keys and comments only, one key at least. */
function onlySshPublicKeys(text: string): boolean {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  return lines.length > 0 && lines.every((l) => SSH_PUBLIC_KEY_LINE.test(l));
}

/** A file of an HTML page, as a secretGenerator's `files` entry names it (`login.html`, `page=pages/login.htm`). */
const HTML_FILE = /\.html?$/i;

/**
 * The keys of argocd-secret that Argo CD's settings resolve when they hold a reference (`$<key>`, or `$<secret>:<key>` of
 * another Secret labelled part-of argocd): the webhook secrets. Other keys are read as they are.
 */
const ARGOCD_SECRET_REFERENCE_KEYS = new Set([
  'webhook.github.secret', 'webhook.gitlab.secret', 'webhook.bitbucket.uuid', 'webhook.bitbucketserver.secret', 'webhook.gogs.secret',
  'webhook.azuredevops.username', 'webhook.azuredevops.password',
]);

/** A Secret's value as written or, in `data`, decoded from base64; undefined for a value that is no string. */
function plainText(value: unknown, base64: boolean): string | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  return base64 ? Buffer.from(value, 'base64').toString('latin1') : value;
}

/** Whether the value of `key` in `secret` is a reference Argo CD resolves to another Secret's value. */
function isArgoCdReference(secret: Manifest, key: string, value: unknown, base64: boolean): boolean {
  const text = plainText(value, base64);
  return stringAt(secret, 'metadata', 'name') === 'argocd-secret' && ARGOCD_SECRET_REFERENCE_KEYS.has(key) && text !== undefined
    && isArgoCdSecretReference(text);
}

/**
 * The keys of Argo CD's declarative Secrets, by their secret-type label, that hold no credential: what and where the
 * repository or cluster is and switches (Argo CD's secretToRepository, secretToRepoCred and secretToCluster). The
 * credentials are in other keys (username and password, sshPrivateKey, tlsClientCertKey, githubAppPrivateKey,
 * gcpServiceAccountKey) or in a cluster's config, judged as any configuration is.
 */
const REPOSITORY_PUBLIC_KEYS = new Set([
  'name', 'url', 'type', 'project', 'enableOCI', 'enableLfs', 'insecure', 'insecureIgnoreHostKey', 'forceHttpBasicAuth',
  'useAzureWorkloadIdentity', 'githubAppID', 'githubAppInstallationID', 'githubAppEnterpriseBaseUrl', 'proxy', 'noProxy',
]);
const ARGOCD_PUBLIC_KEYS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['repository', REPOSITORY_PUBLIC_KEYS], ['repo-creds', REPOSITORY_PUBLIC_KEYS],
  ['repository-write', REPOSITORY_PUBLIC_KEYS], ['repo-write-creds', REPOSITORY_PUBLIC_KEYS],
  ['cluster', new Set(['name', 'server', 'namespaces', 'clusterResources', 'project', 'shard'])],
]);

/** A URL that carries a password (`postgres://user:pass@db`). */
const URL_WITH_PASSWORD = /:\/\/[^/\s:@]+:[^/\s@]+@/;

/** A web URL with user information (`https://<token>@github.com/...`): Git hosts take a token as the user name alone. */
const WEB_URL_WITH_USER = /^https?:\/\/[^/\s@]+@/i;

/**
 * Whether `key` of an Argo CD repository, credential template or cluster Secret holds no credential: a key of
 * {@link ARGOCD_PUBLIC_KEYS} for its secret-type, whose value carries no password or token in a URL and no private key.
 */
function isArgoCdPublicField(secret: Manifest, key: string, value: unknown, base64: boolean): boolean {
  const type = stringAt(secret, 'metadata', 'labels', SECRET_TYPE_LABEL);
  if (type === undefined || !ARGOCD_PUBLIC_KEYS.get(type)?.has(key)) {
    return false;
  }
  if (typeof value === 'boolean' || typeof value === 'number') {
    return true;
  }
  const text = plainText(value, base64)?.trim();
  return text !== undefined && !holdsPrivateKey(text) && !URL_WITH_PASSWORD.test(text) && !WEB_URL_WITH_USER.test(text);
}

/**
 * Settings of a credential that are no secret themselves: the Docker registry's `htpasswd: {realm, path}`, a
 * credential's `type`, `algorithm` or `enabled`. Any other key under a credential's is taken to hold one.
 */
const CREDENTIAL_SETTING = /^(realm|path|file|type|kind|algorithm|enabled|mode|format)$/i;

/** A key of key material under another name, as a kubeconfig has it (`client-key-data`). */
const KEY_DATA = /key[-_]?data$/i;

/** Backstage's config includes (`$file: <path>`, `$env: <VARIABLE>`): the value is read from a file or the environment. */
const INCLUDE_KEYS = new Set(['$file', '$env']);

/** Bounds for a config read from a value: its length, how deep it is walked, how many values. */
const MAX_CONFIG_CHARS = 100_000;
const MAX_CONFIG_DEPTH = 32;
const MAX_CONFIG_VALUES = 5_000;

/**
 * Keys of a config that may hold a credential without a credential's name: a registry's `auth`, PagerDuty's
 * `routing_key` or `service_key`, a `dsn`, a `pass`. A string under one must be read from a file, as a credential's must.
 */
const MAYBE_CREDENTIAL_KEY = /(auth|key|dsn|pass|pwd|creds?|salt)$/i;

/**
 * A URL that is itself a credential: one that carries a password, a chat webhook (whose path is the secret), or a
 * token, key or signature in its query.
 */
const SECRET_URL = /:\/\/[^/\s:@]+:[^/\s@]+@|hooks\.slack\.com\/|discord(?:app)?\.com\/api\/webhooks\/|[?&](?:token|access_token|key|api[-_]?key|sig|signature|secret|password|auth)=/i;

/**
 * Whether a value is a YAML or JSON configuration that holds no credential in plain text: each key of a credential
 * (`serviceAccountToken`, `password`, `client-key-data`) holds an absolute file path or a `$file` or `$env` include, a
 * string under a key that may hold one (`auth`, `routing_key`) does too, and no value is a private key or a URL that
 * carries a secret. A Backstage Kubernetes plugin's config that reads the mounted service account token is one; so are
 * a Loki config with no credential key and an Argo CD cluster's `{"tlsClientConfig":{"insecure":false}}`.
 */
function holdsNoCredential(text: string): boolean {
  if (text.length > MAX_CONFIG_CHARS || !text.includes(':')) {
    return false;
  }
  let tree: unknown;
  try {
    tree = parseYamlValue(text, { maxAliasCount: 0 });
  } catch {
    return false;
  }
  if (!isObject(tree)) {
    return false;
  }
  let budget = MAX_CONFIG_VALUES;
  const holdsOnlyReferences = (value: unknown, key: string, depth: number): boolean => {
    if (budget-- <= 0 || depth > MAX_CONFIG_DEPTH) {
      return false;
    }
    if (isSecretKey(key) || KEY_DATA.test(key) || (MAYBE_CREDENTIAL_KEY.test(key) && typeof value === 'string')) {
      // A credential's settings (a registry's `htpasswd: {realm, path}`): each a setting that is no secret, or a file.
      if (isObject(value) && !isFileReference(value)) {
        return Object.entries(value).every(([k, v]) => (CREDENTIAL_SETTING.test(k) && (typeof v !== 'string' || !holdsPrivateKey(v)))
          || (isObject(v) ? holdsOnlyReferences(v, k, depth + 1) : isFileReference(v)));
      }
      return isFileReference(value);
    }
    if (Array.isArray(value)) {
      return value.every((item) => holdsOnlyReferences(item, key, depth + 1));
    }
    if (isObject(value)) {
      return Object.entries(value).every(([k, v]) => holdsOnlyReferences(v, k, depth + 1));
    }
    return typeof value !== 'string' || !(holdsPrivateKey(value) || SECRET_URL.test(value));
  };
  return holdsOnlyReferences(tree, '', 0);
}

/** An absolute file path, or a mapping of one `$file` or `$env` include to a name. */
function isFileReference(value: unknown): boolean {
  if (typeof value === 'string') {
    return FILE_PATH.test(value.trim());
  }
  if (!isObject(value)) {
    return false;
  }
  const entries = Object.entries(value);
  return entries.length === 1 && INCLUDE_KEYS.has(entries[0][0]) && typeof entries[0][1] === 'string' && entries[0][1].trim() !== '';
}

/**
 * A container image reference with its registry, repository and tag or digest
 * (`ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.13.0`): what a vendor's Secret hands its operator as a setting.
 */
const IMAGE_REFERENCE = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)+(?::\w[\w.-]{0,127}(?:@sha256:[a-f0-9]{64})?|@sha256:[a-f0-9]{64})$/;

/**
 * Whether a value is public by its shape (PEM certificates only, OpenSSH public keys, a file path, an HTML page, a ytt
 * overlay, a config that holds no credential), or ciphertext SOPS wrote.
 */
function isPublic(value: unknown, base64: boolean): boolean {
  if (typeof value !== 'string') {
    return false;
  }
  // SOPS encrypts the value as written, base64 or not.
  if (isEncryptedValue(value)) {
    return true;
  }
  const text = plainText(value, base64)!.trim();
  return CERTIFICATES.test(text) || FILE_PATH.test(text) || HTML_PAGE.test(text) || YTT_TEMPLATE.test(text) || onlySshPublicKeys(text)
    || IMAGE_REFERENCE.test(text) || holdsNoCredential(text);
}

/** A kustomization (or component) file, as the audit reads it. */
function isKustomization(obj: Manifest): boolean {
  return typeof obj.apiVersion === 'string' && obj.apiVersion.startsWith('kustomize.config.k8s.io/') && (obj.kind === 'Kustomization' || obj.kind === 'Component');
}

/**
 * The secretGenerator entries of a kustomization whose values come from the repository: `literals` (`key=value`),
 * `files` (`key=path` or `path`) and `envs` (files of `KEY=value` lines). Argo CD renders from Git, so those values
 * are committed there just as a Secret's data would be. Only the key or file names are reported.
 */
function generatedFromGit(obj: Manifest): Violation[] {
  const found: Violation[] = [];
  listAt(obj, 'secretGenerator').forEach((generator, i) => {
    const secret = stringAt(generator, 'name') ?? '(unnamed)';
    for (const field of ['literals', 'files', 'envs']) {
      const names = listAt(generator, field).filter((e): e is string => typeof e === 'string' && e.trim() !== '')
        // An HTML page read from a file is public, as it is in a Secret's data.
        .filter((e) => field !== 'files' || !HTML_FILE.test(e.trim()))
        .map((e) => (field === 'envs' ? e : e.split('=')[0]).trim());
      if (names.length === 0) {
        continue;
      }
      found.push({
        object: obj,
        path: `/secretGenerator/${i}/${field}`,
        message: `the kustomization generates Secret ${secret} from ${field} ${names.map((n) => JSON.stringify(n)).join(', ')}, `
          + `so ${names.length === 1 ? 'its value is' : 'their values are'} committed to Git`,
        value: names,
      });
    }
  });
  return found;
}

/** A Secret that declares keys in data or stringData: whatever their values are, they are in Git. */
export const secretDataInGit: Rule = {
  id: 'SA203',
  name: 'secret-data-in-git',
  severity: Severity.ERROR,
  summary: 'A Secret declares keys in data or stringData, or a kustomization generates one from literals or files, so its values are committed to Git.',
  explanation:
    'Everything Argo CD deploys is in Git: base64 in data is an encoding, not encryption, and the value stays '
    + 'in the history after it is removed. Everyone who can read the repository, its clones and CI logs can '
    + 'read the secret. A placeholder Secret that a controller fills must declare no keys either: a key kept '
    + 'in Git, even with an empty value, is put back by self-heal over the value the controller wrote. A key that '
    + 'holds only PEM certificates (a CA bundle, a chain, no private key), or only OpenSSH public keys (ssh-ed25519 AAAA..., '
    + 'an authorized_keys list), or only an absolute file path (where a program '
    + 'reads a token, such as /var/run/secrets/kubernetes.io/serviceaccount/token), or a YAML or JSON configuration that '
    + 'holds no credential in plain text (its credential keys, token, password, client-key-data..., and keys such as auth '
    + 'or routing_key, if any, hold such a path or a $file or $env include, or only settings that are no secret, such as a '
    + 'registry\'s htpasswd: {realm, path}; and no value is a private key, a URL with a password '
    + 'or a token, or a chat webhook: a Loki config, a Backstage Kubernetes plugin\'s config that reads the mounted token), '
    + 'or only a container image reference with its tag or digest (an operator\'s sidecar image), or an HTML page (OpenShift\'s login '
    + 'templates are kept in Secrets), or a ytt template or overlay (kapp-controller reads a package\'s overlays from '
    + 'Secrets only) is public and not reported, nor is a webhook secret of argocd-secret that refers to another Secret '
    + '($<secret>:<key>, which Argo CD resolves), nor a key of an Argo CD repository, repo-creds or cluster Secret (by its '
    + 'argocd.argoproj.io/secret-type label) that holds no credential: url, name, type, project, proxy, noProxy, enableOCI, '
    + 'enableLfs, insecure, forceHttpBasicAuth, githubAppID... of a repository (unless a URL carries a password or token), '
    + 'server, name, namespaces, clusterResources, project, shard of a cluster, whose config is judged as a configuration '
    + '(username, password, sshPrivateKey, tlsClientCertKey, githubAppPrivateKey, gcpServiceAccountKey and a config with a '
    + 'bearerToken or keyData are reported), nor a value SOPS encrypted (ENC[AES256_GCM,...]), '
    + 'which is ciphertext as a SealedSecret\'s is. A kustomization\'s '
    + 'secretGenerator with literals, files or envs is the same: Argo CD renders from Git, so what it reads is there.',
  fix: 'Keep the value in a secret manager and deliver it with an ExternalSecret (the operator creates and owns '
    + 'the Secret, so it never reaches Git), or commit it encrypted as a SealedSecret. If the values are not secret '
    + '(e.g. filled in by a plugin at render time), suppress SA203 on the object and say why.',
  check({ resources }) {
    const found: Violation[] = [];
    for (const obj of resources) {
      if (isKustomization(obj)) {
        found.push(...generatedFromGit(obj));
        continue;
      }
      if (!isCoreSecret(obj)) {
        continue;
      }
      for (const field of VALUE_FIELDS) {
        const values = obj[field];
        if (!isObject(values)) {
          continue;
        }
        // Only the key names are reported: a finding is printed, logged and uploaded as SARIF. A certificate is public, and
        // so is the path of a file a token is read from.
        const keys = Object.keys(values)
          .filter((k) => !isPublic(values[k], field === 'data') && !isArgoCdReference(obj, k, values[k], field === 'data')
            && !isArgoCdPublicField(obj, k, values[k], field === 'data')).sort();
        if (keys.length === 0) {
          continue;
        }
        found.push({
          object: obj,
          path: `/${field}`,
          message: `${describeObject(obj)} declares ${keys.length === 1 ? 'key' : 'keys'} `
            + `${keys.map((k) => JSON.stringify(k)).join(', ')} in ${field}; ${keys.length === 1 ? 'its value is' : 'their values are'} committed to Git`,
          value: keys,
        });
      }
    }
    return found;
  },
};
