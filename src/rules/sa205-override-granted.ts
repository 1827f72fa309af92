import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isAppProject, isObject, listAt, objectsWhere, stringAt } from '../core/manifest';

/** An AppProject role that may sync local manifests in place of Git. */
export const overrideGranted: Rule = {
  id: 'SA205',
  name: 'override-granted',
  severity: Severity.WARNING,
  summary: 'An AppProject role grants the override action.',
  explanation:
    'override lets a user sync manifests from their own machine instead of Git. Self-heal does not undo it until the '
    + 'next commit, and nothing in Git records what ran. It should belong to almost no one, and only with a reason on record. '
    + 'A role\'s policy grants its members what it allows only when its subject is that role, `proj:<project>:<role>` '
    + '(`p, proj:payments:release, applications, override, payments/*, allow`): Argo CD binds the role\'s groups to that '
    + 'subject and no other (AppProject.ProjectPoliciesString), and its API refuses a policy with another subject '
    + '(validatePolicy). A line whose subject is another role\'s or a global one (`p, role:admin, ...`) gives the role\'s '
    + 'members nothing, and is not reported.',
  fix: 'Remove the override policy, or keep it with a reasoned suppression of SA205 on the AppProject (SafeProject\'s overrideGrant writes one).',
  check({ application, resources }) {
    const found: Violation[] = [];
    for (const project of objectsWhere(application, resources, isAppProject)) {
      listAt(project, 'spec', 'roles').forEach((role, i) => {
        if (!isObject(role)) {
          return;
        }
        // The subject Argo CD binds the role's groups and tokens to.
        const subject = `proj:${stringAt(project, 'metadata', 'name') ?? ''}:${String(role.name)}`;
        listAt(role, 'policies').forEach((policy, j) => {
          // p, <subject>, <resource>, <action>, <object>, <effect>: override, or every action, allowed to this role.
          const fields = typeof policy === 'string' ? policy.split(',').map((f) => f.trim()) : [];
          if (fields[0] === 'p' && fields[1] === subject && ['override', '*'].includes(fields[3]) && fields[5] !== 'deny') {
            found.push({ object: project, path: `/spec/roles/${i}/policies/${j}`, message: `role ${String(role.name)} grants override`, value: policy });
          }
        });
      });
    }
    return found;
  },
};
