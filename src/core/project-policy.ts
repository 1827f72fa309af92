import { SECRET_TYPE_LABEL } from './annotations';
import { globMatches } from './glob';
import { at, isObject, listAt, Manifest, stringAt } from './manifest';
import { stripTrailing } from './text';

/*
 * What an AppProject allows, as Argo CD decides it: one policy for SA202 in audit and for SafeProject at synth.
 */

/**
 * What Argo CD reads as a pattern in a project's sourceRepos and destinations: gobwas/glob's `*`, `?`, `[...]`,
 * `{a,b}` and `\` escapes, and a leading "!" (deny).
 */
export const PROJECT_PATTERN = /[*?[\]{}\\]|^!/;

/**
 * Argo CD's destination check (pkg/apis/application/v1alpha1, isDestinationMatched, the same from 2.14 to
 * 3.x). A pattern starting with "!" matches every value but the ones it names, so an entry such as
 * `{ namespace: '!kube-system', server: '*' }` allows every namespace but kube-system by itself. An entry
 * whose server or name matches, and whose namespace matches, allows; an entry that does not match because of
 * a "!" pattern, while the other side matches, refuses, wherever it stands in the list.
 *
 * Argo CD compares the cluster it resolved, with both its server and its name; a manifest gives one of them
 * (the in-cluster pair aside). The one not given is unknown here. It is taken to match `*` (which matches every
 * cluster) and "!" patterns (whose verdict depends on it), and nothing else; or, with `anyCluster`, any pattern written
 * on its side (`name: smaug` may be the cluster an entry names by its server), so that the check never refuses what Argo
 * CD could allow, for an audit that does not know the clusters; an entry that writes nothing on that side matches neither way.
 */
export function destinationAllowed(
  destinations: unknown[], namespace: string, server: string | undefined, name: string | undefined, anyCluster: boolean = false,
): boolean {
  if (server === undefined && name === undefined) {
    // No cluster to resolve: Argo CD refuses the app whatever the project allows.
    return false;
  }
  const knownServer = server ?? (name === IN_CLUSTER_NAME ? IN_CLUSTER_SERVER : undefined);
  const knownName = name ?? (server === IN_CLUSTER_SERVER ? IN_CLUSTER_NAME : undefined);
  const clusterMatches = (pattern: unknown, value: string | undefined) => {
    if (value !== undefined) {
      return value !== '' && patternMatches(pattern, value);
    }
    // The side not given may be any cluster's: a pattern there may match it (an allow), and a "!" pattern may not (no deny).
    return anyCluster ? typeof pattern === 'string' && pattern !== '' : pattern === '*' || isDenyPattern(pattern);
  };
  let allowed = false;
  for (const d of destinations) {
    if (typeof d !== 'object' || d === null || Array.isArray(d)) {
      continue;
    }
    const entry = d as { readonly server?: unknown; readonly name?: unknown; readonly namespace?: unknown };
    const nameMatched = clusterMatches(entry.name, knownName);
    const serverMatched = clusterMatches(entry.server, knownServer);
    const namespaceMatched = patternMatches(entry.namespace, namespace);
    if ((serverMatched || nameMatched) && namespaceMatched) {
      allowed = true;
    } else if ((!nameMatched && isDenyPattern(entry.name)) || (!serverMatched && isDenyPattern(entry.server) && namespaceMatched)) {
      return false;
    } else if (!namespaceMatched && isDenyPattern(entry.namespace) && serverMatched) {
      return false;
    }
  }
  return allowed;
}

/** The cluster Argo CD runs in, by both of its names. */
const IN_CLUSTER_SERVER = 'https://kubernetes.default.svc';
const IN_CLUSTER_NAME = 'in-cluster';

/**
 * Argo CD's source check (IsSourcePermitted): each pattern and the URL normalized, `/` a separator that
 * `*` does not cross; a pattern that matches allows, a "!" pattern that does not match refuses.
 */
export function sourceAllowed(patterns: readonly string[], repo: string): boolean {
  const actual = normalizeRepoUrl(repo);
  let allowed = false;
  for (const pattern of patterns) {
    const deny = isDenyPattern(pattern);
    const normalized = normalizeRepoUrl(deny ? pattern.slice(1) : pattern);
    const matched = deny ? !globMatches(normalized, actual, '/') : (normalized === '*' || globMatches(normalized, actual, '/'));
    if (matched) {
      allowed = true;
    } else if (deny) {
      return false;
    }
  }
  return allowed;
}

