import { matchesGroupKind } from './ignored-fields';
import { Severity } from './severity';
import { Rule, Violation } from './types';
import { effectiveNamespace, fixedReplicas, isRolloutWorkloadRef, ownerLabel, scaleTargets, ScaleTargetIndex } from './workloads';
import { at, isObject, listAt, Manifest, stringAt, syncOptionsOf } from '../core/manifest';

/**
 * Whether an ignoreDifferences entry keeps Argo CD away from the target's replicas: it matches the
 * object the way Argo CD matches, and names /spec/replicas (pointer or jq) or, for an HPA or KEDA (whose HPA
 * writes the count), the HPA controller's field manager. The Argo Rollouts controller's writes are only covered
 * by the field itself.
 */
function coversReplicas(entry: unknown, workload: Manifest, application: Manifest, byHpaController: boolean): boolean {
  if (!isObject(entry)) {
    return false;
  }
  const matches = matchesGroupKind(entry, workload)
    && (!entry.name || entry.name === stringAt(workload, 'metadata', 'name'))
    && (!entry.namespace || entry.namespace === effectiveNamespace(workload, application));
  if (!matches) {
    return false;
  }
  const pointers = Array.isArray(entry.jsonPointers) ? entry.jsonPointers : [];
  const jq = Array.isArray(entry.jqPathExpressions) ? entry.jqPathExpressions : [];
  const managers = Array.isArray(entry.managedFieldsManagers) ? entry.managedFieldsManagers : [];
  return pointers.includes('/spec/replicas') || jq.some((e) => typeof e === 'string' && e.replace(/\s/g, '') === '.spec.replicas')
    || (byHpaController && managers.includes('kube-controller-manager'));
}

/** An autoscaled workload whose Application would still apply or revert its replica count. */
export const autoscaledWithoutIgnore: Rule = {
  id: 'SA102',
  name: 'autoscaled-without-ignore',
  severity: Severity.ERROR,
  summary: 'A workload an HPA, KEDA or Argo Rollouts scales has no ignore rule for /spec/replicas, or the app lacks RespectIgnoreDifferences=true.',
  explanation:
    'Without an ignore rule, a workload that once had replicas in Git (in last-applied-configuration) has the '
    + 'field deleted by the three-way merge and scales to 1 on the next sync; with an ignore rule but without '
    + 'RespectIgnoreDifferences, any sync still applies the Git view of the field. Both together make Argo CD '
    + 'carry the live replica count into what it applies. A workload that declares exactly the count its autoscaler is '
    + 'pinned to (minimum = maximum) needs neither: Git and the autoscaler agree. The same holds for a Rollout scaled by an HPA or '
    + 'KEDA, and for the Deployment an Argo Rollout references with workloadRef and scales down.',
  fix: 'Add an ignoreDifferences entry for exactly this workload with jsonPointers [/spec/replicas], and the sync '
    + 'option RespectIgnoreDifferences=true (HpaManagedDeployment, HpaManagedStatefulSet and HpaManagedRollout do both).',
  check({ application, resources }) {
    if (!application) {
      return [];
    }
    const entries = listAt(application, 'spec', 'ignoreDifferences');
    const respects = syncOptionsOf(application).includes('RespectIgnoreDifferences=true');
    const found: Violation[] = [];
    const seen = new Set<Manifest>();
    const targets = new ScaleTargetIndex(scaleTargets(resources, application), application);
    for (const obj of resources) {
      const target = targets.targetOf(obj);
      if (!target || seen.has(obj)) {
        continue;
      }
      seen.add(obj);
      if (fixedReplicas(target) !== undefined && fixedReplicas(target) === at(obj, 'spec', 'replicas')) {
        continue;
      }
      if (!entries.some((e) => coversReplicas(e, obj, application, !isRolloutWorkloadRef(target)))) {
        found.push({
          object: obj,
          path: '',
          message: `${ownerLabel(target)} scales it, but Application ${stringAt(application, 'metadata', 'name') ?? ''} has no ignoreDifferences entry for its /spec/replicas`,
        });
      } else if (!respects) {
        found.push({
          object: obj,
          path: '',
          message: `${ownerLabel(target)} scales it, and its /spec/replicas is ignored, but without RespectIgnoreDifferences=true a sync still applies the Git value`,
        });
      }
    }
    return found;
  },
};
