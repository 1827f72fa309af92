import { expectFindings, safeApplication } from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Manifest } from '../../src/core/manifest';
import { runRules, runRulesAcross } from '../../src/rules/engine';
import { ALL_RULES, SYNTH_RULES } from '../../src/rules/registry';
import { duplicateApplicationName } from '../../src/rules/sa011-duplicate-application-name';

function app(name: string, namespace = 'argocd'): Manifest {
  return safeApplication({ metadata: { name, namespace } });
}

/** An Application that names no namespace: it lands in whatever namespace it is applied to. */
function withoutNamespace(name: string): Manifest {
  return safeApplication({ metadata: { name, namespace: undefined } });
}

function across(...sites: [Manifest, string][]) {
  return runRulesAcross(sites.map(([application, file]) => ({ application, file })), [duplicateApplicationName]);
}

describe('SA011 duplicate-application-name', () => {
  test('passes when the Applications of a folder have distinct names', () => {
    // GIVEN
    const findings = across([app('checkout'), 'apps/checkout.yaml'], [app('payments'), 'apps/payments.yaml']);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the same name is written in one folder per cluster: each folder is applied by its own Argo CD', () => {
    // GIVEN
    const findings = across([app('checkout'), 'clusters/prod/apps/checkout.yaml'], [app('checkout'), 'clusters/staging/apps/checkout.yaml']);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the names are the same but the namespaces differ (Applications in any namespace)', () => {
    // GIVEN
    const findings = across([app('checkout', 'team-a'), 'apps/a.yaml'], [app('checkout', 'team-b'), 'apps/b.yaml']);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails on the second of two Applications of one name and namespace in one folder, naming the first file', () => {
    // GIVEN a copied file whose name was not changed
    const original = app('checkout');
    const copy = app('checkout');
    // WHEN the copy comes first in the input: files are taken in order of their paths
    const findings = across([copy, 'apps/checkout-eu.yaml'], [original, 'apps/checkout.yaml']);
    // THEN
    expectFindings(findings, original, ['SA011 /metadata/name']);
    expect(findings[0].message).toContain('is also written in apps/checkout-eu.yaml');
  });

  test('fails on an Application written twice in one file, and on the root folder', () => {
    // GIVEN
    const first = app('checkout');
    const second = app('checkout');
    // WHEN
    const findings = across([first, 'apps.yaml'], [second, 'apps.yaml']);
    // THEN
    expectFindings(findings, second, ['SA011 /metadata/name']);
    expect(findings[0].message).toContain('earlier in this file');
  });

  test('an Application that names no namespace is compared only with others that name none', () => {
    // GIVEN one without a namespace (it lands where it is applied) and one in argocd, then two without
    const findings = across([withoutNamespace('checkout'), 'apps/a.yaml'], [app('checkout'), 'apps/b.yaml'], [withoutNamespace('checkout'), 'apps/c.yaml']);
    // THEN only the second one without a namespace is reported
    expect(findings.map((f) => [f.rule.id, f.message])).toEqual([['SA011', 'Application checkout is also written in apps/a.yaml, in the same folder: applied together, one replaces the other']]);
  });

  test('a reasoned suppression on the copy marks the finding', () => {
    // GIVEN
    const copy = safeApplication({ metadata: { annotations: { 'safe-argocd/suppress.SA011': 'the migration keeps both until Friday' } } });
    // WHEN
    const findings = across([app('checkout'), 'apps/a.yaml'], [copy, 'apps/b.yaml']);
    // THEN
    expect(findings.map((f) => [f.rule.id, f.suppressedBecause])).toEqual([['SA011', 'the migration keeps both until Friday']]);
  });

  test('is audit only, and finds nothing one Application at a time', () => {
    // GIVEN
    const input = { application: app('checkout'), resources: [app('checkout')], argoCdVersion: ArgoCdVersion.LATEST };
    // THEN
    expect(SYNTH_RULES).not.toContain(duplicateApplicationName);
    expect(runRules(input, ALL_RULES).map((f) => f.rule.id)).not.toContain('SA011');
  });

  test('skips what is not an Argo CD Application, and Applications without a name', () => {
    // GIVEN
    const project = { apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata: { name: 'checkout', namespace: 'argocd' } };
    const findings = across([app('checkout'), 'apps/a.yaml'], [project, 'apps/b.yaml'], [app(''), 'apps/c.yaml'], [app(''), 'apps/d.yaml']);
    // THEN
    expect(findings).toEqual([]);
  });
});
