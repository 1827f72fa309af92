import { stringify } from 'yaml';
import { auditInMemory as audit, configMapYaml, key, keysOf } from './support';
import { matrixGitFilesBomb, mergeChildrenBomb, replaceBomb, templatedBomb, trimMarkerBomb } from '../support/bombs';

const REPO = 'https://git.acme.internal/platform/gitops.git';

/** A template every rule accepts, with `spec` merged over it. */
function template(spec: Record<string, unknown> = {}, name = '{{name}}'): Record<string, unknown> {
  return {
    metadata: { name },
    spec: {
      project: 'payments',
      destination: { server: 'https://kubernetes.default.svc', namespace: 'web' },
      source: { repoURL: REPO, targetRevision: 'main', path: 'workloads/web' },
      syncPolicy: { automated: { prune: true, selfHeal: true }, retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } } },
      ...spec,
    },
  };
}

function appSet(generators: unknown[], tmpl: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'set', namespace: 'argocd' },
    // create-update and preserveResourcesOnDeletion, so that SA016 and SA010 (which test/rules covers) stay out of what these tests look at.
    spec: { generators, template: tmpl, syncPolicy: { applicationsSync: 'create-update', preserveResourcesOnDeletion: true }, ...extra },
  });
}

const list = (...elements: Record<string, unknown>[]) => ({ list: { elements } });
const WORKLOAD = { 'workloads/web/settings.yaml': configMapYaml('settings', 'web') };

/** The line (1-based) of the first line of `text` that starts, after indentation, with `start`. */
function lineOf(text: string, start: string): number {
  return text.split('\n').findIndex((l) => l.trimStart().startsWith(start)) + 1;
}

/** An HPA-scaled Deployment that keeps replicas in `dir`: SA102 when an Application deploys it. */
function autoscaled(dir: string): Record<string, string> {
  const name = dir.split('/').pop()!;
  return {
    [`${dir}/deployment.yaml`]: stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: name },
      spec: { replicas: 3, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'registry.acme.internal/web:1.0.0' }] } } },
    }),
    [`${dir}/hpa.yaml`]: stringify({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name, namespace: name },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, minReplicas: 2, maxReplicas: 5 },
    }),
  };
}

describe('auditFiles: an openly unsafe ApplicationSet is reported', () => {
  const unsafe = template({
    project: 'default',
    source: { repoURL: REPO, targetRevision: 'HEAD', path: 'workloads/web' },
    syncPolicy: { automated: { prune: true, selfHeal: true } },
    ignoreDifferences: [{ group: '*', kind: '*', jsonPointers: ['/spec/replicas'] }],
  });

  test('a list generator: each finding once, at the template field, on the ApplicationSet', () => {
    // GIVEN an ApplicationSet of three Applications in the default project, on HEAD, without retry, ignoring every kind
    const text = appSet([list({ name: 'a' }, { name: 'b' }, { name: 'c' })], unsafe);
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });

    // WHEN it is audited
    // THEN each finding is reported once, on the ApplicationSet, with its pointer into it and the template line
    const found = result.findings.filter((f) => ['SA005', 'SA006', 'SA007'].includes(f.ruleId));
    expect(found.map((f) => [f.ruleId, f.object, f.pointer, f.location.line])).toEqual([
      ['SA005', 'ApplicationSet argocd/set', '/spec/template/spec/project', lineOf(text, 'project: default')],
      ['SA007', 'ApplicationSet argocd/set', '/spec/template/spec/source/targetRevision', lineOf(text, 'targetRevision: HEAD')],
      ['SA006', 'ApplicationSet argocd/set', '/spec/template/spec/syncPolicy/retry', expect.any(Number)],
    ].sort((a, b) => (a[3] as number) - (b[3] as number)));
    expect(result.findings.map((f) => f.ruleId)).toContain('SA003');
    expect(found.every((f) => f.application === undefined && !f.message.includes(' of 3 '))).toBe(true);
    expect(result.stats.applications).toBe(3);
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 3 });
  });

  test('a generator that cannot be expanded: the literal fields are still judged, the {{ }} ones are not, and a note says why', () => {
    // GIVEN the same template with a templated name and an SCM provider generator
    const text = appSet([{ scmProvider: { github: { organization: 'acme' } } }], { ...unsafe, spec: { ...unsafe.spec as object, destination: { server: '{{url}}', namespace: '{{repository}}' } } });
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });

    // WHEN it is audited
    // THEN the literal project, revision, retry and ignore rules are findings; the note names the generator
    expect([...new Set(result.findings.map((f) => f.ruleId))].sort()).toEqual(['SA002', 'SA003', 'SA005', 'SA006', 'SA007']);
    expect(result.notes).toEqual([
      'ApplicationSet set (apps/set.yaml): not expanded: an SCM provider generator lists repositories of a hosted Git service, which is not known offline; '
      + 'its literal fields are audited, those with {{ }} are not',
    ]);
    expect(result.stats.applicationSets).toEqual({ expanded: 0, literal: 1, generated: 0 });
  });
});

describe('auditFiles: a secret beside templated values', () => {
  test('a literal token in valuesObject is found though other values there are templated (SA207, at the token\'s own line)', () => {
    // GIVEN a pull-request ApplicationSet, not expanded offline, whose chart values hold a templated tag and a literal token
    const helm = { valuesObject: { image: { tag: '{{ .head_sha }}' }, grpc: { token: 'machinery-preview-grpc-token' } } };
    const text = appSet([{ pullRequest: { github: { owner: 'acme', repo: 'web' } } }],
      template({ source: { repoURL: 'https://charts.acme.internal', chart: 'web', targetRevision: '1.2.3', helm } }));

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text });

    // THEN the token is reported where it is written, by key only
    expect(result.findings.filter((f) => f.ruleId === 'SA207').map((f) => `${f.pointer} ${f.location.line} ${f.message}`)).toEqual([
      `/spec/template/spec/source/helm/valuesObject/grpc/token ${lineOf(text, 'token:')} the Helm valuesObject sets "grpc.token" in plain text, in Git and in the Application Argo CD shows`,
    ]);
  });
});

