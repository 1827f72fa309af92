import { posix } from 'path';
import { Severity } from './severity';
import { RepositoryFacts, Rule, Violation } from './types';
import { pointerFromKeys } from '../core/json-pointer';
import { at, isObject, listAt, Manifest, readSourcesOf, sourcesOf, stringAt } from '../core/manifest';
import { holdsPrivateKey, isSecretValue, secretKeyPathsIn, secretKeysInValuesText } from '../core/secret-values';
import { isUnfilledPath, repositoryDir, valueFileRef } from '../core/source-paths';

/** A Helm source of an Application that carries a password, token or private key in its parameters or values. */
export const secretInHelmValues: Rule = {
  id: 'SA207',
  name: 'secret-in-helm-values',
  severity: Severity.ERROR,
  summary: 'A Helm source of the Application sets a password, token or private key in parameters, values, valuesObject or a value file of the audited repository.',
  explanation:
    'An Application is committed to Git and stored in the cluster, readable by everyone who can read the repository or '
    + 'get Applications in Argo CD\'s namespace; its Helm parameters and values are shown in the UI and in argocd app get. '
    + 'A value under a key such as password, adminPassword, apiToken, clientSecret or privateKey, or a PEM private key under '
    + 'any key, is a secret in plain text there, as a Secret\'s data is (SA203). Keys that name a secret (existingSecret, '
    + 'secretName, passwordSecretRef, tlsSecret), a key of a named Secret (secretKey or passwordSecretKey beside the key that '
    + 'names the Secret), the maps under an existing... key and values equal to their key (the keys '
    + 'of an existing Secret, as in existingSecretMappings), an environment variable whose name says it names a Kubernetes '
    + 'Secret (upper-case words ending in KUBE_SECRET, K8S_SECRET or KUBERNETES_SECRET, such as Tailscale\'s TS_KUBE_SECRET) '
    + 'holding a DNS-1123 name, values filled in at render time ({{ }}, ${ }, <path:...> of argocd-vault-plugin, '
    + 'ref+ of vals) or by the program that reads them (Grafana\'s $__file{<path>}, $__env{<VAR>}, $__vault{...}, code in a block scalar '
    + 'that reads the environment, such as os.environ.get("X") in a Python config) and Argo CD\'s own references to a key of its Secrets ($<key>, $<secret>:<key>, as dex.config and '
    + 'oidc.config take a client secret) are not reported, nor are values SOPS or kubeseal encrypted (ENC[AES256_GCM,...] as helm-secrets keeps them, a SealedSecret\'s Ag... ciphertext). The audit also reads the value files a Helm source names from the audited repository '
    + '(a path in the chart\'s folder, or $<ref>/<path> of a ref source of it) and reports them at the valueFiles entry; '
    + 'comments in them are not values. '
    + 'Only the key names are reported, never the values.',
  fix: 'Keep the value in a secret manager: deliver it as a Secret through an ExternalSecret or a SealedSecret and point the '
    + 'chart at it (most charts take an existingSecret), and rotate the value that was committed. If the value is not '
    + 'secret, suppress SA207 on the Application and say why.',
  check({ application, repository }) {
    if (!application) {
      return [];
    }
    const found: Violation[] = [];
    if (repository?.fileText) {
      found.push(...inValueFiles(application, repository));
    }
    for (const { source, path } of sourcesOf(application)) {
      const helm = at(source, 'helm');
      if (!isObject(helm)) {
        continue;
      }
      listAt(helm, 'parameters').forEach((parameter, i) => {
        const name = stringAt(parameter, 'name') ?? '';
        const value = at(parameter, 'value');
        const last = name.split('.').pop() ?? '';
        if (isSecretValue(last, value) || (typeof value === 'string' && holdsPrivateKey(value))) {
          found.push(violation(application, `${path}/helm/parameters/${i}/value`, 'parameter', [name]));
        }
      });
      const values = stringAt(helm, 'values');
      if (values !== undefined) {
        const keys = secretKeysInValuesText(values);
        if (keys.length > 0) {
          found.push(violation(application, `${path}/helm/values`, 'values', keys));
        }
      }
      const valuesObject = at(helm, 'valuesObject');
      if (isObject(valuesObject)) {
        const paths = secretKeyPathsIn(valuesObject);
        if (paths.length > 0) {
          // At the deepest field that holds them all (one secret's own key): templated values elsewhere in valuesObject,
          // which leave an ApplicationSet's template field unjudged, then do not hide it.
          found.push(violation(application, `${path}/helm/valuesObject${pointerFromKeys(commonPrefix(paths))}`, 'valuesObject', paths.map((p) => p.join('.'))));
        }
      }
    }
    return found;
  },
};

