import { Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { SafeProject, SyncWindowKind } from '../../src';

/**
 * The payments project with two sync windows: a weekend freeze that a manual sync can still pass, and a
 * month-end close that nothing may pass, with the reason on record.
 */
export function paymentsProjectWithWindows(scope: Construct): SafeProject {
  return new SafeProject(scope, 'payments', {
    name: 'payments',
    sourceRepos: ['https://git.example.com/platform/gitops.git'],
    destinations: [{ namespace: 'payments' }, { namespace: 'ledger' }],
    onCallGroups: ['payments-oncall'],
    syncWindows: [
      // Friday 18:00 to Monday 08:00, Berlin time: automated sync waits, a manual sync still runs.
      { kind: SyncWindowKind.DENY, schedule: '0 18 * * fri', duration: Duration.hours(62), timeZone: 'Europe/Berlin', applications: ['*'] },
      // The first six hours of every month, the ledger namespace: no sync at all.
      {
        kind: SyncWindowKind.DENY,
        schedule: '0 0 1 * *',
        duration: Duration.hours(6),
        timeZone: 'Europe/Berlin',
        namespaces: ['ledger'],
        manualSync: false,
        manualSyncBlockedReason: 'the auditors require the ledger to stay unchanged during the month-end close',
      },
    ],
  });
}
