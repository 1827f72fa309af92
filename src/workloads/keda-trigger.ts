import { badValue, ErrorCode } from '../core/errors';

/**
 * Options of a Prometheus trigger: scale on the value of one PromQL query.
 *
 * @see https://keda.sh/docs/latest/scalers/prometheus/
 */
export interface PrometheusTriggerOptions {
  /** The Prometheus server's address, e.g. `http://prometheus.monitoring.svc:9090`. */
  readonly serverAddress: string;

  /** The PromQL query; it must return a single value. */
  readonly query: string;

  /** The value per replica KEDA aims for: the target replica count is the query's value divided by this. */
  readonly threshold: number;

  /**
   * The value above which the workload is woken from zero replicas.
   *
   * @default - KEDA's default, 0
   */
  readonly activationThreshold?: number;
}

/**
 * Options of a cron trigger: hold a replica count during a daily or weekly window.
 *
 * @see https://keda.sh/docs/latest/scalers/cron/
 */
export interface CronTriggerOptions {
  /** The IANA time zone the schedule is read in, e.g. `Europe/Berlin`. */
  readonly timezone: string;

  /** When the window starts, as a five-field cron expression, e.g. `0 8 * * 1-5`. */
  readonly start: string;

  /** When the window ends, as a five-field cron expression, e.g. `0 20 * * 1-5`. */
  readonly end: string;

  /** The replica count held during the window, 1 or more. */
  readonly desiredReplicas: number;
}

/**
 * One of a KEDA ScaledObject's triggers: what KEDA measures to compute the replica count.
 *
 * @see https://keda.sh/docs/latest/reference/scaledobject-spec/#triggers
 */
export class KedaTrigger {
  /**
   * Scale on the average CPU utilization of the pods, in percent of their CPU requests. A CPU trigger never
   * wakes a workload from zero, so it cannot be the only trigger when `minReplicaCount` is 0.
   *
   * @see https://keda.sh/docs/latest/scalers/cpu/
   */
  public static cpuUtilization(percent: number): KedaTrigger {
    return new KedaTrigger('cpu', 'Utilization', { value: String(checkPercent('KedaTrigger.cpuUtilization', percent)) });
  }

  /**
   * Scale on the average memory utilization of the pods, in percent of their memory requests. Like CPU, it
   * never wakes a workload from zero.
   *
   * @see https://keda.sh/docs/latest/scalers/memory/
   */
  public static memoryUtilization(percent: number): KedaTrigger {
    return new KedaTrigger('memory', 'Utilization', { value: String(checkPercent('KedaTrigger.memoryUtilization', percent)) });
  }

  /**
   * Scale on a Prometheus query.
   *
   * @see https://keda.sh/docs/latest/scalers/prometheus/
   */
  public static prometheus(options: PrometheusTriggerOptions): KedaTrigger {
    const where = 'KedaTrigger.prometheus';
    if (typeof options.serverAddress !== 'string' || !/^https?:\/\/[^\s/]+/.test(options.serverAddress)) {
      throw badValue(ErrorCode.INVALID_KEDA_TRIGGER, where, 'serverAddress', options.serverAddress,
        'must be an http or https address', 'use e.g. "http://prometheus.monitoring.svc:9090"');
    }
    if (typeof options.query !== 'string' || options.query.trim() === '') {
      throw badValue(ErrorCode.INVALID_KEDA_TRIGGER, where, 'query', options.query,
        'must be a PromQL query', 'use e.g. "sum(rate(http_requests_total{app=\\"checkout\\"}[2m]))"');
    }
    const metadata: Record<string, string> = {
      serverAddress: options.serverAddress,
      query: options.query,
      threshold: String(checkPositive(where, 'threshold', options.threshold)),
    };
    if (options.activationThreshold !== undefined) {
      metadata.activationThreshold = String(checkPositive(where, 'activationThreshold', options.activationThreshold, true));
    }
    return new KedaTrigger('prometheus', undefined, metadata);
  }

