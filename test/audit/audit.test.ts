import { parse, stringify } from 'yaml';
import { applicationYaml, auditInMemory as audit, configMapYaml, deploymentYaml, hpaYaml, key, keysOf } from './support';
import { auditFiles, AuditOptions } from '../../src/audit/audit';
import { AuditFile, AuditResult } from '../../src/audit/types';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import * as parseModule from '../../src/core/parse-manifests';
import { ALL_RULES } from '../../src/rules/registry';
import { Severity } from '../../src/rules/severity';

const OPTIONS: AuditOptions = { argoCdVersion: ArgoCdVersion.LATEST };

function jobYaml(name: string, namespace: string, annotations: Record<string, string>, extraSpec: Record<string, unknown> = {}): string {
  return stringify({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace, annotations },
    spec: { ...extraSpec, template: { spec: { restartPolicy: 'Never', containers: [{ name, image: 'registry.acme.internal/web:1.0.0' }] } } },
  });
}

/** An AppProject allowing the gitops repository and the given namespaces on the local cluster. */
function appProjectYaml(name: string, namespaces: readonly string[]): string {
  return stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AppProject',
    metadata: { name, namespace: 'argocd' },
    spec: {
      sourceRepos: ['https://git.acme.internal/platform/gitops.git'],
      destinations: namespaces.map((namespace) => ({ server: 'https://kubernetes.default.svc', namespace })),
    },
  });
}

/** An HPA-scaled Deployment that keeps replicas: SA101 always, SA102 when an Application deploys it. */
function autoscaledWorkload(dir: string, namespace: string): Record<string, string> {
  return {
    [`${dir}/deployment.yaml`]: deploymentYaml('web', namespace, 3),
    [`${dir}/hpa.yaml`]: hpaYaml('web', namespace),
  };
}

