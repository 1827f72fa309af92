import { ApiObject, Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import {
  AppOfApps, ArgoProject, DestinationCluster, ExternalSource, GitOpsApp, IgnoreRule, IgnoreTarget, JqPath, KnownFieldOwner,
  SafeApplication, SafeProject,
} from '../../src';
import { addConfigMap, applicationOf, appProps, newApp } from '../support/app';

const REPO = 'https://git.acme.internal/platform/gitops.git';
const OTHER_REPO = 'https://git.acme.internal/platform/other.git';

/** A SafeProject "payments" with the given repositories and destinations, in `gitops`. */
function paymentsProject(gitops: GitOpsApp, sourceRepos: string[], destinations: { namespace: string; cluster?: DestinationCluster }[]): SafeProject {
  return new SafeProject(gitops, 'project', { name: 'payments', sourceRepos, destinations });
}

/** An app of `project` named `name`, with one ConfigMap. */
function projectApp(gitops: GitOpsApp, project: SafeProject, name: string, destinationCluster?: DestinationCluster): SafeApplication {
  const app = new SafeApplication(gitops, name, appProps({ name, project, destinationCluster }));
  addConfigMap(app, 'settings');
  return app;
}

function destinationRefused(namespace: string, cluster: string): string {
  return `[SAFE-031] project payments does not allow the destination namespace "${namespace}" on ${cluster}; Argo CD would refuse to sync. `
    + 'Fix: add the destination to the SafeProject, or deploy to one of its destinations.';
}

const REPO_REFUSED = `[SAFE-031] project payments does not allow the repository "${REPO}"; Argo CD would refuse to sync. `
  + 'Fix: add it to the SafeProject\'s sourceRepos.';

describe('SafeApplication checked against its SafeProject', () => {
  test('passes when the project allows its repository and destination', () => {
    // GIVEN a project that lists the app's repository and namespace on the in-cluster server
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = paymentsProject(gitops, [REPO], [{ namespace: 'payments' }]);
    const app = projectApp(gitops, project, 'checkout');
    // WHEN validated THEN there is nothing to report
    expect(app.node.validate()).toEqual([]);
  });

  test('fails when the project does not list the destination namespace on the in-cluster server, naming its server', () => {
    // GIVEN a project for another namespace, and for "payments" only on a named cluster
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = paymentsProject(gitops, [REPO], [{ namespace: 'ledger' }, { namespace: 'payments', cluster: DestinationCluster.fromName('prod') }]);
    const app = projectApp(gitops, project, 'checkout');
    // WHEN validated THEN the destination is refused, and only it
    expect(app.node.validate()).toEqual([destinationRefused('payments', 'https://kubernetes.default.svc')]);
  });

  test('fails when the project does not list the named destination cluster, naming the cluster', () => {
    // GIVEN a project that allows "payments" on the named cluster "prod" only
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = paymentsProject(gitops, [REPO], [{ namespace: 'payments', cluster: DestinationCluster.fromName('prod') }]);
    const prod = projectApp(gitops, project, 'checkout', DestinationCluster.fromName('prod'));
    const staging = projectApp(gitops, project, 'refunds', DestinationCluster.fromName('staging'));
    // WHEN validated THEN the app on "prod" passes and the app on "staging" is refused by name
    expect(prod.node.validate()).toEqual([]);
    expect(staging.node.validate()).toEqual([destinationRefused('payments', 'staging')]);
  });

  test('fails when the project does not list the repository', () => {
    // GIVEN a project that allows the destination but reads another repository
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = paymentsProject(gitops, [OTHER_REPO], [{ namespace: 'payments' }]);
    const app = projectApp(gitops, project, 'checkout');
    // WHEN validated THEN the repository is refused, and only it
    expect(app.node.validate()).toEqual([REPO_REFUSED]);
  });

  test('fails at synth with both problems, destination first, under the app\'s path', () => {
    // GIVEN a project that allows neither the destination nor the repository
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = paymentsProject(gitops, [OTHER_REPO], [{ namespace: 'ledger' }]);
    projectApp(gitops, project, 'checkout');
    // WHEN rendered THEN both are listed and nothing is written
    expect(() => gitops.renderFiles()).toThrow('[SAFE-100] synth found 2 problem(s); nothing was written:\n'
      + `  - checkout: ${destinationRefused('payments', 'https://kubernetes.default.svc')}\n`
      + `  - checkout: ${REPO_REFUSED}`);
  });

  test('an app of a project known only by name, which this app does not define, is not checked against any destinations', () => {
    // GIVEN the default test app, whose project is ArgoProject.fromName('payments'), and no SafeProject of that name
    const { app } = newApp({ destinationCluster: DestinationCluster.fromName('anywhere') });
    // WHEN validated THEN nothing is reported
    expect(app.node.validate()).toEqual([]);
  });

  test('fails when a project named with ArgoProject.fromName is a SafeProject of this app that does not allow the app', () => {
    // GIVEN the SafeProject "payments", which allows another repository and namespace, and an app naming it by name
    const gitops = new GitOpsApp({ outdir: 'dist' });
    paymentsProject(gitops, [OTHER_REPO], [{ namespace: 'ledger' }]);
    const app = new SafeApplication(gitops, 'checkout', appProps({ project: ArgoProject.fromName('payments') }));
    addConfigMap(app, 'settings');
    // WHEN validated, and rendered THEN it is checked against that project as if it had been passed by type
    expect(app.node.validate()).toEqual([destinationRefused('payments', 'https://kubernetes.default.svc'), REPO_REFUSED]);
    expect(() => gitops.renderFiles()).toThrow(`  - checkout: ${destinationRefused('payments', 'https://kubernetes.default.svc')}\n`);
  });
});

describe('SafeApplication.addFieldOwner', () => {
  test('adds the owner\'s rules for the one resource, with the owner as the reason', () => {
    // GIVEN a Deployment in the app, scaled by an HPA
    const { app } = newApp();
    const web = new ApiObject(app, 'web', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } });
    // WHEN the HPA is declared as the owner of the Deployment's fields
    app.addFieldOwner(IgnoreTarget.fromApiObject(web), KnownFieldOwner.horizontalPodAutoscaler('web-hpa'));
    // THEN the Application ignores exactly /spec/replicas of that Deployment, says why, and respects it at sync
    const application = applicationOf(app);
    expect(application.spec.ignoreDifferences).toEqual([{ group: 'apps', kind: 'Deployment', name: 'web', namespace: 'payments', jsonPointers: ['/spec/replicas'] }]);
    expect(application.metadata.annotations).toEqual({ 'safe-argocd/ignore-reasons': 'apps/Deployment payments/web /spec/replicas: written by HorizontalPodAutoscaler web-hpa' });
    expect(app.ignoreRules.map((r) => [r.kind, r.value, r.reason])).toEqual([['JSON_POINTER', '/spec/replicas', 'written by HorizontalPodAutoscaler web-hpa']]);
    expect(app.syncOptions).toEqual(['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true', 'RespectIgnoreDifferences=true']);
  });

  test('adds every rule of an owner that writes several fields, in the owner\'s order', () => {
    // GIVEN an owner of two fields, one by pointer and one by jq path
    const { app, config } = newApp();
    const owner = KnownFieldOwner.custom({ name: 'the settings operator', jsonPointers: ['/data/key'], jqPaths: [JqPath.field(['metadata', 'labels', 'owner'])] });
    // WHEN it is declared on the ConfigMap
    app.addFieldOwner(IgnoreTarget.fromApiObject(config), owner);
    // THEN both fields are ignored on that one ConfigMap
    expect(applicationOf(app).spec.ignoreDifferences).toEqual([{
      kind: 'ConfigMap', name: 'settings', namespace: 'payments', jsonPointers: ['/data/key'], jqPathExpressions: ['.metadata.labels.owner'],
    }]);
  });
});

