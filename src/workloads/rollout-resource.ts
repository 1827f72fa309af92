import { ApiObject, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { RolloutStrategy } from './rollout-strategy';

/**
 * The Rollout's ApiObject: its pod template and selector are written with Kubernetes' JSON names and values
 * (`setHostnameAsFQDN`, ports and quantities as plain values), as cdk8s-plus writes a Deployment's.
 */
class RolloutObject extends ApiObject {
  public toJson(): any {
    const json = super.toJson();
    const spec = json.spec;
    if (spec) {
      spec.selector = kplus.k8s.toJson_LabelSelector(spec.selector);
      if (spec.template) {
        spec.template = kplus.k8s.toJson_PodTemplateSpec(spec.template);
      }
    }
    return json;
  }
}

/** The Deployment a Rollout takes its pod template from, and how Argo Rollouts scales that Deployment down. */
export interface ReferencedDeployment {
  readonly deployment: kplus.Deployment;
  readonly scaleDown: string;
}

/** Props of the internal Rollout workload. */
export interface RolloutResourceProps extends kplus.WorkloadProps {
  readonly strategy: RolloutStrategy;
  readonly minReady?: Duration;
  /** When set, the Rollout renders `workloadRef` to this Deployment instead of a pod template. */
  readonly workloadRef?: ReferencedDeployment;
}

/**
 * An Argo Rollout (argoproj.io/v1alpha1) as a cdk8s-plus workload, so that the pod template, the selector and a
 * HorizontalPodAutoscaler's target come from cdk8s-plus like a Deployment's. It never renders `spec.replicas`:
 * HpaManagedRollout always hands them to an autoscaler. Internal: HpaManagedRollout exposes the ApiObject.
 */
export class RolloutResource extends kplus.Workload implements kplus.IScalable {
  public readonly apiObject: ApiObject;
  public readonly resourceType = 'rollouts';
  public hasAutoscaler = false;
  private readonly strategy: RolloutStrategy;
  private readonly minReady?: Duration;
  private readonly workloadRef?: ReferencedDeployment;

  public constructor(scope: Construct, id: string, props: RolloutResourceProps) {
    super(scope, id, props);
    this.strategy = props.strategy;
    this.minReady = props.minReady;
    this.workloadRef = props.workloadRef;
    this.apiObject = new RolloutObject(this, 'Resource', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => this.renderSpec() }),
    });
  }

  public markHasAutoscaler(): void {
    this.hasAutoscaler = true;
  }

  public toScalingTarget(): kplus.ScalingTarget {
    return {
      kind: this.apiObject.kind,
      apiVersion: this.apiObject.apiVersion,
      name: this.name,
      containers: this.workloadRef ? this.workloadRef.deployment.containers : this.containers,
    };
  }

  private renderSpec(): { [key: string]: unknown } {
    const ref = this.workloadRef;
    return {
      minReadySeconds: this.minReady?.toSeconds(),
      // With workloadRef the pods are the Deployment's: select them by its labels.
      selector: ref ? { matchLabels: ref.deployment.matchLabels } : this._toLabelSelector(),
      strategy: this.strategy._toRollout(),
      template: ref ? undefined : { metadata: this.podMetadata.toJson(), spec: this._toPodSpec() },
      workloadRef: ref ? { apiVersion: 'apps/v1', kind: 'Deployment', name: ref.deployment.name, scaleDown: ref.scaleDown } : undefined,
    };
  }
}
