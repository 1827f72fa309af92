import { stringify } from 'yaml';
import { applicationYaml, configMapYaml, deploymentYaml, hpaYaml, key, keysOf, kustomizeOverlayTree } from './support';
import { auditFiles, AuditOptions } from '../../src/audit/audit';
import { AuditFile, AuditResult } from '../../src/audit/types';
import { ArgoCdVersion } from '../../src/core/argocd-version';

const REPO = 'https://git.acme.internal/platform/gitops.git';
const FORK = 'https://git.acme.internal/someone/gitops.git';

function files(tree: Record<string, string>): AuditFile[] {
  return Object.entries(tree).map(([path, text]) => ({ path, content: Buffer.from(text, 'utf8') }));
}

function audit(tree: Record<string, string>, options: Partial<AuditOptions> = {}): AuditResult {
  return auditFiles(files(tree), { argoCdVersion: ArgoCdVersion.LATEST, ...options });
}

function rendered(application: string, path: string, ...documents: string[]): { application: string; file: AuditFile } {
  return { application, file: { path, content: Buffer.from(documents.join('---\n'), 'utf8') } };
}

const OVERLAY = kustomizeOverlayTree();

describe('auditFiles: Kustomize folders and --rendered', () => {
  test('a folder with a kustomization file is a Kustomize source: not read as plain YAML, and the note says how to give its rendering', () => {
    // GIVEN an overlay whose patch adds replicas under the base's HPA
    // WHEN it is audited without its rendering
    const result = audit(OVERLAY);

    // THEN the patch is not taken for the app's whole Deployment (no SA102 on a partial object), and the note names the app
    expect(keysOf(result.findings).filter((k) => k.includes(' web'))).toEqual([]);
    expect(result.notes).toEqual(['Application web (apps/web.yaml): deploys workloads/web/overlays/prod as a Kustomize source '
      + '(workloads/web/overlays/prod/kustomization.yaml sets patches), not rendered here: '
      + 'give what Argo CD renders for it with --rendered web=<file> to audit its workloads']);
  });

  test.each(['kustomization.yml', 'Kustomization'])('a folder is Kustomize by %s too, told by a file of any type', (name) => {
    // GIVEN the overlay's kustomization file under another name (Kustomization has no extension: the caller lists it)
    const tree: Record<string, string> = { ...OVERLAY };
    delete tree['workloads/web/overlays/prod/kustomization.yaml'];
    const named = name === 'Kustomization' ? { repository: { otherFiles: [`workloads/web/overlays/prod/${name}`] } } : {};
    if (name !== 'Kustomization') {
      tree[`workloads/web/overlays/prod/${name}`] = 'resources: [../../base]\n';
    }

    // WHEN audited / THEN it is a Kustomize source: one that only lists its base is built (its patch file is no object
    // of it); one whose kustomization the audit does not read is not, and the note says so
    const notes = audit(tree, named).notes;
    if (name === 'Kustomization') {
      expect(notes).toContainEqual(expect.stringContaining('deploys workloads/web/overlays/prod as a Kustomize source '
        + '(the kustomization of workloads/web/overlays/prod is not among the audited files)'));
    } else {
      expect(notes.filter((n) => n.includes('as a Kustomize source'))).toEqual([]);
      expect(notes).toContainEqual(expect.stringContaining('not built by Kustomize, so not audited as objects: workloads/web/overlays/prod/replicas.yaml'));
    }
  });

  test('the rendering of the overlay is what the rules see: the replicas the patch adds under the HPA are found (SA101, SA102)', () => {
    // GIVEN what kustomize build prints for the overlay
    const build = rendered('web', 'rendered/web.yaml', deploymentYaml('web', 'web', 3), hpaYaml('web', 'web'));

    // WHEN audited with it
    const result = audit(OVERLAY, { rendered: [build] });

    // THEN the findings are on the rendered file, for the Application, and no note says it is not rendered
    expect(keysOf(result.findings)).toEqual([key('SA101', 'rendered/web.yaml', 'web'), key('SA102', 'rendered/web.yaml', 'web')]);
    const text = Buffer.from(build.file.content).toString('utf8');
    expect(result.findings.find((f) => f.ruleId === 'SA101')?.location.line).toBe(text.split('\n').findIndex((l) => l.includes('replicas: 3')) + 1);
    expect(result.notes).toEqual([]);
    expect(result.problems).toEqual([]);
    expect(result.stats.manifests).toBe(OVERLAY_OBJECTS + 2);
  });

  test('with its rendering, the files under the Application\'s source path are not judged again as loose manifests', () => {
    // GIVEN the overlay with a PreSync Job of its own (no deadline, SA104), listed by its kustomization, and the rendering that holds it
    const job = stringify({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'migrate', namespace: 'web', annotations: { 'argocd.argoproj.io/hook': 'PreSync' } },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'migrate', image: 'registry.acme.internal/web:1.0.0' }] } } },
    });
    const tree = {
      ...OVERLAY,
      'workloads/web/overlays/prod/kustomization.yaml': stringify({ resources: ['../../base', 'migrate.yaml'], patches: [{ path: 'replicas.yaml' }] }),
      'workloads/web/overlays/prod/migrate.yaml': job,
    };
    const build = rendered('web', 'rendered/web.yaml', deploymentYaml('web', 'web', 3), hpaYaml('web', 'web'), job);

    // WHEN it is audited without and with the rendering
    const alone = audit(tree);
    const withBuild = audit(tree, { rendered: [build] });

    // THEN the Job is reported once either way: in its file, or in the rendering of the Application that deploys it
    expect(alone.findings.filter((f) => f.ruleId === 'SA104').map((f) => f.location.file)).toEqual(['workloads/web/overlays/prod/migrate.yaml']);
    expect(withBuild.findings.filter((f) => f.ruleId === 'SA104').map((f) => `${f.location.file} ${f.application}`)).toEqual(['rendered/web.yaml web']);
  });

  test('a rendering replaces every source of the Application: a Helm chart too', () => {
    // GIVEN a chart from a Helm repository and what helm template prints for it
    const app = applicationYaml('web', { spec: { source: { repoURL: 'https://charts.acme.internal', chart: 'web', targetRevision: '1.2.3' } } });
    const result = audit({ 'apps/web.yaml': app }, { rendered: [rendered('web', 'rendered/web.yaml', deploymentYaml('web', 'web', 3), hpaYaml('web', 'web'))] });

    // WHEN audited / THEN its workloads are judged with the Application
    expect(keysOf(result.findings)).toEqual([key('SA101', 'rendered/web.yaml', 'web'), key('SA102', 'rendered/web.yaml', 'web')]);
    expect(result.notes).toEqual([]);
  });

  test('SA002 leaves an ignore entry of a kind none of the manifests has only when the audit sees them all: a plain folder, or a rendering', () => {
    // GIVEN an entry for the volumes a CSI driver creates, without RespectIgnoreDifferences, on a plain folder and on a chart
    const volumes = { ignoreDifferences: [{ group: 'zfs.openebs.io', kind: 'ZFSVolume', jsonPointers: ['/metadata/finalizers'] }] };
    const tree = {
      'apps/plain.yaml': applicationYaml('plain', { path: 'workloads/plain', spec: volumes }),
      'workloads/plain/deployment.yaml': deploymentYaml('plain', 'plain'),
      'apps/chart.yaml': applicationYaml('chart', { path: 'charts/zfs', spec: volumes }),
      'charts/zfs/Chart.yaml': 'apiVersion: v2\nname: zfs\nversion: 1.0.0\n',
      'charts/zfs/templates/daemonset.yaml': 'kind: DaemonSet\nmetadata:\n  name: {{ .Release.Name }}\n',
    };
    const sa002 = (result: AuditResult) => result.findings.filter((f) => f.ruleId === 'SA002').map((f) => f.application);

    // WHEN audited without and with the chart's rendering / THEN the chart's entry may match what it renders, until it is given
    expect(sa002(audit(tree))).toEqual(['chart']);
    expect(sa002(audit(tree, { rendered: [rendered('chart', 'rendered/zfs.yaml', deploymentYaml('zfs-node', 'zfs'))] }))).toEqual([]);
    // and a plain folder of another repository is not all the audit sees
    const fork = { ...volumes, sources: [{ repoURL: REPO, path: 'workloads/plain' }, { repoURL: FORK, path: 'extra' }] };
    expect(sa002(audit({ ...tree, 'apps/plain.yaml': applicationYaml('plain', { spec: fork }) }, { repository: { urls: [REPO] } }))).toEqual(['chart', 'plain']);
    // nor is one whose other source Argo CD refuses to read (its objects unknown), nor a folder that also holds Jsonnet
    const refused = { ...volumes, sources: [{ repoURL: REPO, path: 'workloads/plain' }, { repoURL: REPO, path: '../outside' }] };
    expect(sa002(audit({ ...tree, 'apps/plain.yaml': applicationYaml('plain', { spec: refused }) }))).toEqual(['chart', 'plain']);
    expect(sa002(audit(tree, { repository: { otherFiles: ['workloads/plain/volumes.jsonnet'] } }))).toEqual(['chart', 'plain']);
    expect(sa002(audit(tree, { repository: { otherFiles: ['workloads/other/volumes.jsonnet'] } }))).toEqual(['chart']);
  });

  test('a directory source deploys the files its include and exclude globs select, as Argo CD\'s glob reads them (* crosses /)', () => {
    // GIVEN an autoscaled Deployment that keeps replicas, in the folder and in a legacy/ subfolder
    const tree = (directory: Record<string, unknown>) => ({
      'apps/web.yaml': applicationYaml('web', { spec: { source: { repoURL: REPO, targetRevision: 'main', path: 'workloads/web', directory: { recurse: true, ...directory } } } }),
      'workloads/web/deployment.yaml': deploymentYaml('web', 'web', 3),
      'workloads/web/hpa.yaml': hpaYaml('web', 'web'),
      'workloads/web/legacy/deployment.yaml': deploymentYaml('old', 'web', 3),
      'workloads/web/legacy/hpa.yaml': hpaYaml('old', 'web'),
    });
    const deployedBy = (result: AuditResult) => [...new Set(result.findings.map((f) => `${f.location.file} ${f.application ?? '-'}`))].sort();

    // WHEN audited with the globs / THEN only what they select is the Application's; the rest is judged as loose manifests
    expect(deployedBy(audit(tree({})))).toEqual(['workloads/web/deployment.yaml web', 'workloads/web/legacy/deployment.yaml web']);
    expect(deployedBy(audit(tree({ exclude: 'legacy/*' })))).toEqual(['workloads/web/deployment.yaml web', 'workloads/web/legacy/deployment.yaml -']);
    expect(deployedBy(audit(tree({ include: '*.yaml', exclude: '{legacy/deployment.yaml,legacy/hpa.yaml}' }))))
      .toEqual(['workloads/web/deployment.yaml web', 'workloads/web/legacy/deployment.yaml -']);
    expect(deployedBy(audit(tree({ include: 'legacy/*' })))).toEqual(['workloads/web/deployment.yaml -', 'workloads/web/legacy/deployment.yaml web']);
  });

  test('the Applications an app-of-apps root\'s rendering holds are judged in their own right, and their source paths paired', () => {
    // GIVEN a root whose chart templates its children (not readable here), and what helm template prints for it: the root
    // itself (it manages itself), a child in the default project whose folder holds replicas under an HPA, and a child
    // with a Helm source of its own
    const root = applicationYaml('root', { spec: { source: { repoURL: REPO, targetRevision: 'main', path: 'apps/chart' } } });
    const child = applicationYaml('web', { spec: { project: 'default' } });
    const helmChild = applicationYaml('db', { spec: { source: { repoURL: 'https://charts.acme.internal', chart: 'db', targetRevision: '1.2.3' } } });
    const tree = {
      'apps/root.yaml': root,
      'apps/chart/Chart.yaml': 'apiVersion: v2\nname: apps\nversion: 1.0.0\n',
      'apps/chart/templates/apps.yaml': '{{- range .Values.apps }}\n---\n{{- end }}\n',
      'workloads/web/deployment.yaml': deploymentYaml('web', 'web', 3),
      'workloads/web/hpa.yaml': hpaYaml('web', 'web'),
    };
    const rendering = rendered('root', 'rendered/root.yaml', root, child, helmChild);

    // WHEN audited with the rendering
    const result = audit(tree, { rendered: [rendering] });

    // THEN web is judged where the rendering writes it (SA005), its folder is paired (SA101, SA102 on the Deployment), db
    // gets its own "not rendered" note, and the root is judged once, where it is written
    expect(keysOf(result.findings)).toEqual([
      key('SA005', 'rendered/root.yaml', 'web'),
      key('SA101', 'workloads/web/deployment.yaml', 'web'),
      key('SA102', 'workloads/web/deployment.yaml', 'web'),
    ]);
    expect(result.findings.find((f) => f.ruleId === 'SA101')?.application).toBe('web');
    expect(result.stats.applications).toBe(3);
    expect(result.notes).toEqual(['Application db (rendered/root.yaml): deploys Helm chart db, not rendered here: give what Argo CD renders for it '
      + 'with --rendered db=<file> to audit its workloads']);
    // AND without the rendering, none of it is seen
    expect(keysOf(audit(tree).findings).filter((k) => k.includes(' web'))).toEqual([]);
  });

  test('a rendering no Application takes is a problem on its file; one for a name in two namespaces asks for namespace/name', () => {
    // GIVEN web in two namespaces, and renderings for web, for argocd/web and for a name nobody has
    const other = applicationYaml('web').replace('namespace: argocd', 'namespace: team-a');
    const tree = { 'apps/web.yaml': applicationYaml('web'), 'apps/team-a/web.yaml': other, 'workloads/web/cm.yaml': configMapYaml('settings', 'web') };
    const result = audit(tree, {
      rendered: [
        rendered('web', 'r/ambiguous.yaml', deploymentYaml('web', 'web', 3), hpaYaml('web', 'web')),
        rendered('argocd/web', 'r/argocd-web.yaml', deploymentYaml('web', 'web', 3), hpaYaml('web', 'web')),
        rendered('wbe', 'r/typo.yaml', configMapYaml('x', 'web')),
      ],
    });

    // WHEN audited
    // THEN argocd/web took its rendering; the other two are problems that say why
    expect(keysOf(result.findings)).toEqual([key('SA101', 'r/argocd-web.yaml', 'web'), key('SA102', 'r/argocd-web.yaml', 'web')]);
    expect(result.problems).toEqual([
      { file: 'r/ambiguous.yaml', rendered: true, message: 'given with --rendered web, which names 2 Applications (argocd/web, team-a/web); give namespace/name' },
      { file: 'r/typo.yaml', rendered: true, message: expect.stringContaining('given with --rendered wbe, which names no Application of the audited files') },
    ]);
  });

  test('an ApplicationSet a rendering holds is expanded, and what it generates is judged at the rendering\'s template field', () => {
    // GIVEN a root whose chart renders an ApplicationSet with a list generator, its template in the default project
    const root = applicationYaml('root', { spec: { source: { repoURL: REPO, targetRevision: 'main', path: 'apps/chart' } } });
    const set = stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: 'teams', namespace: 'argocd' },
      spec: {
        generators: [{ list: { elements: [{ team: 'a' }, { team: 'b' }] } }],
        template: {
          metadata: { name: 'team-{{team}}' },
          spec: { project: 'default', destination: { server: 'https://kubernetes.default.svc', namespace: 'team-{{team}}' }, source: { repoURL: REPO, targetRevision: 'main', path: 'teams/{{team}}' } },
        },
      },
    });
    const tree = { 'apps/root.yaml': root, 'apps/chart/Chart.yaml': 'apiVersion: v2\nname: apps\nversion: 1.0.0\n' };

    // WHEN audited with the root's rendering
    const result = audit(tree, { rendered: [rendered('root', 'rendered/root.yaml', set)] });

    // THEN the set is expanded into its two Applications, and the default project is reported once, on the set's template
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 2 });
    const sa005 = result.findings.filter((f) => f.ruleId === 'SA005');
    expect(sa005.map((f) => [f.object, f.location.file, f.pointer])).toEqual([['ApplicationSet argocd/teams', 'rendered/root.yaml', '/spec/template/spec/project']]);
    expect(result.stats.applications).toBe(3);
  });

  test('a rendering named by a name written twice in one namespace (two Argo CD instances) says how to give it', () => {
    // GIVEN argocd/root written for two clusters, each in its own folder
    const tree = { 'clusters/prd/root.yaml': applicationYaml('root'), 'clusters/dev/root.yaml': applicationYaml('root') };
    const build = rendered('root', 'r/root.yaml', deploymentYaml('web', 'web', 3), hpaYaml('web', 'web'));

    // WHEN audited with a rendering for root / THEN the problem names the one namespace/name that gives it to both
    expect(audit(tree, { rendered: [build] }).problems).toEqual([{
      file: 'r/root.yaml',
      rendered: true,
      message: 'given with --rendered root, which names 2 Applications that are all argocd/root, written in different files: '
        + 'give --rendered argocd/root=<file> to give it to each of them, or audit their folders one at a time',
    }]);
    // AND given so, both take it: no problem, and its workloads are judged
    const both = audit(tree, { rendered: [{ ...build, application: 'argocd/root' }] });
    expect(both.problems).toEqual([]);
    expect(keysOf(both.findings).filter((k) => k.startsWith('SA101'))).toEqual([key('SA101', 'r/root.yaml', 'root')]);
  });

  test('by name, a rendering goes to the one Application written with that name before those ApplicationSets generate', () => {
    // GIVEN web written in apps/, and an ApplicationSet in argocd that generates another web
    const set = stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: 'set', namespace: 'argocd' },
      spec: { generators: [{ list: { elements: [{ name: 'web' }] } }], template: { metadata: { name: '{{name}}' }, spec: { project: 'payments', destination: { server: 'https://kubernetes.default.svc', namespace: 'web' }, source: { repoURL: REPO, targetRevision: 'main', path: 'workloads/web' } } } },
    });
    const tree = { 'apps/web.yaml': applicationYaml('web'), 'apps/set.yaml': set, 'workloads/web/cm.yaml': configMapYaml('settings', 'web') };
    const result = audit(tree, { rendered: [rendered('web', 'r/web.yaml', deploymentYaml('web', 'web', 3), hpaYaml('web', 'web'))] });

    // WHEN audited / THEN the written web took it (its findings name it), and nothing is a problem
    expect(result.problems).toEqual([]);
    expect(keysOf(result.findings.filter((f) => f.location.file === 'r/web.yaml'))).toEqual([key('SA101', 'r/web.yaml', 'web'), key('SA102', 'r/web.yaml', 'web')]);
  });

  test('a rendering that is not YAML is a problem on its file, and the rest is audited', () => {
    const result = audit({ 'apps/web.yaml': applicationYaml('web', { syncPolicy: { automated: { prune: true, selfHeal: false } } }) },
      { rendered: [{ application: 'web', file: { path: 'r/web.yaml', content: Buffer.from('a: [\n') } }] });
    expect(result.problems.map((p) => p.file)).toEqual(['r/web.yaml']);
    expect(keysOf(result.findings)).toEqual([key('SA001', 'apps/web.yaml', 'web')]);
  });
});

