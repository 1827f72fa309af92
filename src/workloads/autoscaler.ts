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

/** Who owns a workload's `spec.replicas`. */
export enum AutoscalerKind {
  /** A HorizontalPodAutoscaler created with the workload. */
  HPA = 'HPA',
  /** A KEDA ScaledObject, defined elsewhere, which scales through an HPA it manages (possibly to zero). */
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
        'must be a whole number of at least 1 (scaling an HPA to zero needs an alpha feature gate; use KEDA for that)', 'use e.g. minReplicas: 2');
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
    return new Autoscaler(AutoscalerKind.HPA, undefined, { ...options, minReplicas: min });
  }

  /**
   * A KEDA ScaledObject, defined outside this construct, owns the replica count (through the HPA KEDA
   * creates, and down to zero when idle).
   *
   * @param scaledObjectName the ScaledObject's name, recorded in the ignore rule's reason
   * @see https://keda.sh/docs/latest/concepts/scaling-deployments/
   */
  public static kedaScaledObject(scaledObjectName: string): Autoscaler {
    return new Autoscaler(AutoscalerKind.KEDA_SCALED_OBJECT, checkOwnerName('Autoscaler.kedaScaledObject', scaledObjectName), undefined);
  }

  /**
   * A HorizontalPodAutoscaler defined and managed outside this app owns the replica count.
   *
   * @param hpaName the HPA's name, recorded in the ignore rule's reason
   */
  public static externalHpa(hpaName: string): Autoscaler {
    return new Autoscaler(AutoscalerKind.EXTERNAL_HPA, checkOwnerName('Autoscaler.externalHpa', hpaName), undefined);
  }

  /** Which controller owns the replicas. */
  public readonly kind: AutoscalerKind;
  /** The external owner's name, for KEDA and external HPAs. */
  public readonly ownerName?: string;
  /** The HPA's options, with defaults applied, for `Autoscaler.hpa`. */
  public readonly hpaOptions?: HpaOptions;

  private constructor(kind: AutoscalerKind, ownerName: string | undefined, hpaOptions: HpaOptions | undefined) {
    this.kind = kind;
    this.ownerName = ownerName;
    this.hpaOptions = hpaOptions;
  }
}

function checkOwnerName(where: string, name: string): string {
  if (typeof name !== 'string' || !isDns1123Subdomain(name)) {
    throw badValue(ErrorCode.INVALID_NAME, where, 'name', name,
      'must be the metadata.name of the object that owns the replicas', 'copy the name from the owning object\'s manifest');
  }
  return name;
}
