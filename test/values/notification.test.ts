import { GitOpsApp, NotificationSubscription, NotificationTrigger, SafeApplication, SafeProject } from '../../src';
import { appProps, newApp } from '../support/app';
import { crdErrors } from '../support/crd';

const ONCALL: NotificationSubscription = { trigger: NotificationTrigger.ON_SYNC_FAILED, service: 'slack', recipients: ['payments-oncall'] };

function annotationsOf(manifest: any): Record<string, string> {
  return Object.fromEntries(Object.entries(manifest.metadata.annotations ?? {})
    .filter(([k]) => k.startsWith('notifications.argoproj.io/'))) as Record<string, string>;
}

describe('notification subscriptions on SafeApplication', () => {
  test('GIVEN subscriptions in props and added later WHEN rendered THEN one annotation per trigger and service, recipients joined by ";"', () => {
    const { app } = newApp({
      notifications: [ONCALL, { trigger: NotificationTrigger.ON_HEALTH_DEGRADED, service: 'pagerdutyv2', recipients: ['a1b2c3'] }],
    });
    app.addNotification({ trigger: NotificationTrigger.ON_SYNC_FAILED, service: 'slack', recipients: ['payments-dev'] });
    app.addNotification({ trigger: NotificationTrigger.custom('on-rollout-aborted'), service: 'email', recipients: ['oncall@acme.internal'] });
    const manifest = app.resource.toJson();
    expect(annotationsOf(manifest)).toEqual({
      'notifications.argoproj.io/subscribe.on-sync-failed.slack': 'payments-oncall;payments-dev',
      'notifications.argoproj.io/subscribe.on-health-degraded.pagerdutyv2': 'a1b2c3',
      'notifications.argoproj.io/subscribe.on-rollout-aborted.email': 'oncall@acme.internal',
    });
    expect(crdErrors('application', '3.5', manifest)).toEqual([]);
  });

  test('GIVEN no subscriptions WHEN rendered THEN the Application carries no notification annotation', () => {
    const { app } = newApp();
    expect(annotationsOf(app.resource.toJson())).toEqual({});
  });

  test.each([
    ['a recipient holding ";"', { ...ONCALL, recipients: ['a;b'] }, /\[SAFE-035\] checkout: subscription\.recipients is \["a;b"\]; it must list at least one recipient/],
    ['no recipient', { ...ONCALL, recipients: [] }, /\[SAFE-035\] .*subscription\.recipients is \[\]/],
    ['a service with a dot', { ...ONCALL, service: 'slack.main' }, /\[SAFE-035\] .*subscription\.service is "slack\.main"; it must be a notification service name/],
    ['a trigger that is not a NotificationTrigger', { ...ONCALL, trigger: 'on-sync-failed' as never }, /\[SAFE-035\] .*subscription\.trigger is "on-sync-failed"; it must be a NotificationTrigger/],
    ['a recipient already subscribed', ONCALL, /\[SAFE-011\] .*subscription\.recipients is "payments-oncall"; it is already subscribed to on-sync-failed through slack/],
  ])('fails for %s, naming the path, the prop, the value and the fix, and changes nothing', (_name, subscription, message) => {
    const { app } = newApp({ notifications: [ONCALL] });
    const before = annotationsOf(app.resource.toJson());
    expect(() => app.addNotification(subscription as NotificationSubscription)).toThrow(message);
    expect(annotationsOf(app.resource.toJson())).toEqual(before);
  });

  test('fails for a custom trigger that cannot be part of an annotation key', () => {
    expect(() => NotificationTrigger.custom('On Sync')).toThrow(/^\[SAFE-035\] NotificationTrigger\.custom: name is "On Sync"; it must be a trigger name/);
  });
});

describe('notification subscriptions on SafeProject', () => {
  test('GIVEN project-wide subscriptions WHEN rendered THEN the AppProject carries them, valid against the CRD', () => {
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = new SafeProject(gitops, 'payments', {
      name: 'payments',
      sourceRepos: ['https://git.acme.internal/platform/gitops.git'],
      destinations: [{ namespace: 'payments' }],
      notifications: [ONCALL, { trigger: NotificationTrigger.ON_SYNC_STATUS_UNKNOWN, service: 'slack', recipients: ['platform'] }],
    });
    new SafeApplication(gitops, 'checkout', appProps({ project }));
    const manifest = project.resource.toJson();
    expect(annotationsOf(manifest)).toEqual({
      'notifications.argoproj.io/subscribe.on-sync-failed.slack': 'payments-oncall',
      'notifications.argoproj.io/subscribe.on-sync-status-unknown.slack': 'platform',
    });
    expect(crdErrors('appproject', '3.5', manifest)).toEqual([]);
  });
});
