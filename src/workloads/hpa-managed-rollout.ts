import { ApiObject, ApiObjectMetadata, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { handReplicasToAutoscaler, podPropsOf } from './autoscaled-workload';
import { Autoscaler } from './autoscaler';
import { HpaManagedPodProps } from './hpa-managed-pod';
import { RolloutResource } from './rollout-resource';
import { RolloutStrategy } from './rollout-strategy';
import { SafeApplication } from '../application/safe-application';
import { IgnoreTarget } from '../values/ignore-target';
import { KnownFieldOwner } from '../values/known-field-owner';

/**
 * When Argo Rollouts scales down the Deployment a Rollout references. (`never` is not offered: the Deployment
 * would keep running beside the Rollout, or Git would have to hold its replica count at 0.)
 *
 * @see https://argoproj.github.io/argo-rollouts/migrating/#reference-deployment-from-rollout
 */
export enum WorkloadRefScaleDown {
  /** To zero once the Rollout is healthy; scaled back up if the Rollout fails. */
  ON_SUCCESS = 'onsuccess',
  /** Step by step as the Rollout scales up; scaled back up if the Rollout fails. */
  PROGRESSIVELY = 'progressively',
}

/**
 * A Rollout that takes its pod template from a Deployment (`workloadRef`) instead of holding one.
 */
export interface RolloutWorkloadRef {
  /**
   * The referenced Deployment's metadata. Give it a name: it is part of its own ignore rule.
   *
   * @default - a name generated from the construct path
   */
  readonly deploymentMetadata?: ApiObjectMetadata;

  /**
   * When Argo Rollouts scales the Deployment down.
   *
   * @default WorkloadRefScaleDown.ON_SUCCESS
   */
  readonly scaleDown?: WorkloadRefScaleDown;
}

/**
 * Props of an {@link HpaManagedRollout}. There is deliberately no `replicas`: the autoscaler owns it.
 */
export interface HpaManagedRolloutProps extends HpaManagedPodProps {
  /**
   * The Rollout's metadata. Give it a name: it is part of the ignore rule and of the autoscaler's target, and
   * renaming it makes Argo CD delete and recreate the Rollout.
   *
   * @default - a name generated from the construct path
   */
  readonly metadata?: ApiObjectMetadata;

  /** How the Rollout replaces its pods: `RolloutStrategy.canary(...)` or `RolloutStrategy.blueGreen(...)`. */
  readonly strategy: RolloutStrategy;

  /**
   * Put the pod template into a Deployment the Rollout references (`workloadRef`) instead of into the Rollout.
   * The Deployment renders no `spec.replicas` either: Argo Rollouts scales it down, so the app also ignores the
   * Deployment's `/spec/replicas` (as `KnownFieldOwner.argoRolloutsWorkloadRef` describes).
   *
   * @default - the pod template is inline in the Rollout; no Deployment
   * @see https://argoproj.github.io/argo-rollouts/migrating/#reference-deployment-from-rollout
   */
  readonly workloadRef?: RolloutWorkloadRef;

  /**
   * How long a new pod must be ready before it counts as available.
   *
   * @default - Argo Rollouts' default, 0 seconds
   */
  readonly minReady?: Duration;
}

/**
 * An Argo Rollouts `Rollout` (argoproj.io/v1alpha1) whose replica count belongs to an autoscaler, inside a
 * SafeApplication: the policy of {@link HpaManagedDeployment}, for canary and blue-green updates.
 *
 * The Rollout never carries `spec.replicas`, and the app's Application gets exactly one ignore rule for it (group
 * `argoproj.io`, kind `Rollout`, `/spec/replicas`), which brings `RespectIgnoreDifferences=true` with it. With
 * `Autoscaler.hpa(...)` it creates the autoscaling/v2 HPA named like the Rollout, whose `scaleTargetRef` is
 * `argoproj.io/v1alpha1 Rollout` (Argo Rollouts serves the `scale` subresource); with `Autoscaler.keda(...)` the
 * KEDA ScaledObject, which scales through the HPA `keda-hpa-<name>`.
 *
 * With `workloadRef`, the pod template lives in a Deployment (child `Deployment`) that Argo Rollouts scales down
 * once the Rollout runs its pods; that Deployment's `/spec/replicas` gets its own ignore rule.
 *
 * The Rollout is the child `Resource` (`ApiObject.of(x)` reaches its ApiObject). Argo Rollouts must be installed in
 * the destination cluster.
 *
 * @see https://argoproj.github.io/argo-rollouts/features/hpa-support/
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/diffing/
 */
export class HpaManagedRollout extends Construct {
  /** The Rollout. */
  public readonly rollout: ApiObject;
  /** The Deployment the Rollout references, with `workloadRef`. */
  public readonly deployment?: kplus.Deployment;
  /** The HorizontalPodAutoscaler, when `Autoscaler.hpa` created one. */
  public readonly hpa?: kplus.HorizontalPodAutoscaler;
  /** The KEDA ScaledObject, when `Autoscaler.keda` created one. */
  public readonly scaledObject?: ApiObject;
  /** Who owns the replica count. */
  public readonly autoscaler: Autoscaler;

  public constructor(scope: Construct, id: string, props: HpaManagedRolloutProps) {
    super(scope, id);
    // Throws [SAFE-010] outside a SafeApplication, before anything is created.
    const app = SafeApplication.enclosing(this);
    this.autoscaler = props.autoscaler;

    let workload: RolloutResource;
    if (props.workloadRef) {
      const deployment = new kplus.Deployment(this, 'Deployment', { ...podPropsOf(props), metadata: props.workloadRef.deploymentMetadata });
      // Argo Rollouts owns its replica count, down to zero: the Deployment never declares it.
      deployment.markHasAutoscaler();
      workload = new RolloutResource(this, 'Resource', {
        metadata: props.metadata,
        strategy: props.strategy,
        minReady: props.minReady,
        workloadRef: { deployment, scaleDown: props.workloadRef.scaleDown ?? WorkloadRefScaleDown.ON_SUCCESS },
      });
      app.addFieldOwner(IgnoreTarget.fromApiObject(deployment), KnownFieldOwner.argoRolloutsWorkloadRef(workload.name));
      this.deployment = deployment;
    } else {
      workload = new RolloutResource(this, 'Resource', { ...podPropsOf(props), metadata: props.metadata, strategy: props.strategy, minReady: props.minReady });
    }
    this.rollout = workload.apiObject;

    const created = handReplicasToAutoscaler(this, app, workload, props.autoscaler);
    this.hpa = created.hpa;
    this.scaledObject = created.scaledObject;
  }
}
