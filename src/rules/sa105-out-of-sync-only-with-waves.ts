import { Severity } from './severity';
import { Rule } from './types';
import { isApplied, waveOf } from './workloads';
import { syncOptionsOf } from '../core/manifest';

/** ApplyOutOfSyncOnly together with sync waves. */
export const outOfSyncOnlyWithWaves: Rule = {
  id: 'SA105',
  name: 'out-of-sync-only-with-waves',
  severity: Severity.NOTE,
  summary: 'The app orders resources in sync waves and also sets ApplyOutOfSyncOnly=true.',
  explanation:
    'With ApplyOutOfSyncOnly, a sync applies only the resources that differ from Git, and a wave waits only for what it '
    + 'applied to become healthy: a resource of an earlier wave that is already in sync is not part of the sync, so the next '
    + 'wave starts without waiting for it (gitops-engine\'s sync context filters unmodified resources out of its tasks). The '
    + 'waves still order what changes; they no longer promise that an earlier wave is healthy, such as a database that is '
    + 'unchanged but down when the new application version rolls out. (The premature wave progression of argo-cd #5859 was '
    + 'a bug of the 2.0 release candidate, fixed before 2.0.)',
  fix: 'Remove ApplyOutOfSyncOnly=true from an app that uses sync waves (SafeApplication does this when addToSyncWave is used).',
  check({ application, resources }) {
    if (!application || !syncOptionsOf(application).includes('ApplyOutOfSyncOnly=true')) {
      return [];
    }
    const waved = resources.filter((r) => isApplied(r) && waveOf(r) !== undefined);
    if (waved.length === 0) {
      return [];
    }
    return [{
      object: application,
      path: '/spec/syncPolicy/syncOptions',
      message: `ApplyOutOfSyncOnly=true is set while ${waved.length} resource(s) are ordered in sync waves: a wave does not wait for `
        + 'the resources of earlier waves that are already in sync to be healthy',
      value: syncOptionsOf(application),
    }];
  },
};
