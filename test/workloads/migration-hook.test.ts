import { ApiObject, Chart, Duration, JsonPatch, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import {
  FailureNotice, GitOpsApp, MigrationHook, MigrationHookProps, NotificationSubscription, NotificationTrigger, SafeApplication, SafeProject,
} from '../../src';
import { applicationOf, appProps, newApp } from '../support/app';
import { kubeErrors } from '../support/kube';

const HOOK = 'argocd.argoproj.io/hook';
const DELETE_POLICY = 'argocd.argoproj.io/hook-delete-policy';
const WAVE = 'argocd.argoproj.io/sync-wave';

/**
 * What Argo CD appends to a hook's generateName (gitops-engine sync_context.go, getSyncTasks):
 * lower("<first 7 characters of the revision>-<phase>-<unix seconds>"), e.g. "1a2b3c4-presync-1767225600".
 */
const ARGO_HOOK_NAME_POSTFIX = '1a2b3c4-presync-1767225600';

/** Who the hooks of these tests page; the default (the app's on-call) has its own tests. */
const ONCALL = FailureNotice.to('pagerdutyv2', ['payments-oncall']);

function migration(scope: Construct, id: string, props: Partial<MigrationHookProps> = {}): MigrationHook {
  return new MigrationHook(scope, id, { container: { name: 'migrate', image: 'registry.acme.internal/checkout-migrate:2.3.0' }, onFailure: ONCALL, ...props });
}

function jobOf(hook: MigrationHook): any {
  return ApiObject.of(hook).toJson();
}

/** Every key of every `annotations` object anywhere in a manifest. */
function annotationKeys(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value.flatMap(annotationKeys);
  }
  if (value === null || typeof value !== 'object') {
    return [];
  }
  return Object.entries(value).flatMap(([k, v]) => [
    ...(k === 'annotations' && v !== null && typeof v === 'object' ? Object.keys(v) : []),
    ...annotationKeys(v),
  ]);
}

describe('MigrationHook defaults', () => {
  // GIVEN an app
  const { app, gitops } = newApp();
  // WHEN one MigrationHook with only a container is added
  const hook = migration(app, 'migrate');
  const job = jobOf(hook);

  test('renders a batch/v1 Job that is a PreSync hook deleted when it succeeds', () => {
    expect(job.apiVersion).toBe('batch/v1');
    expect(job.kind).toBe('Job');
    expect(job.metadata.annotations).toEqual({ [HOOK]: 'PreSync', [DELETE_POLICY]: 'HookSucceeded' });
  });

  test('a single hook has no sync-wave', () => {
    expect(WAVE in job.metadata.annotations).toBe(false);
    expect(hook.wave).toBe(0);
    expect(hook.after).toBeUndefined();
  });

  test('has generateName "<app>-<id>-" and no name, so every sync runs a fresh Job', () => {
    expect(job.metadata.generateName).toBe('checkout-migrate-');
    expect('name' in job.metadata).toBe(false);
    expect(job.metadata.namespace).toBe('payments');
    expect(hook.namePrefix).toBe('checkout-migrate');
  });

  test('is bounded: 600 s deadline, one pod retry, kept 3 days after it finishes, never restarted', () => {
    expect(job.spec.activeDeadlineSeconds).toBe(600);
    expect(job.spec.backoffLimit).toBe(1);
    expect(job.spec.ttlSecondsAfterFinished).toBe(259200);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
  });

  test('switches sidecar injection off for Istio (label) and Linkerd (annotation)', () => {
    expect(job.spec.template.metadata.labels['sidecar.istio.io/inject']).toBe('false');
    expect(job.spec.template.metadata.annotations['linkerd.io/inject']).toBe('disabled');
  });

  test('emits no hook-failure-policy annotation, which Argo CD does not read', () => {
    const keys = annotationKeys(job);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((k) => k.includes('hook-failure-policy'))).toEqual([]);
    for (const file of gitops.renderFiles()) {
      expect(file.content).not.toContain('hook-failure-policy');
    }
  });

  test('the Job is the default child and validates against the batch/v1 schema', () => {
    expect(ApiObject.of(hook)).toBe(ApiObject.of(hook.job));
    expect(MigrationHook.isMigrationHook(hook)).toBe(true);
    expect(MigrationHook.isMigrationHook(app)).toBe(false);
    // generateName without name is valid ObjectMeta: validated as rendered, no stand-in name
    expect(kubeErrors(job)).toEqual([]);
  });

  test('synthesizes, writing the Job to a file named after its prefix', () => {
    const paths = gitops.renderFiles().map((f) => f.path);
    expect(paths).toContain('workloads/checkout/Job.checkout-migrate.k8s.yaml');
  });
});