describe('auditFiles: ApplicationSet findings that hold for some Applications', () => {
  test('a parameter that is floating for one element is reported once, naming it', () => {
    // GIVEN a targetRevision from the list: HEAD for one element, a tag for the other
    const tmpl = template({ source: { repoURL: REPO, targetRevision: '{{revision}}', path: 'workloads/web' } });
    const text = appSet([list({ name: 'eu', revision: 'HEAD' }, { name: 'us', revision: 'v1.2.3' })], tmpl);

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });

    // THEN SA007 is once, at the template's targetRevision line, and says for which Application
    expect(result.findings.map((f) => [f.ruleId, f.pointer, f.location.line])).toEqual([
      ['SA007', '/spec/template/spec/source/targetRevision', lineOf(text, 'targetRevision:')],
    ]);
    expect(result.findings[0].message).toMatch(/ \(in 1 of 2 generated Applications: eu\)$/);
  });

  test('a field still holding {{ }} after rendering is not judged', () => {
    // GIVEN a chart version read from a parameter no element has (fasttemplate leaves the tag as written), and one that has it
    const tmpl = template({ source: { repoURL: 'https://charts.acme.internal', chart: 'web', targetRevision: '{{version}}' } });
    const unset = audit({ 'apps/set.yaml': appSet([list({ name: 'eu' })], tmpl) });
    const ranged = audit({ 'apps/set.yaml': appSet([list({ name: 'eu', version: '^1.2' })], tmpl) });

    // WHEN they are audited / THEN SA007 does not judge the unrendered field, and judges the rendered one
    expect(unset.findings).toEqual([]);
    expect(ranged.findings.map((f) => f.ruleId)).toEqual(['SA007']);
  });
});

describe('auditFiles: notes on the Applications of an ApplicationSet', () => {
  test('one note for all the Applications whose source path holds nothing, and one for the template of a set not expanded', () => {
    // GIVEN three Applications of a folder that holds only a jsonnet file, and an SCM provider set of a Helm source
    const empty = appSet([list({ name: 'a' }, { name: 'b' }, { name: 'c' })], template({ source: { repoURL: REPO, targetRevision: 'main', path: 'workloads/none' } }));
    const helm = appSet([{ scmProvider: {} }], template({ source: { repoURL: REPO, targetRevision: 'main', path: 'charts/web', helm: { releaseName: '{{repository}}' } } }));

    // WHEN audited
    const result = audit({ 'apps/empty.yaml': empty, 'apps/helm.yaml': helm, ...WORKLOAD },
      { repository: { urls: [REPO], otherFiles: ['workloads/none/main.jsonnet', 'charts/web/Chart.lock'] } });

    // THEN one note each, naming the Applications or the template
    expect(result.notes).toEqual([
      'ApplicationSet set (apps/empty.yaml), all of its 3 Applications (a, b, c): source path workloads/none holds no manifests in the audited files',
      'ApplicationSet set (apps/helm.yaml), its template: deploys charts/web as a Helm source, not rendered here: give what Argo CD renders for it '
        + 'with --rendered <application>=<file> to audit its workloads',
      expect.stringContaining('ApplicationSet set (apps/helm.yaml): not expanded: an SCM provider generator'),
    ]);
    expect(result.findings).toEqual([]);
  });

  test('a source path that is no folder of the audited repository is one SA014 finding at the template field, for all its Applications', () => {
    // GIVEN three Applications of a folder that is not there
    const text = appSet([list({ name: 'a' }, { name: 'b' }, { name: 'c' })], template({ source: { repoURL: REPO, targetRevision: 'main', path: 'workloads/none' } }));

    // WHEN audited as the repository REPO
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD }, { repository: { urls: [REPO] } });

    // THEN one finding, at the template's source.path, and no note of a folder that holds nothing
    expect(result.findings.map((f) => [f.ruleId, f.pointer, f.location.line])).toEqual([['SA014', '/spec/template/spec/source/path', lineOf(text, 'path: workloads/none')]]);
    expect(result.notes).toEqual([]);
  });
});

describe('auditFiles: suppressing findings on an ApplicationSet template', () => {
  test('a config suppression limited to applications names the ApplicationSet', () => {
    // GIVEN a set in the default project, and a suppression of SA005 for the applications "set"
    const text = appSet([list({ name: 'eu' }, { name: 'us' })], template({ project: 'default' }));
    const suppressions = [{ ruleId: 'SA005', reason: 'the platform team owns it', paths: [], applications: ['set'] }];

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD }, { suppressions });

    // THEN the finding is suppressed, once
    expect(result.findings).toEqual([]);
    expect(result.suppressed.map((f) => [f.ruleId, f.suppression?.source])).toEqual([['SA005', 'config']]);
  });

  test('a suppression annotation rendered for some Applications only does not hide the others', () => {
    // GIVEN the suppression annotation read from a parameter that only one element has
    const tmpl = template({ project: 'default' });
    (tmpl.metadata as Record<string, unknown>).annotations = { 'safe-argocd/suppress.SA005': '{{reason}}' };
    const text = appSet([list({ name: 'eu', reason: 'legacy cluster, moved in Q3' }, { name: 'us', reason: '' })], tmpl);

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });

    // THEN SA005 is reported, for the one Application that does not suppress it
    expect(result.findings.map((f) => [f.ruleId, f.message.replace(/^.*\(in /, '(in ')])).toEqual([['SA005', '(in 1 of 2 generated Applications: us)']]);
  });
});

