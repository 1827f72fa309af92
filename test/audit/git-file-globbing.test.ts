import { stringify } from 'yaml';
import { auditInMemory as audit, auditJson, writeTree } from './support';
import { readGitFileGlobbing } from '../../src/audit/controller-settings';
import { LocatedManifest, Manifest } from '../../src/core/manifest';
import { tempDir } from '../support/app';

const REPO = 'https://git.acme.internal/platform/gitops.git';
const KEY = 'applicationsetcontroller.enable.new.git.file.globbing';

/** An ApplicationSet with a git files generator over `apps/*\/config.json`, one Application per file. */
const SET = stringify({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'ApplicationSet',
  metadata: { name: 'apps', namespace: 'argocd' },
  spec: {
    generators: [{ git: { repoURL: REPO, revision: 'main', files: [{ path: 'apps/*/config.json' }] } }],
    syncPolicy: { applicationsSync: 'create-update', preserveResourcesOnDeletion: true },
    template: {
      metadata: { name: '{{path.basename}}' },
      spec: {
        project: 'payments',
        destination: { server: 'https://kubernetes.default.svc', namespace: '{{path.basename}}' },
        source: { repoURL: REPO, targetRevision: 'main', path: '{{path}}' },
        syncPolicy: { automated: { prune: true, selfHeal: true }, retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } } },
      },
    },
  },
});

/** Config files one and two folders under apps/: the default globbing reads both, the new one only the first. */
const CONFIGS = { 'apps/web/config.json': '{}', 'apps/web/old/config.json': '{}' };

const paramsCm = (value: string) => stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'argocd-cmd-params-cm', namespace: 'argocd' }, data: { [KEY]: value } });

describe('the git files generator is globbed as the audited files configure the ApplicationSet controller', () => {
  test('by default, a pathspec: apps/*/config.json reads both config files', () => {
    // GIVEN no setting / WHEN audited / THEN two Applications are generated, and no note speaks of globbing
    const result = audit({ 'bootstrap/set.yaml': SET, ...CONFIGS });
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 2 });
    expect(result.notes.join('\n')).not.toContain('globbing');
  });

  test('an argocd-cmd-params-cm that turns the new globbing on: * stays in one folder, and a note says where it is set', () => {
    // GIVEN the ConfigMap in the repository that installs Argo CD
    const result = audit({ 'bootstrap/set.yaml': SET, 'argocd/params.yaml': paramsCm('true'), ...CONFIGS });

    // WHEN audited / THEN one Application, and the note names the file
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 1 });
    expect(result.notes).toContain('git files generators are expanded with the new git file globbing (`*` within one folder, `**` across folders), '
      + `as ${KEY} in argocd/params.yaml (ConfigMap argocd-cmd-params-cm) sets`);
  });

  test('the argo-cd chart\'s configs.params in a value file, under the key of a chart that depends on it', () => {
    // GIVEN an umbrella chart of argo-cd whose values turn it on, as a boolean
    const values = stringify({ 'argo-cd': { configs: { params: { [KEY]: true, 'server.insecure': true } } } });
    const result = audit({ 'bootstrap/set.yaml': SET, 'infra/argocd/Chart.yaml': 'name: argocd\nversion: 1.0.0\n', 'infra/argocd/values.yaml': values, ...CONFIGS });

    // WHEN audited / THEN one Application
    expect(result.stats.applicationSets).toEqual({ expanded: 1, literal: 0, generated: 1 });
    expect(result.notes.join('\n')).toContain('infra/argocd/values.yaml (configs.params)');
  });

  test('the options decide over the files, either way', () => {
    const files = { 'bootstrap/set.yaml': SET, 'argocd/params.yaml': paramsCm('true'), ...CONFIGS };
    expect(audit(files, { newGitFileGlobbing: false }).stats.applicationSets?.generated).toBe(2);
    expect(audit({ 'bootstrap/set.yaml': SET, ...CONFIGS }, { newGitFileGlobbing: true }).stats.applicationSets?.generated).toBe(1);
    expect(audit(files, { newGitFileGlobbing: false }).notes.join('\n')).not.toContain('globbing');
  });

  test('files that disagree (two Argo CD installations): the default is kept, and the note says so', () => {
    // GIVEN one installation with it on, another with it off
    const result = audit({ 'bootstrap/set.yaml': SET, 'eu/params.yaml': paramsCm('true'), 'us/params.yaml': paramsCm('false'), ...CONFIGS });

    // WHEN audited / THEN both config files are read, and the note names both places and the config key
    expect(result.stats.applicationSets?.generated).toBe(2);
    expect(result.notes.find((n) => n.startsWith(KEY))).toMatch(/different values \(eu\/params\.yaml .*, us\/params\.yaml .*\).*newGitFileGlobbing in \.safe-argocd\.yaml/);
  });
});

describe('readGitFileGlobbing', () => {
  const located = (manifest: Manifest, file = 'argocd/x.yaml'): LocatedManifest => ({ manifest, location: { file, line: 1, column: 1 } });
  const cm = (value: unknown) => located({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'argocd-cmd-params-cm' }, data: { [KEY]: value } });

  test.each([
    ['true', true], ['True', true], ['1', true], ['t', true],
    ['false', false], ['0', false], ['yes', false], ['on', false],
  ])('reads the ConfigMap\'s %p as Go\'s strconv.ParseBool does: %p (anything else is the default, off)', (value, enabled) => {
    expect(readGitFileGlobbing([cm(value)], []).enabled).toBe(enabled);
  });

  test('reads an Application of the argo-cd chart, in valuesObject or the values text, and no other chart', () => {
    const app = (chart: string, helm: Record<string, unknown>) => located({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'argocd' },
      spec: { source: { repoURL: 'https://argoproj.github.io/argo-helm', chart, targetRevision: '9.1.0', helm } },
    });
    expect(readGitFileGlobbing([app('argo-cd', { valuesObject: { configs: { params: { [KEY]: true } } } })], [])).toEqual({
      enabled: true, setBy: ['argocd/x.yaml (Application argocd, /spec/source/helm/valuesObject)'], conflicting: false,
    });
    expect(readGitFileGlobbing([app('argo-cd', { values: `configs:\n  params:\n    ${KEY}: "true"\n` })], []).enabled).toBe(true);
    expect(readGitFileGlobbing([app('other', { valuesObject: { configs: { params: { [KEY]: true } } } })], []).setBy).toEqual([]);
  });

  test('nothing set is off, with no place named; a ConfigMap of another name is not read', () => {
    const other = located({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'argocd-cm' }, data: { [KEY]: 'true' } });
    expect(readGitFileGlobbing([other], [{ path: 'values.yaml', text: 'replicas: 2\n' }])).toEqual({ enabled: false, setBy: [], conflicting: false });
  });
});

describe('safe-argocd audit: newGitFileGlobbing in .safe-argocd.yaml', () => {
  test('decides over the files, and reaches the expansion', async () => {
    // GIVEN a repository whose argocd-cmd-params-cm turns the new globbing on, with and without a config that says off
    const tree = { 'bootstrap/set.yaml': SET, 'argocd/params.yaml': paramsCm('true'), ...CONFIGS };
    const plain = tempDir();
    writeTree(plain, tree);
    const configured = tempDir();
    writeTree(configured, { ...tree, '.safe-argocd.yaml': 'newGitFileGlobbing: false\n' });

    // WHEN each is audited / THEN the files decide in one, the config in the other
    expect((await auditJson(plain)).report.stats.applicationSets?.generated).toBe(1);
    expect((await auditJson(configured)).report.stats.applicationSets?.generated).toBe(2);
  });
});
