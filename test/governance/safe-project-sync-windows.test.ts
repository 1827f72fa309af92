import { Duration, JsonPatch } from 'cdk8s';
import { AppOfApps, ArgoCdVersion, ArgoProject, GitOpsApp, ProjectSyncWindow, SafeApplication, SafeProject, SafeProjectProps, SyncWindowKind } from '../../src';
import { addConfigMap, appProps } from '../support/app';
import { CRD_RELEASES, crdErrors } from '../support/crd';

const REPO = 'https://git.acme.internal/platform/gitops.git';

/** A deny window for Friday night, for tests to override. */
function freeze(overrides: Partial<ProjectSyncWindow> = {}): ProjectSyncWindow {
  return { kind: SyncWindowKind.DENY, schedule: '0 22 * * fri', duration: Duration.hours(58), applications: ['*'], ...overrides };
}

/** A SafeProject "payments" with the given windows in a fresh GitOpsApp, and its rendered AppProject. */
function newProject(syncWindows: ProjectSyncWindow[], overrides: Partial<SafeProjectProps> = {}) {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  const project = new SafeProject(gitops, 'project', {
    name: 'payments', sourceRepos: [REPO], destinations: [{ namespace: 'payments' }, { namespace: 'ledger' }], syncWindows, ...overrides,
  });
  return { gitops, project, manifest: project.resource.toJson() as any };
}

/** The runbook written for the app `name`. */
function runbookOf(gitops: GitOpsApp, name: string): string {
  const file = gitops.renderFiles().find((f) => f.path === `runbooks/${name}.md`);
  if (!file) {
    throw new Error(`no runbook for ${name}`);
  }
  return file.content;
}

/** A SafeApplication `name` of the project, deploying to `namespace`. */
function addApp(gitops: GitOpsApp, project: SafeProject, name: string, namespace = 'payments'): SafeApplication {
  const app = new SafeApplication(gitops, name, appProps({ name, project, repoUrl: REPO, destinationNamespace: namespace }));
  addConfigMap(app, `${name}-config`);
  return app;
}