describe('auditFiles: git generators over the audited repository', () => {
  const gitSet = (git: Record<string, unknown>, tmpl: Record<string, unknown>, extra: Record<string, unknown> = {}) => appSet([{ git: { repoURL: REPO, revision: 'main', ...git } }], tmpl, extra);

  test('directories: one Application a folder, named and paired by {{path.basename}} and {{path}}', () => {
    // GIVEN a git directory generator over apps/*, excluding apps/legacy, and autoscaled workloads in each folder
    const tmpl = template({ source: { repoURL: REPO, targetRevision: 'main', path: '{{path}}' } }, '{{path.basename}}');
    const result = audit({
      'bootstrap/set.yaml': gitSet({ directories: [{ path: 'apps/*' }, { path: 'apps/legacy', exclude: true }] }, tmpl),
      ...autoscaled('apps/billing'),
      ...autoscaled('apps/checkout'),
      ...autoscaled('apps/legacy'),
      ...autoscaled('apps/billing/nested'),
    });

    // WHEN it is audited
    // THEN billing and checkout are generated and their workloads checked with them; legacy and the nested folder are not
    expect(keysOf(result.findings.filter((f) => f.ruleId === 'SA102'))).toEqual([
      key('SA102', 'apps/billing/deployment.yaml', 'billing (ApplicationSet set)'),
      key('SA102', 'apps/checkout/deployment.yaml', 'checkout (ApplicationSet set)'),
    ]);
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 2 });
  });

  test('directories with goTemplate: .path.path, index .path.segments and normalize', () => {
    // GIVEN the same with Go templates, missingkey=error
    const tmpl = template({ source: { repoURL: REPO, targetRevision: 'main', path: '{{ .path.path }}' } }, '{{ index .path.segments 1 | normalize }}-app');
    const result = audit({
      'bootstrap/set.yaml': gitSet({ directories: [{ path: 'apps/*' }] }, tmpl, { goTemplate: true, goTemplateOptions: ['missingkey=error'] }),
      ...autoscaled('apps/Billing_EU'),
    });

    // WHEN it is audited / THEN the Application is named as Argo CD would and paired with the folder
    expect(keysOf(result.findings.filter((f) => f.ruleId === 'SA102'))).toEqual([key('SA102', 'apps/Billing_EU/deployment.yaml', 'billing-eu-app (ApplicationSet set)')]);
  });

  test('files: each config file gives its keys, flattened, and its folder as path', () => {
    // GIVEN cluster config files with a revision each, one of them floating
    const tmpl = template({ source: { repoURL: REPO, targetRevision: '{{cluster.revision}}', path: 'workloads/web' } }, '{{path.basename}}-{{cluster.name}}');
    const result = audit({
      'bootstrap/set.yaml': gitSet({ files: [{ path: 'clusters/**/config.json' }] }, tmpl),
      'clusters/eu/config.json': JSON.stringify({ cluster: { name: 'prod', revision: 'HEAD' } }),
      'clusters/us/config.json': JSON.stringify({ cluster: { name: 'prod', revision: 'v2.0.0' } }),
      ...WORKLOAD,
    });

    // WHEN it is audited / THEN the floating one is found, naming its Application
    expect(result.findings.map((f) => [f.ruleId, f.message.replace(/^.*\(in /, '(in ')])).toEqual([['SA007', '(in 1 of 2 generated Applications: eu-prod)']]);
  });

  test('a git generator that matches no audited folder (a subfolder audited alone): the literal fields are still judged', () => {
    // GIVEN a generator over apps/*, with no apps/ among the audited files, and a literal default project
    const tmpl = template({ project: 'default', source: { repoURL: REPO, targetRevision: 'main', path: '{{path}}' } }, '{{path.basename}}');
    const result = audit({ 'bootstrap/set.yaml': gitSet({ directories: [{ path: 'apps/*' }] }, tmpl) });

    // WHEN it is audited / THEN SA005 is found on the template, and the note says no Application was generated
    expect(result.findings.map((f) => [f.ruleId, f.pointer])).toEqual([['SA005', '/spec/template/spec/project']]);
    expect(result.notes).toEqual(['ApplicationSet set (bootstrap/set.yaml): its generators give no Application in the audited files; its literal fields are audited, those with {{ }} are not']);
    expect(result.stats.applicationSets).toEqual({ expanded: 0, literal: 1, generated: 0 });
  });

  test('hidden folders are not generated, as Argo CD\'s repo server leaves them out', () => {
    // GIVEN a generator over every top folder, and a hidden .ci folder with a YAML file
    const tmpl = template({ source: { repoURL: REPO, targetRevision: 'main', path: '{{path}}' } }, '{{path.basename}}');
    const result = audit({ 'bootstrap/set.yaml': gitSet({ directories: [{ path: '*' }] }, tmpl), '.ci/pipeline.yaml': 'steps: []\n', ...autoscaled('web/app') });

    // WHEN it is audited / THEN bootstrap and web are generated, .ci is not
    expect(result.notes.join('\n')).not.toContain('.ci');
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 2 });
  });

  test('a git generator over another repository is not expanded, and the note names it', () => {
    // GIVEN a generator reading a repository no Application source names
    const tmpl = template({ source: { repoURL: REPO, targetRevision: 'main', path: '{{path}}' } }, '{{path.basename}}');
    const text = appSet([{ git: { repoURL: 'https://git.acme.internal/other/config.git', directories: [{ path: '*' }] } }], tmpl);
    const result = audit({ 'bootstrap/set.yaml': text, ...autoscaled('apps/billing') });

    // WHEN it is audited / THEN only the literal template is checked and the note says which repository
    expect(result.notes).toEqual([expect.stringContaining('a git generator reads https://git.acme.internal/other/config.git, which is not the audited repository')]);
    expect(result.findings.filter((f) => f.ruleId === 'SA102')).toEqual([]);
  });

  test('the repository URL is matched without scheme, user, case or .git', () => {
    // GIVEN a generator over the SSH spelling of the template's repository
    const tmpl = template({ source: { repoURL: REPO, targetRevision: 'main', path: '{{path}}' } }, '{{path.basename}}');
    const text = appSet([{ git: { repoURL: 'git@git.acme.internal:Platform/gitops', directories: [{ path: 'apps/*' }] } }], tmpl);

    // WHEN it is audited / THEN it is the audited repository
    expect(audit({ 'bootstrap/set.yaml': text, ...autoscaled('apps/billing') }).stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 1 });
  });
});

