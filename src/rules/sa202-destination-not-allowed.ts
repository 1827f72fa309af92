import { at, isObject, listAt, sourcesOf, stringAt } from './manifest';
import { isAppProject, isArgoApplication } from './projects';
import { Severity } from './severity';
import { Manifest, Rule, Violation } from './types';
import { globMatches } from '../core/glob';
import { stripTrailing } from '../core/text';

/** An Application whose AppProject, present in the same input, does not allow its destination or source. */
export const destinationNotAllowed: Rule = {
  id: 'SA202',
  name: 'destination-not-allowed',
  severity: Severity.ERROR,
  summary: 'An Application deploys to a destination, or reads a repository, that its AppProject does not allow.',
  explanation:
    'Argo CD refuses to sync an Application whose destination or source its project does not permit; the app sits '
    + 'in an error state while its owners believe it is deployed. The check runs when the AppProject is audited together '
    + 'with the Application (for example in the folder an app-of-apps root deploys).',
  fix: 'Add the destination or repository to the AppProject, or point the Application at an allowed one.',
  check({ application, resources }) {
    const all = [...(application ? [application] : []), ...resources];
    const projects = new Map<string, Manifest>();
    for (const p of all.filter(isAppProject)) {
      projects.set(stringAt(p, 'metadata', 'name') ?? '', p);
    }
    if (projects.size === 0) {
      return [];
    }
    const found: Violation[] = [];
    for (const app of all.filter(isArgoApplication)) {
      const project = projects.get(stringAt(app, 'spec', 'project') ?? '');
      if (!project) {
        continue;
      }
      const destination = at(app, 'spec', 'destination');
      const namespace = stringAt(destination, 'namespace') ?? '';
      const server = stringAt(destination, 'server');
      const name = stringAt(destination, 'name');
      const allowed = destinationAllowed(listAt(project, 'spec', 'destinations'), namespace, server, name);
      if (!allowed) {
        found.push({
          object: app,
          path: '/spec/destination',
          message: `project ${stringAt(project, 'metadata', 'name')} does not allow namespace ${JSON.stringify(namespace)} on ${server ?? name ?? 'no cluster'}`,
          value: destination,
        });
      }
      const repos = listAt(project, 'spec', 'sourceRepos').filter((r): r is string => typeof r === 'string');
      for (const { source, path } of sourcesOf(app)) {
        const repo = stringAt(source, 'repoURL') ?? '';
        if (!sourceAllowed(repos, repo)) {
          found.push({ object: app, path: `${path}/repoURL`, message: `project ${stringAt(project, 'metadata', 'name')} does not allow repository ${JSON.stringify(repo)}`, value: repo });
        }
      }
    }
    return found;
  },
};

/**
 * Argo CD's destination check (pkg/apis/application/v1alpha1, isDestinationMatched, the same from 2.14 to
 * 3.x). A pattern starting with "!" matches every value but the ones it names, so an entry such as
 * `{ namespace: '!kube-system', server: '*' }` allows every namespace but kube-system by itself. An entry
 * that matches allows; an entry that does not match because of a "!" pattern on one side, while the other
 * side matches, refuses, wherever it stands in the list. The cluster is compared by the field the app names
 * (server, else name): Argo CD knows both, this check only what the manifest says.
 */
function destinationAllowed(destinations: unknown[], namespace: string, server: string | undefined, name: string | undefined): boolean {
  const byServer = server !== undefined;
  const value = server ?? name ?? '';
  let allowed = false;
  for (const d of destinations) {
    if (!isObject(d)) {
      continue;
    }
    const clusterPattern = byServer ? d.server : d.name;
    const clusterMatched = value !== '' && patternMatches(clusterPattern, value);
    const namespaceMatched = patternMatches(d.namespace, namespace);
    if (clusterMatched && namespaceMatched) {
      allowed = true;
    } else if (!clusterMatched && isDenyPattern(clusterPattern) && (namespaceMatched || !byServer)) {
      return false;
    } else if (!namespaceMatched && isDenyPattern(d.namespace) && clusterMatched) {
      return false;
    }
  }
  return allowed;
}

/**
 * Argo CD's source check (IsSourcePermitted): each pattern and the URL normalized, `/` a separator that
 * `*` does not cross; a pattern that matches allows, a "!" pattern that does not match refuses.
 */
function sourceAllowed(patterns: readonly string[], repo: string): boolean {
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