describe('auditFiles: pairing Applications with their manifests', () => {
  test('an Application is paired with the manifests in its source.path folder', () => {
    // GIVEN an Application deploying workloads/web, which holds an autoscaled Deployment with replicas
    const result = audit({ 'apps/web.yaml': applicationYaml('web'), ...autoscaledWorkload('workloads/web', 'web') });

    // WHEN it is audited
    // THEN the workload rules that need the Application run with it
    expect(keysOf(result.findings)).toEqual([
      key('SA101', 'workloads/web/deployment.yaml', 'web'),
      key('SA102', 'workloads/web/deployment.yaml', 'web'),
    ]);
    expect(result.stats).toEqual({ files: 3, manifests: 3, applications: 1, skippedDocuments: 0, skippedTemplates: 0, excludedFiles: 0 });
    expect(result.notes).toEqual([]);
  });

  test('an app-of-apps root deploys the Applications in its folder: their waves are its waves (SA105), their findings stay theirs', () => {
    // GIVEN a root with ApplyOutOfSyncOnly deploying apps/, which holds two child Applications in sync waves, one of them in the default project
    const wave = (n: string) => ({ 'argocd.argoproj.io/sync-wave': n });
    const files = {
      'bootstrap/root.yaml': applicationYaml('root', { path: 'apps', syncPolicy: { syncOptions: ['ApplyOutOfSyncOnly=true'] } }),
      'apps/web.yaml': applicationYaml('web', { annotations: wave('1') }),
      'apps/api.yaml': applicationYaml('api', { annotations: wave('2'), spec: { project: 'default' } }),
    };

    // WHEN it is audited
    const result = audit(files);

    // THEN the root is reported for ordering its children in waves, its folder is not said to hold nothing, and the
    // child's own finding is reported once, for the child
    expect(result.findings.filter((f) => f.ruleId === 'SA105').map((f) => `${f.application} ${f.message}`)).toEqual([
      'root ApplyOutOfSyncOnly=true is set while 2 resource(s) are ordered in sync waves'
        + ': a wave does not wait for the resources of earlier waves that are already in sync to be healthy',
    ]);
    expect(result.notes.filter((n) => n.includes('holds no manifests'))).toEqual([]);
    expect(result.findings.filter((f) => f.ruleId === 'SA005').map((f) => `${f.location.file} ${f.application}`)).toEqual(['apps/api.yaml api']);
  });

  test('an Application whose source path is its own folder does not deploy itself', () => {
    // GIVEN a root in apps/ deploying apps/, with ApplyOutOfSyncOnly and in a sync wave itself, beside an unwaved child
    const files = {
      'apps/root.yaml': applicationYaml('root', { path: 'apps', annotations: { 'argocd.argoproj.io/sync-wave': '-1' }, syncPolicy: { syncOptions: ['ApplyOutOfSyncOnly=true'] } }),
      'apps/web.yaml': applicationYaml('web'),
    };

    // WHEN it is audited / THEN its own wave orders nothing it deploys
    expect(audit(files).findings.filter((f) => f.ruleId === 'SA105')).toEqual([]);
  });

  test('a source.path written as ./folder/ is the same folder', () => {
    // GIVEN an Application whose path has a leading ./ and a trailing slash
    const result = audit({ 'apps/web.yaml': applicationYaml('web', { path: './workloads/web/' }), ...autoscaledWorkload('workloads/web', 'web') });

    // WHEN it is audited
    // THEN it is still paired
    expect(keysOf(result.findings)).toContain(key('SA102', 'workloads/web/deployment.yaml', 'web'));
  });

  test.each([['.'], ['./'], ['']])('a source.path of %p is the repository root: the manifests there are paired', (sourcePath) => {
    // GIVEN an Application deploying the repository root, which holds an autoscaled Deployment with replicas
    const result = audit({ 'apps/web.yaml': applicationYaml('web', { path: sourcePath }), 'deployment.yaml': deploymentYaml('web', 'web', 3), 'hpa.yaml': hpaYaml('web', 'web') });

    // WHEN it is audited
    // THEN the workload is paired (SA102 needs the Application) and no "holds no manifests" note is given
    expect(keysOf(result.findings)).toEqual([key('SA101', 'deployment.yaml', 'web'), key('SA102', 'deployment.yaml', 'web')]);
    expect(result.notes).toEqual([]);
  });

  test('with directory.recurse, a source.path of . pairs every folder', () => {
    // GIVEN an Application deploying the whole repository recursively
    const result = audit({
      'apps/web.yaml': applicationYaml('web', { path: '.', spec: { source: { repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'main', path: '.', directory: { recurse: true } } } }),
      ...autoscaledWorkload('workloads/web', 'web'),
    });

    // WHEN it is audited
    // THEN the workload in a subfolder is paired
    expect(keysOf(result.findings)).toContain(key('SA102', 'workloads/web/deployment.yaml', 'web'));
  });

  test('the app-of-apps layout: a child Application is checked against the AppProject beside it (SA202), once', () => {
    // GIVEN a root deploying applications/payments, which holds the project and a child with a forbidden destination
    const project = stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'AppProject',
      metadata: { name: 'payments', namespace: 'argocd' },
      spec: {
        sourceRepos: ['https://git.acme.internal/platform/gitops.git'],
        destinations: [{ server: 'https://kubernetes.default.svc', namespace: 'web' }],
        roles: [{ name: 'ops', policies: ['p, proj:payments:ops, applications, override, payments/*, allow'] }],
      },
    });
    const files = {
      'roots/payments.yaml': applicationYaml('root', { path: 'applications/payments', spec: { project: 'platform', destination: { server: 'https://kubernetes.default.svc', namespace: 'argocd' } } }),
      'applications/payments/AppProject.payments.yaml': project,
      'applications/payments/Application.web.yaml': applicationYaml('web'),
      'applications/payments/Application.api.yaml': applicationYaml('api'),
    };

    // WHEN it is audited, with and without the root
    const result = audit(files);
    const withoutRoot = audit(Object.fromEntries(Object.entries(files).filter(([f]) => !f.startsWith('roots/'))));

    // THEN the child deploying outside the project is reported against it, and the project's own finding (SA205) only once
    for (const r of [result, withoutRoot]) {
      expect(r.findings.filter((f) => f.ruleId === 'SA202').map((f) => `${f.application} ${f.message}`)).toEqual([
        'api project payments does not allow namespace "api" on https://kubernetes.default.svc',
      ]);
      expect(r.findings.filter((f) => f.ruleId === 'SA205').map((f) => f.location.file)).toEqual(['applications/payments/AppProject.payments.yaml']);
    }
    expect(result.findings.find((f) => f.ruleId === 'SA205')!.application).toBe('root');
  });

  test('an AppProject in a folder of its own is the one its Applications name (SA202), as Argo CD resolves projects by name', () => {
    // GIVEN the projects in projects/ and the Applications in applications/, one deploying where its project does not allow
    const files = {
      'projects/payments.yaml': appProjectYaml('payments', ['web']),
      'applications/web.yaml': applicationYaml('web'),
      'applications/api.yaml': applicationYaml('api'),
    };

    // WHEN it is audited
    const result = audit(files);

    // THEN the Application outside its project is reported, once, at its destination
    expect(result.findings.filter((f) => f.ruleId === 'SA202').map((f) => `${f.location.file} ${f.pointer} ${f.message}`)).toEqual([
      'applications/api.yaml /spec/destination project payments does not allow namespace "api" on https://kubernetes.default.svc',
    ]);
  });

  test('repository and cluster Secrets scoped to the project, written in a folder of their own, widen what it allows (SA202)', () => {
    // GIVEN a project allowing only the gitops repository in-cluster, Applications reading a chart repository and
    // deploying to an edge cluster, and Argo CD Secrets scoped to the project in argocd/
    const secret = (name: string, type: string, stringData: Record<string, string>) => stringify({
      apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': type } }, stringData,
    });
    const chart = { source: { repoURL: 'https://charts.longhorn.io', chart: 'longhorn', targetRevision: '1.9.0' } };
    const edge = { destination: { server: 'https://edge.acme.internal', namespace: 'web' } };
    const files = {
      'projects/payments.yaml': appProjectYaml('payments', ['web']),
      'applications/longhorn.yaml': applicationYaml('web', { spec: chart }),
      'applications/edge.yaml': applicationYaml('edge', { spec: edge }),
    };
    const scoped = {
      ...files,
      'argocd/repositories.yaml': secret('longhorn', 'repository', { project: 'payments', type: 'helm', url: 'https://charts.longhorn.io' }),
      'argocd/clusters.yaml': secret('edge', 'cluster', { project: 'payments', name: 'edge', server: 'https://edge.acme.internal' }),
    };

    // WHEN it is audited without the Secrets, and with them
    const sa202 = (r: AuditResult) => r.findings.filter((f) => f.ruleId === 'SA202').map((f) => `${f.location.file} ${f.pointer}`);

    // THEN without them both Applications are outside the project; with them, as Argo CD's GetAppProjectByName reads them, neither is
    expect(sa202(audit(files))).toEqual(['applications/edge.yaml /spec/destination', 'applications/longhorn.yaml /spec/source/repoURL']);
    expect(sa202(audit(scoped))).toEqual([]);
  });

  test('the AppProject an Application names is not counted among what it deploys: a project in a sync wave is no wave of the app (SA105)', () => {
    // GIVEN an Application with ApplyOutOfSyncOnly=true whose project, written in projects/, is in sync wave 0
    const waved = (yaml: string) => yaml.replace(/^metadata:\n/m, 'metadata:\n  annotations:\n    argocd.argoproj.io/sync-wave: "0"\n');
    const app = applicationYaml('web', { syncPolicy: { syncOptions: ['ApplyOutOfSyncOnly=true'] } });
    const project = waved(appProjectYaml('payments', ['web']));
    expect(project).toContain('argocd.argoproj.io/sync-wave');

    // WHEN it is audited, once with plain workloads and once with a workload in that wave
    const plain = audit({ 'projects/payments.yaml': project, 'applications/web.yaml': app, 'workloads/web/settings.yaml': configMapYaml('settings', 'web') });
    const ordered = audit({ 'projects/payments.yaml': project, 'applications/web.yaml': app, 'workloads/web/settings.yaml': waved(configMapYaml('settings', 'web')) });

    // THEN only a wave among what it deploys makes SA105; the project still answers for SA202 (web is allowed)
    expect(plain.findings.filter((f) => f.ruleId === 'SA105')).toEqual([]);
    expect(ordered.findings.filter((f) => f.ruleId === 'SA105').map((f) => f.message)).toEqual([
      'ApplyOutOfSyncOnly=true is set while 1 resource(s) are ordered in sync waves'
        + ': a wave does not wait for the resources of earlier waves that are already in sync to be healthy',
    ]);
    const outside = audit({ 'projects/payments.yaml': project, 'applications/api.yaml': applicationYaml('api') });
    expect(outside.findings.filter((f) => f.ruleId === 'SA202')).toHaveLength(1);
  });

  test('copies of one platform: each Application is checked against the AppProject of its name nearest to it (SA202)', () => {
    // GIVEN two copies of a platform, each with its own payments project allowing a different namespace
    const files = {
      'aws/projects/payments.yaml': appProjectYaml('payments', ['web']),
      'aws/applications/web.yaml': applicationYaml('web'),
      'gcp/projects/payments.yaml': appProjectYaml('payments', ['api']),
      'gcp/applications/web.yaml': applicationYaml('web'),
      'gcp/applications/api.yaml': applicationYaml('api'),
    };

    // WHEN it is audited
    const result = audit(files);

    // THEN only gcp's web is outside its own copy's project
    expect(result.findings.filter((f) => f.ruleId === 'SA202').map((f) => `${f.location.file} ${f.message}`)).toEqual([
      'gcp/applications/web.yaml project payments does not allow namespace "web" on https://kubernetes.default.svc',
    ]);
  });

  test('two AppProjects of one name, equally near in different files: neither is taken to be the Application\'s (no SA202)', () => {
    // GIVEN two files defining the payments project differently, beside each other
    const files = {
      'projects/payments-a.yaml': appProjectYaml('payments', ['web']),
      'projects/payments-b.yaml': appProjectYaml('payments', ['api']),
      'applications/api.yaml': applicationYaml('api'),
    };

    // WHEN it is audited / THEN which one Argo CD holds cannot be told, and nothing is claimed
    expect(audit(files).findings.filter((f) => f.ruleId === 'SA202')).toEqual([]);
  });

  test('without directory.recurse, manifests in subfolders are not paired but still checked as loose manifests', () => {
    // GIVEN an Application deploying workloads/web, whose workloads sit in workloads/web/base
    const result = audit({
      'apps/web.yaml': applicationYaml('web'),
      'workloads/web/configmap.yaml': configMapYaml('settings', 'web'),
      ...autoscaledWorkload('workloads/web/base', 'web'),
    });

    // WHEN it is audited
    // THEN only the Application-free rule SA101 sees the Deployment, with no Application
    expect(keysOf(result.findings)).toEqual([key('SA101', 'workloads/web/base/deployment.yaml')]);
  });

  test('with directory.recurse: true, manifests in subfolders are paired', () => {
    // GIVEN the same layout, with recurse on
    const result = audit({
      'apps/web.yaml': applicationYaml('web', { spec: { source: { repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'main', path: 'workloads/web', directory: { recurse: true } } } }),
      'workloads/web/configmap.yaml': configMapYaml('settings', 'web'),
      ...autoscaledWorkload('workloads/web/base', 'web'),
    });

    // WHEN it is audited
    // THEN the Deployment belongs to the Application
    expect(keysOf(result.findings)).toEqual([
      key('SA101', 'workloads/web/base/deployment.yaml', 'web'),
      key('SA102', 'workloads/web/base/deployment.yaml', 'web'),
    ]);
  });

  test('recurse does not reach a sibling folder whose name only starts the same', () => {
    // GIVEN an Application deploying workloads/web recursively, and manifests in workloads/web-legacy
    const result = audit({
      'apps/web.yaml': applicationYaml('web', { spec: { source: { repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'main', path: 'workloads/web', directory: { recurse: true } } } }),
      'workloads/web/configmap.yaml': configMapYaml('settings', 'web'),
      ...autoscaledWorkload('workloads/web-legacy', 'web'),
    });

    // WHEN it is audited
    // THEN the sibling's Deployment is loose
    expect(keysOf(result.findings)).toEqual([key('SA101', 'workloads/web-legacy/deployment.yaml')]);
  });

  test('directory.recurse in spec.sources[] pairs subfolders too', () => {
    // GIVEN a multi-source Application whose only source recurses into workloads/web
    const result = audit({
      'apps/web.yaml': applicationYaml('web', {
        spec: {
          source: undefined,
          sources: [{ repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'main', path: 'workloads/web', directory: { recurse: true } }],
        },
      }),
      'workloads/web/configmap.yaml': configMapYaml('settings', 'web'),
      ...autoscaledWorkload('workloads/web/base', 'web'),
    });

    // WHEN it is audited
    // THEN the Deployment in the subfolder belongs to the Application, as Argo CD deploys it
    expect(keysOf(result.findings)).toEqual([
      key('SA101', 'workloads/web/base/deployment.yaml', 'web'),
      key('SA102', 'workloads/web/base/deployment.yaml', 'web'),
    ]);
  });

  test('an Application whose source path holds nothing audited gets a note', () => {
    // GIVEN an Application whose folder holds only a jsonnet file
    const result = audit({ 'apps/web.yaml': applicationYaml('web') }, { repository: { otherFiles: ['workloads/web/main.jsonnet'] } });

    // WHEN it is audited
    // THEN the gap is noted, and the Application itself is still checked (clean)
    expect(result.notes).toEqual(['Application web (apps/web.yaml): source path workloads/web holds no manifests in the audited files']);
    expect(result.findings).toEqual([]);
    expect(result.stats.applications).toBe(1);
  });

  test('two Applications of one name in one folder are reported once, on the later file (SA011); the same name per cluster folder is not', () => {
    // GIVEN a copied file in apps/, and the same app written once for each of two clusters
    const result = audit({
      'apps/web.yaml': applicationYaml('web'),
      'apps/web-copy.yaml': applicationYaml('web'),
      'clusters/prod/checkout.yaml': applicationYaml('checkout'),
      'clusters/staging/checkout.yaml': applicationYaml('checkout'),
    }, { ruleIds: ['SA011'] });

    // WHEN it is audited
    // THEN the one whose file sorts later (apps/web.yaml) is reported, with its Application's name
    expect(keysOf(result.findings)).toEqual([key('SA011', 'apps/web.yaml', 'web')]);
    expect(result.findings[0].message).toBe('Application argocd/web is also written in apps/web-copy.yaml, in the same folder: applied together, one replaces the other');
  });

  test('manifests no Application deploys are still checked by SA101, SA103 and SA104', () => {
    // GIVEN loose manifests: an autoscaled Deployment with replicas, a Job in a sync wave before it, and a hook Job without deadline
    const result = audit({
      ...autoscaledWorkload('loose/web', 'web'),
      'loose/web/migrate.yaml': jobYaml('migrate', 'web', { 'argocd.argoproj.io/sync-wave': '-1' }),
      'loose/jobs/hook.yaml': jobYaml('seed', 'web', { 'argocd.argoproj.io/hook': 'PreSync' }),
      'loose/jobs/bounded-hook.yaml': jobYaml('bounded', 'web', { 'argocd.argoproj.io/hook': 'PreSync' }, { activeDeadlineSeconds: 600 }),
    });

    // WHEN they are audited
    // THEN the three workload rules report them, with no Application
    expect(keysOf(result.findings)).toEqual([
      key('SA101', 'loose/web/deployment.yaml'),
      key('SA103', 'loose/web/migrate.yaml'),
      key('SA104', 'loose/jobs/hook.yaml'),
    ]);
    expect(result.findings.every((f) => f.application === undefined)).toBe(true);
    expect(result.stats.applications).toBe(0);
  });

  test('a finding is placed at its field: in a later document of a file, at the line and column of the key', () => {
    // GIVEN a file with a ConfigMap and then a Job in a sync wave before it
    const text = `${configMapYaml('settings', 'web')}---\n${jobYaml('migrate', 'web', { 'argocd.argoproj.io/sync-wave': '-1' })}`;
    const lines = text.split('\n');
    const waveLine = lines.findIndex((l) => l.trimStart().startsWith('argocd.argoproj.io/sync-wave:')) + 1;
    const waveColumn = lines[waveLine - 1].indexOf('argocd.argoproj.io/sync-wave') + 1;

    // WHEN it is audited
    const result = audit({ 'loose/all.yaml': text });

    // THEN SA103 points at the sync-wave annotation itself, not at the Job's first line
    expect(waveLine).toBeGreaterThan(lines.indexOf('apiVersion: batch/v1') + 1);
    expect(result.findings.map((f) => [f.ruleId, f.pointer, f.location])).toEqual([
      ['SA103', '/metadata/annotations/argocd.argoproj.io~1sync-wave', { file: 'loose/all.yaml', line: waveLine, column: waveColumn }],
    ]);
  });

  test('a finding on an ApplicationSet template is placed at the field under spec.template', () => {
    // GIVEN a literal ApplicationSet template with selfHeal off
    const template = { metadata: { name: 'web' }, spec: { ...(parse(applicationYaml('web', { syncPolicy: { automated: { prune: true, selfHeal: false } } })) as { spec: object }).spec } };
    const text = stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name: 'set', namespace: 'argocd' }, spec: { generators: [], template, syncPolicy: { preserveResourcesOnDeletion: true } } });
    const selfHealLine = text.split('\n').findIndex((l) => l.trimStart().startsWith('selfHeal:')) + 1;

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text });

    // THEN SA001 is on the selfHeal line of the template
    expect(result.findings.map((f) => [f.ruleId, f.location.line])).toEqual([['SA001', selfHealLine]]);
  });

  test('the result does not depend on the order of the files', () => {
    // GIVEN the same files in two orders
    const files = {
      'apps/web.yaml': applicationYaml('web', { syncPolicy: { automated: { prune: true, selfHeal: false } } }),
      ...autoscaledWorkload('workloads/web', 'web'),
      'loose/migrate.yaml': jobYaml('migrate', 'web', { 'argocd.argoproj.io/sync-wave': '-1' }),
    };
    const reversed = Object.fromEntries(Object.entries(files).reverse());

    // WHEN both are audited
    // THEN the results are equal, ordered by file and line
    const result = audit(files);
    expect(audit(reversed)).toEqual(result);
    expect(result.findings.map((f) => f.location.file)).toEqual([...result.findings.map((f) => f.location.file)].sort());
  });
});

