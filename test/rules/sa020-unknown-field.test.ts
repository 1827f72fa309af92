import { readFileSync } from 'fs';
import { join } from 'path';
import { appProjectOf, expectFindings, findingsOf, manifest, modified, safeApplication } from './support';
import { renderArgoCdFields } from '../../scripts/argocd-fields';
import { Manifest } from '../../src/core/manifest';
import { unknownField } from '../../src/rules/sa020-unknown-field';

/** An ApplicationSet of list elements whose template is a whole Application spec, with `overrides` merged in. */
function applicationSet(overrides: { [key: string]: unknown } = {}): Manifest {
  const app = safeApplication();
  return modified({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name: 'teams', namespace: 'argocd' },
    spec: {
      goTemplate: true,
      goTemplateOptions: ['missingkey=error'],
      generators: [
        { list: { elements: [{ team: 'a', anything: { nested: true } }] } },
        { matrix: { generators: [{ git: { repoURL: 'https://git.acme.internal/platform/gitops.git', revision: 'main', directories: [{ path: 'apps/*' }] } }, { clusters: { selector: { matchLabels: { env: 'prod' } } } }] } },
      ],
      template: { metadata: { name: '{{.team}}', labels: { team: '{{.team}}' }, annotations: { 'acme.internal/owner': 'x' } }, spec: app.spec },
      syncPolicy: { preserveResourcesOnDeletion: true, applicationsSync: 'create-update' },
    },
  }, overrides);
}

