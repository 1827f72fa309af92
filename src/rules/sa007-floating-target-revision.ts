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
    'An empty targetRevision or HEAD follows the repository\'s default branch, which can be renamed or switched '
    + 'outside any review of this app. A Helm chart version range picks up a new chart release with nobody '
    + 'committing anything. A named branch is accepted: tracking a reviewed branch is the GitOps contract; '
    + 'a tag or commit pins harder.',
  fix: 'Set targetRevision to the branch, tag or commit the app tracks; for a Helm chart, to one exact chart version.',
  check({ application }) {
    if (!application) {
      return [];
    }
    const found: Violation[] = [];
    for (const { source, path } of sourcesOf(application)) {
      const revision = stringAt(source, 'targetRevision');
      const problem = floatingRevisionProblem(revision, stringAt(source, 'chart') !== undefined);
      if (problem) {
        found.push({ object: application, path: `${path}/targetRevision`, message: problem, value: revision });
      }
    }
    return found;
  },
};
