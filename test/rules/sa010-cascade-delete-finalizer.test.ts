import { expectFindings, findingsFor, findingsOf, safeApplication } from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { runRules } from '../../src/rules/engine';
import { SYNTH_RULES } from '../../src/rules/registry';
import { cascadeDeleteFinalizer } from '../../src/rules/sa010-cascade-delete-finalizer';

describe('SA010 cascade-delete-finalizer', () => {
  test('passes when the Application has no finalizer: deleting it orphans what it deployed', () => {
    // GIVEN
    const app = safeApplication();
    // WHEN
    const findings = findingsOf(cascadeDeleteFinalizer, [], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the only finalizer is another one (PostDelete hooks)', () => {
    // GIVEN
    const app = safeApplication({ metadata: { finalizers: ['post-delete-finalizer.argocd.argoproj.io'] } });
    // WHEN
    const findings = findingsOf(cascadeDeleteFinalizer, [], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test.each([
    'resources-finalizer.argocd.argoproj.io',
    'resources-finalizer.argocd.argoproj.io/foreground',
    'resources-finalizer.argocd.argoproj.io/background',
  ])('fails when the Application carries %j, at that finalizer', (finalizer) => {
    // GIVEN
    const app = safeApplication({ metadata: { finalizers: ['post-delete-finalizer.argocd.argoproj.io', finalizer] } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA010 /metadata/finalizers/1']);
    expect(findings[0].value).toBe(finalizer);
    expect(findings[0].message).toContain('remove the finalizer to orphan them');
  });

  test('a reasoned suppression on the Application keeps a deliberate cascade, marked and not dropped', () => {
    // GIVEN a preview environment whose resources must go with it
    const app = safeApplication({
      metadata: {
        finalizers: ['resources-finalizer.argocd.argoproj.io'],
        annotations: { 'safe-argocd/suppress.SA010': 'preview environments are deleted with their Application' },
      },
    });
    // WHEN
    const findings = findingsOf(cascadeDeleteFinalizer, [], app);
    // THEN
    expect(findings.map((f) => [f.rule.id, f.suppressedBecause])).toEqual([['SA010', 'preview environments are deleted with their Application']]);
  });

  test('a synth does not run it: SafeApplication\'s deletionPolicy CASCADE_* is already a deliberate, named choice', () => {
    // GIVEN what SafeApplication renders for DeletionPolicy.CASCADE_FOREGROUND
    const app = safeApplication({ metadata: { finalizers: ['resources-finalizer.argocd.argoproj.io'] } });
    // WHEN the synth's rules run
    const findings = runRules({ application: app, resources: [], argoCdVersion: ArgoCdVersion.LATEST }, SYNTH_RULES);
    // THEN
    expect(cascadeDeleteFinalizer.auditOnly).toBe(true);
    expect(findings.map((f) => f.rule.id)).not.toContain('SA010');
  });
});
