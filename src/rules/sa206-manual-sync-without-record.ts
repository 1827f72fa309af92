import { Severity } from './severity';
import { Rule } from './types';
import { breakGlassOf } from '../core/break-glass';
import { at, isAutoSync } from '../core/manifest';

/** An Application without automated sync and without a recorded reason. */
export const manualSyncWithoutRecord: Rule = {
  id: 'SA206',
  name: 'manual-sync-without-record',
  severity: Severity.WARNING,
  summary: 'Automated sync is off and no break-glass records why.',
  explanation:
    'Without automated sync nothing puts Git back: a hand edit, a half-finished rollout or a 2 a.m. fix stays '
    + 'until someone remembers to sync. When that is a deliberate, temporary break-glass it should carry its '
    + 'reason and expiry where audit can see them; otherwise it is a forgotten suspension (argo-cd #23330 shows '
    + 'how a restore can come back without prune or selfHeal).',
  fix: 'Restore automated sync with prune and selfHeal, or record the suspension (SafeApplication breakGlass, '
    + 'or the annotations safe-argocd/break-glass-reason and safe-argocd/break-glass-expires).',
  check({ application, argoCdVersion }) {
    if (!application || application.kind !== 'Application' || isAutoSync(application, argoCdVersion) || breakGlassOf(application)) {
      return [];
    }
    const automated = at(application, 'spec', 'syncPolicy', 'automated');
    return [{
      object: application,
      path: automated === undefined || automated === null ? '/spec/syncPolicy' : '/spec/syncPolicy/automated/enabled',
      message: automated === undefined || automated === null ? 'the Application has no automated sync and no recorded break-glass' : 'automated sync is disabled (enabled: false) and no break-glass records why',
    }];
  },
};
