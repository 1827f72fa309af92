import { Duration } from 'cdk8s';
import {
  AppOfApps, ArgoCdVersion, ArgoProject, ExternalSource, GitOpsApp, IgnoreRule, IgnoreTarget, RenderedFile, SafeApplication, SafeApplicationProps,
} from '../../src';
import { appProps, newApp, yamlOf } from '../support/app';

const REPO = 'https://git.acme.internal/platform/gitops.git';
const BREAK_GLASS = { reason: 'INC-42: ledger migration fixed by hand', expires: '2999-12-31', ticket: 'INC-42' };

/** The rendered file at `path`. */
function fileAt(files: readonly RenderedFile[], path: string): string {
  const found = files.find((f) => f.path === path);
  if (!found) {
    throw new Error(`no ${path} among ${files.map((f) => f.path).join(', ')}`);
  }
  return found.content;
}

/** The runbook and the rendered Application of the app `name`. */
function rendered(files: readonly RenderedFile[], name: string, project = 'payments') {
  return {
    runbook: fileAt(files, `runbooks/${name}.md`),
    application: yamlOf(fileAt(files, `applications/${project}/Application.${name}.k8s.yaml`)),
  };
}

/** The JSON merge patch of the runbook's restore command for `name`, parsed out of the `kubectl ... --type merge -p '<json>'` line. */
function restorePatch(runbook: string, name: string, namespace = 'argocd'): any {
  const prefix = `kubectl -n ${namespace} patch application ${name} --type merge -p '`;
  const lines = runbook.split('\n').filter((l) => l.startsWith(prefix));
  if (lines.length !== 1 || !lines[0].endsWith('\'')) {
    throw new Error(`expected one restore line starting with ${prefix}, found ${lines.length}`);
  }
  return JSON.parse(lines[0].slice(prefix.length, -1));
}

/** One app "checkout" (with `overrides`) rendered, with a root of its project when `withRoot`. */
function renderOne(overrides: Partial<SafeApplicationProps> = {}, withRoot = false) {
  const { gitops, app, config } = newApp(overrides);
  if (withRoot) {
    new AppOfApps(gitops, 'root', { name: 'payments-root', project: ArgoProject.fromName('platform'), childProject: ArgoProject.fromName('payments'), repoUrl: REPO });
  }
  return { gitops, app, config, files: gitops.renderFiles() };
}

describe('the runbook of an app with defaults', () => {
  // GIVEN one app and no root WHEN rendered (in beforeAll, so that a render that throws fails the tests)
  let app: SafeApplication;
  let files: RenderedFile[];
  let runbook: string;
  let application: any;
  beforeAll(() => {
    ({ app, files } = renderOne());
    ({ runbook, application } = rendered(files, 'checkout'));
  });

  test('is written to runbooks/<app>.md and equals the app\'s _runbook()', () => {
    // THEN
    expect(files.map((f) => f.path)).toContain('runbooks/checkout.md');
    expect(runbook).toBe(app._runbook());
    expect(runbook.startsWith('# Break-glass runbook: checkout\n')).toBe(true);
  });

  test('suspends with the exact argocd command, for this one Application', () => {
    // THEN
    expect(runbook.split('\n')).toContain('argocd app set checkout --app-namespace argocd --sync-policy none');
  });

  test('offers the kubectl JSON-patch alternative that removes /spec/syncPolicy/automated', () => {
    // THEN
    const line = 'kubectl -n argocd patch application checkout --type json -p \'[{"op":"remove","path":"/spec/syncPolicy/automated"}]\'';
    expect(runbook.split('\n')).toContain(line);
    expect(JSON.parse(line.slice(line.indexOf('\'') + 1, -1))).toEqual([{ op: 'remove', path: '/spec/syncPolicy/automated' }]);
  });

  test('restores exactly the Application\'s rendered sync policy, every field of it', () => {
    // THEN
    const patch = restorePatch(runbook, 'checkout');
    expect(patch).toEqual({ spec: { syncPolicy: application.spec.syncPolicy } });
    expect(patch.spec.syncPolicy.automated).toEqual({ enabled: true, prune: true, selfHeal: true, allowEmpty: false });
    expect(patch.spec.syncPolicy.retry).toEqual({ limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } });
    expect(patch.spec.syncPolicy.syncOptions).toEqual(['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true']);
  });

  test('explains why the whole policy is restored, citing argo-cd #23330', () => {
    // THEN
    expect(runbook).toContain('argo-cd #23330');
    expect(runbook).toMatch(/without\s+prune or selfHeal/);
  });

  test('warns that no root of this tree deploys it and that a parent may revert the suspension', () => {
    // THEN
    expect(runbook).toContain('No app-of-apps root of this tree deploys it.');
    expect(runbook).toContain('/spec/syncPolicy/automated');
    expect(runbook).toContain('argo-cd #3895, #4808, #23484');
    expect(runbook).not.toContain('Its app-of-apps root');
  });

  test('has diff and verify commands for this app, and no break-glass note', () => {
    // THEN
    expect(runbook.split('\n')).toContain('argocd app diff checkout --app-namespace argocd');
    expect(runbook.split('\n')).toContain('kubectl -n argocd get application checkout -o jsonpath=\'{.spec.syncPolicy}\'');
    expect(runbook).not.toContain('suspended in Git right now');
  });

  test('names what the app deploys and from where', () => {
    // THEN
    expect(runbook).toContain('deploys `dist/workloads/checkout` of');
    expect(runbook).toContain(`\`${REPO}\` at \`main\` into namespace \`payments\``);
  });
});

