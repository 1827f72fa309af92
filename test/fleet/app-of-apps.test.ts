import { Testing } from 'cdk8s';
import { parse, stringify } from 'yaml';
import {
  AppOfApps, AppOfAppsProps, ArgoCdVersion, ArgoProject, GitOpsApp, LiveScenario, RenderedFile, SafeApplication, SafeProject,
} from '../../src';
import { simulatorPerFile } from '../drift/support';
import { addConfigMap, appProps, yamlOf } from '../support/app';
import { crdErrors } from '../support/crd';

const REPO = 'https://git.acme.internal/platform/gitops.git';
const AUTOMATED = '/spec/syncPolicy/automated';
/** The fields of the rendered automated policy, as the simulator lists differences (leaf by leaf). */
const LEAF_AUTOMATED = ['allowEmpty', 'enabled', 'prune', 'selfHeal'].map((f) => `${AUTOMATED}/${f}`);

/** Props of a valid root of the payments project, for tests to override. */
function rootProps(childProject: SafeProject, overrides: Partial<AppOfAppsProps> = {}): AppOfAppsProps {
  return { name: 'payments-root', project: ArgoProject.fromName('platform'), childProject, repoUrl: REPO, ...overrides };
}

/**
 * A GitOps tree with a SafeProject "payments" holding "checkout" and "ledger", an app "search" of another project,
 * and an app-of-apps root for payments.
 */
function fleet(options: { ledgerBreakGlass?: boolean; outdir?: string } = {}) {
  const gitops = new GitOpsApp({ outdir: options.outdir ?? 'dist' });
  const payments = new SafeProject(gitops, 'payments-project', {
    name: 'payments',
    sourceRepos: [REPO],
    destinations: [{ namespace: 'payments' }],
    onCallGroups: ['payments-oncall'],
  });
  const checkout = new SafeApplication(gitops, 'checkout', appProps({ project: payments }));
  addConfigMap(checkout, 'settings');
  const ledger = new SafeApplication(gitops, 'ledger', appProps({
    name: 'ledger',
    project: payments,
    ...(options.ledgerBreakGlass ? { breakGlass: { reason: 'INC-42: ledger migration fixed by hand', expires: '2999-12-31' } } : {}),
  }));
  addConfigMap(ledger, 'settings');
  const search = new SafeApplication(gitops, 'search', appProps({ name: 'search', project: ArgoProject.fromName('search'), destinationNamespace: 'search' }));
  addConfigMap(search, 'settings');
  const root = new AppOfApps(gitops, 'root', rootProps(payments));
  return { gitops, payments, checkout, ledger, search, root };
}

/** The rendered file at `path`. */
function fileAt(files: readonly RenderedFile[], path: string): RenderedFile {
  const found = files.find((f) => f.path === path);
  if (!found) {
    throw new Error(`no ${path} among ${files.map((f) => f.path).join(', ')}`);
  }
  return found;
}

/** The ignoreDifferences entry of the root for the Application `name` (found by name, never by index). */
function entriesFor(root: any, name: string): any[] {
  return (root.spec.ignoreDifferences ?? []).filter((e: any) => e.kind === 'Application' && e.name === name);
}

