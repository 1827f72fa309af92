import { KedaTrigger } from './keda-trigger';
import { badValue, ErrorCode } from '../core/errors';
import { isDns1123Subdomain } from '../core/names';

/**
 * The bounds and targets of a HorizontalPodAutoscaler (autoscaling/v2).
 *
 * @see https://kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale/
 */
export interface HpaOptions {
  /**
   * The fewest replicas the HPA keeps, 1 or more.
   *
   * @default 2 - one pod can fail or be evicted without an outage
   */
  readonly minReplicas?: number;

  /** The most replicas the HPA scales to, at least `minReplicas`. */
  readonly maxReplicas: number;

  /**
   * Target average CPU utilization, in percent of the containers' CPU requests (1 to 1000).
   *
   * @default - no CPU metric; at least one of CPU and memory is required
   */
  readonly cpuUtilizationPercent?: number;

  /**
   * Target average memory utilization, in percent of the containers' memory requests (1 to 1000).
   *
   * @default - no memory metric; at least one of CPU and memory is required
   */
  readonly memoryUtilizationPercent?: number;
}

/**
 * The bounds and triggers of a KEDA ScaledObject (keda.sh/v1alpha1). KEDA scales the workload through an HPA it
 * creates and names `keda-hpa-<ScaledObject name>`, and scales it to and from zero itself.
 *
 * @see https://keda.sh/docs/latest/reference/scaledobject-spec/
 */
export interface KedaOptions {
  /**
   * The fewest replicas KEDA keeps. 0 lets KEDA scale the workload to zero when no trigger is active, which needs
   * at least one trigger other than CPU and memory (those never wake a workload from zero).
   *
   * @default 2 - one pod can fail or be evicted without an outage (KEDA's own default is 0)
   */
  readonly minReplicaCount?: number;

  /** The most replicas KEDA scales to: at least `minReplicaCount` and at least 1. */
  readonly maxReplicaCount: number;

  /** What KEDA measures, at least one trigger. */
  readonly triggers: KedaTrigger[];
}

/** Who owns a workload's `spec.replicas`. */
export enum AutoscalerKind {
  /** A HorizontalPodAutoscaler created with the workload. */
  HPA = 'HPA',
  /**
   * A KEDA ScaledObject, created with the workload (`Autoscaler.keda`) or defined elsewhere
   * (`Autoscaler.kedaScaledObject`), which scales through an HPA it manages, possibly to zero.
   */
  KEDA_SCALED_OBJECT = 'KEDA_SCALED_OBJECT',
  /** A HorizontalPodAutoscaler defined and managed outside this app. */
  EXTERNAL_HPA = 'EXTERNAL_HPA',
}

/**
 * The controller that owns a workload's replica count. Whatever it is, the workload never declares
 * `spec.replicas`, and its Application ignores `/spec/replicas` with RespectIgnoreDifferences.
 */
