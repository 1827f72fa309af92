import { ApiObject, Duration, JsonPatch, Testing } from 'cdk8s';
import {
  ArgoCdVersion, DeletionPolicy, DestinationCluster, ExternalSource, GitOpsApp, IgnoreRule, IgnoreTarget, JqPath,
  SafeApplication,
} from '../../src';
import { addConfigMap, applicationOf, appProps, newApp } from '../support/app';
import { crdErrors } from '../support/crd';

describe('SafeApplication defaults', () => {
  // GIVEN an app with only the required props
  let app: SafeApplication;
  let application: any;
  beforeAll(() => {
    ({ app } = newApp());
    // WHEN it is rendered (in beforeAll, so that a render that throws fails the tests)
    application = applicationOf(app);
  });

  test('renders an argoproj.io/v1alpha1 Application with the explicit name in argocd', () => {
    expect(application.apiVersion).toBe('argoproj.io/v1alpha1');
    expect(application.kind).toBe('Application');
    expect(application.metadata).toEqual({ name: 'checkout', namespace: 'argocd' });
  });

  test('auto-syncs with prune and selfHeal, never allowEmpty, and says enabled on 3.1+', () => {
    expect(application.spec.syncPolicy.automated).toEqual({ enabled: true, prune: true, selfHeal: true, allowEmpty: false });
  });

  test('carries CreateNamespace, PruneLast and ApplyOutOfSyncOnly, and no RespectIgnoreDifferences without rules', () => {
    expect(application.spec.syncPolicy.syncOptions).toEqual(['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true']);
    expect(application.spec.ignoreDifferences).toBeUndefined();
  });

  test('retries 5 times with exponential backoff from 5s, factor 2, up to 3m', () => {
    expect(application.spec.syncPolicy.retry).toEqual({ limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } });
  });

  test('has no resources finalizer, so deleting the Application orphans the workloads', () => {
    expect(application.metadata.finalizers).toBeUndefined();
    expect(app.deletionPolicy).toBe(DeletionPolicy.ORPHAN);
  });

  test('deploys to the in-cluster server, in the destination namespace, from main', () => {
    expect(application.spec.destination).toEqual({ server: 'https://kubernetes.default.svc', namespace: 'payments' });
    expect(application.spec.source).toEqual({
      repoURL: 'https://git.acme.internal/platform/gitops.git',
      targetRevision: 'main',
      path: 'dist/workloads/checkout',
    });
    expect(application.spec.project).toBe('payments');
  });

  test('gives its workloads the destination namespace', () => {
    const { config } = newApp();
    expect(config.toJson().metadata.namespace).toBe('payments');
  });

  test('validates against the tightened v3.5.1 Application CRD', () => {
    expect(crdErrors('application', '3.5', application)).toEqual([]);
  });

  test('exposes its resolved values', () => {
    expect(app.applicationName).toBe('checkout');
    expect(app.projectName).toBe('payments');
    expect(app.argoCdVersion).toBe(ArgoCdVersion.LATEST);
    expect(app.sourcePath).toBe('dist/workloads/checkout');
    expect(ApiObject.of(app)).toBe(app.resource);
  });
});

describe('SafeApplication per Argo CD version', () => {
  // Every known release; `enabled` exists from 3.1 (compared as release numbers, not read from the feature table).
  test.each(ArgoCdVersion.all().map((v) => [v, v.version, v.isAtLeast(3, 1)] as const))('for %s emits automated.enabled only where the release has it, and validates against its CRD', (version, release, hasEnabled) => {
    // GIVEN an app targeting one release
    const { app, gitops } = newApp({ argoCdVersion: version, ignoreRules: [] });
    // WHEN it is rendered
    const application = applicationOf(app);
    // THEN enabled appears only from 3.1, and the matching CRD accepts the object
    expect('enabled' in application.spec.syncPolicy.automated).toBe(hasEnabled);
    expect(crdErrors('application', release, application)).toEqual([]);
    expect(() => gitops.renderFiles()).not.toThrow();
  });
});