describe('SafeApplication.syncOptions', () => {
  test('is the three hardened options without ignore rules or waves', () => {
    const { app } = newApp();
    expect(app.syncOptions).toEqual(['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true']);
  });

  test('adds RespectIgnoreDifferences once the app has an ignore rule, as the Application does', () => {
    // GIVEN an app WHEN a rule is added after construction
    const { app, config } = newApp();
    app.addIgnoreRule(IgnoreRule.jsonPointer(IgnoreTarget.fromApiObject(config), '/data/key', 'written by the settings operator'));
    // THEN the getter and the rendered Application agree
    expect(app.syncOptions).toEqual(['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true', 'RespectIgnoreDifferences=true']);
    expect(applicationOf(app).spec.syncPolicy.syncOptions).toEqual(app.syncOptions);
  });

  test('drops ApplyOutOfSyncOnly once a resource is in a sync wave, and has no RespectIgnoreDifferences without rules', () => {
    const { app, config } = newApp();
    app.addToSyncWave(config, -1);
    expect(app.syncOptions).toEqual(['CreateNamespace=true', 'PruneLast=true']);
    expect(applicationOf(app).spec.syncPolicy.syncOptions).toEqual(app.syncOptions);
  });
});

describe('SafeApplication without a GitOpsApp', () => {
  test('fails in a plain cdk8s App, with the whole message', () => {
    expect(() => new SafeApplication(Testing.app(), 'checkout', appProps())).toThrow(
      '[SAFE-010] checkout: scope is "<root>"; it is not a GitOpsApp, so nothing writes the workloads where source.path can point. '
      + 'Fix: create the app inside `new GitOpsApp()`, or give it an externalSource',
    );
  });

  test('fails under a root construct with an id, naming that root', () => {
    const root = new Construct(undefined as never, 'top');
    expect(() => new SafeApplication(root, 'checkout', appProps())).toThrow(
      '[SAFE-010] top/checkout: scope is "top"; it is not a GitOpsApp, so nothing writes the workloads where source.path can point. '
      + 'Fix: create the app inside `new GitOpsApp()`, or give it an externalSource',
    );
  });
});

