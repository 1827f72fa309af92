import { Severity } from './severity';
import { Rule, Violation } from './types';
import { isRolloutWorkloadRef, ownerLabel, scaleTargets, ScaleTarget } from './workloads';

/** Where an owner names its target: `workloadRef` for a Rollout, `scaleTargetRef` for an HPA or a ScaledObject. */
function refPath(target: ScaleTarget): string {
  return isRolloutWorkloadRef(target) ? '/spec/workloadRef' : '/spec/scaleTargetRef';
}

/** Two controllers of the same app that both write one workload's replica count. */
export const twoReplicaOwners: Rule = {
  id: 'SA106',
  name: 'two-replica-owners',
  severity: Severity.ERROR,
  summary: 'Two of an HPA, a KEDA ScaledObject and an Argo Rollout\'s workloadRef scale the same workload.',
  explanation:
    'Each writes spec.replicas from its own reading and undoes the other: an HPA holds its minimum while KEDA scales '
    + 'an idle workload to zero, or scales up the Deployment Argo Rollouts has just scaled down to move its pods into '
    + 'the Rollout. KEDA refuses a ScaledObject for a workload another HPA scales only where its admission webhook '
    + 'runs; Argo CD applies both either way. An ignore rule cannot settle it: the count belongs to two owners.',
  fix: 'Keep one owner per workload: delete the HPA when a ScaledObject scales the workload (KEDA creates its own HPA, '
    + 'keda-hpa-<name>), and point an HPA at the Rollout rather than at the Deployment its workloadRef scales down.',
  check({ application, resources }) {
    // One pass: the owners of each workload, by kind, group, name and namespace.
    const owners = new Map<string, ScaleTarget[]>();
    for (const target of scaleTargets(resources, application)) {
      const key = JSON.stringify([target.kind, target.group, target.name, target.namespace]);
      const list = owners.get(key);
      if (list === undefined) {
        owners.set(key, [target]);
      } else {
        list.push(target);
      }
    }
    const found: Violation[] = [];
    for (const list of owners.values()) {
      const [first, ...others] = list;
      for (const other of others) {
        found.push({
          object: other.owner,
          path: refPath(other),
          message: `${ownerLabel(other)} and ${ownerLabel(first)} both scale ${other.kind} ${other.namespace ? `${other.namespace}/` : ''}${other.name}`,
        });
      }
    }
    return found;
  },
};
