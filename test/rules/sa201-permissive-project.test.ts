import { Testing } from 'cdk8s';
import { expectFindings, findingsOf, manifest, modified, Overrides, safeApplication } from './support';
import { SafeProject } from '../../src';
import { Manifest } from '../../src/core/manifest';
import { destinationAllowed } from '../../src/core/project-policy';
import { permissiveProject } from '../../src/rules/sa201-permissive-project';

const REPO = 'https://git.acme.internal/payments/checkout.git';

/** An AppProject "payments" that SA201 accepts, with `overrides` merged in (lists replace). */
function appProject(overrides: Overrides = {}): Manifest {
  return modified({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AppProject',
    metadata: { name: 'payments', namespace: 'argocd' },
    spec: {
      sourceRepos: [REPO],
      destinations: [{ server: 'https://kubernetes.default.svc', namespace: 'checkout' }],
      clusterResourceWhitelist: [{ group: '', kind: 'Namespace' }],
    },
  }, overrides);
}

describe('SA201 permissive-project', () => {
  test('passes when the project lists exact repositories, destinations and cluster kinds', () => {
    // GIVEN
    const project = appProject();
    // WHEN
    const findings = findingsOf(permissiveProject, [project], safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes on the AppProject a SafeProject renders', () => {
    // GIVEN
    const rendered = new SafeProject(Testing.app(), 'project', {
      name: 'payments', sourceRepos: [REPO], destinations: [{ namespace: 'checkout' }], clusterResources: [{ group: '', kind: 'Namespace' }],
    }).resource.toJson() as Manifest;
    // WHEN
    const findings = findingsOf(permissiveProject, [rendered]);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when there is no AppProject, only an Application', () => {
    // GIVEN WHEN
    const findings = findingsOf(permissiveProject, [], safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when an AppProject of another API group has "*"', () => {
    // GIVEN
    const other = manifest('acme.internal/v1', 'AppProject', 'payments', { spec: { sourceRepos: ['*'] } });
    // WHEN
    const findings = findingsOf(permissiveProject, [other]);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when sourceRepos holds "*"', () => {
    // GIVEN
    const project = appProject({ spec: { sourceRepos: [REPO, '*'] } });
    // WHEN
    const findings = findingsOf(permissiveProject, [project]);
    // THEN
    expectFindings(findings, project, ['SA201 /spec/sourceRepos/1']);
    expect(findings[0].value).toBe('*');
    expect(findings[0].message).toBe('sourceRepos allows any repository');
  });

  test.each([
    ['**', 'sourceRepos allows any repository'],
    ['https://*/**', 'sourceRepos allows any repository'],
    ['https://github.com/*/*', 'sourceRepos allows the repositories of any owner on github.com, forks and strangers\' included'],
    ['https://github.com/**', 'sourceRepos allows the repositories of any owner on github.com, forks and strangers\' included'],
    ['HTTPS://GitHub.com/*/*.git', 'sourceRepos allows the repositories of any owner on github.com, forks and strangers\' included'],
    ['git@gitlab.com:*/*', 'sourceRepos allows the repositories of any owner on gitlab.com, forks and strangers\' included'],
    ['https://bitbucket.org/*/*', 'sourceRepos allows the repositories of any owner on bitbucket.org, forks and strangers\' included'],
  ])('fails when sourceRepos holds %p, which lets through repositories the team does not own', (pattern, message) => {
    // GIVEN
    const project = appProject({ spec: { sourceRepos: [REPO, pattern] } });
    // WHEN
    const findings = findingsOf(permissiveProject, [project]);
    // THEN
    expectFindings(findings, project, ['SA201 /spec/sourceRepos/1']);
    expect(findings[0].message).toBe(message);
  });

  test.each([
    ['https://github.com/acme/*'],
    ['https://github.com/acme/**'],
    ['git@github.com:acme/*'],
    ['https://git.acme.internal/*/*'],
    ['!https://github.com/*/*'],
    ['https://github.com/acme-*/payments'],
  ])('passes when sourceRepos holds %p: one owner\'s repositories, a host of the team\'s own, or a deny pattern', (pattern) => {
    // GIVEN
    const project = appProject({ spec: { sourceRepos: [REPO, pattern] } });
    // WHEN
    const findings = findingsOf(permissiveProject, [project]);
    // THEN
    expect(findings).toEqual([]);
  });

  test.each([
    ['namespace', { server: 'https://kubernetes.default.svc', namespace: '*' }, 'a destination allows any namespace'],
    ['server', { server: '*', namespace: 'checkout' }, 'a destination allows any cluster'],
    ['name', { name: '*', namespace: 'checkout' }, 'a destination allows any cluster'],
  ])('fails when a destination\'s %s is "*"', (field, destination, message) => {
    // GIVEN
    const project = appProject({ spec: { destinations: [{ server: 'https://kubernetes.default.svc', namespace: 'checkout' }, destination] } });
    // WHEN
    const findings = findingsOf(permissiveProject, [project]);
    // THEN
    expectFindings(findings, project, [`SA201 /spec/destinations/1/${field}`]);
    expect(findings[0].message).toBe(message);
  });

  test('entries with a "!" pattern beside an entry that allows everything are not reported: there they only take away', () => {
    // GIVEN deny entries, as tenant projects write them, and the allow-all entry they narrow
    const project = appProject({
      spec: {
        destinations: [
          { name: '!in-cluster', namespace: '*' },
          { server: '*', namespace: '!kube-system' },
          { name: '*', namespace: '*' },
        ],
      },
    });
    // WHEN
    const findings = findingsOf(permissiveProject, [project]);
    // THEN only the allow-all entry is reported
    expectFindings(findings, project, ['SA201 /spec/destinations/2/name']);
  });

  test('an entry with a "!" pattern and "*" is reported when nothing else allows everything: Argo CD reads it as allowing all other values', () => {
    // GIVEN a project whose only entry was meant to keep the in-cluster cluster out
    const entry = { name: '!in-cluster', namespace: '*' };
    const project = appProject({ spec: { destinations: [entry] } });
    // WHEN
    const findings = findingsOf(permissiveProject, [project]);
    // THEN its "*" is reported, saying what the "!" pattern really does
    expectFindings(findings, project, ['SA201 /spec/destinations/0/namespace']);
    expect(findings[0].message).toBe('a destination allows any namespace, and "!in-cluster" beside it allows every value but "in-cluster": '
      + 'a "!" pattern makes the entry deny that one value and allow all the others, not deny only');
    // AND as Argo CD matches destinations, the entry lets any namespace of any other cluster in, and keeps in-cluster out
    expect(destinationAllowed([entry], 'kube-system', undefined, 'prod')).toBe(true);
    expect(destinationAllowed([entry], 'team-a', undefined, 'in-cluster')).toBe(false);
  });

  test.each([
    ['server and namespace', { server: '*', namespace: '*' }, '/spec/destinations/0/server', 'a destination allows any cluster and any namespace'],
    ['server and name', { server: '*', name: '*', namespace: 'checkout' }, '/spec/destinations/0/server', 'a destination allows any cluster'],
    ['server, name and namespace', { name: '*', server: '*', namespace: '*' }, '/spec/destinations/0/server', 'a destination allows any cluster and any namespace'],
    ['name and namespace', { name: '*', namespace: '*' }, '/spec/destinations/0/name', 'a destination allows any cluster and any namespace'],
  ])('fails once for a destination whose %s are "*", at its first "*" field', (_, destination, pointer, message) => {
    // GIVEN one entry with several "*" fields
    const project = appProject({ spec: { destinations: [destination] } });
    // WHEN
    const findings = findingsOf(permissiveProject, [project]);
    // THEN one finding for the entry, saying all it allows
    expectFindings(findings, project, [`SA201 ${pointer}`]);
    expect(findings[0].message).toBe(message);
    expect(findings[0].value).toBe('*');
  });

  test('fails once per entry when several destinations are "*"', () => {
    // GIVEN two entries, each open on one side
    const project = appProject({ spec: { destinations: [{ server: '*', namespace: 'checkout' }, { server: 'https://kubernetes.default.svc', namespace: '*' }] } });
    // WHEN
    const findings = findingsOf(permissiveProject, [project]);
    // THEN
    expectFindings(findings, project, ['SA201 /spec/destinations/0/server', 'SA201 /spec/destinations/1/namespace']);
  });

  test.each([
    ['any kind', { group: '', kind: '*' }],
    ['any group', { group: '*', kind: 'ClusterRole' }],
    ['anything', { group: '*', kind: '*' }],
  ])('fails when clusterResourceWhitelist allows %s', (_, entry) => {
    // GIVEN
    const project = appProject({ spec: { clusterResourceWhitelist: [{ group: '', kind: 'Namespace' }, entry] } });
    // WHEN
    const findings = findingsOf(permissiveProject, [project]);
    // THEN
    expectFindings(findings, project, ['SA201 /spec/clusterResourceWhitelist/1']);
    expect(findings[0].value).toEqual(entry);
  });

  test('fails when the AppProject is audited as the application itself', () => {
    // GIVEN
    const project = appProject({ spec: { sourceRepos: ['*'] } });
    // WHEN
    const findings = findingsOf(permissiveProject, [], project);
    // THEN
    expectFindings(findings, project, ['SA201 /spec/sourceRepos/0']);
  });

  test('fails on every permissive field of every project, in order', () => {
    // GIVEN
    const payments = appProject({ spec: { sourceRepos: ['*'], clusterResourceWhitelist: [{ group: '*', kind: '*' }] } });
    const search = appProject({ metadata: { name: 'search' }, spec: { destinations: [{ server: 'https://kubernetes.default.svc', namespace: '*' }] } });
    // WHEN
    const findings = findingsOf(permissiveProject, [payments, search]);
    // THEN
    expect(findings.map((f) => [f.rule.id, f.path, f.object])).toEqual([
      ['SA201', '/spec/sourceRepos/0', payments],
      ['SA201', '/spec/clusterResourceWhitelist/0', payments],
      ['SA201', '/spec/destinations/0/namespace', search],
    ]);
  });

  test('fails, marked suppressed, when the project carries a reasoned suppression of SA201', () => {
    // GIVEN
    const project = appProject({ metadata: { annotations: { 'safe-argocd/suppress.SA201': 'the platform project deploys every team repository' } }, spec: { sourceRepos: ['*'] } });
    // WHEN
    const findings = findingsOf(permissiveProject, [project]);
    // THEN
    expectFindings(findings, project, ['SA201 /spec/sourceRepos/0']);
    expect(findings[0].suppressedBecause).toBe('the platform project deploys every team repository');
  });
});

describe('SA201 edges', () => {
  test('destinations that are not objects are skipped, and the ones after them still checked', () => {
    const project = appProject({ spec: { destinations: [null, 'junk', { server: 'https://kubernetes.default.svc', namespace: '*' }] } });
    const findings = findingsOf(permissiveProject, [project]);
    expectFindings(findings, project, ['SA201 /spec/destinations/2/namespace']);
    expect(findings[0].message).toBe('a destination allows any namespace');
  });
});