describe('instanceof SafeApplication', () => {
  test('is true for a SafeApplication and an app-of-apps root, false for any other chart', () => {
    // GIVEN an app, a root and a plain chart
    const { app, gitops } = newApp();
    const root = new AppOfApps(gitops, 'root', { name: 'payments-root', project: ArgoProject.fromName('platform'), childProject: ArgoProject.fromName('payments'), repoUrl: REPO });
    const plain = new Chart(gitops, 'plain');
    // THEN only the SafeApplications are instances
    expect(app instanceof SafeApplication).toBe(true);
    expect(root instanceof SafeApplication).toBe(true);
    expect(plain instanceof SafeApplication).toBe(false);
    expect((null as unknown) instanceof SafeApplication).toBe(false);
  });
});

describe('outside a synth, an app answers as it does during one', () => {
  test('_workloadObjects() lists the app\'s own objects, not its Application nor those of an app nested in it', () => {
    // GIVEN an app with two ConfigMaps, one in a nested construct, and an app nested inside it
    const { app, config } = newApp();
    const nested = new Construct(app, 'nested');
    const deep = new ApiObject(nested, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'deep' } });
    const inner = new SafeApplication(app, 'inner', appProps({ name: 'inner', destinationNamespace: 'inner' }));
    const innerConfig = addConfigMap(inner, 'inner-settings');
    // WHEN asked outside a synth
    // THEN each app has exactly its own workloads, in tree order
    expect(app._workloadObjects().map((o) => o.node.path)).toEqual([config.node.path, deep.node.path]);
    expect(app._workloadObjects().map((o) => o.node.path)).toEqual(['checkout/cm-settings', 'checkout/nested/cm']);
    expect(inner._workloadObjects().map((o) => o.node.path)).toEqual([innerConfig.node.path]);
  });

  test('_runbook() names the root that deploys the app\'s project, not a root of another project', () => {
    // GIVEN a root of another project first in the tree, then the root of the app's project
    const { app, gitops } = newApp();
    new AppOfApps(gitops, 'a-search-root', { name: 'search-root', project: ArgoProject.fromName('platform'), childProject: ArgoProject.fromName('search'), repoUrl: REPO });
    new AppOfApps(gitops, 'b-payments-root', { name: 'payments-root', project: ArgoProject.fromName('platform'), childProject: ArgoProject.fromName('payments'), repoUrl: REPO });
    // WHEN the runbook is asked for outside a synth
    const runbook = app._runbook()!;
    // THEN it names the payments root, exactly as the written runbook does
    expect(runbook).toContain('Its app-of-apps root `payments-root` ignores this Application\'s `/spec/syncPolicy/automated`, so the root does not put it back.');
    expect(runbook).not.toContain('search-root');
    expect(gitops.renderFiles().find((f) => f.path === 'runbooks/checkout.md')!.content).toBe(runbook);
  });

  test('_runbook() warns when the only root deploys another project', () => {
    // GIVEN only a root of the search project
    const { app, gitops } = newApp();
    new AppOfApps(gitops, 'root', { name: 'search-root', project: ArgoProject.fromName('platform'), childProject: ArgoProject.fromName('search'), repoUrl: REPO });
    // WHEN the runbook is asked for outside a synth
    const runbook = app._runbook()!;
    // THEN it warns, exactly as the written runbook does
    expect(runbook).toContain('No app-of-apps root of this tree deploys it.');
    expect(runbook).not.toContain('search-root');
    expect(gitops.renderFiles().find((f) => f.path === 'runbooks/checkout.md')!.content).toBe(runbook);
  });
});

