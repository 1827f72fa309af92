import { ApiObject } from 'cdk8s';
import {
  ArgoCdVersion, ArgoProject, DestinationCluster, ExternalSource, GitOpsApp, IgnoreRule, IgnoreTarget, JqPath, SafeApplication, Suppressions,
} from '../../src';

/**
 * Every refusal of the application constructs and their factories, in full: the code, where, the prop, the
 * value, what is allowed and the fix. The messages are the interface a user meets first, so each one is pinned
 * (test/application/__snapshots__/refusals.test.ts.snap, reviewed when written, never updated in CI).
 */

const REPO = 'https://git.acme.internal/platform/gitops.git';
const TARGET = IgnoreTarget.resource({ group: 'apps', kind: 'Deployment', name: 'web', namespace: 'shop' });
const REASON = 'the HPA owns the replica count';

/** A valid app in a fresh GitOpsApp, with one ConfigMap and one Job, for the method refusals. */
function app(props: Record<string, unknown> = {}) {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  const a = new SafeApplication(gitops, 'checkout', {
    name: 'checkout', project: ArgoProject.fromName('payments'), repoUrl: REPO, destinationNamespace: 'shop', ...props,
  } as never);
  const cm = new ApiObject(a, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
  const job = new ApiObject(a, 'job', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'once' } });
  return { gitops, app: a, cm, job };
}

