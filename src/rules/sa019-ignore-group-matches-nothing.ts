import { groupMeant } from './ignored-fields';
import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isObject, listAt } from '../core/manifest';

/** An ignoreDifferences entry whose group is no API group, so that Argo CD matches it with no object. */
export const ignoreGroupMatchesNothing: Rule = {
  id: 'SA019',
  name: 'ignore-group-matches-nothing',
  severity: Severity.ERROR,
  summary: 'An ignoreDifferences entry\'s group is no API group ("core", "v1", an apiVersion such as "apps/v1"), so it ignores nothing.',
  explanation:
    'Argo CD compares an entry\'s group, by glob, with the group of each object as the API server names it '
    + '(util/argo/normalizers/diff_normalizer.go). The core group of Secrets, ConfigMaps and Services is the empty string, '
    + 'so "core" or "v1" matches no object (argo-cd #2322), and neither does an apiVersion ("apps/v1") or a group in '
    + 'capitals. The entry ignores nothing: the fields it means still show as a difference, the app stays OutOfSync, and '
    + 'with self-heal they are reverted.',
  fix: 'Omit the group (or write "") for the core group; write the group alone, without the version, for the others '
    + '(the finding names it).',
  check({ application }) {
    const entries = application ? listAt(application, 'spec', 'ignoreDifferences') : [];
    return entries.flatMap((entry, i): Violation[] => {
      const meant = isObject(entry) ? groupMeant(entry) : undefined;
      if (meant === undefined || !application || !isObject(entry)) {
        return [];
      }
      const fix = meant === '' ? 'omit the group (or write "") for the core group' : `write ${JSON.stringify(meant)}`;
      const message = `group ${JSON.stringify(entry.group)} is no API group, so the entry matches no object and ignores nothing; ${fix}`;
      return [{ object: application, path: `/spec/ignoreDifferences/${i}/group`, message, value: entry.group }];
    });
  },
};