describe('SafeApplication validation messages, in full', () => {
  test('fails when an app with an external source defines objects, listing the first three', () => {
    // GIVEN an app with an external Git path and four ConfigMaps of its own
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const app = new SafeApplication(gitops, 'legacy', appProps({ name: 'legacy', externalSource: ExternalSource.gitPath('deploy') }));
    for (const name of ['a', 'b', 'c', 'd']) {
      addConfigMap(app, name);
    }
    // WHEN validated THEN the conflict counts all four and names the first three
    expect(app.node.validate()).toEqual([
      '[SAFE-013] the app deploys an external source, but 4 object(s) are defined in it (legacy/cm-a, legacy/cm-b, legacy/cm-c); '
      + 'Argo CD would never deploy them. Fix: move them into an app without externalSource, or remove externalSource.',
    ]);
  });

  test('fails when an app has neither workloads nor an external source', () => {
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const app = new SafeApplication(gitops, 'empty', appProps({ name: 'empty' }));
    expect(app.node.validate()).toEqual([
      '[SAFE-014] the app defines no workloads, so its source folder would be empty and Argo CD would refuse to sync it (allowEmpty is false). '
      + 'Fix: define workloads inside the app, or give it an externalSource.',
    ]);
  });

  test('fails when a raw jq expression does not compile, quoting the first line of jq\'s error', () => {
    // GIVEN a raw jq rule with an unclosed bracket
    const { app, config } = newApp();
    app.addIgnoreRule(IgnoreRule.rawJq(IgnoreTarget.fromApiObject(config), '.data[', 'broken on purpose'));
    // WHEN validated THEN the expression, the resource, jq's error and the fix are named
    expect(app.node.validate()).toEqual([
      '[SAFE-009] the jq expression ".data[" for ConfigMap settings does not compile as del(...): '
      + 'jq: error: syntax error, unexpected INVALID_CHARACTER at <top-level>, line 1, column 11:. '
      + 'Fix: correct the expression, or build it with IgnoreRule.jq and a typed JqPath.',
    ]);
  });
});

describe('SafeApplication targetRevision', () => {
  test.each([
    ['a range', '^4.11.0', 'is "^4.11.0"; it is refused: chart version "^4.11.0" is not one exact release'],
    ['missing', undefined, 'is missing; it is refused: chart version unset is not one exact release'],
    ['split by a space', '4.11 .3', 'is "4.11 .3"; it is refused: contains whitespace'],
  ])('fails when a Helm chart version is %s, with the chart fix', (_label, targetRevision, refusal) => {
    expect(() => new SafeApplication(Testing.app(), 'ingress', appProps({
      name: 'ingress', externalSource: ExternalSource.helmChart('ingress-nginx'), targetRevision,
    }))).toThrow(`[SAFE-016] ingress: targetRevision ${refusal}. Fix: give one exact chart version, e.g. "4.11.3"`);
  });

  test('is trimmed of surrounding whitespace, in the property and the Application', () => {
    const { app } = newApp({ targetRevision: '  v1.4.2 ' });
    expect(app.targetRevision).toBe('v1.4.2');
    expect(applicationOf(app).spec.source.targetRevision).toBe('v1.4.2');
  });
});