describe('SafeProject sync windows', () => {
  test('renders each window with its time zone, its duration as Go writes it and manualSync: true by default', () => {
    // GIVEN
    const { manifest, project } = newProject([
      freeze({ timeZone: 'Europe/Berlin' }),
      { kind: SyncWindowKind.ALLOW, schedule: '*/30  9-17 * * mon-fri', duration: Duration.minutes(150), namespaces: ['payments'], clusters: ['prod-*'] },
    ]);
    // THEN
    expect(manifest.spec.syncWindows).toEqual([
      { kind: 'deny', schedule: '0 22 * * fri', duration: '58h', timeZone: 'Europe/Berlin', applications: ['*'], manualSync: true },
      { kind: 'allow', schedule: '*/30 9-17 * * mon-fri', duration: '2h30m', timeZone: 'UTC', namespaces: ['payments'], clusters: ['prod-*'], manualSync: true },
    ]);
    expect(project.syncWindows.map((w) => [w.timeZone, w.manualSync])).toEqual([['Europe/Berlin', true], ['UTC', true]]);
    expect(manifest.metadata.annotations).toBeUndefined();
  });

  test('renders no syncWindows field without windows', () => {
    // GIVEN
    const { manifest, project } = newProject([]);
    // THEN
    expect(manifest.spec).not.toHaveProperty('syncWindows');
    expect(project.syncWindows).toEqual([]);
  });

  test.each(Object.keys(CRD_RELEASES))('the AppProject with windows validates against the Argo CD %s CRD', (release) => {
    // GIVEN a window of each kind, one blocking manual syncs with a reason
    const { manifest } = newProject([
      freeze({ manualSync: false, manualSyncBlockedReason: 'The payment processor forbids any change during its weekend batch' }),
      { kind: SyncWindowKind.ALLOW, schedule: '0 8 * * 1-5', duration: Duration.hours(10), namespaces: ['ledger'], timeZone: 'America/New_York' },
    ]);
    // THEN
    expect(crdErrors('appproject', release, manifest)).toEqual([]);
  });

  test.each([
    ['0 22 * * fri'],
    ['*/15 9-17 * * MON-FRI'],
    ['0 0 1,15 * ?'],
    ['30 2 * jan-mar 0'],
    ['5-50/5 0 * * 6'],
    ['0 3/2 * * *'],
  ])('accepts the schedule %j, which Argo CD parses', (schedule) => {
    // WHEN
    const { manifest } = newProject([freeze({ schedule })]);
    // THEN
    expect(manifest.spec.syncWindows[0].schedule).toBe(schedule);
  });

  test.each([
    ['0 0 22 * * fri', 'has 6 fields where Argo CD reads exactly 5'],
    ['0 22 * *', 'has 4 fields'],
    ['@daily', 'is a descriptor'],
    ['CRON_TZ=Europe/Berlin 0 22 * * fri', 'carries its own time zone'],
    ['0 22 * * 7', 'has "7" as its day of week, which is not a number from 0 to 6 or a name (sun-sat)'],
    ['60 22 * * fri', 'has "60" as its minute, which is not a number from 0 to 59'],
    ['0 22 0 * *', 'has "0" as its day of month'],
    ['0 22 * * fri-mon', 'starts after it ends'],
    ['*/0 22 * * *', 'has a step of 0'],
    ['0 22 * * friday', 'has "friday" as its day of week'],
    ['0 22 * 1,,2 *', 'has "" as its month'],
    ['0 22 * jan *', undefined],
  ])('fails when the schedule is %j', (schedule, problem) => {
    // WHEN
    const create = () => newProject([freeze({ schedule })]);
    // THEN
    if (problem === undefined) {
      expect(create).not.toThrow();
    } else {
      expect(create).toThrow(/^\[SAFE-036\] project: syncWindows\[0\]\.schedule is .* must be five cron fields as Argo CD parses them/);
      expect(create).toThrow(problem);
    }
  });

  test('fails when the duration is not a whole number of minutes, or zero', () => {
    expect(() => newProject([freeze({ duration: Duration.seconds(90) })])).toThrow(/\[SAFE-036\] project: syncWindows\[0\]\.duration is "90s"; it must be a Duration of at least one whole minute/);
    expect(() => newProject([freeze({ duration: Duration.seconds(0) })])).toThrow(/\[SAFE-036\].*duration is "0s"/);
    expect(() => newProject([freeze({ duration: '1h' as unknown as Duration })])).toThrow(/\[SAFE-036\].*duration is "1h"/);
  });

  test.each([
    ['Mars/Olympus_Mons', 'is not an IANA time zone name'],
    ['europe/berlin', 'is spelled "Europe/Berlin" in the time zone database'],
    ['Local', 'is the Argo CD controller\'s own time zone'],
    ['Europe/Berlin; rm', 'is not an IANA time zone name'],
  ])('fails when the time zone is %j', (timeZone, problem) => {
    const create = () => newProject([freeze({ timeZone })]);
    expect(create).toThrow(/^\[SAFE-036\] project: syncWindows\[0\]\.timeZone/);
    expect(create).toThrow(problem);
  });

  test.each(['America/New_York', 'UTC', 'Etc/GMT+5', 'Asia/Kolkata'])('accepts the time zone %j', (timeZone) => {
    expect(newProject([freeze({ timeZone })]).manifest.spec.syncWindows[0].timeZone).toBe(timeZone);
  });

  test('fails when a window names no application, namespace or cluster, which Argo CD applies to nothing', () => {
    expect(() => newProject([freeze({ applications: [] })]))
      .toThrow(/\[SAFE-036\] project: syncWindows\[0\]\.applications is \[\]; it or namespaces or clusters must list at least one pattern.*Fix: use applications: \["\*"\]/);
  });

  test('fails when a pattern does not compile as a glob or has spaces', () => {
    expect(() => newProject([freeze({ namespaces: ['pay[ments'] })])).toThrow(/\[SAFE-036\] project: syncWindows\[0\]\.namespaces is "pay\[ments"/);
    expect(() => newProject([freeze({ clusters: ['prod eu'] })])).toThrow(/\[SAFE-036\] project: syncWindows\[0\]\.clusters is "prod eu"/);
  });

  test('renders andOperator only when set, and the AppProject with it validates against the CRD of every release from 3.0', () => {
    // GIVEN
    const { manifest } = newProject([freeze({ namespaces: ['ledger'], andOperator: true }), freeze({ schedule: '0 6 * * *' })]);
    // THEN
    expect(manifest.spec.syncWindows.map((w: any) => w.andOperator)).toEqual([true, undefined]);
    for (const release of Object.keys(CRD_RELEASES).filter((r) => r !== '2.14')) {
      expect([release, crdErrors('appproject', release, manifest)]).toEqual([release, []]);
    }
    // and 2.14's CRD has no such field: the refusal below is what keeps 2.14 output valid
    expect(crdErrors('appproject', '2.14', manifest).join('\n')).toContain('(andOperator)');
  });

  test('fails when andOperator is set for Argo CD 2.14, naming the release that reads it', () => {
    expect(() => newProject([freeze({ andOperator: true })], { argoCdVersion: ArgoCdVersion.V2_14 })).toThrow(
      '[SAFE-036] project: syncWindows[0].andOperator is true; it is read from Argo CD 3.0; 2.14 ignores it and applies the window to every '
      + 'Application that matches any one list. Fix: upgrade Argo CD to 3.0 or newer and set argoCdVersion, or leave andOperator out and narrow the lists');
    expect(newProject([freeze({ andOperator: false })], { argoCdVersion: ArgoCdVersion.V2_14 }).manifest.spec.syncWindows[0]).not.toHaveProperty('andOperator');
    expect(newProject([freeze({ andOperator: true })], { argoCdVersion: ArgoCdVersion.V3_0 }).project.argoCdVersion).toBe(ArgoCdVersion.V3_0);
  });

  test('fails when the kind is neither allow nor deny', () => {
    expect(() => newProject([freeze({ kind: 'block' as SyncWindowKind })])).toThrow(/\[SAFE-036\] project: syncWindows\[0\]\.kind is "block"/);
  });

  test('fails when the same window is given twice, even with another manualSync', () => {
    const reason = 'The payment processor forbids any change during its weekend batch';
    expect(() => newProject([freeze(), freeze({ manualSync: false, manualSyncBlockedReason: reason })]))
      .toThrow(/\[SAFE-011\] project: syncWindows\[1\]\.schedule is "0 22 \* \* fri"; it must not repeat window 0/);
  });
});

