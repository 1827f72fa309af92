import { Severity } from './severity';
import { Rule, Violation } from './types';
import { hookTypesOf, isJobOrPod } from './workloads';
import { at } from '../core/manifest';

/** A hook Job (or Pod) that can run forever. */
export const hookJobWithoutDeadline: Rule = {
  id: 'SA104',
  name: 'hook-job-without-deadline',
  severity: Severity.ERROR,
  summary: 'A hook Job or Pod has no activeDeadlineSeconds.',
  explanation:
    'Argo CD waits for a hook to finish. A hook whose image cannot be pulled, or that waits on a lock that is '
    + 'never released, stays Progressing forever (argo-cd #15593) and so does the sync. ImagePullBackOff does '
    + 'not count against backoffLimit; only a deadline fails it.',
  fix: 'Set spec.activeDeadlineSeconds on the Job (for a Pod, on the Pod spec), e.g. 600.',
  check({ resources, argoCdVersion }) {
    const found: Violation[] = [];
    for (const obj of resources) {
      // The kind first: the hook annotations of objects that are neither a Job nor a Pod are not read.
      if (!isJobOrPod(obj)) {
        continue;
      }
      const types = hookTypesOf(obj, argoCdVersion);
      if (types.length === 0) {
        continue;
      }
      const deadline = at(obj, 'spec', 'activeDeadlineSeconds');
      if (typeof deadline !== 'number' || deadline <= 0) {
        found.push({
          object: obj,
          path: '/spec/activeDeadlineSeconds',
          message: `hook ${String(obj.kind)} (${types.join(',')}) has ${deadline === undefined ? 'no' : `an invalid (${JSON.stringify(deadline)})`} deadline, so a stuck run blocks ${blocked(types)} forever`,
          value: deadline,
        });
      }
    }
    return found;
  },
};

/** What a stuck hook holds up: the sync, or only the app's deletion for PreDelete and PostDelete hooks. */
function blocked(types: readonly string[]): string {
  return types.some((t) => t !== 'PreDelete' && t !== 'PostDelete') ? 'the sync' : 'the app\'s deletion';
}