describe('auditFiles: matrix, merge and cluster generators', () => {
  test('matrix of git directories and a list: every pair, the list interpolated with the folder', () => {
    // GIVEN folders a and b and two environments, prod with HEAD
    const tmpl = template({ source: { repoURL: REPO, targetRevision: '{{revision}}', path: '{{path}}' } }, '{{path.basename}}-{{env}}');
    const text = appSet([{
      matrix: {
        generators: [
          { git: { repoURL: REPO, revision: 'main', directories: [{ path: 'apps/*' }] } },
          list({ env: 'prod', revision: 'HEAD' }, { env: 'dev', revision: '{{path.basename}}-v1' }),
        ],
      },
    }], tmpl);
    const result = audit({ 'bootstrap/set.yaml': text, 'apps/a/cm.yaml': configMapYaml('a', 'a'), 'apps/b/cm.yaml': configMapYaml('b', 'b') });

    // WHEN it is audited / THEN four Applications, SA007 for the two on HEAD
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 4 });
    expect(result.findings.map((f) => [f.ruleId, f.message.replace(/^.*\(in /, '(in ')])).toEqual([['SA007', '(in 2 of 4 generated Applications: a-prod, b-prod)']]);
  });

  test('merge: the second list overrides the first by the merge key', () => {
    // GIVEN two clusters on main, one overridden to HEAD
    const tmpl = template({ source: { repoURL: REPO, targetRevision: '{{revision}}', path: 'workloads/web' } });
    const text = appSet([{
      merge: {
        mergeKeys: ['name'],
        generators: [list({ name: 'eu', revision: 'main' }, { name: 'us', revision: 'main' }), list({ name: 'us', revision: 'HEAD' })],
      },
    }], tmpl);

    // WHEN it is audited / THEN us is floating, eu is not
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });
    expect(result.findings.map((f) => [f.ruleId, f.message.replace(/^.*\(in /, '(in ')])).toEqual([['SA007', '(in 1 of 2 generated Applications: us)']]);
  });

  test('cluster generator: the clusters are symbolic; the literal fields are judged, those reading the cluster are not', () => {
    // GIVEN a cluster generator with a Go template naming the cluster, a project read from its labels and a literal HEAD
    const tmpl = template({
      project: '{{ index .metadata.labels "team" }}',
      destination: { server: '{{ .server }}', namespace: 'web' },
      source: { repoURL: REPO, targetRevision: 'HEAD', path: 'workloads/web' },
    }, 'web-{{ .name }}');
    const result = audit({ 'apps/set.yaml': appSet([{ clusters: { selector: { matchLabels: { env: 'prod' } } } }], tmpl, { goTemplate: true }), ...WORKLOAD });

    // WHEN it is audited / THEN HEAD is found, the project is not judged
    expect(result.findings.map((f) => f.ruleId)).toEqual(['SA007']);
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 1 });
  });

  test('a matrix of clusters and a list: the names left with {{ }} are not duplicates', () => {
    // GIVEN clusters x two environments, named by the symbolic cluster name
    const tmpl = template({}, '{{ .name }}-web');
    const text = appSet([{ matrix: { generators: [{ clusters: {} }, list({ env: 'dev' }, { env: 'prod' })] } }], tmpl, { goTemplate: true });

    // WHEN it is audited / THEN both are audited, with no note of duplicates
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 2 });
    expect(result.notes).toEqual([]);
  });

  test('a finding of both Applications that share a name left with {{ }} holds for all of them', () => {
    // GIVEN clusters x two environments, both on HEAD, named by the symbolic cluster name alone
    const tmpl = template({ source: { repoURL: REPO, targetRevision: 'HEAD', path: 'workloads/{{ .env }}' } }, '{{ .name }}-web');
    const text = appSet([{ matrix: { generators: [{ clusters: {} }, list({ env: 'dev' }, { env: 'prod' })] } }], tmpl, { goTemplate: true });

    // WHEN it is audited (the folders hold only jsonnet)
    const result = audit({ 'apps/set.yaml': text }, { repository: { otherFiles: ['workloads/dev/main.jsonnet', 'workloads/prod/main.jsonnet'] } });

    // THEN SA007 does not say "1 of 2", and the note counts both Applications
    expect(result.findings.map((f) => [f.ruleId, f.message])).toEqual([['SA007', 'targetRevision "HEAD" follows the default branch of '
      + 'https://git.acme.internal/platform/gitops.git: whatever is merged there deploys; pin a tag or commit if your team does not own it']]);
    expect(result.notes).toEqual([
      'ApplicationSet set (apps/set.yaml), 1 of its 2 Applications ({{ .name }}-web): source path workloads/dev holds no manifests in the audited files',
      'ApplicationSet set (apps/set.yaml), 1 of its 2 Applications ({{ .name }}-web): source path workloads/prod holds no manifests in the audited files',
    ]);
  });

  test('a generator of a kind Argo CD does not know is named in the note', () => {
    // GIVEN a union generator, which Argo CD does not have
    const text = appSet([{ union: { generators: [] } }], template({}, 'web'));

    // WHEN it is audited / THEN the note names it
    expect(audit({ 'apps/set.yaml': text, ...WORKLOAD }).notes).toEqual([expect.stringContaining('a generator of a kind Argo CD does not know (union)')]);
  });
});

