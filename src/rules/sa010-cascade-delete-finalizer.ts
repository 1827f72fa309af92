import { Severity } from './severity';
import { Rule, Violation } from './types';
import { describeObject, listAt } from '../core/manifest';

/**
 * Argo CD's resources finalizers: deleting an Application that carries one deletes what it deployed first
 * (foreground by default, or as the suffix says).
 */
const CASCADE_FINALIZERS = [
  'resources-finalizer.argocd.argoproj.io',
  'resources-finalizer.argocd.argoproj.io/foreground',
  'resources-finalizer.argocd.argoproj.io/background',
];

/** An Application (or an ApplicationSet's template) whose deletion deletes every resource it deployed. */
export const cascadeDeleteFinalizer: Rule = {
  id: 'SA010',
  name: 'cascade-delete-finalizer',
  severity: Severity.WARNING,
  auditOnly: true,
  summary: 'The Application carries the resources finalizer, so deleting the Application deletes everything it deployed.',
  explanation:
    'With resources-finalizer.argocd.argoproj.io (or its /foreground or /background form) Argo CD deletes every '
    + 'resource of the app before it lets the Application object go. Then a kubectl delete of the wrong Application, '
    + 'a parent app-of-apps that prunes a child after a bad commit or a moved file, or an ApplicationSet whose generator '
    + 'stops listing a cluster deletes production workloads, volumes and all. Without the finalizer the resources keep running, '
    + 'unmanaged, and are deleted on purpose by removing them from Git. Most Argo CD examples add the finalizer, so it '
    + 'is copied widely. A synth does not run this rule: SafeApplication\'s deletionPolicy is already a named, '
    + 'deliberate choice.',
  fix: 'Remove the finalizer from metadata.finalizers (SafeApplication: leave deletionPolicy at ORPHAN). Where deleting '
    + 'the Application must delete its workloads (an ephemeral preview environment), keep it and record why with a '
    + 'reasoned suppression of SA010 on the Application (annotation safe-argocd/suppress.SA010, or Suppressions.add), '
    + 'or for many apps at once in .safe-argocd.yaml.',
  check({ application }) {
    if (!application) {
      return [];
    }
    const found: Violation[] = [];
    listAt(application, 'metadata', 'finalizers').forEach((finalizer, i) => {
      if (typeof finalizer === 'string' && CASCADE_FINALIZERS.includes(finalizer.trim())) {
        found.push({
          object: application,
          path: `/metadata/finalizers/${i}`,
          message: `deleting ${describeObject(application)} deletes every resource it deployed (${finalizer}); remove the `
            + 'finalizer to orphan them, or record why they must go with it in a reasoned suppression',
          value: finalizer,
        });
      }
    });
    return found;
  },
};
