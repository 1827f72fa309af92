import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isAppProject, isObject, listAt, Manifest, objectsWhere } from '../core/manifest';

/** An AppProject that allows any repository, any destination, or any cluster-scoped kind. */
export const permissiveProject: Rule = {
  id: 'SA201',
  name: 'permissive-project',
  severity: Severity.WARNING,
  summary: 'An AppProject allows "*" as a source repository, destination server or namespace, or cluster-scoped kind.',
  explanation:
    'An AppProject is the boundary of what its Applications may do. A "*" source lets any repository, including a '
    + 'fork, deploy into the team\'s namespaces; a "*" destination lets an Application deploy anywhere, including '
    + 'kube-system; a "*" cluster resource lets it create ClusterRoles and webhooks. The default project is the '
    + 'extreme case (SA005).',
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
    if (repo === '*') {
      found.push({ object: project, path: `/spec/sourceRepos/${i}`, message: 'sourceRepos allows any repository', value: repo });
    }
  });
  listAt(project, 'spec', 'destinations').forEach((d, i) => {
    if (!isObject(d)) {
      return;
    }
    for (const field of ['server', 'name', 'namespace']) {
      if (d[field] === '*') {
        found.push({ object: project, path: `/spec/destinations/${i}/${field}`, message: `a destination allows any ${field === 'namespace' ? 'namespace' : 'cluster'}`, value: d[field] });
      }
    }
  });
  listAt(project, 'spec', 'clusterResourceWhitelist').forEach((r, i) => {
    if (isObject(r) && (r.group === '*' || r.kind === '*')) {
      found.push({ object: project, path: `/spec/clusterResourceWhitelist/${i}`, message: 'clusterResourceWhitelist allows any cluster-scoped kind', value: r });
    }
  });
}
