import { Severity } from './severity';
import { Rule, Violation } from './types';
import { listAt } from '../core/manifest';
import { syncOptionProblem } from '../core/sync-options';

/** A sync option Argo CD does not read from an Application: misspelt, wrong case, or one that belongs elsewhere. */
export const unknownSyncOption: Rule = {
  id: 'SA012',
  name: 'unknown-sync-option',
  severity: Severity.ERROR,
  summary: 'A sync option of the Application is one Argo CD does not read there (a typo, the wrong case, or an option of another level or release).',
  explanation:
    'Argo CD matches each sync option as the exact string Name=value and ignores the rest without a word. '
    + '"respectIgnoreDifferences=true" or "RespectIgnoreDifferences=True" leave ignored fields to be overwritten by the next '
    + 'sync; "Prune=false" on an Application before Argo CD 3.4 protects nothing (it worked only as a resource annotation); '
    + '"Force=true" is read only from a resource\'s annotation; "DisableClientSideApplyMigration=true", once in the docs, was '
    + 'never read. The list of options, and the release each arrived in, come from Argo CD\'s own code and docs.',
  fix: 'Write the option exactly as Argo CD spells it (the finding names the closest one), move a resource-level option to '
    + 'the argocd.argoproj.io/sync-options annotation of the resources it is meant for, or remove it.',
  check({ application, argoCdVersion }) {
    if (!application) {
      return [];
    }
    const found: Violation[] = [];
    listAt(application, 'spec', 'syncPolicy', 'syncOptions').forEach((option, i) => {
      if (typeof option !== 'string') {
        return;
      }
      const result = syncOptionProblem(option, argoCdVersion);
      if (!result) {
        return;
      }
      let message = result.problem;
      if (result.suggestion !== undefined) {
        const later = syncOptionProblem(result.suggestion, argoCdVersion);
        message += `; did you mean ${JSON.stringify(result.suggestion)}?${later ? ` (${later.problem})` : ''}`;
      }
      found.push({ object: application, path: `/spec/syncPolicy/syncOptions/${i}`, message, value: option });
    });
    return found;
  },
};
