import { Severity } from './severity';
import { Rule, Violation } from './types';
import { fixedReplicas, ownerLabel, scaleTargets, ScaleTargetIndex } from './workloads';
import { at } from '../core/manifest';

/** A workload that declares spec.replicas while an autoscaler (or Argo Rollouts, through workloadRef) in the same app owns it. */
export const replicasOnAutoscaledWorkload: Rule = {
  id: 'SA101',
  name: 'replicas-on-autoscaled-workload',
  severity: Severity.ERROR,
  summary: 'A Deployment, StatefulSet or Rollout declares spec.replicas while an HPA, a KEDA ScaledObject or an Argo Rollout\'s workloadRef of the same app scales it.',
  explanation:
    'The autoscaler changes spec.replicas under load and self-heal puts the Git value back within seconds: '
    + 'capacity saw-tooths exactly when it is needed. Ignoring the field is not enough on its own either: '
    + 'a value kept in Git is applied again on every sync without RespectIgnoreDifferences. An autoscaler whose '
    + 'minimum and maximum equal the declared count never changes it, nor does a KEDA ScaledObject paused at that count '
    + '(autoscaling.keda.sh/paused-replicas), so nothing fights and nothing is reported. An Argo Rollout '
    + 'whose workloadRef has scaleDown onsuccess or progressively scales the referenced Deployment down, and back up when it fails.',
  fix: 'Remove spec.replicas from the workload (HpaManagedDeployment, HpaManagedStatefulSet and HpaManagedRollout never emit it) and ignore /spec/replicas '
    + 'for it with RespectIgnoreDifferences=true.',
  check({ application, resources }) {
    const targets = new ScaleTargetIndex(scaleTargets(resources, application), application);
    const found: Violation[] = [];
    for (const obj of resources) {
      const replicas = at(obj, 'spec', 'replicas');
      if (replicas === undefined) {
        continue;
      }
      const target = targets.targetOf(obj);
      // min = max = replicas: the autoscaler never moves the count away from Git, so self-heal has nothing to undo.
      if (target && fixedReplicas(target) !== replicas) {
        found.push({
          object: obj,
          path: '/spec/replicas',
          message: `${String(obj.kind)} declares replicas ${JSON.stringify(replicas)}, but ${ownerLabel(target)} scales it`,
          value: replicas,
        });
      }
    }
    return found;
  },
};
