import { Severity } from './severity';
import { Rule, Violation } from './types';
import { at, isApplication, isAppProject, listAt, Manifest, objectsWhere, sourcesOf, stringAt } from '../core/manifest';
import { destinationAllowed, sourceAllowed } from '../core/project-policy';
import { isRepoUrlPlaceholder } from '../core/source-paths';

/** An Application whose AppProject, present in the same input, does not allow its destination or source. */
export const destinationNotAllowed: Rule = {
  id: 'SA202',
  name: 'destination-not-allowed',
  severity: Severity.ERROR,
  summary: 'An Application deploys to a destination, or reads a repository, that its AppProject does not allow.',
  explanation:
    'Argo CD refuses to sync an Application whose destination or source its project does not permit; the app sits '
    + 'in an error state while its owners believe it is deployed. The check runs when the AppProject the Application names '
    + 'is among the audited files: Argo CD resolves a project by its name, so it may be written anywhere in the repository '
    + '(a projects/ folder, beside the Application, in the folder an app-of-apps root deploys); of several AppProjects of '
    + 'that name (one per copy of a platform), the one nearest the Application\'s file is taken. A repoURL that is no URL '
    + 'at all (`__REPO_URL__`, `<repo-url>`), one made of shell variables (`${GIT_BASEURL}/${GIT_ORG}/gitops`) or template '
    + 'expressions (`${{ values.repoUrl }}`), or one of a scheme Argo CD does not read (`cnoe://apps`) is a placeholder '
    + 'filled in before Argo CD reads it, and is not judged. A destination given by cluster name is judged '
    + 'against entries that name clusters; an entry that gives only a server may be that cluster\'s, which Argo CD resolves '
    + 'and the files do not say, so it is taken to allow it (and the reverse for a destination given by server).',
  fix: 'Add the destination or repository to the AppProject, or point the Application at an allowed one.',
  check({ application, resources, context }) {
    const projects = new Map<string, Manifest>();
    // The project the Application names may be among what it deploys (an app-of-apps root) or written elsewhere.
    for (const p of [...objectsWhere(application, resources, isAppProject), ...(context ?? []).filter(isAppProject)]) {
      projects.set(stringAt(p, 'metadata', 'name') ?? '', p);
    }
    if (projects.size === 0) {
      return [];
    }
    const found: Violation[] = [];
    for (const app of objectsWhere(application, resources, isApplication)) {
      const project = projects.get(stringAt(app, 'spec', 'project') ?? '');
      if (!project) {
        continue;
      }
      const destination = at(app, 'spec', 'destination');
      const namespace = stringAt(destination, 'namespace') ?? '';
      const server = stringAt(destination, 'server');
      const name = stringAt(destination, 'name');
      // The audit does not know which server a cluster name resolves to, nor the reverse: anything that may match does.
      const allowed = destinationAllowed(listAt(project, 'spec', 'destinations'), namespace, server, name, true);
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
        // A placeholder a tool fills in before Argo CD reads it; an empty repoURL is not one, and no project allows it.
        if (repo !== '' && isRepoUrlPlaceholder(repo)) {
          continue;
        }
        if (!sourceAllowed(repos, repo)) {
          found.push({ object: app, path: `${path}/repoURL`, message: `project ${stringAt(project, 'metadata', 'name')} does not allow repository ${JSON.stringify(repo)}`, value: repo });
        }
      }
    }
    return found;
  },
};
