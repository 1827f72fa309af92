import { Severity } from './severity';
import { Rule } from './types';
import { at, isAutoSync } from '../core/manifest';

/** Auto-sync allowed to sync an app down to zero resources. */
export const allowEmpty: Rule = {
  id: 'SA008',
  name: 'allow-empty',
  severity: Severity.ERROR,
  summary: 'Automated sync has allowEmpty: true.',
  explanation:
    'With prune on, allowEmpty: true lets a commit that renders no resources (a broken generator, a wrong path) '
    + 'delete everything the app runs. The default, false, refuses to auto-sync to an empty set. Argo CD consults '
    + 'allowEmpty only when automated prune is on (the controller\'s autoSync wipe-out check), so without prune the '
    + 'field changes nothing and is not reported.',
  fix: 'Remove syncPolicy.automated.allowEmpty or set it to false; delete an app on purpose by deleting the Application.',
  check({ application, argoCdVersion }) {
    if (!application || !isAutoSync(application, argoCdVersion)) {
      return [];
    }
    const value = at(application, 'spec', 'syncPolicy', 'automated', 'allowEmpty');
    return value === true && at(application, 'spec', 'syncPolicy', 'automated', 'prune') === true
      ? [{ object: application, path: '/spec/syncPolicy/automated/allowEmpty', message: 'allowEmpty is true, so a commit that renders nothing prunes every resource of the app', value }]
      : [];
  },
};
