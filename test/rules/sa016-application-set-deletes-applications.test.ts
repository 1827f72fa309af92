import { join } from 'path';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { runRules } from '../../src/rules/engine';
import { applicationSetDeletesApplications } from '../../src/rules/sa016-application-set-deletes-applications';
import { auditJson } from '../audit/support';

/** Hand-written ApplicationSets, one a file of sets/, with apps/web for their git generators to find. */
const ROOT = join(__dirname, '..', 'fixtures', 'application-set-deletion');

function set(spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name: 's', namespace: 'argocd' }, spec };
}

function check(manifest: Record<string, unknown>) {
  return runRules({ resources: [manifest], argoCdVersion: ArgoCdVersion.LATEST }, [applicationSetDeletesApplications]);
}

describe('SA016 application-set-deletes-applications', () => {
  test('the audit finds it in hand-written YAML: unset and deleting policies of git generators, not create-update, a list, or a reasoned suppression', async () => {
    // GIVEN the fixture repository
    // WHEN it is audited
    const { report } = await auditJson(ROOT);
    // THEN SA016 is reported on the ApplicationSets whose controller deletes what a git or clusters generator drops
    const found = report.findings.filter((f) => f.ruleId === 'SA016').map((f) => [f.location.file, f.pointer, f.object]).sort();
    expect(found).toEqual([
      ['sets/matrix.yaml', '/spec/syncPolicy/applicationsSync', 'ApplicationSet argocd/matrix'],
      ['sets/sync.yaml', '/spec/syncPolicy/applicationsSync', 'ApplicationSet argocd/sync'],
      ['sets/unset.yaml', '/spec', 'ApplicationSet argocd/unset'],
    ]);
    expect(report.findings.find((f) => f.location.file === 'sets/unset.yaml' && f.ruleId === 'SA016')!.message).toContain(
      'sets no applicationsSync, so the controller\'s policy applies (sync unless argocd-cmd-params-cm says otherwise): a git generator stops generating');
    expect(report.findings.find((f) => f.location.file === 'sets/matrix.yaml' && f.ruleId === 'SA016')!.message).toContain('applicationsSync create-delete: a clusters generator');
    // and the previews' deliberate deletion is kept, suppressed with its reason
    expect(report.suppressed.filter((f) => f.ruleId === 'SA016').map((f) => [f.location.file, f.suppression?.reason]))
      .toEqual([['sets/previews.yaml', 'a closed pull request\'s preview must go']]);
  });

  test('passes when create-update or create-only keep what the generators drop', () => {
    for (const applicationsSync of ['create-update', 'create-only']) {
      expect(check(set({ generators: [{ git: { directories: [{ path: 'apps/*' }] } }], syncPolicy: { applicationsSync } }))).toEqual([]);
    }
  });

  test('passes for a list generator alone, whatever the policy', () => {
    expect(check(set({ generators: [{ list: { elements: [{ name: 'eu' }] } }] }))).toEqual([]);
  });

  test('fails for a generator nested in a merge, at syncPolicy when it has no applicationsSync', () => {
    const findings = check(set({
      generators: [{ merge: { mergeKeys: ['server'], generators: [{ list: { elements: [] } }, { clusters: {} }] } }],
      syncPolicy: { preserveResourcesOnDeletion: true },
    }));
    expect(findings.map((f) => [f.rule.id, f.path])).toEqual([['SA016', '/spec/syncPolicy']]);
  });

  test('searches past a matrix of lists and skips entries that are no generator; a null applicationsSync is unset', () => {
    // GIVEN a junk entry, a matrix that can drop nothing, then a git generator, and applicationsSync: null
    const findings = check(set({
      generators: [null, 'git', { matrix: { generators: [{ list: { elements: [] } }, { list: { elements: [] } }] } }, { git: { directories: [{ path: 'apps/*' }] } }],
      syncPolicy: { applicationsSync: null },
    }));
    // THEN the git generator is named, and the policy reads as unset
    expect(findings.map((f) => [f.rule.id, f.path])).toEqual([['SA016', '/spec/syncPolicy']]);
    expect(findings[0].message).toContain('sets no applicationsSync');
    expect(findings[0].message).toContain('a git generator stops generating');
  });

  test('looks three levels of matrix and merge deep and no further (Argo CD nests one level), so hostile nesting costs nothing', () => {
    const nest = (levels: number): Record<string, unknown> => (levels === 0
      ? { clusters: {} }
      : { matrix: { generators: [{ list: { elements: [] } }, nest(levels - 1)] } });
    expect(check(set({ generators: [nest(3)] })).map((f) => f.rule.id)).toEqual(['SA016']);
    expect(check(set({ generators: [nest(4)] }))).toEqual([]);
  });

  test('looks at ApplicationSets only', () => {
    expect(check({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, spec: { generators: [{ git: {} }] } })).toEqual([]);
  });
});