describe('MigrationHook options', () => {
  test('a custom name and bounds render as given', () => {
    // GIVEN an app WHEN a hook with its own name and bounds is added
    const { app, gitops } = newApp();
    const job = jobOf(migration(app, 'migrate', {
      name: 'db-migrate', activeDeadline: Duration.minutes(30), backoffLimit: 2, failedRunRetention: Duration.days(7),
    }));
    // THEN they show in the Job and its file name
    expect(job.metadata.generateName).toBe('db-migrate-');
    expect(job.spec.activeDeadlineSeconds).toBe(1800);
    expect(job.spec.backoffLimit).toBe(2);
    expect(job.spec.ttlSecondsAfterFinished).toBe(604800);
    expect(kubeErrors(job)).toEqual([]);
    expect(gitops.renderFiles().map((f) => f.path)).toContain('workloads/checkout/Job.db-migrate.k8s.yaml');
  });

  test('accepts the edges of every bound', () => {
    const { app } = newApp();
    const low = jobOf(migration(app, 'low', { activeDeadline: Duration.minutes(1), backoffLimit: 0, failedRunRetention: Duration.hours(1) }));
    const high = jobOf(migration(app, 'high', { activeDeadline: Duration.hours(6), backoffLimit: 5, failedRunRetention: Duration.days(30) }));
    expect([low.spec.activeDeadlineSeconds, low.spec.backoffLimit, low.spec.ttlSecondsAfterFinished]).toEqual([60, 0, 3600]);
    expect([high.spec.activeDeadlineSeconds, high.spec.backoffLimit, high.spec.ttlSecondsAfterFinished]).toEqual([21600, 5, 2592000]);
  });

  test('the default prefix is made a DNS-1123 label from the construct id', () => {
    const { app } = newApp();
    expect(jobOf(migration(app, 'Migrate_DB')).metadata.generateName).toBe('checkout-migrate-db-');
  });
});

describe('MigrationHook refusals', () => {
  test.each([
    ['activeDeadline is 30 s', { activeDeadline: Duration.seconds(30) }, 'activeDeadline is "30s"'],
    ['activeDeadline is 7 h', { activeDeadline: Duration.hours(7) }, 'activeDeadline is "25200s"'],
    ['activeDeadline is 90.5 s', { activeDeadline: Duration.millis(90500) }, 'activeDeadline is "90.5s"'],
    ['backoffLimit is 6', { backoffLimit: 6 }, 'backoffLimit is 6;'],
    ['backoffLimit is -1', { backoffLimit: -1 }, 'backoffLimit is -1;'],
    ['backoffLimit is 1.5', { backoffLimit: 1.5 }, 'backoffLimit is 1.5;'],
    ['failedRunRetention is 10 min', { failedRunRetention: Duration.minutes(10) }, 'failedRunRetention is "600s"'],
    ['failedRunRetention is 31 days', { failedRunRetention: Duration.days(31) }, 'failedRunRetention is "2678400s"'],
  ])('fails when %s', (_label, props, message) => {
    // GIVEN an app WHEN a hook with one bound out of range is added THEN it is refused, naming the prop
    const { app } = newApp();
    expect(() => migration(app, 'm', props)).toThrow(/^\[SAFE-020\] checkout\/m: /);
    expect(() => migration(app, 'm2', props)).toThrow(message);
  });

  test.each([
    ['has capitals and an underscore', 'Bad_Name'],
    ['is longer than 52 characters', 'a'.repeat(53)],
    ['is empty', ''],
    ['ends with a dash', 'migrate-'],
    ['has a dot', 'db.migrate'],
  ])('fails when the name %s', (_label, name) => {
    const { app } = newApp();
    expect(() => migration(app, 'm', { name })).toThrow(/^\[SAFE-001\] checkout\/m: name /);
  });

  test('fails when defined outside a SafeApplication', () => {
    const chart = new Chart(Testing.app(), 'plain', { namespace: 'payments' });
    expect(() => migration(chart, 'migrate')).toThrow(/^\[SAFE-010\] plain\/migrate: scope /);
  });

  test('fails at synth when an escape hatch removes the deadline (SA104)', () => {
    const { app, gitops } = newApp();
    ApiObject.of(migration(app, 'migrate')).addJsonPatch(JsonPatch.remove('/spec/activeDeadlineSeconds'));
    expect(() => gitops.renderFiles()).toThrow(/SA104 /);
  });
});

