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

  describe('an ApplicationSet whose controller adds the finalizer', () => {
    const set = (spec: Record<string, unknown>) => ({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: 'clusters', namespace: 'argocd' },
      spec: {
        generators: [{ clusters: {} }],
        template: { metadata: { name: '{{name}}' }, spec: { project: 'platform' } },
        ...spec,
      },
    });

    test('fails when its template lists no finalizers and nothing preserves resources, once, at its syncPolicy', () => {
      // GIVEN an ApplicationSet with a syncPolicy that leaves preserveResourcesOnDeletion unset
      const appSet = set({ syncPolicy: { applicationsSync: 'create-update' } });
      // WHEN
      const findings = findingsOf(cascadeDeleteFinalizer, [appSet]);
      // THEN one finding, saying the controller adds the finalizer and how to stop it
      expect(findings.map((f) => [f.rule.id, f.object, f.path])).toEqual([['SA010', appSet, '/spec/syncPolicy']]);
      expect(findings[0].message).toContain('the ApplicationSet controller adds resources-finalizer.argocd.argoproj.io');
      expect(findings[0].message).toContain('preserveResourcesOnDeletion: true');
    });

    test('fails at preserveResourcesOnDeletion when it is false, and at spec without a syncPolicy', () => {
      expect(findingsOf(cascadeDeleteFinalizer, [set({ syncPolicy: { preserveResourcesOnDeletion: false } })]).map((f) => f.path))
        .toEqual(['/spec/syncPolicy/preserveResourcesOnDeletion']);
      expect(findingsOf(cascadeDeleteFinalizer, [set({})]).map((f) => f.path)).toEqual(['/spec']);
    });

    test('fails whatever its generators are, and when a generator\'s own template lists none either', () => {
      // GIVEN generators the audit cannot expand offline, and one whose own template lists no finalizers
      const sets = [
        set({ generators: [{ pullRequest: { github: { owner: 'acme', repo: 'web' } } }] }),
        set({ generators: [{ list: { elements: [], template: { metadata: { labels: { team: 'a' } } } } }] }),
      ];
      // WHEN / THEN each is reported
      expect(sets.map((s) => findingsOf(cascadeDeleteFinalizer, [s]).length)).toEqual([1, 1]);
    });

    test.each([
      ['preserveResourcesOnDeletion is true', { syncPolicy: { preserveResourcesOnDeletion: true } }],
      ['the template lists a finalizer (reported as the template\'s own, if it cascades)', {
        template: { metadata: { name: '{{name}}', finalizers: ['post-delete-finalizer.argocd.argoproj.io'] }, spec: {} },
      }],
      ['every generator\'s own template lists one', {
        generators: [{ list: { elements: [], template: { metadata: { finalizers: ['post-delete-finalizer.argocd.argoproj.io'] } } } }],
      }],
      ['its templatePatch may remove finalizers (a $patch directive)', { templatePatch: 'metadata:\n  $patch: replace\n  name: x\n' }],
      ['its templatePatch nulls them', { templatePatch: 'metadata:\n  finalizers: null\n' }],
    ])('passes when %s', (_, spec) => {
      expect(findingsOf(cascadeDeleteFinalizer, [set(spec)])).toEqual([]);
    });

    test('a templatePatch that adds finalizers does not stop it: finalizers merge', () => {
      const appSet = set({ templatePatch: 'metadata:\n  finalizers:\n    - post-delete-finalizer.argocd.argoproj.io\n' });
      expect(findingsOf(cascadeDeleteFinalizer, [appSet]).map((f) => f.rule.id)).toEqual(['SA010']);
    });
  });
});
