import { IConstruct } from 'constructs';
import { NOTIFICATIONS_SUBSCRIBE_PREFIX } from '../core/annotations';
import { badValue, ErrorCode } from '../core/errors';
import { FailureNotice, FailureNoticeKind, NotificationSubscription, NotificationTrigger } from '../values/notification';

/** The `notifications` prop of a construct as a list (none when absent); anything else is refused. */
export function checkNotificationList(where: IConstruct, value: NotificationSubscription[] | undefined): NotificationSubscription[] {
  if (value !== undefined && !Array.isArray(value)) {
    throw badValue(ErrorCode.INVALID_NOTIFICATION, where, 'notifications', value,
      'must be a list of subscriptions', 'give e.g. [{ trigger: NotificationTrigger.ON_SYNC_FAILED, service: \'slack\', recipients: [\'payments-oncall\'] }]');
  }
  return value ?? [];
}

/**
 * The annotations of `subscriptions`, one per trigger and service (`notifications.argoproj.io/subscribe.<trigger>.<service>`)
 * with its recipients joined by `;`, in the order given; undefined when there are none. Checks each subscription.
 *
 * @param where the construct that errors name
 * @param propOf how errors name the subscription at an index, e.g. `notifications[1]`
 */
export function notificationAnnotations(
  where: IConstruct, subscriptions: readonly NotificationSubscription[], propOf: (index: number) => string,
): { [key: string]: string } | undefined {
  const byKey = new Map<string, string[]>();
  subscriptions.forEach((s, i) => {
    const prop = propOf(i);
    const [key, recipients] = checkSubscription(where, prop, s);
    const known = byKey.get(key) ?? [];
    for (const r of recipients) {
      if (known.includes(r)) {
        throw badValue(ErrorCode.DUPLICATE, where, `${prop}.recipients`, r,
          `is already subscribed to ${s.trigger.name} through ${s.service}`, 'list each recipient once per trigger and service');
      }
      known.push(r);
    }
    byKey.set(key, known);
  });
  return byKey.size === 0 ? undefined : Object.fromEntries([...byKey].map(([key, recipients]) => [key, recipients.join(';')]));
}

function checkSubscription(where: IConstruct, prop: string, s: NotificationSubscription): [string, string[]] {
  if (typeof s !== 'object' || s === null || !(s.trigger instanceof NotificationTrigger)) {
    throw badValue(ErrorCode.INVALID_NOTIFICATION, where, `${prop}.trigger`, s?.trigger,
      'must be a NotificationTrigger', 'use e.g. NotificationTrigger.ON_SYNC_FAILED, or NotificationTrigger.custom("on-rollout-aborted")');
  }
  if (typeof s.service !== 'string' || !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(s.service)) {
    throw badValue(ErrorCode.INVALID_NOTIFICATION, where, `${prop}.service`, s.service,
      'must be a notification service name of lowercase letters, digits and "-"', 'use the name after "service." in argocd-notifications-cm, e.g. "slack"');
  }
  const key = `${NOTIFICATIONS_SUBSCRIBE_PREFIX}${s.trigger.name}.${s.service}`;
  // The part after the prefix's "/" is the annotation key's name: at most 63 characters.
  if (key.length - key.indexOf('/') - 1 > 63) {
    throw badValue(ErrorCode.INVALID_NOTIFICATION, where, prop, `${s.trigger.name}.${s.service}`,
      `makes the annotation key ${JSON.stringify(key)}, whose name part is over 63 characters`, 'use a shorter trigger or service name');
  }
  const recipients = Array.isArray(s.recipients) ? s.recipients : [];
  if (recipients.length === 0 || recipients.some((r) => typeof r !== 'string' || r.trim() === '' || /[;\n\r]/.test(r))) {
    throw badValue(ErrorCode.INVALID_NOTIFICATION, where, `${prop}.recipients`, s.recipients,
      'must list at least one recipient, none empty or holding ";" or a line break (Argo CD splits recipients at ";")', 'give e.g. ["payments-oncall"]');
  }
  return [key, recipients.map((r) => r.trim())];
}

/**
 * The `on-sync-failed` subscriptions the failure notices of an app's MigrationHooks add to its Application, one
 * per service in order of first mention: the on-call (everyone the app or its project notifies, through the same
 * service) or the recipients named. Recipients already subscribed to `on-sync-failed` through that service, on the
 * Application or its project, are left out: they are told already.
 */
export function failureSubscriptions(
  notices: readonly FailureNotice[], app: readonly NotificationSubscription[], project: readonly NotificationSubscription[],
): NotificationSubscription[] {
  const told = new Set([...app, ...project].filter((s) => s.trigger.name === NotificationTrigger.ON_SYNC_FAILED.name)
    .flatMap((s) => s.recipients.map((r) => `${s.service}\n${r.trim()}`)));
  const wanted = new Map<string, string[]>();
  const want = (service: string, recipient: string) => {
    const key = `${service}\n${recipient.trim()}`;
    if (!told.has(key)) {
      told.add(key);
      wanted.set(service, [...wanted.get(service) ?? [], recipient.trim()]);
    }
  };
  for (const notice of notices) {
    if (notice.kind === FailureNoticeKind.ON_CALL) {
      [...app, ...project].forEach((s) => s.recipients.forEach((r) => want(s.service, r)));
    } else if (notice.kind === FailureNoticeKind.RECIPIENTS) {
      notice.recipients.forEach((r) => want(notice.service!, r));
    }
  }
  return [...wanted].map(([service, recipients]) => ({ trigger: NotificationTrigger.ON_SYNC_FAILED, service, recipients }));
}