describe('SafeApplication ignore rules', () => {
  test('an ignore rule lands scoped on the Application, with RespectIgnoreDifferences and its reason', () => {
    // GIVEN an app and a rule for its ConfigMap
    const { app, config } = newApp();
    // WHEN the rule is added after construction
    app.addIgnoreRule(IgnoreRule.jsonPointer(IgnoreTarget.fromApiObject(config), '/data/key', 'written by the config operator'));
    const application = applicationOf(app);
    // THEN the Application ignores exactly that field of exactly that object, and respects it on sync
    expect(application.spec.ignoreDifferences).toEqual([{ kind: 'ConfigMap', name: 'settings', namespace: 'payments', jsonPointers: ['/data/key'] }]);
    expect(application.spec.syncPolicy.syncOptions).toContain('RespectIgnoreDifferences=true');
    expect(application.metadata.annotations['safe-argocd/ignore-reasons']).toBe('ConfigMap payments/settings /data/key: written by the config operator');
    expect(crdErrors('application', '3.5', application)).toEqual([]);
  });

  test('rules for the same resource merge into one entry, and a repeated field is listed once', () => {
    // GIVEN two rules on one field and one on another, from two different owners
    const { app, config } = newApp();
    const target = IgnoreTarget.fromApiObject(config);
    app.addIgnoreRule(IgnoreRule.jsonPointer(target, '/data/key', 'owner one'));
    app.addIgnoreRule(IgnoreRule.jsonPointer(target, '/data/key', 'owner two'));
    app.addIgnoreRule(IgnoreRule.jq(target, JqPath.field(['metadata', 'labels']), 'labels set by a controller'));
    // WHEN rendered
    const application = applicationOf(app);
    // THEN one entry, each field once, both reasons kept
    expect(application.spec.ignoreDifferences).toEqual([{
      kind: 'ConfigMap', name: 'settings', namespace: 'payments', jsonPointers: ['/data/key'], jqPathExpressions: ['.metadata.labels'],
    }]);
    expect(application.metadata.annotations['safe-argocd/ignore-reasons']).toContain('/data/key: owner one; owner two');
  });

  test('rules given as props render like added ones', () => {
    const target = IgnoreTarget.resource({ group: 'apps', kind: 'Deployment', name: 'web', namespace: 'payments' });
    const { app } = newApp({ ignoreRules: [IgnoreRule.managedFieldsManager(target, 'kube-controller-manager', 'scaled by HPA web')] });
    expect(applicationOf(app).spec.ignoreDifferences).toEqual([{
      group: 'apps', kind: 'Deployment', name: 'web', namespace: 'payments', managedFieldsManagers: ['kube-controller-manager'],
    }]);
  });

  test('a raw jq expression that compiles passes synth', () => {
    const { app, config, gitops } = newApp();
    app.addIgnoreRule(IgnoreRule.rawJq(IgnoreTarget.fromApiObject(config), '.data | with_entries(select(.key | startswith("x")))', 'x-keys are generated'));
    // with_entries(...) is not a path expression, so jq fails it at run time, not at compile time; the compile check passes it.
    expect(() => gitops.renderFiles()).not.toThrow();
  });

  test('fails when a raw jq expression does not compile', () => {
    const { app, config, gitops } = newApp();
    app.addIgnoreRule(IgnoreRule.rawJq(IgnoreTarget.fromApiObject(config), '.data[', 'broken on purpose'));
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-009\][^\n]*"\.data\["/);
  });

  test('fails when a raw jq expression would escape del(...)', () => {
    const { app, config, gitops } = newApp();
    app.addIgnoreRule(IgnoreRule.rawJq(IgnoreTarget.fromApiObject(config), '.data) | (.metadata', 'injection attempt'));
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-009\].*escape the del/);
  });

  test('fails when something other than an IgnoreRule is added', () => {
    const { app } = newApp();
    expect(() => app.addIgnoreRule({ kind: 'x' } as any)).toThrow(/\[SAFE-008\].*rule/);
  });
});

