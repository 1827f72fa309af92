import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isAppProject, isObject, listAt, objectsWhere } from '../core/manifest';

/** An AppProject role that may sync local manifests in place of Git. */
export const overrideGranted: Rule = {
  id: 'SA205',
  name: 'override-granted',
  severity: Severity.WARNING,
  summary: 'An AppProject role grants the override action.',
  explanation:
    'override lets a user sync manifests from their own machine instead of Git. Self-heal does not undo it until the '
    + 'next commit, and nothing in Git records what ran. It should belong to almost no one, and only with a reason on record.',
  fix: 'Remove the override policy, or keep it with a reasoned suppression of SA205 on the AppProject (SafeProject\'s overrideGrant writes one).',
  check({ application, resources }) {
    const found: Violation[] = [];
    for (const project of objectsWhere(application, resources, isAppProject)) {
      listAt(project, 'spec', 'roles').forEach((role, i) => {
        if (!isObject(role)) {
          return;
        }
        listAt(role, 'policies').forEach((policy, j) => {
          // p, <subject>, <resource>, <action>, <object>, <effect>: override, or every action, allowed.
          const fields = typeof policy === 'string' ? policy.split(',').map((f) => f.trim()) : [];
          if (fields[0] === 'p' && ['override', '*'].includes(fields[3]) && fields[5] !== 'deny') {
            found.push({ object: project, path: `/spec/roles/${i}/policies/${j}`, message: `role ${String(role.name)} grants override`, value: policy });
          }
        });
      });
    }
    return found;
  },
};
