import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isApplied, isJobOrPod, waveOf } from './workloads';
import { escapeToken } from '../core/json-pointer';

/** A Job or Pod ordered by a sync wave instead of running as a hook. */
export const jobInSyncWave: Rule = {
  id: 'SA103',
  name: 'job-in-sync-wave',
  severity: Severity.ERROR,
  summary: 'A Job or Pod carries a sync-wave and is not a hook: the non-transactional migration.',
  explanation:
    'Sync waves order the apply, but they are not transactional: a migration Job in an early wave can fail '
    + 'half-way while nothing rolls back, and a retried sync can run the next wave\'s new code against a '
    + 'half-migrated schema. A PreSync hook runs before anything of the sync is applied, and its failure stops the whole sync.',
  fix: 'Make the Job a PreSync hook (argocd.argoproj.io/hook: PreSync, bounded with activeDeadlineSeconds) and '
    + 'remove its sync-wave; MigrationHook renders exactly that.',
  check({ resources }) {
    const found: Violation[] = [];
    for (const obj of resources) {
      const wave = waveOf(obj);
      if (wave !== undefined && isJobOrPod(obj) && isApplied(obj)) {
        found.push({
          object: obj,
          path: `/metadata/annotations/${escapeToken(wave.annotation)}`,
          message: `${String(obj.kind)} runs in sync wave ${wave.wave} of the Sync phase, where a failure half-way stops nothing already applied`,
          value: wave.wave,
        });
      }
    }
    return found;
  },
};
