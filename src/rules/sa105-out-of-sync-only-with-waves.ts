import { Severity } from './severity';
import { Rule } from './types';
import { isApplied, waveOf } from './workloads';
import { syncOptionsOf } from '../core/manifest';

/** ApplyOutOfSyncOnly together with sync waves. */
export const outOfSyncOnlyWithWaves: Rule = {
  id: 'SA105',
  name: 'out-of-sync-only-with-waves',
  severity: Severity.WARNING,
  summary: 'The app orders resources in sync waves and also sets ApplyOutOfSyncOnly=true.',
  explanation:
    'With ApplyOutOfSyncOnly, Argo CD has been reported to move on to the next wave before the resources of '
    + 'the previous one were healthy (argo-cd #5859), so the ordering the waves promise does not hold. '
    + 'Waves together with ServerSideApply have been reported broken as well (argo-cd #21858).',
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
      message: `ApplyOutOfSyncOnly=true is set while ${waved.length} resource(s) are ordered in sync waves`,
      value: syncOptionsOf(application),
    }];
  },
};
