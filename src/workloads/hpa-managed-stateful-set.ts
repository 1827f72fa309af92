import { ApiObject, ApiObjectMetadata, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { handReplicasToAutoscaler, podPropsOf } from './autoscaled-workload';
import { Autoscaler } from './autoscaler';
import { HpaManagedPodProps } from './hpa-managed-pod';
import { SafeApplication } from '../application/safe-application';
import { badValue, ErrorCode } from '../core/errors';

/**
 * Props of an {@link HpaManagedStatefulSet}. There is deliberately no `replicas`: the autoscaler owns it.
 */
export interface HpaManagedStatefulSetProps extends HpaManagedPodProps {
  /**
   * The StatefulSet's metadata. Give it a name: it is part of the ignore rule, and renaming it makes Argo CD
   * delete and recreate the StatefulSet (its pods get new identities; its volume claims stay behind).
   *
   * @default - a name generated from the construct path
   */
  readonly metadata?: ApiObjectMetadata;

  /**
   * The headless Service that gives the pods their stable network identities (`spec.serviceName`).
   *
   * @default - a headless Service created by cdk8s-plus, selecting the pods, on the containers' ports (at least
   * one container then needs a `portNumber` or `ports`)
   * @see https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#stable-network-id
   */
  readonly service?: kplus.Service;

  /**
   * Whether pods are created and removed one at a time, in order, or all at once. With `ORDERED_READY` a
   * scale-up from the autoscaler waits for each new pod to be ready before the next starts.
   *
   * @default PodManagementPolicy.ORDERED_READY
   * @see https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#pod-management-policies
   */
  readonly podManagementPolicy?: kplus.PodManagementPolicy;

  /**
   * How pods are replaced on a rollout.
   *
   * @default - rolling update, partition 0
   * @see https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#update-strategies
   */
  readonly strategy?: kplus.StatefulSetUpdateStrategy;

  /**
   * How long a new pod must be ready before it counts as available.
   *
   * @default Duration.seconds(0)
   */
  readonly minReady?: Duration;
}

/**
 * A StatefulSet whose replica count belongs to an autoscaler, inside a SafeApplication: the same policy as
 * {@link HpaManagedDeployment}, for workloads that need stable pod identities.
 *
 * The StatefulSet never carries `spec.replicas`, and the app's Application gets exactly one ignore rule, for this
 * StatefulSet's `/spec/replicas`, which brings `RespectIgnoreDifferences=true` with it: Argo CD neither reverts the
 * autoscaler's count nor, when `replicas` leaves Git, lets the three-way merge scale the StatefulSet to 1.
 *
 * With `Autoscaler.hpa(...)` it also creates the autoscaling/v2 HorizontalPodAutoscaler, named like the
 * StatefulSet and targeting `apps/v1 StatefulSet`, with its metrics memory before CPU. Scaling a StatefulSet down
 * removes its highest-numbered pods; their PersistentVolumeClaims stay until deleted.
 *
 * The StatefulSet is the child `Resource` (`ApiObject.of(x)` reaches its ApiObject).
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/diffing/
 * @see https://kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale/#migrating-deployments-and-statefulsets-to-horizontal-autoscaling
 */
export class HpaManagedStatefulSet extends Construct {
  /** The StatefulSet. */
  public readonly statefulSet: kplus.StatefulSet;
  /** The HorizontalPodAutoscaler, when `Autoscaler.hpa` created one. */
  public readonly hpa?: kplus.HorizontalPodAutoscaler;
  /** The KEDA ScaledObject, when `Autoscaler.keda` created one. */
  public readonly scaledObject?: ApiObject;
  /** Who owns the replica count. */
  public readonly autoscaler: Autoscaler;

  public constructor(scope: Construct, id: string, props: HpaManagedStatefulSetProps) {
    super(scope, id);
    // Throws [SAFE-010] outside a SafeApplication, before anything is created.
    const app = SafeApplication.enclosing(this);
    this.autoscaler = props.autoscaler;
    if (props.service === undefined && !(props.containers ?? []).some((c) => c?.portNumber !== undefined || (c?.ports?.length ?? 0) > 0)) {
      throw badValue(ErrorCode.NO_STATEFUL_SET_SERVICE, this, 'service', undefined,
        'must be given when no container declares a port: a StatefulSet needs a headless Service for its pods\' network identities, '
        + 'and one is made from the containers\' ports', 'give a container a portNumber, or pass a headless kplus.Service');
    }

    this.statefulSet = new kplus.StatefulSet(this, 'Resource', {
      ...podPropsOf(props),
      metadata: props.metadata,
      service: props.service,
      podManagementPolicy: props.podManagementPolicy,
      strategy: props.strategy,
      minReady: props.minReady,
    });

    const created = handReplicasToAutoscaler(this, app, this.statefulSet, props.autoscaler);
    this.hpa = created.hpa;
    this.scaledObject = created.scaledObject;
  }
}
