import { expectFindings, findingsOf, safeApplication } from './support';
import { Manifest } from '../../src/core/manifest';
import { ignoreMissingValueFiles } from '../../src/rules/sa017-ignore-missing-value-files';
import { auditJson, writeTree } from '../audit/support';
import { tempDir } from '../support/app';

const CHART = { repoURL: 'https://charts.acme.internal', chart: 'api', targetRevision: '1.2.3' };

function chartApp(helm: Record<string, unknown>): Manifest {
  return safeApplication({ spec: { source: { ...CHART, helm } } });
}

describe('SA017 ignore-missing-value-files', () => {
  test('passes when value files must exist: the field absent or false, or no Helm options at all', () => {
    expect(findingsOf(ignoreMissingValueFiles, [], chartApp({ valueFiles: ['values-prod.yaml'] }))).toEqual([]);
    expect(findingsOf(ignoreMissingValueFiles, [], chartApp({ valueFiles: ['values-prod.yaml'], ignoreMissingValueFiles: false }))).toEqual([]);
    expect(findingsOf(ignoreMissingValueFiles, [], safeApplication())).toEqual([]);
    // a string is not the boolean Argo CD reads
    expect(findingsOf(ignoreMissingValueFiles, [], chartApp({ ignoreMissingValueFiles: 'true' }))).toEqual([]);
    expect(findingsOf(ignoreMissingValueFiles, [])).toEqual([]);
  });

  test('fails on a Helm source that skips missing value files, naming the files it may skip', () => {
    // GIVEN
    const app = chartApp({ valueFiles: ['values.yaml', 'values-prod.yaml', 'values-eu.yaml', 'values-extra.yaml'], ignoreMissingValueFiles: true });
    // WHEN
    const found = findingsOf(ignoreMissingValueFiles, [], app);
    // THEN
    expectFindings(found, app, ['SA017 /spec/source/helm/ignoreMissingValueFiles']);
    expect(found[0].message).toContain('skips any of its 4 value file(s) that is missing ("values.yaml", "values-prod.yaml", "values-eu.yaml", ...)');
  });

  test('names up to three files, leaves out what is no file name, and says nothing of files when none are listed', () => {
    const [three] = findingsOf(ignoreMissingValueFiles, [], chartApp({ valueFiles: ['a.yaml', 5, 'b.yaml', 'c.yaml'], ignoreMissingValueFiles: true }));
    expect(three.message).toContain('skips any of its 3 value file(s) that is missing ("a.yaml", "b.yaml", "c.yaml"): ');
    expect(three.value).toBe(true);
    const [none] = findingsOf(ignoreMissingValueFiles, [], chartApp({ ignoreMissingValueFiles: true }));
    expect(none.message).toContain('skips any of its 0 value file(s) that is missing: a renamed');
  });

  test('judges each source Argo CD reads: the chart of a multi-source Application, not a spec.source beside spec.sources', () => {
    const app = safeApplication({
      spec: {
        source: { ...CHART, helm: { ignoreMissingValueFiles: true } },
        sources: [{ ...CHART, helm: { valueFiles: ['$values/a.yaml'], ignoreMissingValueFiles: true } }, { repoURL: 'https://git.acme.internal/v.git', targetRevision: 'main', ref: 'values' }],
      },
    });
    expect(findingsOf(ignoreMissingValueFiles, [], app).map((f) => f.path)).toEqual(['/spec/sources/0/helm/ignoreMissingValueFiles']);
  });

  test('the audit finds it in a hand-written Application, at the field\'s line', async () => {
    // GIVEN a repository with one Application that skips missing value files
    const root = tempDir();
    writeTree(root, {
      'apps/api.yaml': [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: Application',
        'metadata: { name: api, namespace: argocd }',
        'spec:',
        '  project: payments',
        '  destination: { server: https://kubernetes.default.svc, namespace: api }',
        '  source:',
        '    repoURL: https://charts.acme.internal',
        '    chart: api',
        '    targetRevision: 1.2.3',
        '    helm:',
        '      valueFiles: [values-prod.yaml]',
        '      ignoreMissingValueFiles: true',
        '',
      ].join('\n'),
    });
    // WHEN it is audited
    const { report } = await auditJson(root);
    // THEN SA017 points at the field
    const found = report.findings.filter((f) => f.ruleId === 'SA017');
    expect(found.map((f) => [f.location.file, f.location.line, f.pointer])).toEqual([['apps/api.yaml', 13, '/spec/source/helm/ignoreMissingValueFiles']]);
  });
});
