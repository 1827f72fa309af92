import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isAppProject, isObject, listAt, Manifest, objectsWhere } from '../core/manifest';
import { sourceAllowed } from '../core/project-policy';

/**
 * Git hosts where anyone may create an owner (a user or an organization): a pattern that lets any owner's
 * repository of one of them through (`https://github.com/*` + `/*`) lets a fork or a stranger's repository deploy.
 */
const SHARED_HOSTS = ['github.com', 'gitlab.com', 'bitbucket.org', 'codeberg.org'];
/** The fields of a project destination Argo CD matches as patterns. */
const DESTINATION_FIELDS = ['server', 'name', 'namespace'];
/** An owner and repository no team has: a pattern that allows them allows every owner's. */
const ANY_OWNER = 'zz-any-owner/zz-any-repository.git';

/** An AppProject that allows any repository, any destination, or any cluster-scoped kind. */
export const permissiveProject: Rule = {
  id: 'SA201',
  name: 'permissive-project',
  severity: Severity.WARNING,
  summary: 'An AppProject allows any source repository (or any owner\'s on a shared Git host), or "*" as a destination server or namespace, or cluster-scoped kind.',
  explanation:
    'An AppProject is the boundary of what its Applications may do. A "*" source lets any repository, including a '
    + 'fork, deploy into the team\'s namespaces, and so does a pattern that lets any owner through on a host where '
    + 'anyone may create one (https://github.com/*/*); a "*" destination lets an Application deploy anywhere, including '
    + 'kube-system; a "*" cluster resource lets it create ClusterRoles and webhooks. The default project is the '
    + 'extreme case (SA005). Argo CD reads a "!" pattern in a destination ("!kube-system") as every value but that one: '
    + 'the entry denies it and allows all the others, so {server: "*", namespace: "!kube-system"} alone lets an '
    + 'Application deploy to every other namespace of every cluster; beside an entry that allows everything, such '
    + 'entries only take away, and are not reported. A destination entry is reported once, at its first "*" field, '
    + 'whether one or all of its server, name and namespace are "*" (`{server: "*", name: "*", namespace: "*"}` is one '
    + 'finding: "allows any cluster and any namespace").',
  fix: 'List the exact repositories, destinations and cluster-scoped kinds the team needs (SafeProject refuses "*").',
  check({ application, resources }) {
    const found: Violation[] = [];
    const projects = objectsWhere(application, resources, isAppProject);
    for (const p of projects) {
      check(p, found);
    }
    return found;
  },
};

function check(project: Manifest, found: Violation[]): void {
  listAt(project, 'spec', 'sourceRepos').forEach((repo, i) => {
    const message = typeof repo === 'string' ? sourceProblem(repo) : undefined;
    if (message !== undefined) {
      found.push({ object: project, path: `/spec/sourceRepos/${i}`, message, value: repo });
    }
  });
  const destinations = listAt(project, 'spec', 'destinations');
  // An entry that allows every namespace of every cluster: next to it, an entry with a "!" pattern only takes away.
  const allowsAll = destinations.some((d) => isObject(d) && (d.server === '*' || d.name === '*') && d.namespace === '*');
  destinations.forEach((d, i) => {
    if (!isObject(d)) {
      return;
    }
    const negated = DESTINATION_FIELDS.map((field) => d[field]).find((v): v is string => typeof v === 'string' && v.startsWith('!'));
    if (negated !== undefined && allowsAll) {
      return;
    }
    // One finding per entry, however many of its fields are "*"; at the first of them, so a baseline of that field holds.
    const open = DESTINATION_FIELDS.filter((field) => d[field] === '*');
    if (open.length === 0) {
      return;
    }
    const what = [
      ...open.some((field) => field !== 'namespace') ? ['any cluster'] : [],
      ...open.includes('namespace') ? ['any namespace'] : [],
    ].join(' and ');
    // Argo CD matches "!x" as every value but x: the entry allows those, it does not only deny x.
    const also = negated === undefined ? '' : `, and ${JSON.stringify(negated)} beside it allows every value but ${JSON.stringify(negated.slice(1))}: `
      + 'a "!" pattern makes the entry deny that one value and allow all the others, not deny only';
    found.push({ object: project, path: `/spec/destinations/${i}/${open[0]}`, message: `a destination allows ${what}${also}`, value: d[open[0]] });
  });
  listAt(project, 'spec', 'clusterResourceWhitelist').forEach((r, i) => {
    if (isObject(r) && (r.group === '*' || r.kind === '*')) {
      found.push({ object: project, path: `/spec/clusterResourceWhitelist/${i}`, message: 'clusterResourceWhitelist allows any cluster-scoped kind', value: r });
    }
  });
}

/**
 * What a sourceRepos pattern lets through that no team means to, as Argo CD matches it: every repository (`*`, `**`,
 * `https://*` + `/**`), or every owner's on a shared host; undefined for a pattern of the team's own repositories.
 */
function sourceProblem(pattern: string): string | undefined {
  if (pattern.startsWith('!')) {
    return undefined;
  }
  if (sourceAllowed([pattern], `https://zz-any-host.invalid/${ANY_OWNER}`)) {
    return 'sourceRepos allows any repository';
  }
  const host = SHARED_HOSTS.find((h) => sourceAllowed([pattern], `https://${h}/${ANY_OWNER}`) || sourceAllowed([pattern], `git@${h}:${ANY_OWNER}`));
  return host === undefined ? undefined : `sourceRepos allows the repositories of any owner on ${host}, forks and strangers' included`;
}
