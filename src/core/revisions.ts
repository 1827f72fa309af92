// One release, as Argo CD tells a chart version from a constraint (a semantic version, optionally with
// a "v" and fewer than three parts); anything else (`*`, `^1.2`, `!=1.2.3`, `1.x`) is a constraint.
const EXACT_CHART_VERSION = /^v?\d+(\.\d+){0,2}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/**
 * Why a targetRevision floats, or undefined when it names something definite.
 * Shared by SA007 and by the constructs, which refuse such a revision up front.
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

/**
 * Why a construct refuses a targetRevision: it holds whitespace inside, or it floats (see floatingRevisionProblem);
 * undefined when it is accepted. Surrounding whitespace is not a problem: the constructs trim it.
 */
export function refusedRevisionProblem(revision: string | undefined, isHelmChart: boolean): string | undefined {
  return typeof revision === 'string' && /\s/.test(revision.trim()) ? 'contains whitespace' : floatingRevisionProblem(revision, isHelmChart);
}