describe('auditFiles: one finding per rule, object and field', () => {
  const source = (p: string) => ({ repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'main', path: p });

  test('two Applications of the same name deploying one folder report its workload once', () => {
    // GIVEN Application web in two environments, both deploying workloads/web (an autoscaled Deployment with replicas)
    const result = audit({
      'apps/prod/web.yaml': applicationYaml('web'),
      'apps/staging/web.yaml': applicationYaml('web'),
      ...autoscaledWorkload('workloads/web', 'web'),
    });

    // WHEN it is audited
    // THEN SA101 and SA102 are reported once each, not once per Application
    expect(keysOf(result.findings)).toEqual([key('SA101', 'workloads/web/deployment.yaml', 'web'), key('SA102', 'workloads/web/deployment.yaml', 'web')]);
  });

  test('an Application whose sources name the same folder twice reports it once', () => {
    // GIVEN one Application with two sources on workloads/web, one recursing
    const result = audit({
      'apps/web.yaml': applicationYaml('web', { spec: { source: undefined, sources: [source('workloads/web'), { ...source('workloads'), directory: { recurse: true } }] } }),
      ...autoscaledWorkload('workloads/web', 'web'),
    });

    // WHEN it is audited / THEN each finding is there once
    expect(keysOf(result.findings)).toEqual([key('SA101', 'workloads/web/deployment.yaml', 'web'), key('SA102', 'workloads/web/deployment.yaml', 'web')]);
  });

  test('an AppProject several roots deploy is reported once per permissive entry (SA201)', () => {
    // GIVEN a permissive project in projects/, deployed by two root Applications
    const project = stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'AppProject',
      metadata: { name: 'open', namespace: 'argocd' },
      spec: { sourceRepos: ['*'], destinations: [{ server: '*', namespace: '*' }] },
    });
    const root = (name: string) => applicationYaml(name, { path: 'projects', spec: { project: 'platform', destination: { server: 'https://kubernetes.default.svc', namespace: 'argocd' } } });
    const result = audit({ 'roots/a.yaml': root('root-a'), 'roots/b.yaml': root('root-b'), 'projects/open.yaml': project });

    // WHEN it is audited
    // THEN each permissive entry is one finding, attributed to the first root by name
    const sa201 = result.findings.filter((f) => f.ruleId === 'SA201');
    expect(sa201.map((f) => f.pointer)).toEqual(['/spec/sourceRepos/0', '/spec/destinations/0/server']);
    expect(new Set(sa201.map((f) => f.application))).toEqual(new Set(['root-a']));
  });

  test('a copy no suppression silences wins over one that a suppression limited to another Application silences', () => {
    // GIVEN two Applications deploying one autoscaled Deployment, and SA101 suppressed for Application a only
    const files = {
      'apps/a.yaml': applicationYaml('a', { path: 'workloads/web' }),
      'apps/b.yaml': applicationYaml('b', { path: 'workloads/web' }),
      ...autoscaledWorkload('workloads/web', 'web'),
    };
    const suppressions = [{ ruleId: 'SA101', reason: 'a scales by hand for now', paths: [], applications: ['a'] }];

    // WHEN it is audited
    const result = audit(files, { suppressions });

    // THEN SA101 is reported (b deploys it unsuppressed), once, and not listed as suppressed
    expect(result.findings.filter((f) => f.ruleId === 'SA101').map((f) => f.application)).toEqual(['b']);
    expect(result.suppressed).toEqual([]);
  });

  test('two objects of the same kind and name in one file are two objects', () => {
    // GIVEN one file holding the same Job twice, both in a sync wave, and a ConfigMap applied in a later wave
    const job = jobYaml('migrate', 'web', { 'argocd.argoproj.io/sync-wave': '1' });
    const later = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: web\n  annotations:\n    argocd.argoproj.io/sync-wave: "2"\n';
    const result = audit({ 'loose/jobs.yaml': `${job}---\n${job}---\n${later}` });

    // WHEN it is audited / THEN each is reported, at its own line
    const lines = result.findings.filter((f) => f.ruleId === 'SA103').map((f) => f.location.line);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBeLessThan(lines[1]);
  });
});