/**
 * The manifests of OVERLAY the audit counts: the Application and the base's two. Its two kustomizations are read (for
 * their secretGenerators) but are no objects Argo CD applies, and the patch is a fragment.
 */
const OVERLAY_OBJECTS = 3;

describe('auditFiles: what Kustomize builds', () => {
  test('a patch is a fragment and an unlisted file is not built: neither is audited as an object; a listed base file is', () => {
    // GIVEN a base listing its Deployment but not a leftover Secret, and an overlay patching replicas
    const tree = {
      ...OVERLAY,
      'workloads/web/base/leftover-secret.yaml': stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'aws', namespace: 'web' }, stringData: { key: 'UPDATE_ME' } }),
      'workloads/web/base/deployment.yaml': deploymentYaml('web', 'web', 2),
    };

    // WHEN audited
    const result = audit(tree);

    // THEN the base's Deployment (listed) is still judged loose (SA101), the Secret (unlisted) and the patch are not, and a note names the unlisted file
    expect(keysOf(result.findings)).toEqual([key('SA101', 'workloads/web/base/deployment.yaml')]);
    expect(result.notes).toContain('1 file(s) in Kustomize folders that no kustomization lists as a resource are not built by Kustomize, so not audited '
      + 'as objects: workloads/web/base/leftover-secret.yaml');
  });

  test('an Application no kustomization lists is still audited: an app-of-apps root applied by hand beside the Argo CD install', () => {
    // GIVEN the folder that installs Argo CD with Kustomize, and beside it the root Application, which it does not list
    const tree = {
      'argocd/kustomization.yaml': stringify({ resources: ['install.yaml'] }),
      'argocd/install.yaml': configMapYaml('argocd-cm', 'argocd'),
      'argocd/root.yaml': applicationYaml('root', { path: 'apps', spec: { project: 'default' } }),
      'argocd/leftover-secret.yaml': stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'aws', namespace: 'argocd' }, stringData: { key: 'UPDATE_ME' } }),
    };

    // WHEN audited
    const result = audit(tree);

    // THEN the root is judged (its default project, SA005), while the unlisted Secret is still left out, and named
    expect(keysOf(result.findings).filter((k) => k.startsWith('SA005'))).toEqual([key('SA005', 'argocd/root.yaml', 'root')]);
    expect(result.notes).toContain('1 file(s) in Kustomize folders that no kustomization lists as a resource are not built by Kustomize, so not audited '
      + 'as objects: argocd/leftover-secret.yaml');
  });

  test('an Application left out of a kustomization that lists the other Applications of its folder is switched off: not audited', () => {
    // GIVEN a folder of Applications whose kustomization lists web and not its old copy, and a project folder likewise
    const project = (name: string) => stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata: { name, namespace: 'argocd' }, spec: { sourceRepos: ['*'] } });
    const tree = {
      'argocd/apps/kustomization.yaml': stringify({ resources: ['web.yaml'] }),
      'argocd/apps/web.yaml': applicationYaml('web', { spec: { project: 'default' } }),
      'argocd/apps/web-old.yaml': applicationYaml('web-old', { spec: { project: 'default' } }),
      'argocd/projects/kustomization.yaml': stringify({ resources: ['team.yaml'] }),
      'argocd/projects/team.yaml': project('team'),
      'argocd/projects/old.yaml': project('old'),
      // a root beside a kustomization that lists projects only is still one applied by hand
      'argocd/projects/root.yaml': applicationYaml('root', { path: 'argocd/apps', spec: { project: 'default' } }),
    };

    // WHEN audited
    const result = audit(tree);

    // THEN the listed ones and the root are judged, the two left out are not, and a note names them
    const judged = new Set(result.findings.map((f) => f.location.file));
    expect([...judged].sort()).toEqual(['argocd/apps/web.yaml', 'argocd/projects/root.yaml', 'argocd/projects/team.yaml']);
    expect(result.notes).toContain('2 file(s) hold Argo CD objects that the kustomization of their folder leaves out while it lists the others of their '
      + 'kind there: switched off, never applied, so not audited: argocd/apps/web-old.yaml, argocd/projects/old.yaml');
  });

  test('an Application without repoURL that a kustomization builds is judged but for its sources, which the patches complete', () => {
    // GIVEN a layer whose kustomization adds repoURL and targetRevision to every Application it lists (one with the
    // cascade finalizer), and a project whose sourceRepos a patch fills in too
    const fragment = stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'console', namespace: 'argocd', finalizers: ['resources-finalizer.argocd.argoproj.io'] },
      spec: {
        project: 'infra',
        destination: { server: 'https://kubernetes.default.svc', namespace: 'console' },
        source: { path: 'console' },
        syncPolicy: { automated: { prune: true, selfHeal: true }, retry: { limit: 5 } },
      },
    });
    const project = stringify({ apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata: { name: 'infra', namespace: 'argocd' }, spec: { sourceRepos: [], destinations: [{ server: '*', namespace: '*' }] } });
    const patch = [{ op: 'add', path: '/spec/source/repoURL', value: REPO }, { op: 'add', path: '/spec/source/targetRevision', value: 'main' }];
    const kustomization = (resources: string[]) => stringify({ resources, patches: [{ target: { kind: 'Application' }, patch: JSON.stringify(patch) }] });
    const tree = {
      'layers/infra/kustomization.yaml': kustomization(['argocd/console.yaml', 'project.yaml']),
      'layers/infra/argocd/console.yaml': fragment,
      'layers/infra/project.yaml': project,
    };

    // WHEN audited
    const result = audit(tree);

    // THEN it is judged as the patches complete it: the finalizer (SA010), and the repository the patch adds, which the
    // project's empty sourceRepos does not permit (SA202); it is no fragment
    expect(keysOf(result.findings).filter((k) => k.includes('console.yaml')))
      .toEqual([key('SA010', 'layers/infra/argocd/console.yaml', 'console'), key('SA202', 'layers/infra/argocd/console.yaml', 'console')]);
    expect(result.notes.filter((n) => n.includes('without the repoURL'))).toEqual([]);
    // AND completed by what the audit does not model (a replacement from a ConfigMap), what it writes is judged (the
    // finalizer, SA010) and its source is not (no SA202 on an empty repository, no SA007 on a targetRevision the
    // replacement adds), and a note says what to give to judge that too
    const replaced = audit({
      ...tree,
      'layers/infra/kustomization.yaml': stringify({
        resources: ['argocd/console.yaml', 'project.yaml'],
        replacements: [{ source: { kind: 'ConfigMap', name: 'repo', fieldPath: 'data.url' }, targets: [{ select: { kind: 'Application' }, fieldPaths: ['spec.source.repoURL'], options: { create: true } }] }],
      }),
    });
    expect(keysOf(replaced.findings).filter((k) => k.includes('console.yaml'))).toEqual([key('SA010', 'layers/infra/argocd/console.yaml', 'console')]);
    expect(replaced.notes).toContainEqual('1 file(s) in Kustomize folders hold Applications without the repoURL the API server requires, which '
      + 'their kustomization adds in a way the audit does not build (a replacement, a remote base): their sources are not judged as written; '
      + 'give the rendering of the Application that deploys the folder (--rendered <application>=<file>) to audit what they become: '
      + 'layers/infra/argocd/console.yaml');
    // AND one left out of the kustomization's list ("uncomment to enable") is never applied, not even by hand: not audited
    const switchedOff = audit({ ...tree, 'layers/infra/kustomization.yaml': kustomization(['project.yaml']) });
    expect(switchedOff.findings.filter((f) => f.object === 'Application argocd/console')).toEqual([]);
    expect(switchedOff.notes).toContainEqual('1 file(s) in Kustomize folders hold Applications without the repoURL the API server requires that '
      + 'no kustomization lists: switched off, never applied, so not audited: layers/infra/argocd/console.yaml');
    // AND the same Application outside any Kustomize folder is no fragment: it is judged as it is written
    const plain = { 'apps/console.yaml': fragment, 'apps/project.yaml': project };
    expect(keysOf(audit(plain).findings)).toContain(key('SA202', 'apps/console.yaml', 'console'));
  });

  test('what a configMapGenerator or secretGenerator reads is data: no problem when YAML cannot read it, no object when it can', () => {
    // GIVEN generators that read an Alertmanager config with {{ }}, a manifest kept as a ConfigMap's value, and an env file
    const tree = {
      'cluster/kustomization.yaml': stringify({
        resources: ['cm.yaml'],
        configMapGenerator: [{ name: 'alertmanager', files: ['files/alertmanager.yaml', 'example=files/deployment.yaml'] }],
        secretGenerator: [{ name: 'env', envs: ['files/settings.yaml'] }],
      }),
      'cluster/cm.yaml': configMapYaml('settings', 'web'),
      'cluster/files/alertmanager.yaml': 'receivers:\n- name: slack\n  slack_configs:\n  - api_url: {{ .slack_api_url }}\n',
      'cluster/files/deployment.yaml': deploymentYaml('web', 'web', 3),
      'cluster/files/settings.yaml': 'A=1\nB: [unclosed\n',
      'other/template.yaml': 'replicas: {{ .Values.replicas }}\n',
    };

    // WHEN audited
    const result = audit(tree);

    // THEN the inputs are neither problems nor objects; a template that no generator reads is still a problem
    expect(result.problems.map((p) => p.file)).toEqual(['other/template.yaml']);
    expect(result.stats.manifests).toBe(1);
  });

  test('a kustomization listing a file that is not there is an error at the entry (SA018)', () => {
    // GIVEN the overlay's kustomization listing a patch file that was deleted
    const tree = {
      ...OVERLAY,
      'workloads/web/overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\npatches:\n  - path: replicas.yaml\n  - path: gone.yaml\n',
    };

    // WHEN audited
    const result = audit(tree);

    // THEN one SA018 finding, on the line of the missing entry
    expect(result.findings.filter((f) => f.ruleId === 'SA018').map((f) => `${f.location.file}:${f.location.line} ${f.pointer}`))
      .toEqual(['workloads/web/overlays/prod/kustomization.yaml:5 /patches/1/path']);
  });

  test('a patch listed inline in patchesStrategicMerge, and a remote base, do not confuse the listing', () => {
    const tree = {
      ...OVERLAY,
      'workloads/web/overlays/prod/kustomization.yaml': stringify({
        resources: ['../../base', 'https://git.acme.internal/platform/bases//web?ref=v1'],
        patchesStrategicMerge: ['replicas.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n'],
      }),
    };
    expect(audit(tree).findings).toEqual([]);
  });
});

