import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isApplied, isJobOrPod, waveOf } from './workloads';
import { escapeToken } from '../core/json-pointer';

/** A declared wave as Argo CD reads it: an integer, anything else (and no annotation) wave 0. */
function waveNumber(declared: { wave: string } | undefined): number {
  if (declared === undefined) {
    return 0;
  }
  const text = declared.wave.trim();
  return /^[+-]?\d{1,9}$/.test(text) ? Number(text) : 0;
}

/**
 * A Job or Pod ordered by a sync wave ahead of, or together with, other resources of the app, instead of running
 * as a hook. A Job alone in the last wave runs after everything else is applied and healthy, as a PostSync hook
 * would: a post-deploy step, not reported.
 */
export const jobInSyncWave: Rule = {
  id: 'SA103',
  name: 'job-in-sync-wave',
  severity: Severity.ERROR,
  summary: 'A Job or Pod carries a sync-wave, is not a hook, and other resources are applied with or after it: the non-transactional migration.',
  explanation:
    'Sync waves order the apply, but they are not transactional: a migration Job in an early wave can fail '
    + 'half-way while what its wave and the earlier ones applied stays, and a retried sync can run the next wave\'s new code '
    + 'against a half-migrated schema. A PreSync hook runs before anything of the sync is applied, and its failure stops '
    + 'the whole sync. A Job alone in the last wave is not reported: everything else is applied and healthy before it runs, '
    + 'and its failure only fails the sync, as a PostSync hook\'s would (a hook is still better there: a plain Job runs once, '
    + 'and a new image fails the sync on the Job\'s immutable template).',
  fix: 'For work the new version needs first (migrations), make the Job a PreSync hook (argocd.argoproj.io/hook: PreSync, '
    + 'bounded with activeDeadlineSeconds) and remove its sync-wave; MigrationHook renders exactly that. For checks after '
    + 'the deploy (smoke tests, gates), make it a PostSync hook.',
  check({ resources }) {
    const applied = resources.filter(isApplied);
    // Each object's annotation read once, for the count below and for the Jobs among them.
    const declared = applied.map(waveOf);
    // Sorted once, so that counting the resources at or after a wave is a binary search: linear-logarithmic however many Jobs.
    const waves = declared.map(waveNumber).sort((a, b) => a - b);
    const found: Violation[] = [];
    for (let i = 0; i < applied.length; i++) {
      const obj = applied[i];
      const wave = declared[i];
      if (wave === undefined || !isJobOrPod(obj)) {
        continue;
      }
      const number = waveNumber(wave);
      const withOrAfter = waves.length - firstAtOrAfter(waves, number) - 1;
      if (withOrAfter === 0) {
        continue;
      }
      found.push({
        object: obj,
        path: `/metadata/annotations/${escapeToken(wave.annotation)}`,
        message: `${String(obj.kind)} runs in sync wave ${wave.wave} of the Sync phase with ${withOrAfter} resource(s) applied `
          + 'in the same or a later wave, so a failure half-way stops nothing already applied',
        value: wave.wave,
      });
    }
    return found;
  },
};

/** The index of the first of the ascending `waves` that is at least `wave`. */
function firstAtOrAfter(waves: readonly number[], wave: number): number {
  let low = 0;
  let high = waves.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (waves[middle] < wave) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}
