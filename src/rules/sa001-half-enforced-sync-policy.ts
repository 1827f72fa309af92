import { Severity } from './severity';
import { Rule, Violation } from './types';
import { at, isAutoSync } from '../core/manifest';

/** Auto-sync on, but prune or self-heal off. */
export const halfEnforcedSyncPolicy: Rule = {
  id: 'SA001',
  name: 'half-enforced-sync-policy',
  severity: Severity.ERROR,
  summary: 'Automated sync is on but prune or selfHeal is not true.',
  explanation:
    'With automated sync on, Git is the only routine write path, yet prune and selfHeal both default to false. '
    + 'Without selfHeal a manual change stays in the cluster until the next commit; without prune a resource '
    + 'removed from Git keeps running. The app has the rigidity of GitOps without its guarantees.',
  fix: 'Set syncPolicy.automated.prune: true and selfHeal: true. To pause an app, use a recorded break-glass, not a half policy.',
  check({ application, argoCdVersion }) {
    if (!application || !isAutoSync(application, argoCdVersion)) {
      return [];
    }
    const found: Violation[] = [];
    for (const field of ['prune', 'selfHeal']) {
      const value = at(application, 'spec', 'syncPolicy', 'automated', field);
      if (value !== true) {
        found.push({
          object: application,
          path: `/spec/syncPolicy/automated/${field}`,
          message: `automated sync is on but ${field} is ${value === undefined ? 'unset (false)' : JSON.stringify(value)}`,
          value,
        });
      }
    }
    return found;
  },
};