describe('auditFiles: secrets a kustomization generates', () => {
  test('a secretGenerator of a kustomization without apiVersion and kind is found at its field (SA203)', () => {
    // GIVEN a kustomization file as most are written, generating a Secret from a committed htpasswd file
    const text = 'resources: [deployment.yaml]\nsecretGenerator:\n  - name: htpass\n    files:\n      - htpasswd=files/users.htpasswd\n';
    const result = audit({ 'oauth/overlays/htpass/kustomization.yaml': text, 'oauth/overlays/htpass/deployment.yaml': deploymentYaml('oauth', 'oauth') });

    // WHEN audited / THEN SA203, on the files line
    expect(result.findings.map((f) => [f.ruleId, f.location.file, f.location.line])).toEqual([['SA203', 'oauth/overlays/htpass/kustomization.yaml', 4]]);
  });
});

describe('auditFiles: pairing by repoURL', () => {
  const tree = {
    'apps/web.yaml': applicationYaml('web'),
    'apps/fork.yaml': applicationYaml('fork', { path: 'workloads/web', spec: { source: { repoURL: FORK, targetRevision: 'main', path: 'workloads/web' } } }),
    'workloads/web/deployment.yaml': deploymentYaml('web', 'web', 3),
    'workloads/web/hpa.yaml': hpaYaml('web', 'web'),
  };

  test('files are paired only with Applications that read the audited repository (--repo-url)', () => {
    // GIVEN two Applications of one path, one reading a fork
    // WHEN audited as REPO
    const result = audit(tree, { repository: { urls: [REPO] } });

    // THEN the workload is web's, not the fork's, and the fork's source is named in a note
    expect(keysOf(result.findings)).toEqual([key('SA101', 'workloads/web/deployment.yaml', 'web'), key('SA102', 'workloads/web/deployment.yaml', 'web')]);
    expect(result.notes).toEqual([`Application fork (apps/fork.yaml): deploys workloads/web of ${FORK} (another repository, unless --repo-url says it is this one), `
      + 'not rendered here: give what Argo CD renders for it with --rendered fork=<file> to audit its workloads']);
  });

  test('URLs name one repository whatever their scheme, user, case, .git or trailing slash', () => {
    const result = audit(tree, { repository: { urls: ['git@GIT.acme.internal:platform/gitops/'] } });
    expect(keysOf(result.findings).filter((k) => k.endsWith(' web'))).toHaveLength(2);
  });

  test('without a URL, the repoURLs whose source paths are folders here are taken to be the audited repository', () => {
    // GIVEN the same files, and the fork also naming a path that does not exist here
    const fork = applicationYaml('fork', { spec: { source: { repoURL: FORK, targetRevision: 'main', path: 'elsewhere' } } });
    const result = audit({ ...tree, 'apps/fork.yaml': fork });

    // WHEN audited with no URL / THEN web pairs, and the fork's path is not judged missing (SA014): it may be the fork's
    expect(keysOf(result.findings)).toEqual([key('SA101', 'workloads/web/deployment.yaml', 'web'), key('SA102', 'workloads/web/deployment.yaml', 'web')]);
  });

  test.each(['cnoe://web', '${{ values.repoUrl }}'])('a placeholder repoURL (%s) names no repository: not paired with the files, not reported', (repoURL) => {
    // GIVEN an Application on HEAD of a repoURL a tool rewrites before Argo CD reads it, at a folder that is here
    const app = applicationYaml('web', { spec: { source: { repoURL, targetRevision: 'HEAD', path: 'workloads/web' } } });

    // WHEN audited with no URL
    const result = audit({ ...tree, 'apps/web.yaml': app, 'apps/fork.yaml': applicationYaml('fork', { spec: { source: { repoURL: FORK, targetRevision: 'main', path: 'elsewhere' } } }) });

    // THEN no SA007, and the workload is nobody's: the placeholder does not make it this repository
    expect(keysOf(result.findings)).toEqual([key('SA101', 'workloads/web/deployment.yaml')]);
  });

  test('Argo CD reads spec.sources when it holds any: spec.source beside it is not paired', () => {
    // GIVEN sources naming workloads/api, and a leftover source naming workloads/web
    const app = applicationYaml('web', { spec: { sources: [{ repoURL: REPO, targetRevision: 'main', path: 'workloads/api' }] } });
    const result = audit({ ...tree, 'apps/web.yaml': app, 'workloads/api/cm.yaml': configMapYaml('settings', 'api') }, { repository: { urls: [REPO] } });

    // WHEN audited / THEN the autoscaled workload of workloads/web is nobody's (SA101 only, no SA102)
    expect(keysOf(result.findings)).toEqual([key('SA101', 'workloads/web/deployment.yaml')]);
  });
});