describe('auditFiles: file formats', () => {
  test('multi-document YAML, JSON and kind: List files are all read', () => {
    // GIVEN an Application in JSON, and its workloads as a List and as two documents of one file
    const list = stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'web' } }] });
    const result = audit({
      'apps/web.json': JSON.stringify(parse(applicationYaml('web')), null, 2),
      'workloads/web/list.yaml': list,
      'workloads/web/both.yaml': `${deploymentYaml('web', 'web', 3)}---\n${hpaYaml('web', 'web')}`,
    });

    // WHEN they are audited
    // THEN every object is counted and paired
    expect(result.stats).toEqual({ files: 3, manifests: 4, applications: 1, skippedDocuments: 0, skippedTemplates: 0, excludedFiles: 0 });
    expect(keysOf(result.findings)).toEqual([key('SA101', 'workloads/web/both.yaml', 'web'), key('SA102', 'workloads/web/both.yaml', 'web')]);
    expect(result.problems).toEqual([]);
  });

  test('non-Kubernetes YAML is skipped quietly and counted', () => {
    // GIVEN a values file and a CI config next to a manifest
    const result = audit({
      'workloads/web/values.yaml': 'replicaCount: 3\nimage: {tag: 1.0.0}\n',
      '.github/workflows/ci.yaml': 'on: push\njobs: {}\n---\nname: second\n',
      'workloads/web/configmap.yaml': configMapYaml('settings', 'web'),
    });

    // WHEN they are audited
    // THEN three documents are skipped, without problems or findings
    expect(result.stats.skippedDocuments).toBe(3);
    expect(result.stats.manifests).toBe(1);
    expect(result.problems).toEqual([]);
    expect(result.findings).toEqual([]);
  });

  test('a manifest with {{ }} inside a string value is audited: the alert annotations of a PrometheusRule are not a Helm template', () => {
    // GIVEN a PrometheusRule, whose alert annotations use Prometheus' own {{ }} templating inside a YAML string
    const rule = [
      'apiVersion: monitoring.coreos.com/v1',
      'kind: PrometheusRule',
      'metadata: {name: web, namespace: web}',
      'spec:',
      '  groups:',
      '    - name: web',
      '      rules:',
      '        - alert: WebDown',
      '          expr: up{job="web"} == 0',
      '          annotations:',
      '            summary: "{{ $labels.instance }} is down"',
    ].join('\n');

    // WHEN it is audited
    const result = audit({ 'workloads/web/prometheusrule.yaml': rule });

    // THEN it is a valid Kubernetes object, read like any other, not an unreadable file
    expect(result.problems).toEqual([]);
    expect(result.stats.manifests).toBe(1);
  });

  test('an Application pinned to a tag named like a date is not reported as floating (SA007)', () => {
    // GIVEN an Application whose targetRevision is the release tag 2024-05-01, written without quotes
    const source = { repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'TAG', path: 'workloads/web' };
    const text = applicationYaml('web', { spec: { source } }).replace('targetRevision: TAG', 'targetRevision: 2024-05-01');

    // WHEN it is audited
    const result = audit({ 'apps/web.yaml': text, 'workloads/web/configmap.yaml': configMapYaml('settings', 'web') });

    // THEN the tag is a pinned revision, as Argo CD reads it (the string "2024-05-01")
    expect(text).toContain('targetRevision: 2024-05-01\n');
    expect(result.findings).toEqual([]);
  });

  test('fails when a file cannot be read: it is reported and the others are still audited', () => {
    // GIVEN a file whose content cannot be read, next to an Application with a finding
    const files: AuditFile[] = [
      { path: 'apps/web.yaml', content: Buffer.from(applicationYaml('web', { syncPolicy: { automated: { prune: true, selfHeal: false } } })) },
      { path: 'workloads/web/locked.yaml', get content(): Uint8Array { throw new Error('EACCES: permission denied, open \'locked.yaml\'\nstack'); } },
    ];

    // WHEN they are audited
    const result = auditFiles(files, OPTIONS);

    // THEN the read error is a one-line problem and SA001 is still found
    expect(result.problems).toEqual([{ file: 'workloads/web/locked.yaml', message: 'cannot be read: EACCES: permission denied, open \'locked.yaml\'' }]);
    expect(keysOf(result.findings)).toEqual([key('SA001', 'apps/web.yaml', 'web')]);
  });

  test('fails when one file is broken: it is reported and the others are still audited', () => {
    // GIVEN a broken file next to an Application with a finding
    const result = audit({
      'apps/web.yaml': applicationYaml('web', { syncPolicy: { automated: { prune: true, selfHeal: false } } }),
      'workloads/web/broken.yaml': 'metadata: [unclosed\n',
    });

    // WHEN they are audited
    // THEN the broken file is a problem and SA001 is still found
    expect(result.problems.map((p) => p.file)).toEqual(['workloads/web/broken.yaml']);
    expect(keysOf(result.findings)).toEqual([key('SA001', 'apps/web.yaml', 'web')]);
  });
});