export class Autoscaler {
  /**
   * Create a HorizontalPodAutoscaler (autoscaling/v2) for the workload.
   */
  public static hpa(options: HpaOptions): Autoscaler {
    const where = 'Autoscaler.hpa';
    const min = options.minReplicas ?? 2;
    const max = options.maxReplicas;
    if (!Number.isInteger(min) || min < 1) {
      throw badValue(ErrorCode.SCALING_OUT_OF_BOUNDS, where, 'minReplicas', options.minReplicas,
        'must be a whole number of at least 1 (scaling an HPA to zero needs an alpha feature gate)', 'use e.g. minReplicas: 2, or Autoscaler.keda with minReplicaCount: 0 to scale to zero');
    }
    if (!Number.isInteger(max) || max < min || max > 10000) {
      throw badValue(ErrorCode.SCALING_OUT_OF_BOUNDS, where, 'maxReplicas', max,
        `must be a whole number from minReplicas (${min}) to 10000`, `use a maximum of at least ${min}`);
    }
    for (const [prop, value] of [['cpuUtilizationPercent', options.cpuUtilizationPercent], ['memoryUtilizationPercent', options.memoryUtilizationPercent]] as const) {
      if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > 1000)) {
        throw badValue(ErrorCode.SCALING_OUT_OF_BOUNDS, where, prop, value,
          'must be a whole percentage from 1 to 1000 of the containers\' requests', 'use e.g. 70');
      }
    }
    if (options.cpuUtilizationPercent === undefined && options.memoryUtilizationPercent === undefined) {
      throw badValue(ErrorCode.SCALING_OUT_OF_BOUNDS, where, 'cpuUtilizationPercent', undefined,
        'or memoryUtilizationPercent must be given: an HPA needs at least one metric', 'set cpuUtilizationPercent: 70 (or a memory target)');
    }
    return new Autoscaler(AutoscalerKind.HPA, undefined, { ...options, minReplicas: min }, undefined);
  }

  /**
   * Create a KEDA ScaledObject (keda.sh/v1alpha1) for the workload, named like it. KEDA creates and manages the
   * HPA `keda-hpa-<name>` that scales the workload, and scales it to zero itself when `minReplicaCount` is 0: the
   * only autoscaler of this library that may go to zero.
   *
   * @see https://keda.sh/docs/latest/concepts/scaling-deployments/
   */
  public static keda(options: KedaOptions): Autoscaler {
    const where = 'Autoscaler.keda';
    const min = options.minReplicaCount ?? 2;
    const max = options.maxReplicaCount;
    const triggers = options.triggers ?? [];
    if (!Number.isInteger(min) || min < 0) {
      throw badValue(ErrorCode.SCALING_OUT_OF_BOUNDS, where, 'minReplicaCount', options.minReplicaCount,
        'must be a whole number of at least 0', 'use e.g. minReplicaCount: 2, or 0 to scale to zero');
    }
    if (!Number.isInteger(max) || max < Math.max(min, 1) || max > 10000) {
      throw badValue(ErrorCode.SCALING_OUT_OF_BOUNDS, where, 'maxReplicaCount', max,
        `must be a whole number from ${Math.max(min, 1)} to 10000`, `use a maximum of at least ${Math.max(min, 1)}`);
    }
    if (triggers.length === 0 || triggers.some((t) => !(t instanceof KedaTrigger))) {
      throw badValue(ErrorCode.SCALING_OUT_OF_BOUNDS, where, 'triggers', options.triggers,
        'must hold at least one KedaTrigger: KEDA has nothing to scale on without one', 'add e.g. KedaTrigger.cpuUtilization(70)');
    }
    if (min === 0 && !triggers.some((t) => t.activatesFromZero)) {
      throw badValue(ErrorCode.SCALING_OUT_OF_BOUNDS, where, 'minReplicaCount', min,
        `needs a trigger that can wake the workload from zero, and ${triggers.map((t) => t.type).join(' and ')} cannot (KEDA never scales to or from zero on CPU or memory alone)`,
        'add a trigger on an event source (e.g. KedaTrigger.prometheus), or keep minReplicaCount at 1 or more');
    }
    return new Autoscaler(AutoscalerKind.KEDA_SCALED_OBJECT, undefined, undefined, { ...options, minReplicaCount: min, triggers: [...triggers] });
  }

  /**
   * A KEDA ScaledObject, defined outside this construct (use `Autoscaler.keda` to create one with it), owns the replica count (through the HPA KEDA
   * creates, and down to zero when idle).
   *
   * @param scaledObjectName the ScaledObject's name, recorded in the ignore rule's reason
   * @see https://keda.sh/docs/latest/concepts/scaling-deployments/
   */
  public static kedaScaledObject(scaledObjectName: string): Autoscaler {
    return new Autoscaler(AutoscalerKind.KEDA_SCALED_OBJECT, checkOwnerName('Autoscaler.kedaScaledObject', scaledObjectName), undefined, undefined);
  }

  /**
   * A HorizontalPodAutoscaler defined and managed outside this app owns the replica count.
   *
   * @param hpaName the HPA's name, recorded in the ignore rule's reason
   */
  public static externalHpa(hpaName: string): Autoscaler {
    return new Autoscaler(AutoscalerKind.EXTERNAL_HPA, checkOwnerName('Autoscaler.externalHpa', hpaName), undefined, undefined);
  }

  /** Which controller owns the replicas. */
  public readonly kind: AutoscalerKind;
  /** The external owner's name, for KEDA and external HPAs. */
  public readonly ownerName?: string;
  /** The HPA's options, with defaults applied, for `Autoscaler.hpa`. */
  public readonly hpaOptions?: HpaOptions;
  /** The ScaledObject's options, with defaults applied, for `Autoscaler.keda`. */
  public readonly kedaOptions?: KedaOptions;

  private constructor(kind: AutoscalerKind, ownerName: string | undefined, hpaOptions: HpaOptions | undefined, kedaOptions: KedaOptions | undefined) {
    this.kind = kind;
    this.ownerName = ownerName;
    this.hpaOptions = hpaOptions;
    this.kedaOptions = kedaOptions;
  }
}

function checkOwnerName(where: string, name: string): string {
  if (typeof name !== 'string' || !isDns1123Subdomain(name)) {
    throw badValue(ErrorCode.INVALID_NAME, where, 'name', name,
      'must be the metadata.name of the object that owns the replicas', 'copy the name from the owning object\'s manifest');
  }
  return name;
}