describe('which deployed objects are checked as Argo CD Applications', () => {
  test('an Argo Rollout (argoproj.io, another kind) is not checked as an Application', () => {
    // GIVEN an app deploying an Argo Rollout, which has no spec.project
    const { app } = newApp();
    new ApiObject(app, 'rollout', { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', metadata: { name: 'web' }, spec: { replicas: 2 } });
    // WHEN validated THEN no Application rule (such as SA005, "names no project") reports it
    expect(app.node.validate()).toEqual([]);
  });

  test('an Application of another API group (app.k8s.io) is not checked as an Argo CD Application', () => {
    // GIVEN an app deploying a Kubernetes SIG Apps Application, which has no spec.project
    const { app } = newApp();
    new ApiObject(app, 'sig', { apiVersion: 'app.k8s.io/v1beta1', kind: 'Application', metadata: { name: 'checkout' }, spec: { descriptor: { type: 'shop' } } });
    // WHEN validated THEN nothing is reported
    expect(app.node.validate()).toEqual([]);
  });

  test('a compliant raw child Application passes: it is checked alone, with no resources of its own', () => {
    // GIVEN an app deploying a raw Argo CD Application with the full hardened policy
    const { app } = newApp();
    new ApiObject(app, 'child', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'child', namespace: 'argocd' },
      spec: {
        project: 'payments',
        source: { repoURL: 'https://git.acme.internal/platform/gitops.git', path: 'child', targetRevision: 'main' },
        destination: { namespace: 'child', server: 'https://kubernetes.default.svc' },
        syncPolicy: {
          automated: { enabled: true, prune: true, selfHeal: true, allowEmpty: false },
          syncOptions: ['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true'],
          retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } },
        },
      },
    });
    // WHEN validated THEN nothing is reported
    expect(app.node.validate()).toEqual([]);
  });
});

describe('SafeApplication, built inside each test', () => {
  test('renders exactly this Application with only the required props', () => {
    const { app } = newApp();
    expect(applicationOf(app)).toEqual({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'checkout', namespace: 'argocd' },
      spec: {
        destination: { namespace: 'payments', server: 'https://kubernetes.default.svc' },
        project: 'payments',
        source: { path: 'dist/workloads/checkout', repoURL: REPO, targetRevision: 'main' },
        syncPolicy: {
          automated: { allowEmpty: false, enabled: true, prune: true, selfHeal: true },
          retry: { backoff: { duration: '5s', factor: 2, maxDuration: '3m' }, limit: 5 },
          syncOptions: ['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true'],
        },
      },
    });
  });

  test.each([
    ['with a ticket, trimmed', ' INC-42 ', { 'safe-argocd/break-glass-ticket': 'INC-42' }],
    ['with a blank ticket, left out', '  ', {}],
    ['without a ticket', undefined, {}],
  ])('a break-glass %s writes exactly these annotations', (_label, ticket, ticketAnnotation) => {
    const { app } = newApp({ breakGlass: { reason: 'INC-42: ledger migration fixed by hand', expires: '2999-12-31', ticket } });
    expect(applicationOf(app).metadata).toEqual({
      name: 'checkout',
      namespace: 'argocd',
      annotations: {
        'argocd.argoproj.io/skip-reconcile': 'true',
        'safe-argocd/break-glass-expires': '2999-12-31',
        'safe-argocd/break-glass-reason': 'INC-42: ledger migration fixed by hand',
        ...ticketAnnotation,
      },
    });
  });

  const label = 'that is a DNS-1123 label: lowercase letters, digits and "-", starting and ending with a letter or digit, at most 63 characters';
  test.each([
    ['name', { name: 'Checkout' }, `[SAFE-001] checkout: name is "Checkout"; it must be the Application's name ${label}. Fix: use e.g. "checkout"`],
    ['destinationNamespace', { destinationNamespace: 'pay_ments' }, `[SAFE-004] checkout: destinationNamespace is "pay_ments"; it must be a namespace name ${label}. Fix: use e.g. "pay-ments"`],
    ['applicationNamespace', { applicationNamespace: 'Argo CD' }, `[SAFE-004] checkout: applicationNamespace is "Argo CD"; it must be a namespace name ${label}. Fix: use e.g. "argo-cd"`],
  ])('fails when %s is not a DNS-1123 label, saying what it must be', (_prop, overrides, message) => {
    expect(() => newApp(overrides)).toThrow(message);
  });

  test('isSafeApplication is false for strings, null and other charts, true for an app', () => {
    const { app, gitops } = newApp();
    expect(SafeApplication.isSafeApplication('checkout')).toBe(false);
    expect(SafeApplication.isSafeApplication(null)).toBe(false);
    expect(SafeApplication.isSafeApplication(undefined)).toBe(false);
    expect(SafeApplication.isSafeApplication(new Chart(gitops, 'plain'))).toBe(false);
    expect(SafeApplication.isSafeApplication(app)).toBe(true);
  });

  test('enclosing() fails for a construct outside every app, naming its path', () => {
    const { gitops } = newApp();
    expect(() => SafeApplication.enclosing(new Chart(gitops, 'loose'))).toThrow(
      '[SAFE-010] loose: scope is "loose"; it is not inside a SafeApplication. Fix: define the construct inside the SafeApplication that deploys it: new X(app, \'id\', {...})',
    );
  });
});