describe('auditFiles: ApplicationSets', () => {
  const appSet = (template: Record<string, unknown>, elements: Record<string, unknown>[] = [{ cluster: 'eu' }]) => stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'web-set', namespace: 'argocd' },
    // preserving resources, so that the finalizer the controller would add (SA010) stays out of what these tests look at
    spec: { generators: [{ list: { elements } }], template, syncPolicy: { preserveResourcesOnDeletion: true } },
  });
  const spec = (name: string) => (parse(applicationYaml(name)) as { spec: Record<string, unknown> }).spec;

  test('an ApplicationSet with a literal template is audited as an Application', () => {
    // GIVEN an ApplicationSet whose template uses no generator parameter, in the default project, deploying workloads/web
    const template = { metadata: { name: 'web' }, spec: { ...spec('web'), project: 'default' } };
    const result = audit({ 'apps/web-set.yaml': appSet(template), ...autoscaledWorkload('workloads/web', 'web') });

    // WHEN it is audited
    // THEN the template is checked like an Application, and paired with its workloads
    expect(keysOf(result.findings)).toEqual([
      key('SA005', 'apps/web-set.yaml'),
      key('SA101', 'workloads/web/deployment.yaml', 'web (ApplicationSet web-set)'),
      key('SA102', 'workloads/web/deployment.yaml', 'web (ApplicationSet web-set)'),
    ]);
    expect(result.stats.applications).toBe(1);
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 1 });
    expect(result.notes).toEqual([]);
  });

  test('an ApplicationSet whose template uses {{ }} list parameters is expanded, with no note', () => {
    // GIVEN an ApplicationSet whose template is parameterized by the list generator
    const template = { metadata: { name: 'web-{{cluster}}' }, spec: { ...spec('web'), destination: { name: '{{cluster}}', namespace: 'web' } } };
    const result = audit({ 'apps/web-set.yaml': appSet(template, [{ cluster: 'eu' }, { cluster: 'us' }]), 'workloads/web/settings.yaml': configMapYaml('settings', 'web') });

    // WHEN it is audited
    // THEN both Applications are generated and audited; nothing is left unaudited
    expect(result.problems).toEqual([]);
    expect(result.notes).toEqual([]);
    expect(result.stats.applications).toBe(2);
  });

  test('two elements that render one name: Argo CD keeps the first, and the note says so', () => {
    // GIVEN a literal template and two list elements, so two Applications named web
    const template = { metadata: { name: 'web' }, spec: spec('web') };
    const result = audit({ 'apps/web-set.yaml': appSet(template, [{ cluster: 'eu' }, { cluster: 'us' }]), 'workloads/web/settings.yaml': configMapYaml('settings', 'web') });

    // WHEN it is audited
    // THEN one Application is audited and the duplicate is named
    expect(result.stats.applications).toBe(1);
    expect(result.notes).toEqual(['ApplicationSet web-set (apps/web-set.yaml): it generates several Applications named web; Argo CD creates the first and refuses the others, which are not audited']);
  });
});

