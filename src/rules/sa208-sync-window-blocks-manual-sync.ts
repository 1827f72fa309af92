import { Severity } from './severity';
import { Rule, Violation } from './types';
import { at, isAppProject, listAt, objectsWhere } from '../core/manifest';
import { manualSyncBlocked, syncWindowsOf } from '../core/sync-windows';

/** An AppProject sync window that stops the manual sync a break-glass fix needs. */
export const syncWindowBlocksManualSync: Rule = {
  id: 'SA208',
  name: 'sync-window-blocks-manual-sync',
  severity: Severity.WARNING,
  summary: 'An AppProject sync window blocks manual syncs (manualSync is not true).',
  explanation:
    'A sync window without manualSync blocks every sync it covers, the manual one too: during a deny window (or outside '
    + 'every allow window) Argo CD refuses `argocd app sync` unless all the windows in force have manualSync: true '
    + '(SyncWindows.CanSync). The fix for a 2 a.m. incident, committed to Git, then waits until the window ends, and the '
    + 'only way out is to edit the AppProject by hand in the middle of the incident. An allow window that is open around '
    + 'the clock (its starts never further apart than its duration, e.g. `* * * * *` for 24h) has no outside and is not reported.',
  fix: 'Set manualSync: true on the window (SafeProject does by default), or keep it blocking with a reasoned suppression of '
    + 'SA208 on the AppProject (SafeProject\'s manualSyncBlockedReason writes one).',
  check({ application, resources }) {
    const found: Violation[] = [];
    for (const project of objectsWhere(application, resources, isAppProject)) {
      for (const window of syncWindowsOf(project)) {
        const message = manualSyncBlocked(window);
        if (message !== undefined) {
          found.push({ object: project, path: `/spec/syncWindows/${window.index}/manualSync`, message, value: at(listAt(project, 'spec', 'syncWindows')[window.index], 'manualSync') });
        }
      }
    }
    return found;
  },
};