describe('AppOfApps rendering', () => {
  // GIVEN the fleet WHEN it is rendered
  const { gitops, root } = fleet();
  const files = gitops.renderFiles();
  const rootFile = fileAt(files, 'roots/Application.payments-root.k8s.yaml');
  const rendered = yamlOf(rootFile.content);

  test('writes the root to roots/, not to a project folder', () => {
    // THEN
    expect(files.filter((f) => /Application\.payments-root\./.test(f.path)).map((f) => f.path)).toEqual(['roots/Application.payments-root.k8s.yaml']);
    expect(rendered).toEqual(root.resource.toJson());
  });

  test('deploys the repo path of applications/<childProject> into the argocd namespace', () => {
    // THEN
    expect(rendered.spec.source).toEqual({ repoURL: REPO, path: 'dist/applications/payments', targetRevision: 'main' });
    expect(rendered.spec.destination).toEqual({ server: 'https://kubernetes.default.svc', namespace: 'argocd' });
    expect(rendered.spec.project).toBe('platform');
    expect(rendered.metadata).toMatchObject({ name: 'payments-root', namespace: 'argocd' });
    expect(root.childProjectName).toBe('payments');
    // and that folder is where the project's Applications and AppProject are written
    expect(files.map((f) => f.path).filter((p) => p.startsWith('applications/payments/'))).toEqual([
      'applications/payments/AppProject.payments.k8s.yaml',
      'applications/payments/Application.checkout.k8s.yaml',
      'applications/payments/Application.ledger.k8s.yaml',
    ]);
  });

  test('the source path follows outdirFromRepoRoot', () => {
    // GIVEN
    const gitopsElsewhere = new GitOpsApp({ outdir: 'out', outdirFromRepoRoot: 'deploy/rendered' });
    const project = ArgoProject.fromName('payments');
    addConfigMap(new SafeApplication(gitopsElsewhere, 'checkout', appProps({ project })), 'settings');
    // WHEN
    const other = new AppOfApps(gitopsElsewhere, 'root', { name: 'payments-root', project: ArgoProject.fromName('platform'), childProject: project, repoUrl: REPO });
    // THEN
    expect(other.sourcePath).toBe('deploy/rendered/applications/payments');
  });

  test('has the hardened sync policy, with RespectIgnoreDifferences', () => {
    // THEN
    expect(rendered.spec.syncPolicy).toEqual({
      automated: { enabled: true, prune: true, selfHeal: true, allowEmpty: false },
      syncOptions: ['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true', 'RespectIgnoreDifferences=true'],
      retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } },
    });
  });

  test('ignores exactly /spec/syncPolicy/automated of each child Application of its project, one scoped entry each', () => {
    // THEN
    expect(rendered.spec.ignoreDifferences).toHaveLength(2);
    for (const name of ['checkout', 'ledger']) {
      expect(entriesFor(rendered, name)).toEqual([{
        group: 'argoproj.io',
        kind: 'Application',
        name,
        namespace: 'argocd',
        jsonPointers: [AUTOMATED],
      }]);
    }
  });

  test('does not include Applications of other projects', () => {
    // THEN
    expect(entriesFor(rendered, 'search')).toEqual([]);
    expect(entriesFor(rendered, 'payments-root')).toEqual([]);
  });

  test('lists the SafeApplications of its project as children, roots excluded', () => {
    // THEN
    expect(root.children.map((c) => c.applicationName).sort()).toEqual(['checkout', 'ledger']);
  });

  test('writes no runbook for the root, and one for each child', () => {
    // THEN
    const runbooks = files.map((f) => f.path).filter((p) => p.startsWith('runbooks/'));
    expect(runbooks).toEqual(['runbooks/checkout.md', 'runbooks/ledger.md', 'runbooks/search.md']);
    expect(root._runbook()).toBeUndefined();
  });

  test('validates against the Argo CD 3.5 Application CRD', () => {
    // THEN
    expect(crdErrors('application', '3.5', rendered)).toEqual([]);
  });

  test('a root for Argo CD 3.0 validates against the 3.0 CRD, without automated.enabled', () => {
    // GIVEN
    const other = fleet();
    const old = new AppOfApps(other.gitops, 'root-3-0', rootProps(other.payments, { name: 'payments-root-old', argoCdVersion: ArgoCdVersion.V3_0 }));
    // WHEN
    const manifest = yamlOf(fileAt(other.gitops.renderFiles(), 'roots/Application.payments-root-old.k8s.yaml').content);
    // THEN
    expect(manifest.spec.syncPolicy.automated).toEqual({ prune: true, selfHeal: true, allowEmpty: false });
    expect(crdErrors('application', '3.0', manifest)).toEqual([]);
    expect(old.argoCdVersion).toBe(ArgoCdVersion.V3_0);
  });

  test('a child added after the root still gets its ignore entry (rendered late)', () => {
    // GIVEN
    const other = fleet();
    addConfigMap(new SafeApplication(other.gitops, 'refunds', appProps({ name: 'refunds', project: other.payments })), 'settings');
    // WHEN
    const manifest = yamlOf(fileAt(other.gitops.renderFiles(), 'roots/Application.payments-root.k8s.yaml').content);
    // THEN
    expect(entriesFor(manifest, 'refunds')).toHaveLength(1);
  });

  test('a child in another application namespace is ignored in that namespace', () => {
    // GIVEN
    const other = fleet();
    addConfigMap(new SafeApplication(other.gitops, 'refunds', appProps({ name: 'refunds', project: other.payments, applicationNamespace: 'payments-apps' })), 'settings');
    // WHEN
    const manifest = other.root.resource.toJson() as any;
    // THEN
    expect(entriesFor(manifest, 'refunds')).toEqual([{ group: 'argoproj.io', kind: 'Application', name: 'refunds', namespace: 'payments-apps', jsonPointers: [AUTOMATED] }]);
  });
});

