import { expectFindings, findingsOf, safeApplication } from './support';
import { Manifest } from '../../src/core/manifest';
import { unresolvedValueFileRef } from '../../src/rules/sa015-unresolved-value-file-ref';

const CHART = { repoURL: 'https://charts.acme.internal', chart: 'api', targetRevision: '1.2.3' };
const VALUES = { repoURL: 'https://git.acme.internal/platform/values.git', targetRevision: 'main', ref: 'values' };

function withSources(...sources: Record<string, unknown>[]): Manifest {
  return safeApplication({ spec: { source: undefined, sources } });
}

function chartWith(...valueFiles: string[]): Record<string, unknown> {
  return { ...CHART, helm: { valueFiles } };
}

describe('SA015 unresolved-value-file-ref', () => {
  test('passes when each $ref names a Git ref source, and on files of the chart and build variables of a single source', () => {
    // GIVEN a chart reading a file of its own and one of the values repository
    const multi = withSources(chartWith('values-prod.yaml', '$values/apps/api/values.yaml'), VALUES);
    // and a single-source chart whose file names a variable of the build environment
    const single = safeApplication({ spec: { source: { ...CHART, helm: { valueFiles: ['$ARGOCD_APP_NAME/values.yaml', 'values.yaml'] } } } });
    // WHEN / THEN
    expect(findingsOf(unresolvedValueFileRef, [], multi)).toEqual([]);
    expect(findingsOf(unresolvedValueFileRef, [], single)).toEqual([]);
    // and build variables in braces, and beside a ref in several sources, are substituted, not refs
    const braces = safeApplication({ spec: { source: { ...CHART, helm: { valueFiles: ['${ARGOCD_APP_NAME}/values.yaml'] } } } });
    expect(findingsOf(unresolvedValueFileRef, [], braces)).toEqual([]);
    expect(findingsOf(unresolvedValueFileRef, [], withSources(chartWith('$values/a.yaml', '$ARGOCD_APP_NAMESPACE/b.yaml'), VALUES))).toEqual([]);
  });

  test('fails when a value file names a ref no source has', () => {
    // GIVEN the ref source was renamed to "platform"
    const app = withSources(chartWith('$values/apps/api/values.yaml'), { ...VALUES, ref: 'platform' });
    // WHEN
    const found = findingsOf(unresolvedValueFileRef, [], app);
    // THEN
    expectFindings(found, app, ['SA015 /spec/sources/0/helm/valueFiles/0']);
    expect(found[0].value).toBe('$values/apps/api/values.yaml');
    expect(found[0].message).toContain('the refs are "platform"');
  });

  test('fails when spec.sources holds no ref source at all, and when the named source is a chart', () => {
    // GIVEN
    const none = withSources(chartWith('$values/a.yaml'), { repoURL: 'https://git.acme.internal/x.git', path: 'extra', targetRevision: 'main' });
    const chartRef = withSources(chartWith('$other/a.yaml'), { ...CHART, chart: 'other', ref: 'other' });
    // WHEN / THEN
    expectFindings(findingsOf(unresolvedValueFileRef, [], none), none, ['SA015 /spec/sources/0/helm/valueFiles/0']);
    expectFindings(findingsOf(unresolvedValueFileRef, [], chartRef), chartRef, ['SA015 /spec/sources/0/helm/valueFiles/0']);
  });

  test('fails when a single-source Application names a ref: it has none', () => {
    // GIVEN spec.sources turned back into spec.source
    const app = safeApplication({ spec: { source: { ...CHART, helm: { valueFiles: ['$values/apps/api/values.yaml'] } } } });
    // WHEN / THEN
    expectFindings(findingsOf(unresolvedValueFileRef, [], app), app, ['SA015 /spec/source/helm/valueFiles/0']);
  });

  test('fails on a ref given twice and on one with characters Argo CD refuses', () => {
    // GIVEN
    const app = withSources(chartWith('$values/a.yaml'), VALUES, { ...VALUES, repoURL: 'https://git.acme.internal/other.git' }, { ...VALUES, ref: 'my.values' });
    // WHEN / THEN
    expectFindings(findingsOf(unresolvedValueFileRef, [], app), app, ['SA015 /spec/sources/2/ref', 'SA015 /spec/sources/3/ref']);
  });

  test('reads spec.sources, not an unread spec.source beside it', () => {
    // GIVEN spec.source names a ref that only spec.sources would have; Argo CD never reads it
    const app = safeApplication({ spec: { source: { ...CHART, helm: { valueFiles: ['$gone/a.yaml'] } }, sources: [chartWith('$values/a.yaml'), VALUES] } });
    // WHEN / THEN
    expect(findingsOf(unresolvedValueFileRef, [], app)).toEqual([]);
  });
});

describe('SA015 on unusual input', () => {
  test('finds nothing without an Application, and skips value files that are not text and sources with an empty ref', () => {
    expect(findingsOf(unresolvedValueFileRef, [withSources(chartWith('$nope/a.yaml'))])).toEqual([]);
    const app = withSources({ ...CHART, helm: { valueFiles: [5, '$values/a.yaml'] } }, { ...VALUES, ref: '' }, VALUES);
    expect(findingsOf(unresolvedValueFileRef, [], app)).toEqual([]);
  });

  test('reports a ref that is not text, names every ref when one is missing, and a build variable\'s name given to a chart source', () => {
    const numbered = withSources(chartWith('$values/a.yaml'), VALUES, { ...VALUES, repoURL: 'https://git.acme.internal/other.git', ref: 5 });
    expect(findingsOf(unresolvedValueFileRef, [], numbered).map((f) => f.path)).toEqual(['/spec/sources/2/ref']);
    const two = withSources(chartWith('$missing/a.yaml', '$values/b.yaml', '$other/c.yaml'), VALUES, { ...VALUES, repoURL: 'https://git.acme.internal/other.git', ref: 'other' });
    expect(findingsOf(unresolvedValueFileRef, [], two)[0].message).toContain('the refs are "values", "other"');
    const chartRef = withSources(chartWith('$KUBE_VERSION/values.yaml'), { ...CHART, chart: 'base', ref: 'KUBE_VERSION' });
    expect(findingsOf(unresolvedValueFileRef, [], chartRef).map((f) => f.path)).toEqual(['/spec/sources/0/helm/valueFiles/0']);
  });
});
