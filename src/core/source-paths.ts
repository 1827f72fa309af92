import * as path from 'path';
import { stripTrailing } from './text';

/**
 * The key under which two repository URLs read the same files: lower case (as Argo CD's `NormalizeGitURL`), without
 * the scheme and user, with `git@host:org/repo` read as `host/org/repo`, and without trailing slashes and `.git`.
 *
 * Broader than Argo CD's `SameURL`, which tells `https://` and `ssh://` forms apart because it looks up credentials by
 * URL: here the question is whether the content is the same repository, and both forms clone the same one.
 */
export function repositoryKey(repoURL: string): string {
  let url = repoURL.trim().toLowerCase();
  const scp = /^[^@/:]+@([^:/]+):(.*)$/.exec(url);
  url = scp ? `${scp[1]}/${scp[2]}` : url.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^[^@/]*@/, '');
  url = stripTrailing(url, '/');
  return stripTrailing(url.endsWith('.git') ? url.slice(0, -4) : url, '/');
}

/** The schemes Argo CD reads a repository by: Git over HTTP(S), SSH, `git://` or `file://`; Helm over HTTP(S); OCI. */
const READ_SCHEMES = new Set(['http', 'https', 'ssh', 'git', 'file', 'oci']);
const SHELL_VARIABLE = /\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Z_][A-Z0-9_]*/;

/**
 * Whether a repoURL is a placeholder that a tool fills in or rewrites before Argo CD reads it: neither a URL nor a host
 * (`__REPO_URL__`, `<repo-url>`, unlike an OCI registry such as registry-1.docker.io), shell variables
 * (`${GIT_BASEURL}/gitops`), template expressions (`{{ .url }}`, a scaffolder's `${{ values.repoUrl }}`), or a scheme
 * Argo CD does not read (idpbuilder's `cnoe://apps`, which becomes a repository of its own).
 */
export function isRepoUrlPlaceholder(repoURL: string): boolean {
  const url = repoURL.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1];
  return url === '' || !/[:/.]/.test(url) || SHELL_VARIABLE.test(url) || url.includes('{{')
    || (scheme !== undefined && !READ_SCHEMES.has(scheme.toLowerCase()));
}

/**
 * A source path as the folder names of a repository's files spell it: relative, no `./`, no trailing `/`, and the
 * repository root (`.`, `./` or ``) as `.`, which is what `path.posix.dirname` gives a root file.
 */
export function repositoryDir(sourcePath: string): string {
  let p = path.posix.normalize(sourcePath);
  let start = 0;
  while (p.startsWith('./', start)) {
    start += 2;
  }
  while (p.charCodeAt(start) === 47) {
    start++;
  }
  p = stripTrailing(p.slice(start), '/');
  return p === '' ? '.' : p;
}

/**
 * Why Argo CD's repo server refuses a source path before it looks for the folder (util/app/path: "app path is
 * absolute", "app path outside root"), or undefined.
 */
export function sourcePathRefusal(sourcePath: string): string | undefined {
  if (sourcePath.startsWith('/')) {
    return 'is absolute';
  }
  const normalized = path.posix.normalize(sourcePath);
  return normalized === '..' || normalized.startsWith('../') ? 'lies outside the repository' : undefined;
}

/** The names by which Argo CD's repo server takes a folder for a Kustomize source (kustomize.IsKustomization). */
export const KUSTOMIZATION_FILES: readonly string[] = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** Whether a file (a `/`-separated path) is a kustomization by its name. Asked of every file: no path parsing. */
export function isKustomizationFile(file: string): boolean {
  return KUSTOMIZATION_FILES.includes(file.slice(file.lastIndexOf('/') + 1));
}

/**
 * Whether a source path is left to be filled in: a template action (`{{ }}`, an ApplicationSet's), or a placeholder
 * such as `<CLUSTER_NAME>` that a template repository's install step replaces.
 */
export function isUnfilledPath(sourcePath: string): boolean {
  return sourcePath.includes('{{') || /<[A-Za-z_][\w-]*>/.test(sourcePath);
}

/** Whether a text is a `ref` key Argo CD accepts for a source of `spec.sources` (GetRefSources: letters, digits, `_`, `-`). */
export function isRefName(text: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(text);
}

/**
 * The ref a Helm value file reads from, as a multi-source Application's repo server reads it: the text between the
 * leading `$` and the first `/` (`values` for `$values/env/prod.yaml`); undefined for a file that does not start with `$`.
 */
export function valueFileRef(valueFile: string): string | undefined {
  if (!valueFile.startsWith('$')) {
    return undefined;
  }
  const slash = valueFile.indexOf('/');
  return slash < 0 ? valueFile.slice(1) : valueFile.slice(1, slash);
}

/**
 * Whether what follows a value file's leading `$` is a variable of Argo CD's build environment (`ARGOCD_APP_NAME`,
 * `{ARGOCD_APP_NAME}`, `KUBE_VERSION`...). The repo server substitutes those in a value file that names no ref
 * source (reposerver/repository getResolvedValueFiles: `env.Envsubst`), so such a file reads no ref.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/build-environment/
 */
export function isBuildEnvironmentVariable(ref: string): boolean {
  const name = ref.startsWith('{') && ref.endsWith('}') ? ref.slice(1, -1) : ref;
  return /^(ARGOCD_[A-Z0-9_]+|KUBE_VERSION|KUBE_API_VERSIONS)$/.test(name);
}
