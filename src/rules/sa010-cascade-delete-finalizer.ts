import { Severity } from './severity';
import { Rule, Violation } from './types';
import { at, describeObject, isApplicationSet, isObject, listAt, Manifest, objectsWhere } from '../core/manifest';
import { templatePatchMayRemoveFinalizers } from '../core/template-patch';

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
    + 'is copied widely. The ApplicationSet controller adds resources-finalizer.argocd.argoproj.io itself to every '
    + 'Application it generates from a template that lists no finalizers, unless the ApplicationSet sets '
    + 'spec.syncPolicy.preserveResourcesOnDeletion: true (applicationset/utils/utils.go, RenderTemplateParams); a '
    + 'templatePatch cannot take it away, since finalizers merge, except with a $patch directive or a null. Deleting such an '
    + 'ApplicationSet deletes every Application it generated, and each takes its resources with it. Such an '
    + 'ApplicationSet is reported once, at its syncPolicy. A synth does not run this rule: SafeApplication\'s deletionPolicy '
    + 'is already a named, deliberate choice.',
  fix: 'Remove the finalizer from metadata.finalizers (SafeApplication: leave deletionPolicy at ORPHAN); on an ApplicationSet, '
    + 'set spec.syncPolicy.preserveResourcesOnDeletion: true, so that the controller adds none. Where deleting '
    + 'the Application must delete its workloads (an ephemeral preview environment), keep it and record why with a '
    + 'reasoned suppression of SA010 on the Application (annotation safe-argocd/suppress.SA010, or Suppressions.add), '
    + 'or for many apps at once in .safe-argocd.yaml.',
  check({ application, resources }) {
    const found: Violation[] = [];
    for (const set of objectsWhere(application, resources, isApplicationSet)) {
      checkAddedByController(set, found);
    }
    if (!application) {
      return found;
    }
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

/**
 * An ApplicationSet whose controller adds the resources finalizer to the Applications it generates: one that does not
 * preserve resources on deletion, whose template (or a generator's own, merged over it) lists no finalizers, and
 * whose templatePatch cannot remove them. Reported whether or not its generators can be expanded offline.
 */
function checkAddedByController(set: Manifest, found: Violation[]): void {
  const preserve = at(set, 'spec', 'syncPolicy', 'preserveResourcesOnDeletion');
  if (preserve === true) {
    return;
  }
  const patch = at(set, 'spec', 'templatePatch');
  if (typeof patch === 'string' && templatePatchMayRemoveFinalizers(patch)) {
    return;
  }
  // A generator's own template wins where it lists finalizers; where it lists none, the ApplicationSet's apply.
  const generators = listAt(set, 'spec', 'generators').filter(isObject);
  const ownListed = (g: Manifest) => Object.values(g).some((kind) => isObject(kind) && listAt(kind, 'template', 'metadata', 'finalizers').length > 0);
  if (listAt(set, 'spec', 'template', 'metadata', 'finalizers').length > 0 || (generators.length > 0 && generators.every(ownListed))) {
    return;
  }
  const syncPolicy = at(set, 'spec', 'syncPolicy');
  found.push({
    object: set,
    path: preserve !== undefined ? '/spec/syncPolicy/preserveResourcesOnDeletion' : isObject(syncPolicy) ? '/spec/syncPolicy' : '/spec',
    message: `the ApplicationSet controller adds resources-finalizer.argocd.argoproj.io to each Application ${describeObject(set)} `
      + 'generates from a template that lists no finalizers, so deleting the ApplicationSet, or one of those Applications (a '
      + 'generator that drops it, under the default applicationsSync), deletes every resource they deployed; set '
      + 'spec.syncPolicy.preserveResourcesOnDeletion: true to orphan them, or record why they must go with it in a reasoned suppression',
    ...(preserve !== undefined ? { value: preserve } : {}),
  });
}