describe('SafeProject sync windows and manual syncs (break-glass)', () => {
  test('fails when a deny window blocks manual syncs without a reason, saying what that does to a break-glass fix', () => {
    expect(() => newProject([freeze({ manualSync: false })])).toThrow(
      '[SAFE-036] project: syncWindows[0].manualSync is false; it must be true unless manualSyncBlockedReason says why in at least 10 characters: '
      + 'the deny window "0 22 * * fri" blocks manual syncs while it is active, so a break-glass fix cannot be synced until it ends. '
      + 'Fix: leave manualSync out (it defaults to true), or give manualSyncBlockedReason');
  });

  test('fails when an allow window blocks manual syncs without a reason, or the reason is too short', () => {
    const allow = freeze({ kind: SyncWindowKind.ALLOW, manualSync: false });
    expect(() => newProject([allow])).toThrow(/\[SAFE-036\].*the allow window "0 22 \* \* fri" blocks manual syncs outside it/);
    expect(() => newProject([{ ...allow, manualSyncBlockedReason: 'because' }])).toThrow(/\[SAFE-036\] project: syncWindows\[0\]\.manualSync is false/);
  });

  test('fails when a reason is given for a window that lets manual syncs through', () => {
    expect(() => newProject([freeze({ manualSyncBlockedReason: 'The payment processor forbids any change' })]))
      .toThrow(/\[SAFE-036\] project: syncWindows\[0\]\.manualSyncBlockedReason is "The payment processor forbids any change"; it is only read with manualSync: false/);
  });

  test('renders a blocking window with its reason recorded as the suppression of SA208, and synth passes', () => {
    // GIVEN
    const reason = 'The payment processor forbids any change during its weekend batch';
    const { gitops, manifest } = newProject([freeze(), freeze({ schedule: '0 1 1 * *', duration: Duration.hours(4), manualSync: false, manualSyncBlockedReason: reason })]);
    // THEN
    expect(manifest.spec.syncWindows.map((w: any) => w.manualSync)).toEqual([true, false]);
    expect(manifest.metadata.annotations).toEqual({ 'safe-argocd/suppress.SA208': `window 1 (deny 0 1 1 * *): ${reason}` });
    expect(() => gitops.renderFiles()).not.toThrow();
  });

  test('fails the synth when an escape hatch turns manualSync off without a reason', () => {
    // GIVEN
    const { gitops, project } = newProject([freeze()]);
    project.resource.addJsonPatch(JsonPatch.replace('/spec/syncWindows/0/manualSync', false));
    // THEN
    expect(() => gitops.renderFiles()).toThrow(/SA208 sync-window-blocks-manual-sync \[warning\] on AppProject argocd\/payments at project\/Resource \/spec\/syncWindows\/0\/manualSync/);
  });

  test('the runbook of an app the windows apply to lists them and says to sync the fix by hand', () => {
    // GIVEN a window for the app's namespace and one for another namespace
    const { gitops, project } = newProject([
      freeze({ applications: undefined, namespaces: ['payments'], timeZone: 'Europe/Berlin' }),
      freeze({ applications: undefined, namespaces: ['ledger'], schedule: '0 6 * * *' }),
    ]);
    addApp(gitops, project, 'checkout');
    // WHEN
    const runbook = runbookOf(gitops, 'checkout');
    // THEN
    expect(runbook).toContain('## Sync windows');
    expect(runbook).toContain('- 0: deny `0 22 * * fri` for 58h (Europe/Berlin), manual syncs allowed');
    expect(runbook).not.toContain('0 6 * * *');
    expect(runbook.split('\n')).toContain('argocd app sync checkout --app-namespace argocd');
    expect(runbook).not.toContain('enable-manual-sync');
  });

  test('the runbook of an app under a blocking window says so, with the reason and the command that lets the fix through', () => {
    // GIVEN
    const reason = 'The payment processor forbids any change during its weekend batch';
    const { gitops, project } = newProject([freeze({ applications: ['check*'], manualSync: false, manualSyncBlockedReason: reason })]);
    addApp(gitops, project, 'checkout');
    // WHEN
    const runbook = runbookOf(gitops, 'checkout');
    // THEN
    expect(runbook).toContain('- 0: deny `0 22 * * fri` for 58h (UTC), manual syncs **blocked**');
    expect(runbook).toContain('> Window 0: the deny window "0 22 * * fri" blocks manual syncs while it is active, so a break-glass fix cannot be synced until it ends.');
    expect(runbook).toContain(`> The project records why: window 0 (deny 0 22 * * fri): ${reason}`);
    expect(runbook).toContain('remove `manualSync: false` from the window');
    expect(runbook).toContain('sync the Application that deploys the AppProject');
    expect(runbook).toContain('`argocd proj windows enable-manual-sync payments 0`');
  });

  test('the runbook lists an andOperator window only for an app that matches each of its lists', () => {
    // GIVEN a window for Applications named check* that also deploy to ledger
    const { gitops, project } = newProject([freeze({ applications: ['check*'], namespaces: ['ledger'], andOperator: true })]);
    addApp(gitops, project, 'checkout', 'payments');
    addApp(gitops, project, 'checkout-ledger', 'ledger');
    addApp(gitops, project, 'reports', 'ledger');
    // THEN only the app matching both lists has the section
    expect(runbookOf(gitops, 'checkout-ledger')).toContain('## Sync windows');
    expect(runbookOf(gitops, 'checkout')).not.toContain('## Sync windows');
    expect(runbookOf(gitops, 'reports')).not.toContain('## Sync windows');
  });

  test('the runbook names the app-of-apps root that deploys the AppProject as the one to sync', () => {
    // GIVEN a blocking window and a root for the project
    const reason = 'The payment processor forbids any change during its weekend batch';
    const { gitops, project } = newProject([freeze({ manualSync: false, manualSyncBlockedReason: reason })]);
    new AppOfApps(gitops, 'root', { name: 'payments-root', project: ArgoProject.fromName('platform'), childProject: project, repoUrl: REPO });
    addApp(gitops, project, 'checkout');
    // THEN
    expect(runbookOf(gitops, 'checkout')).toContain('> SafeProject, synthesize, commit, and sync its app-of-apps root `payments-root`.');
  });

  test('the runbook of an app no window applies to has no sync window section', () => {
    // GIVEN
    const { gitops, project } = newProject([freeze({ applications: ['ledger-*'] })]);
    addApp(gitops, project, 'checkout');
    // THEN
    expect(runbookOf(gitops, 'checkout')).not.toContain('Sync windows');
  });
});
