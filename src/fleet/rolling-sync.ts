import { badValue, ErrorCode } from '../core/errors';

/**
 * How many Applications of one RollingSync step are synced at a time.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Progressive-Syncs/#rollingsync
 */
export class RollingSyncMaxUpdate {
  /**
   * At most this many Applications of the step at a time, 1 or more.
   */
  public static applications(count: number): RollingSyncMaxUpdate {
    if (!Number.isInteger(count) || count < 1) {
      throw badValue(ErrorCode.INVALID_GENERATOR, 'RollingSyncMaxUpdate.applications', 'count', count,
        'must be a whole number of at least 1: with 0 the step never syncs anything and the rollout stops there', 'give e.g. 1');
    }
    return new RollingSyncMaxUpdate(String(count), count);
  }

  /**
   * At most this percentage of the step's Applications at a time (rounded down, but at least one), 1 to 100.
   */
  public static percent(percent: number): RollingSyncMaxUpdate {
    if (!Number.isInteger(percent) || percent < 1 || percent > 100) {
      throw badValue(ErrorCode.INVALID_GENERATOR, 'RollingSyncMaxUpdate.percent', 'percent', percent,
        'must be a whole number from 1 to 100: with 0% the step never syncs anything and the rollout stops there', 'give e.g. 10');
    }
    return new RollingSyncMaxUpdate(`${percent}%`, undefined);
  }

  /** The value as Argo CD reads it: a count, or a percentage such as `10%`. */
  public readonly value: string;
  private readonly count?: number;

  private constructor(value: string, count: number | undefined) {
    this.value = value;
    this.count = count;
  }

  /**
   * The value for the ApplicationSet's `maxUpdate`: a number, or a string with `%`.
   * @internal
   */
  public _render(): number | string {
    return this.count ?? this.value;
  }
}

/**
 * One step of a RollingSync: the Applications whose label has one of `values`.
 */
export interface RollingSyncStep {
  /**
   * The label values of the Applications this step syncs, e.g. `['staging']`. A value may be in one step only.
   */
  readonly values: string[];

  /**
   * How many of the step's Applications are synced at a time.
   *
   * @default - all of them at once (Argo CD's default, 100%)
   */
  readonly maxUpdate?: RollingSyncMaxUpdate;
}

/**
 * A progressive sync: the ApplicationSet controller syncs its Applications step by step, by one label of the
 * generated Applications (set it with `applicationLabels`), and waits for every Application of a step to be
 * Healthy before the next step starts.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Progressive-Syncs/
 */
export interface RollingSyncOptions {
  /**
   * The label of the generated Applications the steps select on, e.g. `env`. It must be one of the
   * SafeApplicationSet's `applicationLabels`.
   */
  readonly label: string;

  /**
   * The steps, in order. An Application whose label value is in no step is never synced by the rollout, and
   * with auto-sync off it is not synced at all.
   */
  readonly steps: RollingSyncStep[];
}