describe('SafeApplication options', () => {
  test('cascade deletion is an explicit choice that adds the resources finalizer', () => {
    expect(applicationOf(newApp({ deletionPolicy: DeletionPolicy.CASCADE_FOREGROUND }).app).metadata.finalizers)
      .toEqual(['resources-finalizer.argocd.argoproj.io']);
    expect(applicationOf(newApp({ deletionPolicy: DeletionPolicy.CASCADE_BACKGROUND }).app).metadata.finalizers)
      .toEqual(['resources-finalizer.argocd.argoproj.io/background']);
  });

  test('retry bounds can be tuned', () => {
    const retry = { limit: 3, backoffDuration: Duration.seconds(10), backoffFactor: 3, backoffMaxDuration: Duration.seconds(90) };
    const { app } = newApp({ retry });
    expect(applicationOf(app).spec.syncPolicy.retry).toEqual({ limit: 3, backoff: { duration: '10s', factor: 3, maxDuration: '1m30s' } });
  });

  test.each([
    ['limit 0', { limit: 0 }, /retry\.limit is 0/],
    ['limit -1 (unlimited)', { limit: -1 }, /retry\.limit is -1/],
    ['limit 11', { limit: 11 }, /retry\.limit is 11/],
    ['a sub-second backoff', { backoffDuration: Duration.millis(500) }, /retry\.backoffDuration is "0\.5s"/],
    ['factor 0', { backoffFactor: 0 }, /retry\.backoffFactor is 0/],
    ['factor 1.5', { backoffFactor: 1.5 }, /retry\.backoffFactor is 1\.5/],
    ['max shorter than the first wait', { backoffDuration: Duration.minutes(2), backoffMaxDuration: Duration.minutes(1) }, /retry\.backoffMaxDuration is "60s"/],
    ['max over an hour', { backoffMaxDuration: Duration.hours(2) }, /retry\.backoffMaxDuration is "7200s"/],
  ])('fails when retry has %s', (_label, retry, message) => {
    expect(() => newApp({ retry })).toThrow(/\[SAFE-006\] checkout: /);
    expect(() => newApp({ retry })).toThrow(message);
  });

  test('a named or remote destination cluster renders as Argo CD expects', () => {
    expect(applicationOf(newApp({ destinationCluster: DestinationCluster.fromName('prod-eu') }).app).spec.destination)
      .toEqual({ name: 'prod-eu', namespace: 'payments' });
    expect(applicationOf(newApp({ destinationCluster: DestinationCluster.fromServer('https://prod.acme.internal:6443') }).app).spec.destination)
      .toEqual({ server: 'https://prod.acme.internal:6443', namespace: 'payments' });
  });

  test('the Application can live in another namespace', () => {
    expect(applicationOf(newApp({ applicationNamespace: 'argocd-apps' }).app).metadata.namespace).toBe('argocd-apps');
  });
});

describe('SafeApplication external sources', () => {
  test('a Git path deploys that path and needs no GitOpsApp', () => {
    // GIVEN a plain cdk8s app (no GitOpsApp) and an external Git path
    const chartScope = Testing.app();
    const app = new SafeApplication(chartScope, 'legacy', appProps({
      name: 'legacy', externalSource: ExternalSource.gitPath('deploy/overlays/prod/'), targetRevision: 'v1.4.2',
    }));
    // WHEN rendered
    const application = applicationOf(app);
    // THEN source.path is that path, as written, without the trailing slash
    expect(application.spec.source).toEqual({ repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'v1.4.2', path: 'deploy/overlays/prod' });
    expect(crdErrors('application', '3.5', application)).toEqual([]);
    expect(Testing.synth(app)).toHaveLength(1);
  });

  test('a Helm chart deploys one exact chart version', () => {
    const app = new SafeApplication(Testing.app(), 'ingress', appProps({
      name: 'ingress', repoUrl: 'https://charts.acme.internal', externalSource: ExternalSource.helmChart('ingress-nginx'), targetRevision: '4.11.3',
    }));
    expect(applicationOf(app).spec.source).toEqual({ repoURL: 'https://charts.acme.internal', targetRevision: '4.11.3', chart: 'ingress-nginx' });
  });

  test.each([undefined, '*', '^4.11.0', '4.x', '>=4.0.0'])('fails when a Helm chart version is %p', (targetRevision) => {
    expect(() => new SafeApplication(Testing.app(), 'ingress', appProps({
      name: 'ingress', externalSource: ExternalSource.helmChart('ingress-nginx'), targetRevision,
    }))).toThrow(/\[SAFE-016\] ingress: targetRevision .*exact release/);
  });

  test('fails when an app with an external source also defines workloads', () => {
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const app = new SafeApplication(gitops, 'legacy', appProps({ name: 'legacy', externalSource: ExternalSource.gitPath('deploy') }));
    addConfigMap(app, 'stray');
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-013\].*legacy\/cm-stray/);
  });

  test('fails when an app renders no workloads and has no external source', () => {
    const gitops = new GitOpsApp({ outdir: 'dist' });
    new SafeApplication(gitops, 'empty', appProps({ name: 'empty' }));
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-014\]/);
  });
});