/** The end of the note on an Application whose source is rendered by a tool the audit does not run. */
const NOT_RENDERED = (name: string) => `not rendered here: give what Argo CD renders for it with --rendered ${name}=<file> to audit its workloads`;

describe('auditFiles: Helm', () => {
  const chart = {
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 1.2.3\n',
    'charts/web/values.yaml': 'replicaCount: 3\n',
    'charts/web/templates/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: {{ .Values.replicaCount }}\n',
    'charts/web/templates/hpa.yaml': '{{- if .Values.autoscaling }}\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n{{- end }}\n',
  };

  test('an Application whose source path is a Helm chart gets a "not rendered" note and the chart files are skipped', () => {
    // GIVEN an Application deploying charts/web, a folder with Chart.yaml and templates/
    const result = audit({ 'apps/web.yaml': applicationYaml('web', { path: 'charts/web' }), ...chart });

    // WHEN it is audited
    // THEN the templates are skipped, not errors, and the note says to audit the rendered output
    expect(result.problems).toEqual([]);
    expect(result.stats.skippedTemplates).toBe(4);
    expect(result.notes).toEqual([`Application web (apps/web.yaml): deploys charts/web as a Helm source, ${NOT_RENDERED('web')}`]);
    expect(result.findings).toEqual([]);
  });

  test('a manifest at a chart\'s root is no part of the chart: an Application applied by hand beside it is judged', () => {
    // GIVEN the chart, its ci values, and beside Chart.yaml the root Application a bootstrap script applies by hand
    const root = applicationYaml('root', { path: 'charts/web', spec: { project: 'default' } });
    const result = audit({ ...chart, 'charts/web/root-prod.yaml': root, 'charts/web/ci/values-test.yaml': 'replicaCount: 1\n', 'charts/web/values-prod.yaml': 'replicaCount: 5\n' });

    // WHEN it is audited
    // THEN the root is judged (SA005), the chart's files and folders are still skipped, and the root's chart is noted
    expect(keysOf(result.findings)).toEqual([key('SA005', 'charts/web/root-prod.yaml', 'root')]);
    expect(result.stats.skippedTemplates).toBe(6);
    expect(result.notes).toEqual([`Application root (charts/web/root-prod.yaml): deploys charts/web as a Helm source, ${NOT_RENDERED('root')}`]);
  });

  test('an Application with a Helm chart source gets a "not rendered" note', () => {
    // GIVEN an Application installing a chart from a Helm repository
    const result = audit({
      'apps/web.yaml': applicationYaml('web', { spec: { source: { repoURL: 'https://charts.acme.internal', chart: 'web', targetRevision: '1.2.3' } } }),
    });

    // WHEN it is audited
    // THEN it is noted, and the Application itself is checked (clean)
    expect(result.notes).toEqual([`Application web (apps/web.yaml): deploys Helm chart web, ${NOT_RENDERED('web')}`]);
    expect(result.findings).toEqual([]);
    expect(result.problems).toEqual([]);
  });

  test.each([
    ['helm', { valueFiles: ['values-prod.yaml'] }, 'workloads/web as a Helm source'],
    ['kustomize', { namePrefix: 'prod-' }, 'workloads/web as a Kustomize source (the Application sets kustomize.namePrefix)'],
    ['plugin', { name: 'sops' }, 'workloads/web as a plugin source'],
  ])('an Application whose source has %s options gets a "not rendered" note', (field, options, what) => {
    // GIVEN an Application whose source path is rendered by a tool before it is applied
    const source = { repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'main', path: 'workloads/web', [field]: options };
    const result = audit({ 'apps/web.yaml': applicationYaml('web', { spec: { source } }), 'workloads/web/configmap.yaml': configMapYaml('settings', 'web') });

    // WHEN it is audited
    // THEN the note names the tool
    expect(result.notes).toEqual([`Application web (apps/web.yaml): deploys ${what}, ${NOT_RENDERED('web')}`]);
    expect(result.problems).toEqual([]);
  });

  test('a chart nobody deploys is skipped as well, never an error', () => {
    // GIVEN only a chart
    const result = audit(chart);

    // WHEN it is audited
    // THEN every file is a skipped template
    expect(result.problems).toEqual([]);
    expect(result.stats).toEqual({ files: 4, manifests: 0, applications: 0, skippedDocuments: 0, skippedTemplates: 4, excludedFiles: 0 });
  });

  test('fails when a Helm template lies outside any chart: a problem that says to render it', () => {
    // GIVEN a template without Chart.yaml above it
    const result = audit({ 'templates/deployment.yaml': chart['charts/web/templates/deployment.yaml'] });

    // WHEN it is audited
    // THEN it is an unreadable file with a hint
    expect(result.problems).toEqual([{ file: 'templates/deployment.yaml', message: expect.stringMatching(/template expressions.*helm template/) }]);
  });
});

