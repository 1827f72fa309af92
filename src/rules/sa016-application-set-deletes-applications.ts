import { Severity } from './severity';
import { Rule, Violation } from './types';
import { at, describeObject, isApplicationSet, isObject, listAt, Manifest, objectsWhere } from '../core/manifest';

/**
 * What each generator that reads something outside the ApplicationSet stops generating, by kind. A list
 * generator is not here: its elements change only by a reviewed change of the ApplicationSet itself.
 */
const DROPS: { readonly [kind: string]: string } = {
  git: 'a git generator stops generating the Application of a folder or file that is deleted, renamed or moved',
  clusters: 'a clusters generator stops generating the Application of a cluster that is removed from Argo CD or no longer has the selected labels',
  scmProvider: 'an SCM provider generator stops generating the Application of a repository that is archived, renamed or filtered out',
  pullRequest: 'a pull request generator stops generating the Application of a pull request that is closed',
  clusterDecisionResource: 'a cluster decision resource generator stops generating the Application of a cluster the resource no longer lists',
  plugin: 'a plugin generator stops generating whatever its plugin stops returning',
};

/** The first generator kind in `generators` (matrix and merge searched too) that can drop an Application. */
function droppingKind(generators: unknown[], depth = 0): string | undefined {
  for (const g of generators) {
    if (!isObject(g)) {
      continue;
    }
    for (const kind of Object.keys(g).sort()) {
      if (DROPS[kind] !== undefined) {
        return kind;
      }
      if ((kind === 'matrix' || kind === 'merge') && depth < 3) {
        const found = droppingKind(listAt(g, kind, 'generators'), depth + 1);
        if (found !== undefined) {
          return found;
        }
      }
    }
  }
  return undefined;
}

/** An ApplicationSet whose controller deletes the Applications its generators stop generating. */
export const applicationSetDeletesApplications: Rule = {
  id: 'SA016',
  name: 'application-set-deletes-applications',
  severity: Severity.WARNING,
  summary: 'An ApplicationSet whose generators can drop Applications lets the controller delete them (applicationsSync sync or create-delete, or unset).',
  explanation:
    'The ApplicationSet controller compares what its generators give now with the Applications it made, and under '
    + 'the policies `sync` and `create-delete` deletes every Application no longer generated. A git directory '
    + 'generator drops an Application when its folder is renamed, moved or deleted, by a commit that may not even '
    + 'touch the ApplicationSet; a clusters generator when a cluster Secret loses a label. With the resources finalizer, '
    + 'which the controller adds to every Application whose template lists no finalizers unless preserveResourcesOnDeletion '
    + 'is true (SA010), the workloads go with the Application. Without '
    + 'applicationsSync the controller\'s own policy applies: `sync` unless `applicationsetcontroller.policy` in '
    + 'argocd-cmd-params-cm says otherwise. The field is honoured only when that key is empty or '
    + '`applicationsetcontroller.enable.policy.override` is "true" (applicationset/utils/policy.go). A list generator '
    + 'alone is not reported: its elements change only with the ApplicationSet.',
  fix: 'Set spec.syncPolicy.applicationsSync to create-update (SafeApplicationSet\'s default), so an Application that is no '
    + 'longer generated stays until someone deletes it on purpose, and check that the controller honours it. Where '
    + 'deletion is the point (preview environments of pull requests), keep the policy and record why with a reasoned '
    + 'suppression of SA016 on the ApplicationSet (SafeApplicationSet: applicationsSyncReason).',
  check({ application, resources }) {
    const found: Violation[] = [];
    for (const set of objectsWhere(application, resources, isApplicationSet)) {
      check(set, found);
    }
    return found;
  },
};

function check(set: Manifest, found: Violation[]): void {
  const kind = droppingKind(listAt(set, 'spec', 'generators'));
  if (kind === undefined) {
    return;
  }
  const policy = at(set, 'spec', 'syncPolicy', 'applicationsSync');
  const name = describeObject(set);
  if (policy === undefined || policy === null) {
    found.push({
      object: set,
      path: isObject(at(set, 'spec', 'syncPolicy')) ? '/spec/syncPolicy' : '/spec',
      message: `${name} sets no applicationsSync, so the controller's policy applies (sync unless argocd-cmd-params-cm says otherwise): `
        + `${DROPS[kind]}, and the controller deletes it; set applicationsSync: create-update`,
    });
    return;
  }
  if (policy === 'sync' || policy === 'create-delete') {
    found.push({
      object: set,
      path: '/spec/syncPolicy/applicationsSync',
      message: `${name} has applicationsSync ${policy}: ${DROPS[kind]}, and the controller deletes it; set create-update, `
        + 'or record why deletion is wanted in a reasoned suppression',
      value: policy,
    });
  }
}