describe('SafeApplication refuses bad props at once', () => {
  test.each([
    ['name with capitals', { name: 'Checkout_App' }, /\[SAFE-001\] checkout: name is "Checkout_App".*Fix: use e\.g\. "checkout-app"/],
    ['name of 64 characters', { name: 'a'.repeat(64) }, /\[SAFE-001\] checkout: name/],
    ['empty name', { name: '' }, /\[SAFE-001\]/],
    ['project default', { project: { projectName: 'default' } }, /\[SAFE-002\] checkout: project is "default"/],
    ['no project', { project: { projectName: '' } }, /\[SAFE-002\]/],
    ['repo URL without scheme', { repoUrl: 'git.acme.internal/x.git' }, /\[SAFE-003\] checkout: repoUrl is "git\.acme\.internal\/x\.git"/],
    ['destination namespace with a dot', { destinationNamespace: 'pay.ments' }, /\[SAFE-004\] checkout: destinationNamespace is "pay\.ments"/],
    ['application namespace upper case', { applicationNamespace: 'ArgoCD' }, /\[SAFE-004\] checkout: applicationNamespace/],
    ['targetRevision HEAD', { targetRevision: 'HEAD' }, /\[SAFE-016\] checkout: targetRevision is "HEAD".*default branch/],
    ['empty targetRevision', { targetRevision: '' }, /\[SAFE-016\]/],
    ['targetRevision with a space', { targetRevision: 'release 1' }, /\[SAFE-016\].*whitespace/],
  ])('fails when given a %s', (_label, overrides, message) => {
    expect(() => newApp(overrides as any)).toThrow(message);
  });

  test('fails when rendered workloads have no GitOpsApp to write them', () => {
    expect(() => new SafeApplication(Testing.app(), 'checkout', appProps())).toThrow(/\[SAFE-010\] checkout: scope .*GitOpsApp/);
  });

  test('enclosing() finds the app of a nested construct and fails outside one', () => {
    const { app, config, gitops } = newApp();
    expect(SafeApplication.enclosing(config)).toBe(app);
    expect(() => SafeApplication.enclosing(gitops)).toThrow(/\[SAFE-010\]/);
  });
});

describe('SafeApplication rules at synth', () => {
  test('fails when an escape hatch turns selfHeal off, naming the construct path, rule, value and fix', () => {
    // GIVEN a valid app whose Application is patched through the escape hatch
    const { app, gitops } = newApp();
    ApiObject.of(app).addJsonPatch(JsonPatch.replace('/spec/syncPolicy/automated/selfHeal', false));
    // WHEN synthesized THEN SA001 is reported with everything needed to fix it
    expect(() => gitops.renderFiles()).toThrow(
      /\[SAFE-100\][\s\S]*SA001 half-enforced-sync-policy \[error\] on Application argocd\/checkout at checkout\/Resource \/spec\/syncPolicy\/automated\/selfHeal: .*\(value: false\)\. Fix: /,
    );
  });

  test('lists every violation at once', () => {
    const { app, gitops } = newApp();
    ApiObject.of(app).addJsonPatch(
      JsonPatch.replace('/spec/syncPolicy/automated/prune', false),
      JsonPatch.replace('/spec/project', 'default'),
      JsonPatch.add('/spec/ignoreDifferences', [{ group: '*', kind: 'Deployment', jsonPointers: ['/spec/replicas'] }]),
    );
    let message = '';
    try {
      gitops.renderFiles();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.match(/^ {2}- /gm)?.length).toBe(5);
    for (const id of ['SA001', 'SA002', 'SA003', 'SA005']) {
      expect(message).toContain(`${id} `);
    }
  });

  test('a raw Application ApiObject deployed by the app is checked as an Application', () => {
    // GIVEN an app-of-apps style raw child Application with a half policy
    const { app, gitops } = newApp();
    new ApiObject(app, 'child', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'child', namespace: 'argocd' },
      spec: { project: 'payments', source: { repoURL: 'https://x/y.git', path: 'p', targetRevision: 'main' }, destination: { namespace: 'n', server: 'https://kubernetes.default.svc' }, syncPolicy: { automated: { prune: true } } },
    });
    // WHEN synthesized THEN the child's missing selfHeal and retry are reported against the child's construct path
    expect(() => gitops.renderFiles()).toThrow(/SA001 [^\n]* on Application argocd\/child at checkout\/child \/spec\/syncPolicy\/automated\/selfHeal/);
  });

  test('a reasoned suppression lets a deliberate deviation through and is written on the object', () => {
    // GIVEN an app that deliberately drops retry, with a reasoned suppression
    const { app, gitops } = newApp();
    ApiObject.of(app).addJsonPatch(JsonPatch.remove('/spec/syncPolicy/retry'));
    expect(() => gitops.renderFiles()).toThrow(/SA006/);
    app.addSuppression({ ruleId: 'SA006', reason: 'retries are driven by the release pipeline' });
    // WHEN synthesized THEN it passes, and the annotation records the reason
    expect(() => gitops.renderFiles()).not.toThrow();
    expect(applicationOf(app).metadata.annotations['safe-argocd/suppress.SA006']).toBe('retries are driven by the release pipeline');
  });
});