describe('AppOfApps and a child with a declarative break-glass', () => {
  test('still ignores the break-glassed child\'s automated sync: the suspension is skip-reconcile, which the root applies', () => {
    // GIVEN ledger suspended in Git
    const { gitops } = fleet({ ledgerBreakGlass: true });
    // WHEN
    const rendered = yamlOf(fileAt(gitops.renderFiles(), 'roots/Application.payments-root.k8s.yaml').content);
    // THEN the root's ignore rules do not depend on any child's break-glass, so a root applied by hand stays right
    expect(entriesFor(rendered, 'ledger')).toHaveLength(1);
    expect(entriesFor(rendered, 'checkout')).toHaveLength(1);
    expect(rendered.spec.ignoreDifferences).toHaveLength(2);
  });
});

describe('AppOfApps props', () => {
  test('has no breakGlass prop: the root cannot be suspended', () => {
    // GIVEN
    const { gitops, payments } = fleet();
    // WHEN a caller passes breakGlass anyway
    const root = new AppOfApps(gitops, 'root-2', {
      ...rootProps(payments, { name: 'payments-root-2' }),
      // @ts-expect-error AppOfAppsProps has no breakGlass
      breakGlass: { reason: 'suspend the whole payments fleet', expires: '2999-12-31' },
    });
    // THEN it is ignored: the root keeps its automated sync and carries no break-glass
    expect(root.breakGlass).toBeUndefined();
    expect((root.resource.toJson() as any).spec.syncPolicy.automated).toEqual({ enabled: true, prune: true, selfHeal: true, allowEmpty: false });
  });

  test('fails when the root is created outside a GitOpsApp', () => {
    // GIVEN / WHEN / THEN
    expect(() => new AppOfApps(Testing.app(), 'root', {
      name: 'payments-root', project: ArgoProject.fromName('platform'), childProject: ArgoProject.fromName('payments'), repoUrl: REPO,
    })).toThrow(/\[SAFE-010\] <root>: scope .*GitOpsApp/);
  });

  test('fails when the root\'s own project does not allow the argocd namespace', () => {
    // GIVEN a root that belongs to the payments SafeProject, which only allows the payments namespace
    const { gitops, payments } = fleet();
    new AppOfApps(gitops, 'self-root', rootProps(payments, { name: 'payments-self-root', project: payments }));
    // WHEN / THEN
    expect(() => gitops.renderFiles()).toThrow(/self-root: \[SAFE-031\] project payments does not allow the destination namespace "argocd"/);
  });

  test('isAppOfApps tells a root from a SafeApplication', () => {
    // GIVEN
    const { root, checkout } = fleet();
    // THEN
    expect(AppOfApps.isAppOfApps(root)).toBe(true);
    expect(AppOfApps.isAppOfApps(checkout)).toBe(false);
    expect(SafeApplication.isSafeApplication(root)).toBe(true);
  });
});