  /**
   * Hold `desiredReplicas` between `start` and `end`.
   *
   * @see https://keda.sh/docs/latest/scalers/cron/
   */
  public static cron(options: CronTriggerOptions): KedaTrigger {
    const where = 'KedaTrigger.cron';
    if (typeof options.timezone !== 'string' || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(options.timezone)) {
      throw badValue(ErrorCode.INVALID_KEDA_TRIGGER, where, 'timezone', options.timezone,
        'must be an IANA time zone name', 'use e.g. "Europe/Berlin" or "UTC"');
    }
    for (const [prop, value] of [['start', options.start], ['end', options.end]] as const) {
      if (typeof value !== 'string' || value.trim().split(/\s+/).length !== 5) {
        throw badValue(ErrorCode.INVALID_KEDA_TRIGGER, where, prop, value,
          'must be a cron expression of five fields (minute hour day-of-month month day-of-week)', 'use e.g. "0 8 * * 1-5"');
      }
    }
    if (!Number.isInteger(options.desiredReplicas) || options.desiredReplicas < 1) {
      throw badValue(ErrorCode.INVALID_KEDA_TRIGGER, where, 'desiredReplicas', options.desiredReplicas,
        'must be a whole number of at least 1', 'use e.g. desiredReplicas: 4');
    }
    return new KedaTrigger('cron', undefined, {
      timezone: options.timezone, start: options.start.trim(), end: options.end.trim(), desiredReplicas: String(options.desiredReplicas),
    });
  }

  /**
   * Any other KEDA scaler, by its type and metadata, as KEDA's documentation of that scaler gives them.
   *
   * @param type the scaler's type, e.g. `kafka` or `rabbitmq`
   * @param metadata the scaler's metadata, all values as strings
   * @see https://keda.sh/docs/latest/scalers/
   */
  public static custom(type: string, metadata: { [key: string]: string }): KedaTrigger {
    const where = 'KedaTrigger.custom';
    if (typeof type !== 'string' || !/^[a-z][a-z0-9-]*$/.test(type)) {
      throw badValue(ErrorCode.INVALID_KEDA_TRIGGER, where, 'type', type,
        'must be a KEDA scaler type in lower case', 'use e.g. "kafka"; for CPU and memory use KedaTrigger.cpuUtilization or memoryUtilization');
    }
    if (type === 'cpu' || type === 'memory') {
      throw badValue(ErrorCode.INVALID_KEDA_TRIGGER, where, 'type', type,
        'has its own factory, which sets the metric type KEDA requires', `use KedaTrigger.${type}Utilization(...)`);
    }
    const entries = Object.entries(metadata ?? {});
    for (const [key, value] of entries) {
      if (typeof value !== 'string') {
        throw badValue(ErrorCode.INVALID_KEDA_TRIGGER, where, `metadata.${key}`, value,
          'must be a string: KEDA reads every metadata value as text', `quote it, e.g. "${String(value)}"`);
      }
    }
    return new KedaTrigger(type, undefined, Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  }

  /** The scaler's type, e.g. `cpu` or `prometheus`. */
  public readonly type: string;
  /**
   * The metric type, for CPU and memory triggers.
   *
   * @default - none, for other triggers
   */
  public readonly metricType?: string;
  /** The scaler's metadata. */
  public readonly metadata: { [key: string]: string };

  private constructor(type: string, metricType: string | undefined, metadata: { [key: string]: string }) {
    this.type = type;
    this.metricType = metricType;
    this.metadata = metadata;
  }

  /** Whether the trigger can wake a workload from zero replicas: every scaler but CPU and memory. */
  public get activatesFromZero(): boolean {
    return this.type !== 'cpu' && this.type !== 'memory';
  }
}

function checkPercent(where: string, percent: number): number {
  if (!Number.isInteger(percent) || percent < 1 || percent > 1000) {
    throw badValue(ErrorCode.INVALID_KEDA_TRIGGER, where, 'percent', percent,
      'must be a whole percentage from 1 to 1000 of the containers\' requests', 'use e.g. 70');
  }
  return percent;
}

function checkPositive(where: string, prop: string, value: number, zeroAllowed = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (!zeroAllowed && value === 0)) {
    throw badValue(ErrorCode.INVALID_KEDA_TRIGGER, where, prop, value,
      `must be a finite number ${zeroAllowed ? 'of at least 0' : 'greater than 0'}`, 'use e.g. 100');
  }
  return value;
}
