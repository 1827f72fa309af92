import { badValue, ErrorCode } from '../core/errors';

/**
 * An Argo CD Notifications trigger: the event a subscription is told about. The static ones are the triggers
 * of Argo CD's notification catalog; `custom` names one defined in `argocd-notifications-cm`.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/notifications/catalog/
 */
export class NotificationTrigger {
  /** A sync failed: with a MigrationHook, the migration failed and the new version was not deployed. */
  public static readonly ON_SYNC_FAILED = new NotificationTrigger('on-sync-failed');
  /** The Application's health became Degraded. */
  public static readonly ON_HEALTH_DEGRADED = new NotificationTrigger('on-health-degraded');
  /** Argo CD could not tell whether the Application is in sync (a broken source, a ComparisonError). */
  public static readonly ON_SYNC_STATUS_UNKNOWN = new NotificationTrigger('on-sync-status-unknown');
  /** A sync succeeded and the Application is Healthy. */
  public static readonly ON_DEPLOYED = new NotificationTrigger('on-deployed');
  /** A sync succeeded. */
  public static readonly ON_SYNC_SUCCEEDED = new NotificationTrigger('on-sync-succeeded');
  /** A sync started. */
  public static readonly ON_SYNC_RUNNING = new NotificationTrigger('on-sync-running');
  /** The Application was created. */
  public static readonly ON_CREATED = new NotificationTrigger('on-created');
  /** The Application was deleted. */
  public static readonly ON_DELETED = new NotificationTrigger('on-deleted');

  /**
   * A trigger defined in `argocd-notifications-cm` (`trigger.<name>`).
   *
   * @param name e.g. `on-rollout-aborted`: lowercase letters, digits, `-` and `.`
   */
  public static custom(name: string): NotificationTrigger {
    if (typeof name !== 'string' || !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(name)) {
      throw badValue(ErrorCode.INVALID_NOTIFICATION, 'NotificationTrigger.custom', 'name', name,
        'must be a trigger name of lowercase letters, digits, "-" and "." (it becomes part of an annotation key)', 'use the name after "trigger." in argocd-notifications-cm, e.g. "on-rollout-aborted"');
    }
    return new NotificationTrigger(name);
  }

  private constructor(
    /** The trigger's name, e.g. `on-sync-failed`. */
    public readonly name: string,
  ) {}
}

/**
 * Who is told about a trigger, through which notification service.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/notifications/subscriptions/
 */
export interface NotificationSubscription {
  /** The event. */
  readonly trigger: NotificationTrigger;

  /**
   * The notification service as `argocd-notifications-cm` names it (`service.<name>`), e.g. `slack`, `email`,
   * `pagerdutyv2`, `opsgenie`, `teams`, or a webhook's name.
   */
  readonly service: string;

  /** Who is told: Slack channels, e-mail addresses, PagerDuty integration keys... at least one. */
  readonly recipients: string[];
}