const CASES: [string, () => unknown][] = [
  ['ArgoProject.fromName: default', () => ArgoProject.fromName('default')],
  ['ArgoProject.fromName: not a name', () => ArgoProject.fromName('Payments Team')],
  ['ArgoProject.fromName: missing', () => ArgoProject.fromName(undefined as never)],
  ['ArgoCdVersion.of: unknown', () => ArgoCdVersion.of('2.13')],
  ['ArgoCdVersion.of: not a version', () => ArgoCdVersion.of('latest')],
  ['DestinationCluster.fromServer: not a URL', () => DestinationCluster.fromServer('prod-eu')],
  ['DestinationCluster.fromServer: missing', () => DestinationCluster.fromServer(undefined as never)],
  ['DestinationCluster.fromName: blank', () => DestinationCluster.fromName('  ')],
  ['DestinationCluster.fromName: glob', () => DestinationCluster.fromName('prod-*')],
  ['DestinationCluster.fromName: missing', () => DestinationCluster.fromName(undefined as never)],
  ['ExternalSource.gitPath: absolute', () => ExternalSource.gitPath('/deploy')],
  ['ExternalSource.gitPath: up', () => ExternalSource.gitPath('deploy/../secrets')],
  ['ExternalSource.gitPath: blank', () => ExternalSource.gitPath(' ')],
  ['ExternalSource.gitPath: missing', () => ExternalSource.gitPath(undefined as never)],
  ['ExternalSource.helmChart: not a name', () => ExternalSource.helmChart('-nginx')],
  ['ExternalSource.helmChart: missing', () => ExternalSource.helmChart(undefined as never)],
  ['ExternalSource.helmChart: releaseName not a release name', () => ExternalSource.helmChart('ingress-nginx', { releaseName: 'Edge_EU' })],
  ['ExternalSource.helmChart: a value file climbing out', () => ExternalSource.helmChart('ingress-nginx', { valueFiles: ['../values.yaml'] })],
  ['ExternalSource.helmChart: an empty parameter name', () => ExternalSource.helmChart('ingress-nginx', { parameters: [{ name: '', value: '2' }] })],
  ['ExternalSource.helmChart: a parameter set twice', () => ExternalSource.helmChart('ingress-nginx', { parameters: [{ name: 'a', value: '1' }, { name: 'a', value: '2' }] })],
  ['ExternalSource.helmChart: null in valuesYaml', () => ExternalSource.helmChart('ingress-nginx', { valuesYaml: 'controller:\n  resources: null\n' })],
  ['IgnoreRule.jsonPointer: no slash', () => IgnoreRule.jsonPointer(TARGET, 'spec/replicas', REASON)],
  ['IgnoreRule.jsonPointer: not a string', () => IgnoreRule.jsonPointer(TARGET, 7 as never, REASON)],
  ['IgnoreRule.jsonPointer: short reason', () => IgnoreRule.jsonPointer(TARGET, '/spec/replicas', 'hp')],
  ['IgnoreRule.jsonPointer: missing reason', () => IgnoreRule.jsonPointer(TARGET, '/spec/replicas', undefined as never)],
  ['IgnoreRule.jsonPointerFromKeys: no keys', () => IgnoreRule.jsonPointerFromKeys(TARGET, [], REASON)],
  ['IgnoreRule.rawJq: blank', () => IgnoreRule.rawJq(TARGET, '  ', REASON)],
  ['IgnoreRule.rawJq: missing', () => IgnoreRule.rawJq(TARGET, undefined as never, REASON)],
  ['IgnoreRule.managedFieldsManager: glob', () => IgnoreRule.managedFieldsManager(TARGET, 'kube-*', REASON)],
  ['IgnoreRule.managedFieldsManager: blank', () => IgnoreRule.managedFieldsManager(TARGET, ' ', REASON)],
  ['IgnoreRule.managedFieldsManager: short reason', () => IgnoreRule.managedFieldsManager(TARGET, 'kube-controller-manager', ' ab ')],
  ['IgnoreTarget.resource: group glob', () => IgnoreTarget.resource({ group: 'apps*', kind: 'Deployment', name: 'web', namespace: 'shop' })],
  ['IgnoreTarget.resource: group upper case', () => IgnoreTarget.resource({ group: 'Apps', kind: 'Deployment', name: 'web', namespace: 'shop' })],
  ['IgnoreTarget.resource: kind glob', () => IgnoreTarget.resource({ group: 'apps', kind: '*', name: 'web', namespace: 'shop' })],
  ['IgnoreTarget.resource: kind missing', () => IgnoreTarget.resource({ group: 'apps', name: 'web', namespace: 'shop' } as never)],
  ['IgnoreTarget.resource: name glob', () => IgnoreTarget.resource({ group: 'apps', kind: 'Deployment', name: 'web-*', namespace: 'shop' })],
  ['IgnoreTarget.resource: name missing', () => IgnoreTarget.resource({ group: 'apps', kind: 'Deployment', namespace: 'shop' } as never)],
  ['IgnoreTarget.resource: namespace not a label', () => IgnoreTarget.resource({ group: 'apps', kind: 'Deployment', name: 'web', namespace: 'shop.eu' })],
  ['IgnoreTarget.resource: namespace on a cluster-scoped kind', () => IgnoreTarget.resource({ group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reader', namespace: 'shop' })],
  ['JqPath.field: no keys', () => JqPath.field([])],
  ['JqPath.field: empty key', () => JqPath.field(['spec', ''])],
  ['JqPath.listItem: no list keys', () => JqPath.listItem([], 'name', 'web')],
  ['JqPath.listItemsField: no item keys', () => JqPath.listItemsField(['spec', 'ports'], [])],
  ['Suppressions.add: unknown rule', () => Suppressions.add(app().cm, { ruleId: 'SA999', reason: 'nobody reads this rule anyway' })],
  ['Suppressions.add: short reason', () => Suppressions.add(app().cm, { ruleId: 'SA006', reason: 'because' })],
  ['Suppressions.add: twice', () => {
    const { cm } = app();
    Suppressions.add(cm, { ruleId: 'SA006', reason: 'retries are handled by the release pipeline' });
    Suppressions.add(cm, { ruleId: 'SA006', reason: 'retries are handled by the release pipeline' });
  }],
  ['SafeApplication: HEAD', () => app({ targetRevision: 'HEAD' })],
  ['SafeApplication: destinationCluster not built by the factories', () => app({ destinationCluster: { server: 'https://x' } })],
  ['SafeApplication: ignoreRules holding a plain object', () => app({ ignoreRules: [{ pointer: '/spec/replicas' }] })],
  ['SafeApplication: breakGlass reason short', () => app({ breakGlass: { reason: 'incident', expires: '2026-12-01' } })],
  ['SafeApplication: breakGlass expires not a date', () => app({ breakGlass: { reason: 'incident 4711, scaling by hand', expires: '2026-02-30' } })],
  ['SafeApplication.addIgnoreRule: a plain object', () => app().app.addIgnoreRule({} as never)],
  ['SafeApplication.addToSyncWave: a Job', () => { const a = app(); a.app.addToSyncWave(a.job, 1); }],
  ['SafeApplication.addToSyncWave: a fraction', () => { const a = app(); a.app.addToSyncWave(a.cm, 1.5); }],
  ['SafeApplication.addToSyncWave: too far', () => { const a = app(); a.app.addToSyncWave(a.cm, -1001); }],
  ['SafeApplication.addToSyncWave: twice', () => { const a = app(); a.app.addToSyncWave(a.cm, 1); a.app.addToSyncWave(a.cm, 2); }],
  ['SafeApplication.addToSyncWave: another app\'s resource', () => {
    const a = app();
    const other = new SafeApplication(a.gitops, 'other', { name: 'other', project: ArgoProject.fromName('payments'), repoUrl: REPO, destinationNamespace: 'shop' });
    other.addToSyncWave(a.cm, 1);
  }],
  ['SafeApplication.enclosing: outside any app', () => SafeApplication.enclosing(new GitOpsApp({ outdir: 'dist' }))],
  ['GitOpsApp: outdirFromRepoRoot up', () => new GitOpsApp({ outdir: 'dist', outdirFromRepoRoot: '../dist' })],
  ['GitOpsApp: workloadsDir same as applicationsDir', () => new GitOpsApp({ outdir: 'dist', applicationsDir: 'apps', workloadsDir: 'apps' })],
  ['GitOpsApp: workloadsDir the root', () => new GitOpsApp({ outdir: 'dist', workloadsDir: '.' })],
];

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return '(no error)';
}

describe('refusals of the application constructs', () => {
  // Each message is made inside the test that checks it, so that a test, not loading the file, covers the code
  // that builds it (the mutation run counts only what tests run).
  test.each(CASES)('%s: a [SAFE-xxx] error naming where, the prop, what is allowed and the fix', (_name, fn) => {
    expect(messageOf(fn)).toMatch(/^\[SAFE-\d{3}\] \S.*: \S+ .+\. Fix: \S/s);
  });

  test('every message, in full', () => {
    const messages = Object.fromEntries(CASES.map(([name, fn]) => [name, messageOf(fn)]));
    expect(messages).toMatchSnapshot();
  });
});
