import { Duration } from 'cdk8s';
import { badValue, ErrorCode } from '../core/errors';
import { isDns1123Label } from '../core/names';

/**
 * One step of a canary update: shift a share of the pods (or of the traffic, with a traffic router) to the new
 * version, or wait.
 *
 * @see https://argoproj.github.io/argo-rollouts/features/canary/
 */
export class CanaryStep {
  /**
   * Give the new version `percent` of the replicas, or of the traffic with a traffic router (`setWeight`).
   *
   * @param percent a whole percentage from 0 to 100
   */
  public static weight(percent: number): CanaryStep {
    if (!Number.isInteger(percent) || percent < 0 || percent > 100) {
      throw badValue(ErrorCode.INVALID_ROLLOUT, 'CanaryStep.weight', 'percent', percent,
        'must be a whole percentage from 0 to 100', 'use e.g. CanaryStep.weight(20)');
    }
    return new CanaryStep({ setWeight: percent });
  }

  /**
   * Wait before the next step: for `duration`, or, without one, until someone promotes the Rollout
   * (`kubectl argo rollouts promote`).
   *
   * @param duration how long to wait, whole seconds, at least 1
   * @default - wait until promoted
   */
  public static pause(duration?: Duration): CanaryStep {
    if (duration === undefined) {
      return new CanaryStep({ pause: {} });
    }
    const seconds = duration.toSeconds({ integral: false });
    if (!Number.isInteger(seconds) || seconds < 1) {
      throw badValue(ErrorCode.INVALID_ROLLOUT, 'CanaryStep.pause', 'duration', `${seconds}s`,
        'must be whole seconds, at least 1 (leave it out to wait for a promotion)', 'use e.g. Duration.minutes(5)');
    }
    return new CanaryStep({ pause: { duration: `${seconds}s` } });
  }

  private constructor(private readonly step: { [key: string]: unknown }) {}

  /** @internal The step as Argo Rollouts reads it. */
  public _toRollout(): { [key: string]: unknown } {
    return JSON.parse(JSON.stringify(this.step));
  }
}

/** Options of a canary update. */
export interface CanaryStrategyOptions {
  /** The steps, in order; at least one. After the last, the new version gets all replicas. */
  readonly steps: CanaryStep[];
}

/** Options of a blue-green update. */
export interface BlueGreenStrategyOptions {
  /**
   * The Service that sends production traffic; Argo Rollouts points its selector at the active version. Create
   * it (in this app) selecting the Rollout's pods.
   */
  readonly activeService: string;

  /**
   * A Service Argo Rollouts points at the new version before promotion, to test it without production traffic.
   *
   * @default - no preview Service
   */
  readonly previewService?: string;
}

/**
 * How an Argo Rollout replaces its pods: a canary in steps, or blue-green with a switch of Services.
 *
 * @see https://argoproj.github.io/argo-rollouts/features/specification/
 */
export class RolloutStrategy {
  /**
   * A canary update in steps.
   *
   * @see https://argoproj.github.io/argo-rollouts/features/canary/
   */
  public static canary(options: CanaryStrategyOptions): RolloutStrategy {
    const steps = options.steps ?? [];
    if (steps.length === 0 || steps.some((s) => !(s instanceof CanaryStep))) {
      throw badValue(ErrorCode.INVALID_ROLLOUT, 'RolloutStrategy.canary', 'steps', options.steps,
        'must hold at least one CanaryStep (a canary without steps is a plain rolling update)',
        'add e.g. CanaryStep.weight(20), CanaryStep.pause(Duration.minutes(5))');
    }
    return new RolloutStrategy('canary', { canary: { steps: steps.map((s) => s._toRollout()) } });
  }

  /**
   * A blue-green update: the new version starts beside the old one and the active Service switches to it.
   *
   * @see https://argoproj.github.io/argo-rollouts/features/bluegreen/
   */
  public static blueGreen(options: BlueGreenStrategyOptions): RolloutStrategy {
    const where = 'RolloutStrategy.blueGreen';
    for (const [prop, name] of [['activeService', options.activeService], ['previewService', options.previewService]] as const) {
      if ((prop === 'activeService' || name !== undefined) && (typeof name !== 'string' || !isDns1123Label(name))) {
        throw badValue(ErrorCode.INVALID_ROLLOUT, where, prop, name,
          'must be the name of a Service in the Rollout\'s namespace (a DNS label)', 'use e.g. "checkout-web-active"');
      }
    }
    if (options.previewService === options.activeService) {
      throw badValue(ErrorCode.INVALID_ROLLOUT, where, 'previewService', options.previewService,
        'must differ from activeService: one Service cannot point at both versions', 'use e.g. "checkout-web-preview"');
    }
    const blueGreen: { [key: string]: string } = { activeService: options.activeService };
    if (options.previewService !== undefined) {
      blueGreen.previewService = options.previewService;
    }
    return new RolloutStrategy('blueGreen', { blueGreen });
  }

  /** `canary` or `blueGreen`, the key under `spec.strategy`. */
  public readonly name: string;

  private constructor(name: string, private readonly spec: { [key: string]: unknown }) {
    this.name = name;
  }

  /** @internal `spec.strategy` as Argo Rollouts reads it. */
  public _toRollout(): { [key: string]: unknown } {
    return JSON.parse(JSON.stringify(this.spec));
  }
}
