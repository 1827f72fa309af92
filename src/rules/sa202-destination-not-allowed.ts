import { Severity } from './severity';
import { Rule, Violation } from './types';
import { at, isApplication, isAppProject, Manifest, objectsWhere, sourcesOf, stringAt } from '../core/manifest';
import { destinationAllowed, projectPermits, scopedProjectOf, sourceAllowed } from '../core/project-policy';
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
    + 'and the files do not say, so it is taken to allow it (and the reverse for a destination given by server). Argo CD '
    + 'adds to a project what the repository and cluster Secrets scoped to it allow (GetAppProjectByName): a Secret '
    + 'labelled `argocd.argoproj.io/secret-type: repository` whose `project` is the project\'s name adds its `url` to '
    + 'sourceRepos, and one labelled `cluster` adds its `server` as a destination, with the namespaces its `namespaces` '
    + 'lists or any; such Secrets among the audited files are read the same way. permitOnlyProjectScopedClusters, which '
    + 'narrows a project to its scoped clusters, is not judged: a cluster may be scoped to it by `argocd cluster add` '
    + 'outside Git.',
  fix: 'Add the destination or repository to the AppProject, or point the Application at an allowed one.',
  check({ application, resources, context }) {
    // Most units name a project the repository does not hold: then nothing is gathered.
    if (!(application !== undefined && isAppProject(application)) && !resources.some(isAppProject) && !context?.some(isAppProject)) {
      return [];
    }
    const projects = new Map<string, Manifest>();
    // The project the Application names may be among what it deploys (an app-of-apps root) or written elsewhere.
    for (const p of [...objectsWhere(application, resources, isAppProject), ...(context ?? []).filter(isAppProject)]) {
      projects.set(stringAt(p, 'metadata', 'name') ?? '', p);
    }
    if (projects.size === 0) {
      return [];
    }
    // The repository and cluster Secrets scoped to a project, wherever they are written, widen what it permits.
    const secrets = [...resources, ...context ?? []].filter((m) => scopedProjectOf(m) !== undefined);
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
      const permits = projectPermits(project, secrets);
      const allowed = destinationAllowed([...permits.destinations], namespace, server, name, true);
      if (!allowed) {
        found.push({
          object: app,
          path: '/spec/destination',
          message: `project ${stringAt(project, 'metadata', 'name')} does not allow namespace ${JSON.stringify(namespace)} on ${server ?? name ?? 'no cluster'}`,
          value: destination,
        });
      }
      for (const { source, path } of sourcesOf(app)) {
        const repo = stringAt(source, 'repoURL') ?? '';
        // A placeholder a tool fills in before Argo CD reads it; an empty repoURL is not one, and no project allows it.
        if (repo !== '' && isRepoUrlPlaceholder(repo)) {
          continue;
        }
        if (!sourceAllowed(permits.sourceRepos, repo)) {
          found.push({ object: app, path: `${path}/repoURL`, message: `project ${stringAt(project, 'metadata', 'name')} does not allow repository ${JSON.stringify(repo)}`, value: repo });
        }
      }
    }
    return found;
  },
};