describe('auditFiles: a generator\'s own template', () => {
  test('its fields win over the ApplicationSet\'s template, the rest comes from it', () => {
    // GIVEN a template in project payments, and a second list generator whose own template sets project default
    const text = appSet([
      list({ name: 'eu' }),
      { list: { elements: [{ name: 'legacy' }], template: { metadata: {}, spec: { project: 'default' } } } },
    ], template());

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });

    // THEN only the legacy Application is in the default project, and it keeps the rest (retry, revision) of the template;
    // the finding is where the generator's template writes the project
    expect(result.findings.map((f) => [f.ruleId, f.pointer, f.location.line, f.message.replace(/^.*\(in /, '(in ')])).toEqual([
      ['SA005', '/spec/generators/1/list/template/spec/project', lineOf(text, 'project: default'), '(in 1 of 2 generated Applications: legacy)'],
    ]);
  });
});

describe('auditFiles: a generator\'s own template, under its kind', () => {
  test('a field missing from a map only the generator\'s template writes is reported there; a template beside the kind is no generator\'s', () => {
    // GIVEN an ApplicationSet template without syncPolicy, a git generator whose own template sets automated sync without
    // retry, and a list generator with a template written beside its kind, which Argo CD does not read
    const base = template({}, '{{name}}');
    delete (base.spec as Record<string, unknown>).syncPolicy;
    const text = appSet([
      { list: { elements: [{ name: 'eu' }], template: { metadata: {}, spec: { syncPolicy: { automated: { prune: true, selfHeal: true } } } } } },
      { list: { elements: [{ name: 'us' }] }, template: { metadata: {}, spec: { project: 'default' } } },
    ], base);

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });

    // THEN eu's missing retry is at its generator's syncPolicy; us has no automated sync, from the ApplicationSet's template;
    // and the template beside the kind is a field the CRD does not define
    expect(result.findings.map((f) => [f.ruleId, f.pointer])).toEqual([
      ['SA006', '/spec/generators/0/list/template/spec/syncPolicy/retry'],
      ['SA020', '/spec/generators/1/template'],
      ['SA206', '/spec/template/spec/syncPolicy'],
    ]);
  });
});