/** The keys all the paths start with. */
function commonPrefix(paths: readonly string[][]): string[] {
  const prefix = [...paths[0]];
  for (const p of paths) {
    let i = 0;
    while (i < prefix.length && i < p.length && prefix[i] === p[i]) {
      i++;
    }
    prefix.length = i;
  }
  return prefix;
}

/**
 * The value files of the Application's Helm sources that the audited repository holds: a path relative to the chart's
 * folder of a source of this repository, or `$<ref>/<path>` of a ref source of this repository (Argo CD reads both from
 * the revision it renders), each read and checked as values text.
 */
function inValueFiles(application: Manifest, repository: RepositoryFacts): Violation[] {
  const sources = readSourcesOf(application);
  // Most Applications name no value file: then no ref is gathered.
  if (!sources.some(({ source }) => listAt(source, 'helm', 'valueFiles').length > 0)) {
    return [];
  }
  const ofRepository = (source: Manifest) => {
    const url = stringAt(source, 'repoURL');
    return url !== undefined && repository.isAudited(url);
  };
  const refs = new Map<string, Manifest>();
  for (const { source } of sources) {
    const ref = stringAt(source, 'ref');
    if (ref !== undefined && ref !== '' && !refs.has(ref)) {
      refs.set(ref, source);
    }
  }
  const found: Violation[] = [];
  for (const { source, path: pointer } of sources) {
    listAt(source, 'helm', 'valueFiles').forEach((file, i) => {
      if (typeof file !== 'string' || isUnfilledPath(file) || /^[a-z][a-z0-9+.-]*:\/\//i.test(file)) {
        return;
      }
      const ref = valueFileRef(file);
      const chartDir = stringAt(source, 'path');
      const target = ref === undefined ? (ofRepository(source) && chartDir !== undefined ? posix.join(repositoryDir(chartDir), file) : undefined)
        : (refs.has(ref) && ofRepository(refs.get(ref)!) ? file.slice(ref.length + 2) : undefined);
      if (target === undefined) {
        return;
      }
      const text = repository.fileText!(repositoryDir(target));
      const keys = text === undefined ? [] : secretKeysInValuesText(text);
      if (keys.length > 0) {
        found.push(violation(application, `${pointer}/helm/valueFiles/${i}`, `value file ${file}`, keys, 'in Git'));
      }
    });
  }
  return found;
}

function violation(application: Violation['object'], path: string, where: string, keys: string[], seen: string = 'in Git and in the Application Argo CD shows'): Violation {
  const sorted = [...keys].sort();
  return {
    object: application,
    path,
    message: `the Helm ${where} ${sorted.length === 1 ? 'sets' : 'set'} ${keyList(sorted)} in plain text, `
      + seen,
    value: sorted,
  };
}

/** How many of the keys a finding names; the rest are counted (a values text may set thousands). */
const NAMED_KEYS = 10;

function keyList(keys: readonly string[]): string {
  const named = keys.slice(0, NAMED_KEYS).map((k) => JSON.stringify(k)).join(', ');
  return keys.length > NAMED_KEYS ? `${named} and ${keys.length - NAMED_KEYS} more` : named;
}
