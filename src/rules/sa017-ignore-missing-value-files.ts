import { Severity } from './severity';
import { Rule, Violation } from './types';
import { at, describeObject, listAt, readSourcesOf } from '../core/manifest';

/** A Helm source that renders without the value files it names when they are missing. */
export const ignoreMissingValueFiles: Rule = {
  id: 'SA017',
  name: 'ignore-missing-value-files',
  severity: Severity.WARNING,
  summary: 'A Helm source has ignoreMissingValueFiles: true, so a missing or misspelt value file is skipped without an error.',
  explanation:
    'With helm.ignoreMissingValueFiles, Argo CD\'s repo server skips every value file that does not exist, and every glob '
    + 'that matches none, instead of failing the render (getResolvedValueFiles in reposerver/repository). A value file '
    + 'renamed or moved in Git, a typo in its path, or a ref source whose folder changed then renders the chart with the '
    + 'chart\'s defaults in its place: production comes up with one replica and staging\'s hosts, the Application shows '
    + 'Synced and Healthy, and nothing says a file was left out.',
  fix: 'Remove ignoreMissingValueFiles (SafeApplication never writes it) and list only value files that exist; for a file '
    + 'that exists in some environments only, list it in those environments\' Applications instead. Where skipping is '
    + 'wanted, record why with a reasoned suppression of SA017 on the Application.',
  check({ application }) {
    if (!application) {
      return [];
    }
    const found: Violation[] = [];
    for (const { source, path } of readSourcesOf(application)) {
      if (at(source, 'helm', 'ignoreMissingValueFiles') !== true) {
        continue;
      }
      const files = listAt(source, 'helm', 'valueFiles').filter((f): f is string => typeof f === 'string');
      found.push({
        object: application,
        path: `${path}/helm/ignoreMissingValueFiles`,
        message: `${describeObject(application)} skips any of its ${files.length} value file(s) that is missing`
          + `${files.length > 0 ? ` (${files.slice(0, 3).map((f) => JSON.stringify(f)).join(', ')}${files.length > 3 ? ', ...' : ''})` : ''}: `
          + 'a renamed or misspelt file renders the chart with its defaults, and the Application still shows Synced',
        value: true,
      });
    }
    return found;
  },
};