/** Argo CD's globMatch with negation: "!p" matches what p does not, "*" matches everything. */
function patternMatches(pattern: unknown, actual: string): boolean {
  const p = typeof pattern === 'string' ? pattern : '';
  return isDenyPattern(p) ? !globMatches(p.slice(1), actual) : globMatches(p, actual);
}

function isDenyPattern(pattern: unknown): boolean {
  return typeof pattern === 'string' && pattern.startsWith('!');
}

/**
 * Repository URLs as Argo CD compares them (util/git NormalizeGitURL): lower case, no ".git"; and no
 * trailing "/". Linear in the URL's length, however many slashes it ends with.
 */
export function normalizeRepoUrl(url: string): string {
  const trimmed = stripTrailing(url.trim().toLowerCase(), '/');
  return trimmed.endsWith('.git') ? trimmed.slice(0, -4) : trimmed;
}

/** What a project permits an Application: the patterns its sources and its destination are matched against. */
export interface ProjectPermits {
  readonly sourceRepos: readonly string[];
  readonly destinations: readonly unknown[];
}

/**
 * A project's sourceRepos and destinations as Argo CD checks an Application against them (util/argo/argo.go
 * GetAppProjectByName): its own, and what the repository and cluster Secrets scoped to it add. Argo CD finds those by
 * the `project` key of a Secret whose `argocd.argoproj.io/secret-type` label is `repository` or `cluster` (util/settings
 * byProjectIndexerFunc; `repo-creds` templates are not among them). A repository adds its `url` to sourceRepos; a
 * cluster adds its `server` as a destination, with each namespace of its comma-separated `namespaces`, or any namespace
 * when it names none (util/db secretToCluster). A Secret that names another namespace than the project's is not one
 * Argo CD reads beside it.
 */
export function projectPermits(project: Manifest, secrets: readonly Manifest[]): ProjectPermits {
  const name = stringAt(project, 'metadata', 'name') ?? '';
  const namespace = stringAt(project, 'metadata', 'namespace');
  const sourceRepos = listAt(project, 'spec', 'sourceRepos').filter((r): r is string => typeof r === 'string');
  const destinations: unknown[] = [...listAt(project, 'spec', 'destinations')];
  for (const secret of secrets) {
    const secretNamespace = stringAt(secret, 'metadata', 'namespace');
    if (name === '' || scopedProjectOf(secret) !== name || (namespace !== undefined && secretNamespace !== undefined && secretNamespace !== namespace)) {
      continue;
    }
    const url = secretValue(secret, 'url');
    const server = secretValue(secret, 'server');
    if (secretTypeOf(secret) === 'repository' && url !== undefined) {
      sourceRepos.push(url);
    } else if (secretTypeOf(secret) === 'cluster' && server !== undefined) {
      const namespaces = (secretValue(secret, 'namespaces') ?? '').split(',').map((n) => n.trim()).filter((n) => n !== '');
      for (const n of namespaces.length > 0 ? namespaces : ['*']) {
        destinations.push({ server, namespace: n });
      }
    }
  }
  return { sourceRepos, destinations };
}

/** The project a repository or cluster Secret is scoped to, as Argo CD indexes it; undefined for any other object. */
export function scopedProjectOf(manifest: Manifest): string | undefined {
  const type = secretTypeOf(manifest);
  return type === 'repository' || type === 'cluster' ? secretValue(manifest, 'project') : undefined;
}

function secretTypeOf(manifest: Manifest): string | undefined {
  return manifest.kind === 'Secret' && manifest.apiVersion === 'v1' ? stringAt(manifest, 'metadata', 'labels', SECRET_TYPE_LABEL) : undefined;
}

/** A key of a Secret as Argo CD reads it: stringData, which the API server writes over data, or data decoded from base64. */
function secretValue(secret: Manifest, key: string): string | undefined {
  const plain = stringAt(secret, 'stringData', key);
  if (plain !== undefined) {
    return plain;
  }
  const encoded = at(secret, 'data');
  const value = isObject(encoded) ? encoded[key] : undefined;
  return typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : undefined;
}
