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

/** How a {@link FailureNotice} chooses who is told. */
export enum FailureNoticeKind {
  /** Everyone the Application or its SafeProject already notifies, through the same services. */
  ON_CALL = 'ON_CALL',
  /** The recipients given, through the service given. */
  RECIPIENTS = 'RECIPIENTS',
  /** No subscription written: on-sync-failed is subscribed outside this app (e.g. argocd-notifications-cm). */
  ELSEWHERE = 'ELSEWHERE',
}

/**
 * Who is told when a MigrationHook fails. A failed migration fails the sync and the new version is not
 * deployed, which nobody notices in the Argo CD UI at 2 a.m.: the notice subscribes people to Argo CD
 * Notifications' `on-sync-failed` trigger on the Application.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/notifications/catalog/#triggers
 */
export class FailureNotice {
  /**
   * The app's on-call: every recipient the Application (`notifications`, `addNotification`) or its SafeProject
   * (`notifications`) is subscribed to for any trigger, subscribed to `on-sync-failed` through the same service.
   * Recipients already subscribed to `on-sync-failed` are not repeated. When the app and its project notify
   * nobody, synth fails and says how to name someone.
   */
  public static onCall(): FailureNotice {
    return new FailureNotice(FailureNoticeKind.ON_CALL, {});
  }

  /**
   * These recipients, through this notification service.
   *
   * @param service the service as `argocd-notifications-cm` names it (`service.<name>`), e.g. `pagerdutyv2`
   * @param recipients e.g. `['payments-oncall']`: at least one
   */
  public static to(service: string, recipients: string[]): FailureNotice {
    return new FailureNotice(FailureNoticeKind.RECIPIENTS, { service, recipients: Array.isArray(recipients) ? [...recipients] : recipients });
  }

  /**
   * No subscription is written, because `on-sync-failed` reaches the team in a way this app does not show,
   * such as default subscriptions in `argocd-notifications-cm`.
   *
   * @param reason where the failure is reported, at least 10 characters (kept on the hook's Job as an annotation)
   */
  public static subscribedElsewhere(reason: string): FailureNotice {
    if (typeof reason !== 'string' || reason.trim().length < 10) {
      throw badValue(ErrorCode.UNNOTIFIED_MIGRATION, 'FailureNotice.subscribedElsewhere', 'reason', reason,
        'must say, in at least 10 characters, where a failed sync of this app is reported',
        'e.g. "argocd-notifications-cm subscribes #platform-alerts to on-sync-failed for every Application"');
    }
    return new FailureNotice(FailureNoticeKind.ELSEWHERE, { reason: reason.trim() });
  }

  /** How the recipients are chosen. */
  public readonly kind: FailureNoticeKind;
  /** The service, with `FailureNotice.to`. */
  public readonly service?: string;
  /** The recipients, with `FailureNotice.to`; empty otherwise. */
  public readonly recipients: string[];
  /** Where failures are reported instead, with `FailureNotice.subscribedElsewhere`. */
  public readonly reason?: string;

  private constructor(kind: FailureNoticeKind, parts: { service?: string; recipients?: string[]; reason?: string }) {
    this.kind = kind;
    this.service = parts.service;
    this.recipients = parts.recipients ?? [];
    this.reason = parts.reason;
  }
}