describe('auditFiles: ApplicationSets Argo CD cannot render, or only in part', () => {
  test('missingkey=error with a key an element lacks: that Application is not generated, and the note says why', () => {
    // GIVEN one element with the revision and one without
    const tmpl = template({ source: { repoURL: REPO, targetRevision: '{{ .revision }}', path: 'workloads/web' } }, '{{ .name }}');
    const text = appSet([list({ name: 'eu', revision: 'HEAD' }, { name: 'us' })], tmpl, { goTemplate: true, goTemplateOptions: ['missingkey=error'] });

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });

    // THEN eu is audited (and floats), us is named in the note
    expect(result.stats.applications).toBe(1);
    expect(result.findings.map((f) => f.ruleId)).toEqual(['SA007']);
    expect(result.notes).toEqual(['ApplicationSet set (apps/set.yaml): Argo CD cannot render its template for some parameters (map has no entry for key "revision"); those Applications are not generated']);
  });

  test('a templatePatch is rendered per Application and merged in; what it writes is reported at templatePatch', () => {
    // GIVEN a patch that turns self-heal off for eu only, and moves every Application to the default project
    const patch = 'spec:\n  project: default\n{{- if eq .name "eu" }}\n  syncPolicy:\n    automated:\n      selfHeal: false\n{{- end }}\n';
    const text = appSet([list({ name: 'eu' }, { name: 'us' })], template({}, '{{ .name }}'), { templatePatch: patch, goTemplate: true });

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });

    // THEN SA005 holds for both, SA001 for eu, both at the templatePatch line; the rest of the template still counts (prune kept)
    const at = lineOf(text, 'templatePatch:');
    expect(result.findings.map((f) => [f.ruleId, f.pointer, f.location.line])).toEqual([
      ['SA001', '/spec/templatePatch', at],
      ['SA005', '/spec/templatePatch', at],
    ]);
    expect(result.findings[0].message).toMatch(/\(in 1 of 2 generated Applications: eu\)$/);
    expect(result.notes).toEqual([]);
  });

  test('a templatePatch that writes a parameter with toYaml | nindent is rendered as Argo CD renders it', () => {
    // GIVEN kustomize settings of one element written into the patch as YAML, as sprig's toYaml and nindent write them,
    // and a destination namespace the template leaves empty
    const patch = 'spec:\n  destination:\n    namespace: {{ .name }}\n{{- if hasKey . "kustomize" }}\n  source:\n    kustomize: {{ .kustomize | toYaml | nindent 6 }}\n{{- end }}\n';
    const text = appSet([list({ name: 'eu' }, { name: 'us', kustomize: { namePrefix: 'us-', images: ['web:1.2'] } })], template({}, '{{ .name }}'),
      { templatePatch: patch, goTemplate: true });

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });

    // THEN both Applications are generated with their patch applied: us's source became a Kustomize source
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 2 });
    expect(result.notes).toEqual(['ApplicationSet set (apps/set.yaml), 1 of its 2 Applications (us): deploys workloads/web as a Kustomize source '
      + '(the Application sets kustomize.images), not rendered here: give what Argo CD renders for it with --rendered <application>=<file> to audit its workloads']);
    expect(result.findings.map((f) => f.ruleId)).toEqual([]);
  });

  test('a templatePatch null deletes a field, and a list replaces the template\'s', () => {
    // GIVEN a patch that removes the retry and replaces the sync options
    const text = appSet([list({ name: 'eu' })], template({ syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['PruneLast=true'] } }),
      { templatePatch: 'spec:\n  syncPolicy:\n    retry: null\n    syncOptions: [Prune=fals]\n' });

    // WHEN audited / THEN the missing retry and the unknown option are found
    expect(audit({ 'apps/set.yaml': text, ...WORKLOAD }).findings.map((f) => f.ruleId).sort()).toEqual(['SA006', 'SA012']);
  });

  test('a templatePatch that holds values only Argo CD knows is not applied, and the note says why', () => {
    // GIVEN a patch naming the cluster, which is symbolic offline
    const text = appSet([{ clusters: {} }], template({}, '{{ .name }}-web'), { templatePatch: 'metadata:\n  labels:\n    cluster: {{ .name }}\n', goTemplate: true });

    // WHEN it is audited / THEN the note names it
    expect(audit({ 'apps/set.yaml': text, ...WORKLOAD }).notes).toEqual([
      'ApplicationSet set (apps/set.yaml): its templatePatch is not applied to some Applications (it holds values known only to Argo CD): '
        + 'the fields it patches are audited as the template writes them',
    ]);
  });

  test('a templatePatch that passes each git file\'s spec through (hasKey, omit, toJson) is applied: the files\' sync policies are judged', () => {
    // GIVEN Application files, one with automated sync but no retry and one without automated sync, passed through by a patch
    // that renders to nothing for a file without a source; the template has no syncPolicy
    const child = (name: string, syncPolicy: Record<string, unknown>) => stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name, namespace: 'argocd' },
      spec: { project: 'payments', source: { repoURL: REPO, targetRevision: 'main', path: 'workloads/web' }, destination: { server: 'https://kubernetes.default.svc', namespace: name }, syncPolicy },
    });
    const patch = '{{- if or (hasKey .spec "source") (hasKey .spec "sources") }}\nmetadata: {{ .metadata | toJson }}\nspec: {{ omit .spec "project" | toJson }}\n{{- end }}\n';
    const tmpl = { metadata: { name: '{{ .metadata.name }}' }, spec: { project: 'payments', destination: { server: 'https://kubernetes.default.svc', namespace: 'argocd' } } };
    const text = appSet([{ git: { repoURL: REPO, revision: 'main', files: [{ path: 'apps/*/application.yaml' }] } }], tmpl, { goTemplate: true, templatePatch: patch });

    // WHEN it is audited
    const result = audit({
      'bootstrap/set.yaml': text,
      'apps/web/application.yaml': child('web', { automated: { prune: true, selfHeal: true } }),
      'apps/jobs/application.yaml': child('jobs', { syncOptions: ['CreateNamespace=true'] }),
      'apps/empty/application.yaml': stringify({ metadata: { name: 'empty' }, spec: {} }),
      ...WORKLOAD,
    });

    // THEN each policy the patch gives is judged, at the patch: web's missing retry, jobs' missing automated sync; the empty
    // patch fails nothing, and leaves the template's policy (none)
    expect(result.findings.filter((f) => f.location.file === 'bootstrap/set.yaml').map((f) => [f.ruleId, f.pointer, f.message.replace(/^.*\(in /, '(in ')]))
      .toEqual([
        ['SA206', '/spec/template/spec/syncPolicy', '(in 1 of 3 generated Applications: empty)'],
        ['SA006', '/spec/templatePatch', '(in 1 of 3 generated Applications: web)'],
        ['SA206', '/spec/templatePatch', '(in 1 of 3 generated Applications: jobs)'],
      ]);
    expect(result.notes.filter((n) => n.includes('templatePatch'))).toEqual([]);
  });

  test.each([
    ['names syncPolicy', 'spec:\n  syncPolicy: {{ .metadata.annotations.policy }}\n'],
    ['passes the spec through whole', 'spec: {{ .metadata.annotations.spec }}\n'],
    ['prints its keys from a parameter', '{{ .metadata.annotations.patch }}\n'],
  ])('a templatePatch that is not applied and %s leaves the sync policy unjudged, and the note says so', (_, patch) => {
    // GIVEN a cluster generator, whose values are known only to Argo CD, and a template without automated sync
    const tmpl = template({ syncPolicy: { syncOptions: ['CreateNamespace=true'] } }, '{{ .name }}-web');
    const text = appSet([{ clusters: {} }], tmpl, { templatePatch: patch, goTemplate: true });

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });

    // THEN the bare template's missing automated sync is not reported
    expect(result.findings.map((f) => f.ruleId)).toEqual([]);
    expect(result.notes).toEqual([
      'ApplicationSet set (apps/set.yaml): its templatePatch is not applied to some Applications (it holds values known only to Argo CD): '
        + 'the sync policy, which it may set, is not judged; the other fields it patches are audited as the template writes them',
    ]);
  });

  test('a templatePatch of an ApplicationSet that is not expanded: a sync policy it may set is not judged either', () => {
    // GIVEN a pull request generator, a template without automated sync, and a patch that sets the sync policy
    const text = appSet([{ pullRequest: { github: { owner: 'acme', repo: 'web' } } }], template({ syncPolicy: {} }, 'pr-{{ .number }}'),
      { goTemplate: true, templatePatch: 'spec:\n  syncPolicy:\n    automated: {}\n' });

    // WHEN it is audited / THEN nothing is reported from the bare template's sync policy
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });
    expect(result.findings.map((f) => f.ruleId)).toEqual([]);
    expect(result.notes).toContain('ApplicationSet set (apps/set.yaml): its templatePatch is not applied: the sync policy, which it may set, is not judged; '
      + 'the other fields it patches are audited as the template writes them');
  });

  test('a templatePatch\'s finalizers are added to the template\'s, as a strategic merge patch merges them', () => {
    // GIVEN a template with a PostDelete finalizer and a patch that adds the resources finalizer
    const tmpl = template({}, '{{ .name }}');
    (tmpl.metadata as Record<string, unknown>).finalizers = ['post-delete-finalizer.argocd.argoproj.io'];
    const text = appSet([list({ name: 'eu' })], tmpl, { goTemplate: true, templatePatch: 'metadata:\n  finalizers:\n    - resources-finalizer.argocd.argoproj.io\n' });

    // WHEN it is audited / THEN the patch's cascade is found, at the patch
    expect(audit({ 'apps/set.yaml': text, ...WORKLOAD }).findings.map((f) => [f.ruleId, f.pointer])).toEqual([['SA010', '/spec/templatePatch']]);
  });

  test('a templatePatch that is not a map of fields fails those Applications, as in Argo CD', () => {
    const text = appSet([list({ name: 'eu' })], template(), { templatePatch: '- spec\n' });
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });
    expect(result.stats.applications).toBe(0);
    expect(result.notes).toEqual([expect.stringContaining('Argo CD cannot render its template for some parameters (invalid templatePatch')]);
  });
});