describe('MigrationHook ordering', () => {
  test('`after` puts the next migrations in PreSync waves 1 and 2', () => {
    // GIVEN an app WHEN three migrations are chained with `after`
    const { app, gitops } = newApp();
    const schema = migration(app, 'schema');
    const data = migration(app, 'data', { after: schema });
    const index = migration(app, 'index', { after: data });
    // THEN the first has no wave, the others run one wave after another
    expect(WAVE in jobOf(schema).metadata.annotations).toBe(false);
    expect(jobOf(data).metadata.annotations[WAVE]).toBe('1');
    expect(jobOf(index).metadata.annotations[WAVE]).toBe('2');
    expect([schema.wave, data.wave, index.wave]).toEqual([0, 1, 2]);
    expect(index.after).toBe(data);
    expect(jobOf(index).metadata.annotations[HOOK]).toBe('PreSync');
    // AND the waves of hooks neither trip SA103 nor drop ApplyOutOfSyncOnly
    expect(() => gitops.renderFiles()).not.toThrow();
    expect(app.syncOptions).toContain('ApplyOutOfSyncOnly=true');
  });

  test('fails when `after` is a migration of another app', () => {
    // GIVEN two apps, one with a migration
    const { app, gitops } = newApp();
    const other = new SafeApplication(gitops, 'billing', appProps({ name: 'billing' }));
    const billingSchema = migration(other, 'schema');
    // WHEN a migration of the first app is ordered after it THEN it is refused
    expect(() => migration(app, 'data', { after: billingSchema })).toThrow(/^\[SAFE-021\] checkout\/data: after is "billing\/schema"/);
  });

  test('fails when `after` is not a MigrationHook', () => {
    const { app, config } = newApp();
    expect(() => migration(app, 'data', { after: config as unknown as MigrationHook })).toThrow(/^\[SAFE-021\] checkout\/data: after /);
  });

  test('fails at synth when two migrations of one app have no `after`', () => {
    // GIVEN two unordered migrations in one app
    const { app, gitops } = newApp();
    migration(app, 'schema');
    migration(app, 'data');
    // WHEN synthesized THEN it is refused, naming both
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-021\] 2 migrations of app checkout have no `after` \(checkout\/schema, checkout\/data\)/);
  });

  test('migrations of different apps need no ordering between them', () => {
    const { app, gitops } = newApp();
    const other = new SafeApplication(gitops, 'billing', appProps({ name: 'billing' }));
    migration(app, 'schema');
    migration(other, 'schema');
    expect(() => gitops.renderFiles()).not.toThrow();
  });

  // Real bug: both get wave 1, so Argo CD runs them at the same time, which validateOrder refuses for wave 0.
  test('fails at synth when two migrations are ordered after the same one', () => {
    // GIVEN a first migration and two that both name it in `after`
    const { app, gitops } = newApp();
    const schema = migration(app, 'schema');
    migration(app, 'data', { after: schema });
    migration(app, 'index', { after: schema });
    // WHEN synthesized THEN it is refused: the two would share wave 1 and run concurrently
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-021\]/);
  });
});