describe('auditFiles: SA014, a source path Argo CD cannot read', () => {
  test.each([
    ['workloads/gone', 'is not a folder of'],
    ['/workloads/web', 'which is absolute'],
    ['../other/web', 'which lies outside the repository'],
  ])('source.path %s of the audited repository is an error at the field', (path, words) => {
    // GIVEN an Application of REPO whose path is wrong
    const app = applicationYaml('web', { path });
    const result = audit({ 'apps/web.yaml': app, 'workloads/web/cm.yaml': configMapYaml('settings', 'web') }, { repository: { urls: [REPO] } });

    // WHEN audited / THEN SA014, on the source.path line
    expect(result.findings.map((f) => [f.ruleId, f.pointer, f.location.line])).toEqual([['SA014', '/spec/source/path', app.split('\n').findIndex((l) => l.includes('path:')) + 1]]);
    expect(result.findings[0].message).toContain(words);
  });

  test('an audit of apps/ alone says nothing of folders outside it (no SA014), and still of missing ones inside it', () => {
    // GIVEN only apps/ audited: one Application reads workloads/web (not audited, may be there), one apps/gone
    const tree = { 'apps/web.yaml': applicationYaml('web'), 'apps/gone.yaml': applicationYaml('gone', { path: 'apps/gone' }) };

    // WHEN audited as the command line does for `audit apps`
    const result = audit(tree, { repository: { urls: [REPO], auditedPaths: ['apps'] } });

    // THEN only the folder inside the audited path is missing
    expect(result.findings.filter((f) => f.ruleId === 'SA014').map((f) => `${f.location.file} ${f.pointer}`)).toEqual(['apps/gone.yaml /spec/source/path']);
    // and with the whole repository audited, workloads/web is missing too
    expect(audit(tree, { repository: { urls: [REPO], auditedPaths: ['.'] } }).findings.filter((f) => f.ruleId === 'SA014')).toHaveLength(2);
  });

  test('a folder that holds only files of other types exists: no SA014', () => {
    const result = audit({ 'apps/web.yaml': applicationYaml('web') }, { repository: { urls: [REPO], otherFiles: ['workloads/web/main.jsonnet'] } });
    expect(result.findings).toEqual([]);
  });

  test('a folder of an excluded file exists: no SA014', () => {
    const result = audit({ 'apps/web.yaml': applicationYaml('web'), 'workloads/web/cm.yaml': configMapYaml('settings', 'web') },
      { repository: { urls: [REPO] }, exclude: ['workloads/**'] });
    expect(result.findings).toEqual([]);
  });

  test('a source of another repository, a Helm chart, or a path with {{ }} is not judged', () => {
    const sources = [
      { repoURL: FORK, targetRevision: 'main', path: 'workloads/gone' },
      { repoURL: 'https://charts.acme.internal', chart: 'web', targetRevision: '1.2.3' },
      { repoURL: REPO, targetRevision: 'main', path: 'workloads/{{env}}' },
    ];
    const result = audit({ 'apps/web.yaml': applicationYaml('web', { spec: { sources } }) }, { repository: { urls: [REPO] } });
    expect(result.findings.filter((f) => f.ruleId === 'SA014')).toEqual([]);
  });
});