describe('the restore command follows what the app declares', () => {
  test('includes RespectIgnoreDifferences and a custom retry when the app has them', () => {
    // GIVEN an app with an ignore rule and its own retry bounds
    const retry = { limit: 3, backoffDuration: Duration.seconds(10), backoffFactor: 3, backoffMaxDuration: Duration.minutes(10) };
    const { gitops, app, config } = newApp({ retry });
    app.addIgnoreRule(IgnoreRule.jsonPointer(IgnoreTarget.fromApiObject(config), '/data/key', 'an operator rewrites the key at runtime'));
    // WHEN
    const { runbook, application } = rendered(gitops.renderFiles(), 'checkout');
    // THEN
    const patch = restorePatch(runbook, 'checkout');
    expect(patch).toEqual({ spec: { syncPolicy: application.spec.syncPolicy } });
    expect(patch.spec.syncPolicy.syncOptions).toContain('RespectIgnoreDifferences=true');
    expect(patch.spec.syncPolicy.retry).toEqual({ limit: 3, backoff: { duration: '10s', factor: 3, maxDuration: '10m' } });
  });

  test('leaves out ApplyOutOfSyncOnly when the app uses sync waves, as the Application does', () => {
    // GIVEN
    const { gitops, app, config } = newApp();
    app.addToSyncWave(config, -1);
    // WHEN
    const { runbook, application } = rendered(gitops.renderFiles(), 'checkout');
    // THEN
    const patch = restorePatch(runbook, 'checkout');
    expect(patch).toEqual({ spec: { syncPolicy: application.spec.syncPolicy } });
    expect(patch.spec.syncPolicy.syncOptions).not.toContain('ApplyOutOfSyncOnly=true');
  });

  test.each([['3.1', ArgoCdVersion.V3_1], ['3.5', ArgoCdVersion.V3_5]])('sets enabled: true for Argo CD %s', (_, argoCdVersion) => {
    // GIVEN
    const { runbook, application } = rendered(renderOne({ argoCdVersion }).files, 'checkout');
    // THEN
    expect(restorePatch(runbook, 'checkout')).toEqual({ spec: { syncPolicy: application.spec.syncPolicy } });
    expect(restorePatch(runbook, 'checkout').spec.syncPolicy.automated.enabled).toBe(true);
  });

  test.each([['3.0', ArgoCdVersion.V3_0], ['2.14', ArgoCdVersion.V2_14]])('has no enabled field for Argo CD %s, which lacks it', (_, argoCdVersion) => {
    // GIVEN
    const { runbook, application } = rendered(renderOne({ argoCdVersion }).files, 'checkout');
    // THEN
    const patch = restorePatch(runbook, 'checkout');
    expect(patch).toEqual({ spec: { syncPolicy: application.spec.syncPolicy } });
    expect(patch.spec.syncPolicy.automated).toEqual({ prune: true, selfHeal: true, allowEmpty: false });
  });

  test('uses the app\'s own application namespace in every command', () => {
    // GIVEN
    const { runbook } = rendered(renderOne({ applicationNamespace: 'payments-apps' }).files, 'checkout');
    // THEN
    expect(runbook.split('\n')).toContain('argocd app set checkout --app-namespace payments-apps --sync-policy none');
    expect(restorePatch(runbook, 'checkout', 'payments-apps').spec.syncPolicy.automated.selfHeal).toBe(true);
    expect(runbook).not.toContain('-n argocd');
  });

  test('names the chart for an app with a Helm chart source', () => {
    // GIVEN
    const gitops = new GitOpsApp({ outdir: 'dist' });
    new SafeApplication(gitops, 'ingress', appProps({
      name: 'ingress', repoUrl: 'https://charts.acme.internal', targetRevision: '4.11.3', externalSource: ExternalSource.helmChart('ingress-nginx'),
    }));
    // WHEN
    const { runbook, application } = rendered(gitops.renderFiles(), 'ingress');
    // THEN
    expect(runbook).toContain('deploys `(chart)` of');
    expect(restorePatch(runbook, 'ingress')).toEqual({ spec: { syncPolicy: application.spec.syncPolicy } });
  });
});