describe('auditFiles: options', () => {
  const files = {
    'apps/web.yaml': applicationYaml('web', { syncPolicy: { automated: { prune: true, selfHeal: false }, retry: undefined } }),
    'workloads/web/configmap.yaml': configMapYaml('settings', 'web'),
  };

  test('ruleIds limits the rules; minSeverity hides lower findings', () => {
    // GIVEN an Application with SA001 (error) and SA006 (warning)
    // WHEN it is audited with each option
    // THEN each narrows the findings
    expect(audit(files).findings.map((f) => f.ruleId).sort()).toEqual(['SA001', 'SA006']);
    expect(audit(files, { ruleIds: ['SA006'] }).findings.map((f) => f.ruleId)).toEqual(['SA006']);
    expect(audit(files, { minSeverity: Severity.ERROR }).findings.map((f) => f.ruleId)).toEqual(['SA001']);
  });

  test('a config suppression limited to an Application silences only its findings', () => {
    // GIVEN a suppression of SA006 for Application web
    const suppressions = [{ ruleId: 'SA006', reason: 'retries are done by the pipeline', paths: [], applications: ['web'] }];

    // WHEN it is audited
    const result = audit(files, { suppressions });

    // THEN SA006 is suppressed from config
    expect(result.findings.map((f) => f.ruleId)).toEqual(['SA001']);
    expect(result.suppressed.map((f) => [f.ruleId, f.suppression])).toEqual([['SA006', { reason: 'retries are done by the pipeline', source: 'config' }]]);
  });
});

