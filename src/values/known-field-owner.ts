import { IgnoreRule } from './ignore-rule';
import { IgnoreTarget } from './ignore-target';
import { JqPath } from './jq-path';
import { badValue, ErrorCode } from '../core/errors';
import { pointerProblem } from '../core/json-pointer';
import { isDns1123Subdomain } from '../core/names';

/** The fields an owner writes on one kind of resource. */
interface OwnedFields {
  readonly jsonPointers?: string[];
  readonly jqPaths?: JqPath[];
}

/** `group/Kind` to the fields written there. */
type FieldTable = Record<string, OwnedFields>;

const SCALABLE: OwnedFields = { jsonPointers: ['/spec/replicas'] };
const WEBHOOK_CA: OwnedFields = { jqPaths: [JqPath.listItemsField(['webhooks'], ['clientConfig', 'caBundle'])] };

/**
 * Props of a user-defined field owner.
 */
export interface CustomFieldOwnerProps {
  /** Who writes the fields, e.g. `the vault-config-operator`. Recorded in every rule's reason. */
  readonly name: string;

  /**
   * The fields it writes, as RFC 6901 pointers.
   *
   * @default - none; give pointers, jq paths or both
   */
  readonly jsonPointers?: string[];

  /**
   * The fields it writes, as typed jq paths.
   *
   * @default - none; give pointers, jq paths or both
   */
  readonly jqPaths?: JqPath[];
}

/**
 * A controller that legitimately writes fields Git also declares, and the exact, resource-scoped ignore
 * rules that let self-heal leave those fields alone. Apply one to a resource with
 * `SafeApplication.addFieldOwner(IgnoreTarget.fromApiObject(x), owner)`. No owner produces a wildcard:
 * every rule names the one resource it is given.
 */
export class KnownFieldOwner {
  /**
   * A HorizontalPodAutoscaler: writes `spec.replicas` of the Deployment, StatefulSet, ReplicaSet or Argo
   * Rollout it targets. (HpaManagedDeployment registers this by itself.)
   *
   * @param hpaName the HPA's name
   * @see https://kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale/#migrating-deployments-and-statefulsets-to-horizontal-autoscaling
   */
  public static horizontalPodAutoscaler(hpaName: string): KnownFieldOwner {
    return new KnownFieldOwner(`HorizontalPodAutoscaler ${checkName('KnownFieldOwner.horizontalPodAutoscaler', hpaName)}`, scalableTable());
  }

  /**
   * A KEDA ScaledObject: scales its target's `spec.replicas` through the HPA it creates, down to zero when idle.
   *
   * @param scaledObjectName the ScaledObject's name
   * @see https://keda.sh/docs/latest/concepts/scaling-deployments/
   */
  public static kedaScaledObject(scaledObjectName: string): KnownFieldOwner {
    return new KnownFieldOwner(`KEDA ScaledObject ${checkName('KnownFieldOwner.kedaScaledObject', scaledObjectName)}`, scalableTable());
  }

  /**
   * An Argo Rollout with `workloadRef`: it takes over the referenced Deployment's pods and, with `scaleDown`
   * `onsuccess` or `progressively`, scales the Deployment's `spec.replicas` down to zero (and back up when the
   * Rollout fails). (`scaleDown: never`, Argo Rollouts' default, leaves the Deployment alone. HpaManagedRollout
   * registers this by itself.)
   *
   * @param rolloutName the Rollout's name
   * @see https://argoproj.github.io/argo-rollouts/migrating/#reference-deployment-from-rollout
   */
  public static argoRolloutsWorkloadRef(rolloutName: string): KnownFieldOwner {
    return new KnownFieldOwner(`Argo Rollout ${checkName('KnownFieldOwner.argoRolloutsWorkloadRef', rolloutName)} (workloadRef)`, {
      'apps/Deployment': SCALABLE,
    });
  }

  /**
   * cert-manager's CA injector: writes the CA bundle into webhook configurations, a CRD's conversion
   * webhook and APIServices annotated with `cert-manager.io/inject-ca-from`.
   *
   * @see https://cert-manager.io/docs/concepts/ca-injector/
   */
  public static certManagerCaInjector(): KnownFieldOwner {
    return new KnownFieldOwner('cert-manager cainjector', {
      'admissionregistration.k8s.io/MutatingWebhookConfiguration': WEBHOOK_CA,
      'admissionregistration.k8s.io/ValidatingWebhookConfiguration': WEBHOOK_CA,
      'apiextensions.k8s.io/CustomResourceDefinition': { jsonPointers: ['/spec/conversion/webhook/clientConfig/caBundle'] },
      'apiregistration.k8s.io/APIService': { jsonPointers: ['/spec/caBundle'] },
    });
  }

  /**
   * Istio's istiod: patches the CA bundle of its sidecar-injector and validation webhook configurations,
   * and switches the validating webhook's `failurePolicy` to Fail once it is ready.
   *
   * @see https://istio.io/latest/docs/ops/common-problems/validation/
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/diffing/
   */
  public static istioWebhooks(): KnownFieldOwner {
    return new KnownFieldOwner('istiod', {
      'admissionregistration.k8s.io/MutatingWebhookConfiguration': WEBHOOK_CA,
      'admissionregistration.k8s.io/ValidatingWebhookConfiguration': {
        jqPaths: [...WEBHOOK_CA.jqPaths!, JqPath.listItemsField(['webhooks'], ['failurePolicy'])],
      },
    });
  }