describe('the runbook of an app with a declarative break-glass', () => {
  // GIVEN an app suspended in Git WHEN rendered
  let runbook: string;
  let application: any;
  beforeAll(() => {
    ({ runbook, application } = rendered(renderOne({ breakGlass: BREAK_GLASS }).files, 'checkout'));
  });

  test('restores the full automated policy, which the Application still declares', () => {
    // THEN
    expect(application.spec.syncPolicy.automated).toEqual({ enabled: true, prune: true, selfHeal: true, allowEmpty: false });
    expect(restorePatch(runbook, 'checkout')).toEqual({ spec: { syncPolicy: application.spec.syncPolicy } });
  });

  test('says the app is suspended in Git with skip-reconcile and how to lift it', () => {
    // THEN
    expect(runbook).toContain('This Application is suspended in Git right now: a recorded break-glass sets `argocd.argoproj.io/skip-reconcile`');
    expect(runbook).toContain('Remove the `breakGlass`');
  });

  test('for Argo CD 3.0, restores the full policy without enabled', () => {
    // GIVEN
    const old = rendered(renderOne({ breakGlass: BREAK_GLASS, argoCdVersion: ArgoCdVersion.V3_0 }).files, 'checkout');
    // THEN
    expect(restorePatch(old.runbook, 'checkout').spec.syncPolicy.automated).toEqual({ prune: true, selfHeal: true, allowEmpty: false });
  });
});

describe('the runbook and the app-of-apps root', () => {
  test('names the root when an AppOfApps deploys the app, and does not warn', () => {
    // GIVEN
    const { runbook } = rendered(renderOne({}, true).files, 'checkout');
    // THEN
    expect(runbook).toContain('Its app-of-apps root `payments-root` ignores this Application\'s `/spec/syncPolicy/automated`, so the root does not put it back.');
    expect(runbook).not.toContain('No app-of-apps root of this tree deploys it.');
  });

  test('warns when the only root deploys another project', () => {
    // GIVEN a root of the search project
    const { gitops } = newApp();
    new AppOfApps(gitops, 'root', { name: 'search-root', project: ArgoProject.fromName('platform'), childProject: ArgoProject.fromName('search'), repoUrl: REPO });
    // WHEN
    const { runbook } = rendered(gitops.renderFiles(), 'checkout');
    // THEN
    expect(runbook).toContain('No app-of-apps root of this tree deploys it.');
    expect(runbook).not.toContain('search-root');
  });

  test('the root itself has no runbook', () => {
    // GIVEN
    const { files } = renderOne({}, true);
    // THEN
    expect(files.map((f) => f.path).filter((p) => p.startsWith('runbooks/'))).toEqual(['runbooks/checkout.md']);
  });

  test('names the root for a break-glassed app too: the root ignores every child\'s automated sync', () => {
    // GIVEN a break-glassed app deployed by a root
    const { files } = renderOne({ breakGlass: BREAK_GLASS }, true);
    const root = yamlOf(fileAt(files, 'roots/Application.payments-root.k8s.yaml'));
    expect(root.spec.ignoreDifferences).toHaveLength(1);
    // WHEN
    const { runbook } = rendered(files, 'checkout');
    // THEN
    expect(runbook).toContain('Its app-of-apps root `payments-root` ignores this Application\'s `/spec/syncPolicy/automated`');
  });;
});