describe('auditFiles: budget and unexpected errors', () => {
  const listOf = (n: number) => stringify({ apiVersion: 'v1', kind: 'List', items: Array.from({ length: n }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } })) });

  test('a file over the work budget is reported as too large and skipped; the rest is audited', () => {
    // GIVEN a List of 5 objects, a budget of 4 a file, and an Application beside it
    const result = audit({ 'big/list.yaml': listOf(5), 'small/list.yaml': listOf(4), 'apps/web.yaml': applicationYaml('web') }, { maxObjectsPerFile: 4 });

    // WHEN it is audited / THEN the big file is a problem that says what to do, the others are read
    expect(result.problems).toEqual([{
      file: 'big/list.yaml',
      message: 'holds 5 Kubernetes objects, over the audit\'s budget of 4 a file; skipped: split it into smaller files, or raise the budget (--max-objects-per-file)',
    }]);
    expect(result.stats.manifests).toBe(5);
  });

  test('a stack overflow while reading a file is a problem that names it and says what to do, not a crash', () => {
    // GIVEN a parser that exhausts the stack on one file
    const original = parseModule.parseManifests;
    const spy = jest.spyOn(parseModule, 'parseManifests').mockImplementation((file, content) => {
      if (file === 'deep/x.yaml') {
        throw new RangeError('Maximum call stack size exceeded');
      }
      return original(file, content);
    });
    try {
      // WHEN the files are audited
      const result = audit({ 'deep/x.yaml': 'a: 1\n', 'apps/web.yaml': applicationYaml('web') });

      // THEN the file is reported in words, and the Application is still audited
      expect(result.problems).toEqual([{
        file: 'deep/x.yaml',
        message: 'could not be audited: reading it exhausted the stack (Maximum call stack size exceeded); the file is too large or too deeply nested, split it into smaller files',
      }]);
      expect(result.stats.applications).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });

  test('a rule that throws on some input reports the unit\'s files as problems and the other units are still audited', () => {
    // GIVEN a rule that fails on Application web only
    const rule = ALL_RULES.find((r) => r.id === 'SA001')!;
    const spy = jest.spyOn(rule, 'check').mockImplementation((input) => {
      if ((input.application?.metadata as { name?: string } | undefined)?.name === 'web') {
        throw new RangeError('Maximum call stack size exceeded');
      }
      return [];
    });
    try {
      // WHEN two Applications are audited
      const result = audit({ 'apps/web.yaml': applicationYaml('web'), 'apps/api.yaml': applicationYaml('api', { syncPolicy: { retry: undefined } }) });

      // THEN web's file is a problem naming the Application, and api's findings are there
      expect(result.problems).toEqual([{
        file: 'apps/web.yaml',
        message: 'could not be audited: auditing Application web exhausted the stack (Maximum call stack size exceeded); the file is too large or too deeply nested, split it into smaller files',
      }]);
      expect(keysOf(result.findings)).toContain(key('SA006', 'apps/api.yaml', 'api'));
    } finally {
      spy.mockRestore();
    }
  });
});
