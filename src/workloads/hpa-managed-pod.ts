import { ApiObjectMetadata, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Autoscaler } from './autoscaler';

/**
 * What every workload whose replica count belongs to an autoscaler takes: the autoscaler and the pod. There is
 * deliberately no `replicas`: the autoscaler owns it. {@link HpaManagedDeploymentProps},
 * {@link HpaManagedStatefulSetProps} and {@link HpaManagedRolloutProps} extend it.
 */
export interface HpaManagedPodProps {
  /** Who owns the replica count: an HPA or a KEDA ScaledObject created here, or either managed elsewhere. */
  readonly autoscaler: Autoscaler;

  /** The pod's containers. Give them CPU or memory requests: utilization targets are relative to them. */
  readonly containers: kplus.ContainerProps[];

  /**
   * Init containers.
   *
   * @default - none
   */
  readonly initContainers?: kplus.ContainerProps[];

  /**
   * Volumes the containers can mount.
   *
   * @default - none
   */
  readonly volumes?: kplus.Volume[];

  /**
   * Metadata of the pod template.
   *
   * @default - only the selector label cdk8s-plus adds
   */
  readonly podMetadata?: ApiObjectMetadata;

  /**
   * The service account the pods run as.
   *
   * @default - the namespace's default service account
   */
  readonly serviceAccount?: kplus.IServiceAccount;

  /**
   * Whether the service account token is mounted.
   *
   * @default false
   */
  readonly automountServiceAccountToken?: boolean;

  /**
   * The pod security context.
   *
   * @default - cdk8s-plus defaults (run as non-root)
   */
  readonly securityContext?: kplus.PodSecurityContextProps;

  /**
   * Grace period for pod termination.
   *
   * @default Duration.seconds(30)
   */
  readonly terminationGracePeriod?: Duration;
}
