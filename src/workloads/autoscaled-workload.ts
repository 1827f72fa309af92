import { ApiObject, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Autoscaler, AutoscalerKind, KedaOptions } from './autoscaler';
import { HpaManagedPodProps } from './hpa-managed-pod';
import { SafeApplication } from '../application/safe-application';
import { IgnoreRule } from '../values/ignore-rule';
import { IgnoreTarget } from '../values/ignore-target';

/** A workload an autoscaler can own the replica count of: a Deployment, a StatefulSet or an Argo Rollout. */
export type ScalableWorkload = kplus.Workload & kplus.IScalable;

/** The pod part of the props, as cdk8s-plus workloads take it (never `replicas`). */
export function podPropsOf(props: HpaManagedPodProps): kplus.WorkloadProps {
  return {
    containers: props.containers,
    initContainers: props.initContainers,
    volumes: props.volumes,
    podMetadata: props.podMetadata,
    serviceAccount: props.serviceAccount,
    automountServiceAccountToken: props.automountServiceAccountToken,
    securityContext: props.securityContext,
    terminationGracePeriod: props.terminationGracePeriod,
  };
}

/** What `handReplicasToAutoscaler` created: the HPA or the KEDA ScaledObject, when the autoscaler asked for one. */
export interface CreatedAutoscaler {
  readonly hpa?: kplus.HorizontalPodAutoscaler;
  readonly scaledObject?: ApiObject;
}

/**
 * The one policy of a workload whose replica count belongs to an autoscaler, for HpaManagedDeployment,
 * HpaManagedStatefulSet and HpaManagedRollout: the workload never renders `spec.replicas`; `Autoscaler.hpa`
 * creates the autoscaling/v2 HPA (child `Hpa`, named like the workload, metrics memory before CPU) and
 * `Autoscaler.keda` the keda.sh/v1alpha1 ScaledObject (child `ScaledObject`, named like the workload); and the app
 * gets exactly one ignore rule, for this workload's `/spec/replicas`, which brings `RespectIgnoreDifferences=true`
 * with it.
 */
export function handReplicasToAutoscaler(
  scope: Construct, app: SafeApplication, workload: ScalableWorkload, autoscaler: Autoscaler,
): CreatedAutoscaler {
  const options = autoscaler.hpaOptions;
  const keda = autoscaler.kedaOptions;
  let created: CreatedAutoscaler = {};
  let owner: string;
  if (autoscaler.kind === AutoscalerKind.HPA && options) {
    const metrics: kplus.Metric[] = [];
    // The HPA controller keeps memory before CPU (CPU is appended last when the object round-trips
    // through autoscaling/v1): emit them in that order.
    if (options.memoryUtilizationPercent !== undefined) {
      metrics.push(kplus.Metric.resourceMemory(kplus.MetricTarget.averageUtilization(options.memoryUtilizationPercent)));
    }
    if (options.cpuUtilizationPercent !== undefined) {
      metrics.push(kplus.Metric.resourceCpu(kplus.MetricTarget.averageUtilization(options.cpuUtilizationPercent)));
    }
    // The HPA marks its target as autoscaled, which drops spec.replicas from the workload.
    created = {
      hpa: new kplus.HorizontalPodAutoscaler(scope, 'Hpa', {
        metadata: { name: workload.name },
        target: workload,
        minReplicas: options.minReplicas,
        maxReplicas: options.maxReplicas,
        metrics,
      }),
    };
    owner = `HorizontalPodAutoscaler ${workload.name}`;
  } else if (autoscaler.kind === AutoscalerKind.KEDA_SCALED_OBJECT && keda) {
    workload.markHasAutoscaler();
    created = { scaledObject: scaledObjectFor(scope, workload, keda) };
    owner = `KEDA ScaledObject ${workload.name} (through its HPA keda-hpa-${workload.name})`;
  } else {
    workload.markHasAutoscaler();
    owner = autoscaler.kind === AutoscalerKind.KEDA_SCALED_OBJECT
      ? `KEDA ScaledObject ${autoscaler.ownerName} (through the HPA it manages)`
      : `HorizontalPodAutoscaler ${autoscaler.ownerName}, managed outside this app`;
  }
  app.addIgnoreRule(IgnoreRule.jsonPointer(IgnoreTarget.fromApiObject(workload), '/spec/replicas', `replicas are owned by ${owner}`));
  return created;
}

/** The ScaledObject that scales `workload`, named like it; its target is read late, like the HPA's. */
function scaledObjectFor(scope: Construct, workload: ScalableWorkload, keda: KedaOptions): ApiObject {
  return new ApiObject(scope, 'ScaledObject', {
    apiVersion: 'keda.sh/v1alpha1',
    kind: 'ScaledObject',
    metadata: { name: workload.name },
    spec: Lazy.any({
      produce: () => {
        const target = workload.toScalingTarget();
        return {
          scaleTargetRef: { apiVersion: target.apiVersion, kind: target.kind, name: target.name },
          minReplicaCount: keda.minReplicaCount,
          maxReplicaCount: keda.maxReplicaCount,
          triggers: keda.triggers.map((t) => ({ type: t.type, metricType: t.metricType, metadata: { ...t.metadata } })),
        };
      },
    }),
  });
}
