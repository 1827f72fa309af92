import { Severity } from './severity';
import { Rule, Violation } from './types';
import { sourcesOf, stringAt } from '../core/manifest';
import { floatingRevisionProblem } from '../core/revisions';

/** A source whose revision follows whatever someone else decides. */
export const floatingTargetRevision: Rule = {
  id: 'SA007',
  name: 'floating-target-revision',
  severity: Severity.WARNING,
  summary: 'A source has no targetRevision, HEAD, or a Helm chart version range.',
  explanation:
    'The two cases differ in who decides what deploys. A Helm chart version range (`*`, `^1.2`, `>=1.0`, unset) is the '
    + 'real risk: the chart\'s publisher releases, and the next sync deploys that release with nobody here committing '
    + 'or reviewing anything, breaking changes included. An empty targetRevision or HEAD of a Git source follows the '
    + 'repository\'s default branch: for the team\'s own repository that is what was merged and reviewed there, and the '
    + 'risk is only that the default branch is renamed or switched outside any review of this app; for a third-party '
    + 'repository it deploys whatever its maintainers merge. A named branch is accepted: tracking a reviewed branch is '
    + 'the GitOps contract; a tag or commit pins harder. The audit does not report HEAD of the repository it audits '
    + '(--repo-url, the Git remote): that default branch is the one whose merges the audit itself checks.',
  fix: 'For a Helm chart, set targetRevision to one exact chart version and upgrade it by a commit. For a Git source, '
    + 'name the branch the app tracks, or pin a tag or commit of a repository your team does not own.',
  check({ application, repository }) {
    if (!application) {
      return [];
    }
    const found: Violation[] = [];
    for (const { source, path } of sourcesOf(application)) {
      const revision = stringAt(source, 'targetRevision');
      const chart = stringAt(source, 'chart');
      const problem = floatingRevisionProblem(revision, chart !== undefined);
      const repo = stringAt(source, 'repoURL') ?? '<no repoURL>';
      // The audited repository's own default branch is what was merged and reviewed where the audit runs.
      if (!problem || (chart === undefined && repository?.identified === true && repository.isAudited(repo))) {
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
