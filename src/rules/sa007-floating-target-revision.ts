import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isApplicationSet, isObject, listAt, Manifest, objectsWhere, sourcesOf, stringAt } from '../core/manifest';
import { floatingRevisionProblem } from '../core/revisions';
import { isRepoUrlPlaceholder } from '../core/source-paths';

/** A source whose revision follows whatever someone else decides. */
export const floatingTargetRevision: Rule = {
  id: 'SA007',
  name: 'floating-target-revision',
  severity: Severity.WARNING,
  summary: 'A source has no targetRevision, HEAD, or a Helm chart version range; or an ApplicationSet\'s git generator reads HEAD.',
  explanation:
    'The two cases differ in who decides what deploys. A Helm chart version range (`*`, `^1.2`, `>=1.0`, unset) is the '
    + 'real risk: the chart\'s publisher releases, and the next sync deploys that release with nobody here committing '
    + 'or reviewing anything, breaking changes included. An empty targetRevision or HEAD of a Git source follows the '
    + 'repository\'s default branch: for the team\'s own repository that is what was merged and reviewed there, and the '
    + 'risk is only that the default branch is renamed or switched outside any review of this app; for a third-party '
    + 'repository it deploys whatever its maintainers merge. A named branch is accepted: tracking a reviewed branch is '
    + 'the GitOps contract; a tag or commit pins harder. The audit does not report HEAD of the repository it audits '
    + '(--repo-url, the Git remote): that default branch is the one whose merges the audit itself checks; nor a '
    + 'placeholder repoURL a tool fills in later '
    + '(`${{ values.repoUrl }}`, `cnoe://apps`), which names no repository yet. An ApplicationSet\'s '
    + 'git generator with revision HEAD (or none) decides from the default branch which Applications exist, and is judged the same way.',
  fix: 'For a Helm chart, set targetRevision to one exact chart version and upgrade it by a commit. For a Git source, '
    + 'name the branch the app tracks, or pin a tag or commit of a repository your team does not own.',
  check({ application, resources, repository }) {
    const found: Violation[] = [];
    for (const set of objectsWhere(undefined, resources, isApplicationSet)) {
      gitGenerators(listAt(set, 'spec', 'generators'), '/spec/generators', 0, (git, pointer) => {
        const revision = stringAt(git, 'revision');
        // Without a repoURL, or with a placeholder, the generator names no repository yet: what it follows is not in the files.
        const repo = stringAt(git, 'repoURL') ?? '';
        const problem = floatingRevisionProblem(revision, false);
        if (problem && !isRepoUrlPlaceholder(repo) && !(repository?.identified === true && repository.isAudited(repo))) {
          found.push({
            object: set,
            path: `${pointer}/revision`,
            message: `the git generator reads revision ${revision === undefined ? 'unset' : JSON.stringify(revision)} of ${repo}, its default branch: `
              + 'whatever is merged there decides which Applications exist; pin a tag or commit if your team does not own it',
            value: revision,
          });
        }
      });
    }
    if (!application) {
      return found;
    }
    for (const { source, path } of sourcesOf(application)) {
      const revision = stringAt(source, 'targetRevision');
      const chart = stringAt(source, 'chart');
      const problem = floatingRevisionProblem(revision, chart !== undefined);
      const repo = stringAt(source, 'repoURL') ?? '';
      // The audited repository's own default branch is what was merged and reviewed where the audit runs.
      // Without a repoURL (which the API server refuses), or with a placeholder, the source names no repository yet.
      if (!problem || isRepoUrlPlaceholder(repo) || (chart === undefined && repository?.identified === true && repository.isAudited(repo))) {
        continue;
      }
      const message = chart !== undefined
        ? `Helm chart ${chart} of ${repo}: ${problem}, so the publisher's next release deploys with no commit here`
        : `targetRevision ${revision === undefined ? 'unset' : JSON.stringify(revision)} follows the default branch of ${repo}: `
          + 'whatever is merged there deploys; pin a tag or commit if your team does not own it';
      found.push({ object: application, path: `${path}/targetRevision`, message, value: revision });
    }
    return found;
  },
};

/** Calls `visit` with each git generator (matrix and merge searched too) and its pointer. */
function gitGenerators(generators: unknown[], pointer: string, depth: number, visit: (git: Manifest, pointer: string) => void): void {
  generators.forEach((g, i) => {
    if (!isObject(g)) {
      return;
    }
    if (isObject(g.git)) {
      visit(g.git, `${pointer}/${i}/git`);
    }
    for (const kind of ['matrix', 'merge']) {
      if (depth < 3) {
        gitGenerators(listAt(g, kind, 'generators'), `${pointer}/${i}/${kind}/generators`, depth + 1, visit);
      }
    }
  });
}