describe('MigrationHook names as Argo CD builds them', () => {
  // Real bug: Argo CD names a generateName hook "<generateName><rev7>-presync-<unix seconds>", 27 characters
  // after the prefix, and a Job name (its job-name label) is at most 63 characters.
  test('fails when the name prefix leaves no room for the name Argo CD gives the Job', () => {
    const { app } = newApp();
    const name = 'a'.repeat(52);
    expect(() => migration(app, 'm', { name })).toThrow(/^\[SAFE-001\] checkout\/m: name /);
  });

  test('every accepted prefix yields a Job name of at most 63 characters', () => {
    // GIVEN an app with the longest allowed Application name
    const { app } = newApp({ name: 'a'.repeat(63) });
    // WHEN a hook takes the default prefix
    const hook = migration(app, 'migrate');
    // THEN the name Argo CD builds from it fits a Job
    const jobName = `${jobOf(hook).metadata.generateName}${ARGO_HOOK_NAME_POSTFIX}`;
    expect(jobName.length).toBeLessThanOrEqual(63);
  });

  // Real bug: Argo CD gives both the same Job name in the same sync, and keys hook results by that name.
  test('fails when two migrations of one app would share a generateName', () => {
    // GIVEN two ordered migrations whose prefixes collide (ids that normalize to the same label)
    const { app, gitops } = newApp();
    const first = migration(app, 'db_migrate');
    const second = migration(app, 'db-migrate', { after: first });
    expect(jobOf(first).metadata.generateName).toBe(jobOf(second).metadata.generateName);
    // WHEN synthesized THEN it is refused as a duplicate
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-011\]/);
  });
});

