import { Duration } from 'cdk8s';

/**
 * How a failed sync is retried. Automated sync does not retry the same commit by itself.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/auto_sync/#automatic-retry
 */
export interface RetryOptions {
  /**
   * How many times a failed sync is retried, 1 to 10.
   *
   * @default 5
   */
  readonly limit?: number;

  /**
   * The wait before the first retry, 1 second to 5 minutes, whole seconds.
   *
   * @default Duration.seconds(5)
   */
  readonly backoffDuration?: Duration;

  /**
   * The factor the wait is multiplied by after each retry, an integer from 1 to 10.
   *
   * @default 2
   */
  readonly backoffFactor?: number;

  /**
   * The longest wait between retries, from `backoffDuration` to 1 hour, whole seconds.
   *
   * @default Duration.minutes(3)
   */
  readonly backoffMaxDuration?: Duration;
}
