import { ApiObject, ApiObjectMetadata, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { handReplicasToAutoscaler, podPropsOf } from './autoscaled-workload';
import { Autoscaler } from './autoscaler';
import { HpaManagedPodProps } from './hpa-managed-pod';
import { SafeApplication } from '../application/safe-application';

/**
 * Props of an {@link HpaManagedDeployment}. There is deliberately no `replicas`: the autoscaler owns it.
 */
export interface HpaManagedDeploymentProps extends HpaManagedPodProps {
  /**
   * The Deployment's metadata. Give it a name: it is part of the ignore rule and renaming it makes Argo CD
   * delete and recreate the Deployment.
   *
   * @default - a name generated from the construct path
   */
  readonly metadata?: ApiObjectMetadata;

  /**
   * How pods are replaced on a rollout.
   *
   * @default - rolling update, 25% max surge and unavailable
   */
  readonly strategy?: kplus.DeploymentStrategy;

  /**
   * How long a new pod must be ready before it counts as available.
   *
   * @default Duration.seconds(0)
   */
  readonly minReady?: Duration;

  /**
   * How long a rollout may take before it is reported as failed (Argo CD shows the app Degraded).
   *
   * @default Duration.seconds(600)
   */
  readonly progressDeadline?: Duration;
}

/**
 * A Deployment whose replica count belongs to an autoscaler, inside a SafeApplication.
 *
 * The Deployment never carries `spec.replicas`, and the app's Application gets exactly one ignore rule,
 * for this Deployment's `/spec/replicas`, which brings `RespectIgnoreDifferences=true` with it. The pairing
 * is what makes moving a Deployment that had `replicas: 3` in Git onto an HPA safe: without the ignore rule,
 * the three-way merge would delete the field that left Git and the Deployment would scale to 1 once; with
 * it, Argo CD copies the live replica count into what it applies.
 *
 * With `Autoscaler.hpa(...)` it also creates the autoscaling/v2 HorizontalPodAutoscaler, named like the
 * Deployment, with its metrics in the order the HPA controller keeps them (memory before CPU), so the HPA
 * itself does not flap OutOfSync (argo-cd #1079, #7846, #11328; kubernetes #74099).
 *
 * The Deployment is the child `Resource` (`ApiObject.of(x)` reaches its ApiObject).
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/diffing/
 * @see https://kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale/#migrating-deployments-and-statefulsets-to-horizontal-autoscaling
 */
export class HpaManagedDeployment extends Construct {
  /** The Deployment. */
  public readonly deployment: kplus.Deployment;
  /** The HorizontalPodAutoscaler, when `Autoscaler.hpa` created one. */
  public readonly hpa?: kplus.HorizontalPodAutoscaler;
  /** The KEDA ScaledObject, when `Autoscaler.keda` created one. */
  public readonly scaledObject?: ApiObject;
  /** Who owns the replica count. */
  public readonly autoscaler: Autoscaler;

  public constructor(scope: Construct, id: string, props: HpaManagedDeploymentProps) {
    super(scope, id);
    // Throws [SAFE-010] outside a SafeApplication, before anything is created.
    const app = SafeApplication.enclosing(this);
    this.autoscaler = props.autoscaler;

    this.deployment = new kplus.Deployment(this, 'Resource', {
      ...podPropsOf(props),
      metadata: props.metadata,
      strategy: props.strategy,
      minReady: props.minReady,
      progressDeadline: props.progressDeadline,
    });

    const created = handReplicasToAutoscaler(this, app, this.deployment, props.autoscaler);
    this.hpa = created.hpa;
    this.scaledObject = created.scaledObject;
  }
}