describe('MigrationHook failure notice: a failed migration stops the sync, and someone must know', () => {
  const SUBSCRIBE = 'notifications.argoproj.io/subscribe.';
  const subscriptionsOf = (app: SafeApplication) => Object.fromEntries(Object.entries(applicationOf(app).metadata.annotations ?? {})
    .filter(([k]) => k.startsWith(SUBSCRIBE)).map(([k, v]) => [k.slice(SUBSCRIBE.length), v]));
  const project = (gitops: GitOpsApp, notifications: NotificationSubscription[]) => new SafeProject(gitops, 'payments-project', {
    name: 'payments', sourceRepos: [appProps().repoUrl], destinations: [{ namespace: 'payments' }], notifications,
  });

  test('by default subscribes everyone the app and its SafeProject notify to on-sync-failed, through the same services', () => {
    // GIVEN an app that tells #checkout about deploys, in a project that pages its on-call when an app is Degraded
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const payments = project(gitops, [{ trigger: NotificationTrigger.ON_HEALTH_DEGRADED, service: 'pagerdutyv2', recipients: ['payments-oncall'] }]);
    const { app } = newApp({ project: payments, notifications: [{ trigger: NotificationTrigger.ON_DEPLOYED, service: 'slack', recipients: ['#checkout'] }] }, {});
    // WHEN a migration is added without onFailure
    migration(app, 'migrate', { onFailure: undefined });
    // THEN both hear of a failed sync, and the subscriptions given are unchanged
    expect(subscriptionsOf(app)).toEqual({
      'on-deployed.slack': '#checkout',
      'on-sync-failed.slack': '#checkout',
      'on-sync-failed.pagerdutyv2': 'payments-oncall',
    });
    expect(() => Testing.synth(app)).not.toThrow();
  });

  test('does not repeat a recipient already told of failed syncs, and follows notifications added after the hook', () => {
    const { app } = newApp({ notifications: [{ trigger: NotificationTrigger.ON_SYNC_FAILED, service: 'slack', recipients: ['#a'] }] });
    migration(app, 'migrate', { onFailure: undefined });
    expect(subscriptionsOf(app)).toEqual({ 'on-sync-failed.slack': '#a' });
    // WHEN someone else is subscribed to another trigger later
    app.addNotification({ trigger: NotificationTrigger.ON_HEALTH_DEGRADED, service: 'slack', recipients: ['#b', '#a'] });
    // THEN they hear of failed syncs too, each recipient once
    expect(subscriptionsOf(app)).toEqual({ 'on-sync-failed.slack': '#a;#b', 'on-health-degraded.slack': '#b;#a' });
  });

  test('compares recipients as Argo CD reads them, without the spaces around them', () => {
    const { app } = newApp({
      notifications: [
        { trigger: NotificationTrigger.ON_SYNC_FAILED, service: 'slack', recipients: [' #a'] },
        { trigger: NotificationTrigger.ON_DEPLOYED, service: 'slack', recipients: ['#a ', ' #b '] },
      ],
    });
    const first = migration(app, 'migrate', { onFailure: undefined });
    migration(app, 'seed', { onFailure: FailureNotice.to('slack', ['#b', '#c ']), after: first });
    expect(subscriptionsOf(app)).toEqual({ 'on-sync-failed.slack': '#a;#b;#c', 'on-deployed.slack': '#a;#b' });
  });

  test('fails synth, naming the hook, the prop and the fix, when the app and its project notify nobody', () => {
    const { app } = newApp();
    migration(app, 'migrate', { onFailure: undefined });
    expect(() => Testing.synth(app)).toThrow(/\[SAFE-043\] checkout\/migrate: onFailure is FailureNotice.onCall\(\), but app checkout and its project payments notify nobody.*Fix: .*FailureNotice.to\(service, recipients\)/s);
  });

  test('is satisfied by a project, named by string and defined in the same app, that subscribes someone to on-sync-failed', () => {
    const { gitops, app } = newApp();
    project(gitops, [{ trigger: NotificationTrigger.ON_SYNC_FAILED, service: 'opsgenie', recipients: ['payments'] }]);
    migration(app, 'migrate', { onFailure: undefined });
    expect(() => Testing.synth(app)).not.toThrow();
    // The project's subscription reaches the app; nothing is copied onto the Application.
    expect(subscriptionsOf(app)).toEqual({});
  });

  test('FailureNotice.to subscribes the recipients named; a bad one is refused at the hook\'s onFailure prop', () => {
    const { app } = newApp();
    migration(app, 'migrate', { onFailure: FailureNotice.to('pagerdutyv2', ['payments-oncall', 'dba-oncall']) });
    expect(subscriptionsOf(app)).toEqual({ 'on-sync-failed.pagerdutyv2': 'payments-oncall;dba-oncall' });
    expect(() => Testing.synth(app)).not.toThrow();
    expect(() => migration(app, 'other', { onFailure: FailureNotice.to('Slack!', ['x']) })).toThrow(/^\[SAFE-035\] checkout\/other: onFailure.service /);
    expect(() => migration(app, 'third', { onFailure: FailureNotice.to('slack', []) })).toThrow(/^\[SAFE-035\] checkout\/third: onFailure.recipients /);
    expect(() => migration(app, 'fourth', { onFailure: {} as FailureNotice })).toThrow(/^\[SAFE-035\] checkout\/fourth: onFailure /);
  });

  test('FailureNotice.subscribedElsewhere writes no subscription and records where failures are reported on the Job', () => {
    const { app } = newApp();
    const reason = 'argocd-notifications-cm subscribes #platform-alerts to on-sync-failed';
    const hook = migration(app, 'migrate', { onFailure: FailureNotice.subscribedElsewhere(reason) });
    expect(subscriptionsOf(app)).toEqual({});
    expect(jobOf(hook).metadata.annotations['safe-argocd/failure-notice']).toBe(reason);
    expect(() => Testing.synth(app)).not.toThrow();
    expect(() => FailureNotice.subscribedElsewhere(' short ')).toThrow(/^\[SAFE-043\] FailureNotice.subscribedElsewhere: reason /);
  });
});
