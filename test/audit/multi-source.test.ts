import { applicationYaml, deploymentYaml, hpaYaml, key, keysOf } from './support';
import { auditFiles } from '../../src/audit/audit';
import { AuditFile, AuditResult } from '../../src/audit/types';
import { ArgoCdVersion } from '../../src/core/argocd-version';

const REPO = 'https://git.acme.internal/platform/gitops.git';
const CHARTS = 'https://charts.acme.internal';

function audit(tree: Record<string, string>): AuditResult {
  const files: AuditFile[] = Object.entries(tree).map(([path, text]) => ({ path, content: Buffer.from(text, 'utf8') }));
  return auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST, repository: { urls: [REPO] } });
}

/** A hand-written Application with `sources`: a chart of CHARTS, and whatever else is given. */
function multiSource(name: string, chart: Record<string, unknown>, ...rest: Record<string, unknown>[]): string {
  return applicationYaml(name, { spec: { source: undefined, sources: [{ repoURL: CHARTS, chart: name, targetRevision: '1.2.3', ...chart }, ...rest] } });
}

/** The 1-based line of the first line of `text` that holds `words`. */
function lineOf(text: string, words: string): number {
  return text.split('\n').findIndex((l) => l.includes(words)) + 1;
}

describe('auditFiles: Applications with spec.sources', () => {
  test('pairs the second source\'s folder with the Application: its Deployment keeps replicas under an HPA (SA101, SA102)', () => {
    // GIVEN a chart with values from the audited repository, whose ref source also deploys workloads/web-extra
    const app = multiSource('web', { helm: { valueFiles: ['$values/values/web.yaml'] } },
      { repoURL: REPO, targetRevision: 'main', ref: 'values', path: 'workloads/web-extra' });
    const tree = {
      'apps/web.yaml': app,
      'values/web.yaml': 'replicaCount: 2\n',
      'workloads/web-extra/deployment.yaml': deploymentYaml('web', 'web', 3),
      'workloads/web-extra/hpa.yaml': hpaYaml('web', 'web'),
    };
    // WHEN audited
    const result = audit(tree);
    // THEN the Deployment of the second source is the Application's, and the chart is named as not rendered here
    expect(keysOf(result.findings)).toEqual([key('SA101', 'workloads/web-extra/deployment.yaml', 'web'), key('SA102', 'workloads/web-extra/deployment.yaml', 'web')]);
    expect(result.notes).toEqual([expect.stringContaining('Application web (apps/web.yaml): deploys Helm chart web')]);
    expect(result.problems).toEqual([]);
  });

  test('finds a value file naming a ref no source has, at its line (SA015)', () => {
    // GIVEN the ref source was renamed to platform, and the value file still says $values
    const app = multiSource('web', { helm: { valueFiles: ['$values/values/web.yaml'] } }, { repoURL: REPO, targetRevision: 'main', ref: 'platform' });
    // WHEN audited
    const result = audit({ 'apps/web.yaml': app, 'values/web.yaml': 'replicaCount: 2\n' });
    // THEN
    expect(result.findings.map((f) => [f.ruleId, f.pointer, f.location.line])).toEqual([['SA015', '/spec/sources/0/helm/valueFiles/0', lineOf(app, '$values/values/web.yaml')]]);
  });

  test('finds a password in the chart source\'s values and a chart version range in spec.sources (SA207, SA007)', () => {
    // GIVEN
    const app = multiSource('web', { targetRevision: '^1.2.0', helm: { valueFiles: ['$values/values/web.yaml'], valuesObject: { auth: { adminPassword: 'hunter2' } } } },
      { repoURL: REPO, targetRevision: 'main', ref: 'values' });
    // WHEN audited
    const result = audit({ 'apps/web.yaml': app, 'values/web.yaml': 'replicaCount: 2\n' });
    // THEN
    expect(result.findings.map((f) => [f.ruleId, f.pointer]).sort()).toEqual([
      ['SA007', '/spec/sources/0/targetRevision'],
      ['SA207', '/spec/sources/0/helm/valuesObject'],
    ]);
    expect(JSON.stringify(result.findings)).not.toContain('hunter2');
  });
});