describe('SA020 unknown-field', () => {
  test('passes on Applications, ApplicationSets and AppProjects that use only their CRD\'s fields, and any key where the CRD takes any', () => {
    // GIVEN every open place: labels and annotations, Helm valuesObject, plugin env, list elements, a multi-source app
    const app = safeApplication({
      metadata: { labels: { 'team.acme.internal/name': 'payments' }, annotations: { 'notifications.argoproj.io/subscribe.on-sync-failed.slack': 'x' }, finalizers: [] },
      spec: {
        source: undefined,
        sources: [
          { repoURL: 'https://charts.acme.internal', chart: 'web', targetRevision: '1.2.3', helm: { releaseName: 'web', valuesObject: { anyKey: { deeper: [1, 2] } }, parameters: [{ name: 'a', value: 'b', forceString: true }], valueFiles: ['$values/web.yaml'] } },
          { repoURL: 'https://git.acme.internal/payments/checkout.git', targetRevision: 'main', ref: 'values' },
          { repoURL: 'https://git.acme.internal/payments/checkout.git', targetRevision: 'main', path: 'cmp', plugin: { name: 'sops', env: [{ name: 'A', value: 'b' }] } },
        ],
        ignoreDifferences: [{ group: 'apps', kind: 'Deployment', jsonPointers: ['/spec/replicas'], managedFieldsManagers: ['hpa'] }],
        revisionHistoryLimit: 3,
        info: [{ name: 'runbook', value: 'https://wiki.acme.internal/checkout' }],
      },
    });
    const project = appProjectOf({ spec: { roles: [{ name: 'ci', policies: ['p, proj:payments:ci, applications, sync, payments/*, allow'], groups: ['ci'] }], syncWindows: [{ kind: 'deny', schedule: '0 22 * * *', duration: '8h', applications: ['*'], manualSync: true }] } });
    // WHEN
    const findings = findingsOf(unknownField, [applicationSet(), project, manifest('apps/v1', 'Deployment', 'web', { spec: { whatever: true } })], app);
    // THEN
    expect(findings.map((f) => `${f.rule.id} ${f.path}`)).toEqual([]);
  });

  test('fails on a misspelt field, naming the field meant', () => {
    // GIVEN self-heal with a lower-case h, and ignoreDifference without its s
    const app = safeApplication({ spec: { syncPolicy: { automated: { prune: true, selfHeal: undefined, selfheal: true } }, ignoreDifference: [{ kind: 'Secret', jsonPointers: ['/data'] }] } });
    // WHEN
    const findings = findingsOf(unknownField, [], app);
    // THEN
    expectFindings(findings, app, ['SA020 /spec/syncPolicy/automated/selfheal', 'SA020 /spec/ignoreDifference']);
    expect(findings[0].message).toContain('did you mean "selfHeal"?');
    expect(findings[0].message).toContain('under spec.syncPolicy.automated');
    expect(findings[1].message).toContain('did you mean "ignoreDifferences"?');
  });

  test('fails on a field in the wrong place, naming where Argo CD reads it', () => {
    // GIVEN syncPolicy beside spec, as an app-of-apps root in a public repository has it
    const app = modified(safeApplication(), { syncPolicy: { automated: { selfHeal: true } } });
    // WHEN
    const findings = findingsOf(unknownField, [], app);
    // THEN
    expectFindings(findings, app, ['SA020 /syncPolicy']);
    expect(findings[0].message).toContain('"syncPolicy" at the top level');
    expect(findings[0].message).toContain('Argo CD reads "syncPolicy" at spec.syncPolicy');
    expect(findings[0].message).toContain('refused');
  });

  test('names no field when none is close, and reports an unknown field once, not the fields under it', () => {
    // GIVEN a field no CRD has, holding more fields
    const app = safeApplication({ spec: { source: { helm: { values: undefined, extraStuff: { a: { b: 1 } } } } } });
    // WHEN
    const findings = findingsOf(unknownField, [], app);
    // THEN
    expectFindings(findings, app, ['SA020 /spec/source/helm/extraStuff']);
    expect(findings[0].message).not.toMatch(/did you mean|Argo CD reads/);
  });

  test('fails in an ApplicationSet\'s template and generators, and in an AppProject', () => {
    // GIVEN
    const set = applicationSet({
      spec: { template: { spec: { syncPolicy: { automated: { selfheal: true } } } }, generators: [{ lists: { elements: [] } }] },
    });
    const project = appProjectOf({ spec: { destination: [{ server: '*', namespace: '*' }] } });
    // WHEN
    const findings = findingsOf(unknownField, [set, project]);
    // THEN
    expect(findings.map((f) => `${f.path} ${/did you mean "([^"]+)"/.exec(f.message)?.[1]}`)).toEqual([
      '/spec/generators/0/lists list',
      '/spec/template/spec/syncPolicy/automated/selfheal selfHeal',
      '/spec/destination destinations',
    ]);
  });

  test('an object of thousands of unknown fields gets each reported, and hints for the first 32 only', () => {
    // GIVEN 5,000 fields a letter or two from syncPolicy (hostile input: each hint compares with every known field)
    const extra = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`syncPolicy${i}`, true]));
    const app = safeApplication({ spec: extra });
    // WHEN
    const findings = findingsOf(unknownField, [], app);
    // THEN
    expect(findings).toHaveLength(5000);
    expect(findings.filter((f) => f.message.includes('did you mean "syncPolicy"?')).map((f) => f.value)).toEqual(
      Array.from({ length: 32 }, (_, i) => `syncPolicy${i}`).filter((k) => k.length <= 'syncPolicy'.length + 2),
    );
  });

  test('a field only some supported releases define is known (the version rules judge it)', () => {
    // GIVEN automated.enabled, in the CRD from v3.1 on
    const app = safeApplication({ spec: { syncPolicy: { automated: { enabled: true } } } });
    // THEN
    expect(findingsOf(unknownField, [], app)).toEqual([]);
  });

  test('a key written as a template is left alone', () => {
    const app = modified(safeApplication(), { '{{ .Values.extra }}': true });
    expect(findingsOf(unknownField, [], app)).toEqual([]);
  });

  test('other kinds, and objects of other API groups named like Argo CD\'s, are not checked', () => {
    const other = { apiVersion: 'example.acme.internal/v1', kind: 'Application', metadata: { name: 'x' }, spec: { anything: true } };
    expect(findingsOf(unknownField, [other, manifest('v1', 'ConfigMap', 'c', { unknown: 1 })])).toEqual([]);
  });

  test('the committed field table is what the CRDs in schemas/argo-cd render', () => {
    const root = join(__dirname, '..', '..');
    const committed = readFileSync(join(root, 'src', 'rules', 'argocd-fields.ts'), 'utf8');
    expect(committed === renderArgoCdFields(join(root, 'schemas', 'argo-cd')) ? 'current' : 'stale: run `npx projen argocd-fields`').toBe('current');
  });
});