describe('auditFiles: the resources finalizer the ApplicationSet controller adds', () => {
  test.each([
    ['expanded into two Applications', [list({ name: 'eu' }, { name: 'us' })]],
    ['not expanded (a pull request generator)', [{ pullRequest: { github: { owner: 'acme', repo: 'web' } } }]],
  ])('an ApplicationSet %s whose template lists no finalizers is reported once, at its syncPolicy', (_, generators) => {
    // GIVEN an ApplicationSet that does not preserve resources on deletion
    const text = appSet(generators, template({}, 'web-{{name}}'), { syncPolicy: { applicationsSync: 'create-update' } });

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });

    // THEN one SA010 finding on the ApplicationSet says that the controller adds the finalizer and how to stop it
    expect(result.findings.map((f) => [f.ruleId, f.object, f.pointer, f.location.line])).toEqual([
      ['SA010', 'ApplicationSet argocd/set', '/spec/syncPolicy', lineOf(text, 'applicationsSync:') - 1],
    ]);
    expect(result.findings[0].message).toContain('preserveResourcesOnDeletion: true');
  });
});

describe('auditFiles: Go template semantics of the ApplicationSet controller', () => {
  test('and stops at a false argument: a guarded index does not fail, and the Applications are judged', () => {
    // GIVEN a goTemplate ApplicationSet in the default project whose annotation guards an index out of range with and
    const tmpl = template({ project: 'default' }, '{{ .name }}');
    (tmpl.metadata as Record<string, unknown>).annotations = { x: '{{ if and (eq .name "zzz") (index .list 5) }}y{{ end }}' };
    const text = appSet([list({ name: 'a', list: [1] })], tmpl, { goTemplate: true });

    // WHEN it is audited
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });

    // THEN its Application is generated and its default project reported
    expect(result.notes).toEqual([]);
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 1 });
    expect(result.findings.map((f) => f.ruleId)).toEqual(['SA005']);
  });
});