describe('AppOfApps drift proof: a leaf\'s break-glass suspension holds', () => {
  // ARGO-FACTS "Break-glass": the parent's self-heal reverts a child's changed syncPolicy (argo-cd #3895, #4808,
  // #23484) unless the parent ignores the children's /spec/syncPolicy/automated with RespectIgnoreDifferences.
  const sim = simulatorPerFile();
  const { gitops } = fleet();
  const files = gitops.renderFiles();
  const rootText = fileAt(files, 'roots/Application.payments-root.k8s.yaml').content;
  const desired = fileAt(files, 'applications/payments/Application.checkout.k8s.yaml').content;

  /** The live checkout Application after `argocd app set checkout --sync-policy none`: automated removed. */
  function suspendedLive(): string {
    const live = JSON.parse(LiveScenario.unchanged().liveFrom(desired));
    delete live.spec.syncPolicy.automated;
    live.metadata.managedFields.push({
      manager: 'argocd-server',
      operation: 'Update',
      apiVersion: 'argoproj.io/v1alpha1',
      time: '2026-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:syncPolicy': {} } },
    });
    return JSON.stringify(live);
  }

  test('the suspended live child really has no automated, and Git still declares it', () => {
    // THEN the scenario is what it claims to be
    expect(JSON.parse(suspendedLive()).spec.syncPolicy.automated).toBeUndefined();
    expect(JSON.parse(suspendedLive()).spec.syncPolicy.retry).toEqual(parse(desired).spec.syncPolicy.retry);
    expect(parse(desired).spec.syncPolicy.automated).toEqual({ enabled: true, prune: true, selfHeal: true, allowEmpty: false });
  });

  test('with the root\'s ignore rules: the root reports Synced and its next apply keeps the child suspended', () => {
    // WHEN the root compares its child
    const report = sim().simulateDrift({ application: rootText, desired, live: suspendedLive() });
    // THEN
    expect(report.outOfSync).toBe(false);
    expect(report.selfHeal).toBe(true);
    expect(report.selfHealReverts).toEqual([]);
    expect(report.applyReverts).toEqual([]);
    expect(report.respectIgnoreDifferences).toBe(true);
    const after = JSON.parse(report.liveAfterApply);
    expect(after.spec.syncPolicy.automated).toBeUndefined();
    expect(after.spec.syncPolicy.syncOptions).toEqual(parse(desired).spec.syncPolicy.syncOptions);
  });

  test('with the root\'s ignore rules, another field of the child is still drift and is reverted', () => {
    // GIVEN the child's targetRevision edited by hand
    const live = LiveScenario.kubectlEdit('/spec/source/targetRevision', '"hotfix"').liveFrom(desired);
    // WHEN
    const report = sim().simulateDrift({ application: rootText, desired, live });
    // THEN the ignore rule is scoped to the sync policy only
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual(['/spec/source/targetRevision']);
    expect(JSON.parse(report.liveAfterApply).spec.source.targetRevision).toBe('main');
  });

  test('without the root\'s ignore rules: the same suspended child is OutOfSync and self-heal puts automated back', () => {
    // GIVEN a plain Application with the same policy but no ignoreDifferences
    const plain = parse(rootText);
    delete plain.spec.ignoreDifferences;
    // WHEN
    const report = sim().simulateDrift({ application: stringify(plain), desired, live: suspendedLive() });
    // THEN
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual(LEAF_AUTOMATED);
    expect(report.selfHeal).toBe(true);
    expect(report.selfHealReverts).toEqual(LEAF_AUTOMATED);
    expect(JSON.parse(report.liveAfterApply).spec.syncPolicy.automated).toEqual({ enabled: true, prune: true, selfHeal: true, allowEmpty: false });
  });

});

describe('AppOfApps drift proof: a declarative break-glass travels through Git', () => {
  // A declarative break-glass keeps the whole sync policy and adds argocd.argoproj.io/skip-reconcile, an
  // annotation the root does not ignore: the root applies it, and removes it again, through Git. The root's
  // ignore rules are the same in every commit, so a root applied once by hand never goes stale over it.
  const sim = simulatorPerFile();
  const normal = fleet().gitops.renderFiles();
  const suspended = fleet({ ledgerBreakGlass: true }).gitops.renderFiles();
  const ROOT = 'roots/Application.payments-root.k8s.yaml';
  const LEDGER = 'applications/payments/Application.ledger.k8s.yaml';
  const SKIP = 'argocd.argoproj.io/skip-reconcile';

  test('the root is the same in both commits', () => {
    expect(fileAt(suspended, ROOT).content).toBe(fileAt(normal, ROOT).content);
  });

  test('committing a break-glass suspends the child: the root applies skip-reconcile and keeps its policy', () => {
    // GIVEN ledger as last applied, and the commit that adds its break-glass
    const live = LiveScenario.unchanged().liveFrom(fileAt(normal, LEDGER).content);
    // WHEN the root compares
    const report = sim().simulateDrift({ application: fileAt(normal, ROOT).content, desired: fileAt(suspended, LEDGER).content, live });
    // THEN the child is OutOfSync, and after the apply it carries skip-reconcile with its automated policy unchanged
    expect(report.outOfSync).toBe(true);
    const after = JSON.parse(report.liveAfterApply);
    expect(after.metadata.annotations[SKIP]).toBe('true');
    expect(after.spec.syncPolicy.automated).toEqual({ enabled: true, prune: true, selfHeal: true, allowEmpty: false });
  });

  test('lifting the break-glass in Git removes skip-reconcile through the root, and the policy is as declared', () => {
    // GIVEN ledger as the break-glass commit left it, and the commit that removes the break-glass
    const live = LiveScenario.unchanged().liveFrom(fileAt(suspended, LEDGER).content);
    const desired = fileAt(normal, LEDGER).content;
    // WHEN the root compares
    const report = sim().simulateDrift({ application: fileAt(normal, ROOT).content, desired, live });
    // THEN the annotation goes, and the full automated policy is what the cluster keeps
    expect(report.outOfSync).toBe(true);
    const after = JSON.parse(report.liveAfterApply);
    expect(after.metadata.annotations?.[SKIP]).toBeUndefined();
    expect(after.spec.syncPolicy.automated).toEqual(parse(desired).spec.syncPolicy.automated);
  });
});

