import { readFileSync } from 'fs';
import { join } from 'path';
import { auditJson } from './support';

/** A repository with three ApplicationSets: an unsafe list, a git directory generator over apps/, and pull request previews. */
const ROOT = join(__dirname, '..', 'fixtures', 'application-sets');

function lineOf(file: string, start: string): number {
  return readFileSync(join(ROOT, file), 'utf8').split('\n').findIndex((l) => l.trimStart().startsWith(start)) + 1;
}

describe('safe-argocd audit of a repository of ApplicationSets', () => {
  test('an unsafe ApplicationSet fails the run, once a finding, at its template lines; the git generator pairs apps/ folders', async () => {
    // GIVEN the fixture repository
    // WHEN it is audited as JSON
    const { run, report } = await auditJson(ROOT);

    // THEN the run fails on the findings, each reported once on its ApplicationSet at the template's field
    expect(run.code).toBe(1);
    const at = (file: string) => report.findings.filter((f) => f.location.file === file).map((f) => [f.ruleId, f.pointer, f.location.line]);
    // None preserves resources on deletion, so the controller adds the resources finalizer to each Application (SA010).
    expect(at('bootstrap/unsafe.yaml')).toEqual([
      ['SA010', '/spec', lineOf('bootstrap/unsafe.yaml', 'spec:')],
      ['SA005', '/spec/template/spec/project', lineOf('bootstrap/unsafe.yaml', 'project: default')],
      ['SA007', '/spec/template/spec/source/targetRevision', lineOf('bootstrap/unsafe.yaml', 'targetRevision: HEAD')],
      ['SA003', '/spec/template/spec/ignoreDifferences/0/group', lineOf('bootstrap/unsafe.yaml', '- group:')],
      ['SA003', '/spec/template/spec/ignoreDifferences/0/name', lineOf('bootstrap/unsafe.yaml', '- group:')],
      ['SA003', '/spec/template/spec/ignoreDifferences/0/kind', lineOf('bootstrap/unsafe.yaml', 'kind: \'*\'')],
      ['SA002', '/spec/template/spec/syncPolicy/syncOptions', lineOf('bootstrap/unsafe.yaml', 'syncPolicy:')],
      ['SA006', '/spec/template/spec/syncPolicy/retry', lineOf('bootstrap/unsafe.yaml', 'syncPolicy:')],
    ]);
    // The pull request previews: not expanded, its literal default project judged, its {{head_sha}} revision not.
    // Neither it nor the git directory generator sets applicationsSync, so the controller deletes what they drop (SA016).
    expect(at('bootstrap/previews.yaml')).toEqual([
      ['SA010', '/spec', lineOf('bootstrap/previews.yaml', 'spec:')],
      ['SA016', '/spec', lineOf('bootstrap/previews.yaml', 'spec:')],
      ['SA005', '/spec/template/spec/project', lineOf('bootstrap/previews.yaml', 'project: default')],
    ]);
    expect(at('bootstrap/apps.yaml')).toEqual([
      ['SA010', '/spec', lineOf('bootstrap/apps.yaml', 'spec:')],
      ['SA016', '/spec', lineOf('bootstrap/apps.yaml', 'spec:')],
    ]);
    // The git directory generator: billing's autoscaled Deployment is checked with the Application generated for it.
    expect(report.findings.filter((f) => f.ruleId === 'SA102').map((f) => [f.location.file, f.application])).toEqual([
      ['apps/billing/deployment.yaml', 'billing (ApplicationSet apps)'],
    ]);
    expect(report.notes).toEqual([
      'ApplicationSet previews (bootstrap/previews.yaml): not expanded: a pull request generator lists open pull requests, which is not known offline; '
      + 'its literal fields are audited, those with {{ }} are not',
    ]);
    expect(report.stats).toEqual(expect.objectContaining({ applications: 5, applicationSets: { expanded: 2, literal: 1, generated: 4 } }));
  });
});