describe('auditFiles: hostile ApplicationSets stay bounded', () => {
  test('a matrix of two large lists is too large, not expanded, within the per-file budget', () => {
    // GIVEN a matrix of 300 x 300 elements, a literal default project, and a budget of 1,000 objects a file
    const many = (prefix: string) => Array.from({ length: 300 }, (_, i) => ({ [prefix]: `${prefix}${i}` }));
    const text = appSet([{ matrix: { generators: [list(...many('a')), list(...many('b'))] } }], template({ project: 'default' }, '{{a}}-{{b}}'));

    // WHEN it is audited
    const started = Date.now();
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD }, { maxObjectsPerFile: 1000 });

    // THEN it stops quickly with a "too large" note and still judges the literal project
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.notes).toEqual([expect.stringContaining('too large, not expanded: ')]);
    expect(result.findings.map((f) => f.ruleId)).toEqual(['SA005']);
  });

  test('a list of more elements than the budget is refused before any is copied', () => {
    // GIVEN a list generator of 2,001 elements
    const elements = Array.from({ length: 2001 }, (_, i) => ({ name: `app${i}` }));
    const text = appSet([list(...elements)], template({ project: 'default' }));

    // WHEN audited / THEN too large, its literal project still judged
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });
    expect(result.notes).toEqual([expect.stringContaining('too large, not expanded: its list generator has more than 2000 elements')]);
    expect(result.findings.map((f) => f.ruleId)).toEqual(['SA005']);
  });

  test('a git directory generator over 50,000 folders is too large, not expanded', () => {
    // GIVEN 50,000 folders of one file each
    const files: Record<string, string> = {};
    for (let i = 0; i < 50_000; i++) {
      files[`apps/app${i}/cm.yaml`] = 'a: 1\n';
    }
    const tmpl = template({ source: { repoURL: REPO, targetRevision: 'main', path: '{{path}}' } }, '{{path.basename}}');
    files['bootstrap/set.yaml'] = appSet([{ git: { repoURL: REPO, directories: [{ path: 'apps/*' }] } }], tmpl);

    // WHEN it is audited
    const started = Date.now();
    const result = audit(files);

    // THEN the note says too large, in bounded time
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.notes).toEqual([expect.stringContaining('too large, not expanded: its git generator matches more than 2000 folders')]);
  });

  test('a template that renders huge is too large, not expanded', () => {
    // GIVEN one element of 1 MB, printed 40 times in each of 2 fields, for 2 Applications... over 20 M characters in all
    const big = 'x'.repeat(1_000_000);
    const tmpl = template({ info: [{ name: 'a', value: '{{big}}'.repeat(12) }] });
    const text = appSet([list({ name: 'a', big }, { name: 'b', big })], tmpl);

    // WHEN it is audited / THEN too large
    expect(audit({ 'apps/set.yaml': text, ...WORKLOAD }, { maxObjectsPerFile: 1000 }).notes).toEqual([expect.stringContaining('render to more than 20000000 characters')]);
  });

  test('matrices nested ten deep are not expanded: Argo CD nests one level', () => {
    // GIVEN a matrix of a matrix of ... ten deep
    let generator: unknown = list({ name: 'a' });
    for (let i = 0; i < 10; i++) {
      generator = { matrix: { generators: [generator, list({ [`k${i}`]: 'v' })] } };
    }
    const text = appSet([generator], template({ project: 'default' }));

    // WHEN audited / THEN the note says how deep, and the literal project is judged
    const result = audit({ 'apps/set.yaml': text, ...WORKLOAD });
    expect(result.notes).toEqual([expect.stringContaining('its matrix generators nest more than 3 deep')]);
    expect(result.findings.map((f) => f.ruleId)).toEqual(['SA005']);
  });

  test('parameters named __proto__ or constructor are only parameters', () => {
    // GIVEN list elements with keys of Object.prototype, in both template modes
    const tmpl = template({}, 'x-{{__proto__}}-{{constructor}}');
    const fast = appSet([list(JSON.parse('{"__proto__": "p", "constructor": "c"}') as Record<string, unknown>)], tmpl);
    const go = appSet([list(JSON.parse('{"__proto__": {"polluted": "yes"}}') as Record<string, unknown>)], template({}, 'x-{{ .__proto__.polluted }}'), { goTemplate: true });

    // WHEN audited
    const result = audit({ 'a/fast.yaml': fast, 'b/go.yaml': go, ...WORKLOAD });

    // THEN nothing is polluted and the names render from the data
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(result.problems).toEqual([]);
    expect(result.stats.applicationSets).toEqual({ expanded: 2, literal: 0, generated: 2 });
  });

  test('a string of 80,000 "{{" and no "}}" without goTemplate is left as written, and the set expands', () => {
    // GIVEN an ApplicationSet whose template annotation is 80,000 opening braces (bench/bombs.ts times it)
    // WHEN it is audited
    const result = audit(templatedBomb(80_000));

    // THEN its one Application is generated, with no note and no problem
    expect(result.problems).toEqual([]);
    expect(result.notes).toEqual([]);
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 1 });
  });

  test('a goTemplate string of 100,000 spaces before a left trim marker renders, and the set expands', () => {
    // GIVEN an ApplicationSet whose template annotation is 100,000 spaces, a letter and `{{- .name }}` (bench/bombs.ts times it)
    // WHEN it is audited
    const result = audit(trimMarkerBomb(100_000));

    // THEN its one Application is generated, with no note and no problem
    expect(result.problems).toEqual([]);
    expect(result.notes).toEqual([]);
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 1 });
  });

  test('nested replaces that would build 10^10 characters are too large, not expanded, and the literal fields are judged', () => {
    // GIVEN an ApplicationSet whose annotation replaces a 10-character value into 10^10 (bench/bombs.ts times it)
    // WHEN it is audited
    const result = audit(replaceBomb(9));

    // THEN the usual note, no crash and no problem
    expect(result.problems).toEqual([]);
    expect(result.notes).toEqual([expect.stringContaining('too large, not expanded: its Applications render to more than 20000000 characters')]);
    expect(result.stats.applicationSets).toEqual({ expanded: 0, literal: 1, generated: 0 });
  });

  test('a matrix of 200 elements and a git file of 3,000 keys expands to 200 Applications', () => {
    // GIVEN a matrix whose second generator reads a 40 KB JSON file, once for each of 200 elements (bench/bombs.ts times it)
    // WHEN it is audited
    const result = audit(matrixGitFilesBomb(200));

    // THEN each element gives its Application, with no note and no problem
    expect(result.problems).toEqual([]);
    expect(result.notes).toEqual([]);
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 200 });
  });

  test('a merge of 700 children of 2,000 sets each is too large, not expanded, and the literal fields are judged', () => {
    // GIVEN a merge generator of 700 aliases of one 2,000-element list, in the default project (bench/bombs.ts times it)
    // WHEN it is audited
    const result = audit(mergeChildrenBomb(700));

    // THEN the usual note, its literal project still judged
    expect(result.problems).toEqual([]);
    expect(result.notes).toEqual([expect.stringContaining('too large, not expanded: its generators produce more than 20000 parameter sets in all')]);
    expect(result.findings.map((f) => f.ruleId)).toContain('SA005');
  });
});
