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
      ['SA207', '/spec/sources/0/helm/valuesObject/auth/adminPassword'],
    ]);
    expect(JSON.stringify(result.findings)).not.toContain('hunter2');
  });

  test('finds a password in a value file of the audited repository, $ref or beside the chart, at its valueFiles entry (SA207)', () => {
    // GIVEN a chart from a chart repository with values from a ref source here, and a chart folder here with its own value file
    const fromRef = multiSource('web', { helm: { valueFiles: ['$values/values/web.yaml', '$values/values/common.yaml'] } },
      { repoURL: REPO, targetRevision: 'main', ref: 'values' });
    const inFolder = applicationYaml('api', { path: 'charts/api', spec: { source: { repoURL: REPO, targetRevision: 'main', path: 'charts/api', helm: { valueFiles: ['values-prod.yaml'] } } } });
    const tree = {
      'apps/web.yaml': fromRef,
      'apps/api.yaml': inFolder,
      'values/web.yaml': 'grafana:\n  adminPassword: hunter2\n',
      'values/common.yaml': 'auth:\n  existingSecret: grafana-admin\n',
      'charts/api/Chart.yaml': 'apiVersion: v2\nname: api\nversion: 1.0.0\n',
      'charts/api/values-prod.yaml': 'db:\n  password: hunter3\n',
    };

    // WHEN audited
    const result = audit(tree);

    // THEN each file with a secret is named at its entry, by key only; the one naming an existing Secret is not
    expect(result.findings.filter((f) => f.ruleId === 'SA207').map((f) => `${f.application} ${f.pointer} ${f.location.line} ${f.message}`)).toEqual([
      `api /spec/source/helm/valueFiles/0 ${lineOf(inFolder, 'values-prod.yaml')} the Helm value file values-prod.yaml sets "password" in plain text, in Git`,
      `web /spec/sources/0/helm/valueFiles/0 ${lineOf(fromRef, '$values/values/web.yaml')} the Helm value file $values/values/web.yaml sets "adminPassword" in plain text, in Git`,
    ]);
    expect(JSON.stringify(result.findings)).not.toMatch(/hunter/);
  });

  test('leaves alone a value file of another repository, or one the audited files do not hold', () => {
    // GIVEN a ref source of another repository whose path here happens to hold a file with a password, and a missing file
    const app = multiSource('web', { helm: { valueFiles: ['$values/values/web.yaml', '$values/values/missing.yaml'] } },
      { repoURL: 'https://git.acme.internal/other/values.git', targetRevision: 'main', ref: 'values' });
    // WHEN audited / THEN nothing is said of either
    const result = audit({ 'apps/web.yaml': app, 'values/web.yaml': 'adminPassword: hunter2\n' });
    expect(result.findings.filter((f) => f.ruleId === 'SA207')).toEqual([]);
  });
});