  /**
   * Linkerd's control plane: writes the CA bundle of its proxy-injector and validator webhook
   * configurations when it rotates its webhook certificates.
   *
   * @see https://linkerd.io/2/tasks/automatically-rotating-webhook-tls-credentials/
   */
  public static linkerdWebhooks(): KnownFieldOwner {
    return new KnownFieldOwner('Linkerd control plane', {
      'admissionregistration.k8s.io/MutatingWebhookConfiguration': WEBHOOK_CA,
      'admissionregistration.k8s.io/ValidatingWebhookConfiguration': WEBHOOK_CA,
    });
  }

  /**
   * A mutating webhook or operator that adds a container, by name, to a workload's pod template.
   * (Injectors that mutate Pods at admission change no object Argo CD compares and need no rule.)
   *
   * @param containerName the injected container's name
   * @param injector who injects it, recorded in the reason, e.g. `the vault agent injector`
   */
  public static injectedContainer(containerName: string, injector: string): KnownFieldOwner {
    return new KnownFieldOwner(checkText('KnownFieldOwner.injectedContainer', 'injector', injector), podTemplateTable(JqPath.podTemplateContainer(containerName)));
  }

  /**
   * A mutating webhook or operator that adds an init container, by name, to a workload's pod template.
   *
   * @param containerName the injected init container's name
   * @param injector who injects it, recorded in the reason
   */
  public static injectedInitContainer(containerName: string, injector: string): KnownFieldOwner {
    return new KnownFieldOwner(checkText('KnownFieldOwner.injectedInitContainer', 'injector', injector), podTemplateTable(JqPath.podTemplateInitContainer(containerName)));
  }

  /**
   * An owner of your own, described with the same typed selectors. It applies to any kind of resource.
   */
  public static custom(props: CustomFieldOwnerProps): KnownFieldOwner {
    const where = 'KnownFieldOwner.custom';
    const name = checkText(where, 'name', props.name);
    for (const pointer of props.jsonPointers ?? []) {
      const problem = pointerProblem(pointer);
      if (problem) {
        throw badValue(ErrorCode.INVALID_POINTER, where, 'jsonPointers', pointer,
          `is not a valid RFC 6901 pointer: ${problem}`, 'write pointers like "/spec/replicas"');
      }
    }
    if ((props.jsonPointers ?? []).length === 0 && (props.jqPaths ?? []).length === 0) {
      throw badValue(ErrorCode.INVALID_IGNORE_TARGET, where, 'jsonPointers', props.jsonPointers,
        'or jqPaths must name at least one field', 'list the fields the owner writes');
    }
    return new KnownFieldOwner(name, { '*': { jsonPointers: props.jsonPointers, jqPaths: props.jqPaths } });
  }

  /** Who writes the fields. */
  public readonly name: string;
  private readonly table: FieldTable;

  private constructor(name: string, table: FieldTable) {
    this.name = name;
    this.table = table;
  }

  /** The `group/Kind`s this owner writes fields of (`*` for a custom owner, which applies to any). */
  public get kinds(): string[] {
    return Object.keys(this.table);
  }

  /**
   * The ignore rules for the fields this owner writes on one resource.
   *
   * @throws when the owner writes nothing on that kind of resource
   */
  public ignoreRulesFor(target: IgnoreTarget): IgnoreRule[] {
    const fields = this.table[`${target.group}/${target.kind}`] ?? this.table['*'];
    if (!fields) {
      throw badValue(ErrorCode.NOT_OWNED_BY, 'KnownFieldOwner.ignoreRulesFor', 'target', `${target.group ? `${target.group}/` : ''}${target.kind} ${target.name}`,
        `is not a kind ${this.name} writes (it writes ${this.kinds.join(', ')})`, 'apply the owner to the resource it actually changes');
    }
    const reason = `written by ${this.name}`;
    return [
      ...(fields.jsonPointers ?? []).map((p) => IgnoreRule.jsonPointer(target, p, reason)),
      ...(fields.jqPaths ?? []).map((p) => IgnoreRule.jq(target, p, reason)),
    ];
  }
}

function scalableTable(): FieldTable {
  return {
    'apps/Deployment': SCALABLE,
    'apps/StatefulSet': SCALABLE,
    'apps/ReplicaSet': SCALABLE,
    'argoproj.io/Rollout': SCALABLE,
  };
}

function podTemplateTable(path: JqPath): FieldTable {
  const fields: OwnedFields = { jqPaths: [path] };
  return {
    'apps/Deployment': fields,
    'apps/StatefulSet': fields,
    'apps/DaemonSet': fields,
    'apps/ReplicaSet': fields,
    'batch/Job': fields,
    'argoproj.io/Rollout': fields,
  };
}

function checkName(where: string, name: string): string {
  if (typeof name !== 'string' || !isDns1123Subdomain(name)) {
    throw badValue(ErrorCode.INVALID_NAME, where, 'name', name,
      'must be the metadata.name of the owning object', 'copy the name from the owning object\'s manifest');
  }
  return name;
}

function checkText(where: string, prop: string, text: string): string {
  if (typeof text !== 'string' || text.trim().length < 3) {
    throw badValue(ErrorCode.INVALID_REASON, where, prop, text,
      'must say who writes the fields', 'name the controller, e.g. "the vault agent injector"');
  }
  return text.trim();
}
