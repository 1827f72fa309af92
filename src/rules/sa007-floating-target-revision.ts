import { Severity } from './severity';
import { Rule, Violation } from './types';
import { sourcesOf, stringAt } from '../core/manifest';

// One release, as Argo CD tells a chart version from a constraint (a semantic version, optionally with
// a "v" and fewer than three parts); anything else (`*`, `^1.2`, `!=1.2.3`, `1.x`) is a constraint.
const EXACT_CHART_VERSION = /^v?\d+(\.\d+){0,2}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/**
 * Why a targetRevision floats, or undefined when it names something definite.
 * Shared by the rule and by the constructs, which refuse such a revision up front.
 */
export function floatingRevisionProblem(revision: string | undefined, isHelmChart: boolean): string | undefined {
  const trimmed = revision?.trim() ?? '';
  if (isHelmChart) {
    if (!EXACT_CHART_VERSION.test(trimmed)) {
      return `chart version ${revision === undefined ? 'unset' : JSON.stringify(revision)} is not one exact release`;
    }
    return undefined;
  }
  if (trimmed === '' || trimmed.toUpperCase() === 'HEAD') {
    return `targetRevision ${revision === undefined ? 'unset' : JSON.stringify(revision)} follows the repository's default branch`;
  }
  return undefined;
}

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
