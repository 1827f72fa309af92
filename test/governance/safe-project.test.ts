import { ApiObject, Chart, JsonPatch, Testing } from 'cdk8s';
import { DestinationCluster, GitOpsApp, SafeApplication, SafeProject, SafeProjectProps } from '../../src';
import { addConfigMap, appProps, yamlOf } from '../support/app';
import { crdErrors } from '../support/crd';

const REPO = 'https://git.acme.internal/platform/gitops.git';
const IN_CLUSTER = 'https://kubernetes.default.svc';

/** Props of a valid SafeProject "payments", for tests to override. */
function projectProps(overrides: Partial<SafeProjectProps> = {}): SafeProjectProps {
  return {
    name: 'payments',
    sourceRepos: [REPO],
    destinations: [{ namespace: 'payments' }],
    ...overrides,
  };
}

/** A SafeProject in a fresh GitOpsApp, and its rendered AppProject. */
function newProject(overrides: Partial<SafeProjectProps> = {}) {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  const project = new SafeProject(gitops, 'project', projectProps(overrides));
  return { gitops, project, manifest: project.resource.toJson() as any };
}

/** The role named `name` of a rendered AppProject (found by name, never by index). */
function roleOf(manifest: any, name: string): any {
  const found = (manifest.spec.roles as any[]).filter((r) => r.name === name);
  if (found.length !== 1) {
    throw new Error(`expected one role ${name}, found ${found.length}`);
  }
  return found[0];
}

/** Every policy line of every role, as `<role> <policy>`. */
function allPolicies(manifest: any): string[] {
  return (manifest.spec.roles as any[]).flatMap((r) => (r.policies as string[]).map((p) => `${r.name} ${p}`));
}

/** The action (fourth field) of a `p, sub, res, act, obj, eft` policy line. */
function actionOf(policy: string): string {
  return policy.split(',').map((s) => s.trim())[3];
}

describe('SafeProject with defaults', () => {
  // GIVEN a project with only a name, one repository and one destination
  const { project, manifest } = newProject();

  test('renders an AppProject in argocd with exact repositories, an in-cluster destination, no cluster kinds and orphan warnings', () => {
    // THEN
    expect(manifest).toEqual({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'AppProject',
      metadata: { name: 'payments', namespace: 'argocd' },
      spec: {
        sourceRepos: [REPO],
        destinations: [{ namespace: 'payments', server: IN_CLUSTER }],
        clusterResourceWhitelist: [],
        orphanedResources: { warn: true },
        roles: [],
      },
    });
  });

  test('resolves its public properties', () => {
    // THEN
    expect(project.projectName).toBe('payments');
    expect(project.sourceRepos).toEqual([REPO]);
    expect(project.destinations).toEqual([{ namespace: 'payments', cluster: DestinationCluster.IN_CLUSTER }]);
    expect(ApiObject.of(project)).toBe(project.resource);
    expect(SafeProject.isSafeProject(project)).toBe(true);
    expect(project instanceof SafeProject).toBe(true);
    expect(new Chart(Testing.app(), 'plain') instanceof SafeProject).toBe(false);
  });

  test('has no roles, so rbacPolicyCsv is empty', () => {
    // THEN
    expect(manifest.spec.roles).toEqual([]);
    expect(project.rbacPolicyCsv).toBe('');
  });

  test('validates against the Argo CD 3.5 AppProject CRD', () => {
    // THEN
    expect(crdErrors('appproject', '3.5', manifest)).toEqual([]);
  });
});

describe('SafeProject destinations, cluster resources and description', () => {
  test('renders a cluster given by name with name, and one given by server with server', () => {
    // GIVEN
    const { manifest } = newProject({
      description: 'The payments team',
      destinations: [
        { namespace: 'payments', cluster: DestinationCluster.fromName('prod-eu') },
        { namespace: 'payments-jobs', cluster: DestinationCluster.fromServer('https://prod-us.acme.internal:6443') },
      ],
      clusterResources: [{ group: '', kind: 'Namespace' }],
    });
    // THEN
    expect(manifest.spec.description).toBe('The payments team');
    expect(manifest.spec.destinations).toEqual([
      { namespace: 'payments', name: 'prod-eu' },
      { namespace: 'payments-jobs', server: 'https://prod-us.acme.internal:6443' },
    ]);
    expect(manifest.spec.clusterResourceWhitelist).toEqual([{ group: '', kind: 'Namespace' }]);
    expect(crdErrors('appproject', '3.5', manifest)).toEqual([]);
  });

  test('allowsDestination matches namespace and cluster exactly; allowsSource matches the repository as Argo CD normalizes it', () => {
    // GIVEN
    const { project } = newProject({ destinations: [{ namespace: 'payments' }, { namespace: 'payments', cluster: DestinationCluster.fromName('prod-eu') }] });
    // THEN
    expect(project.allowsDestination('payments', DestinationCluster.IN_CLUSTER)).toBe(true);
    expect(project.allowsDestination('payments', DestinationCluster.fromServer(IN_CLUSTER))).toBe(true);
    expect(project.allowsDestination('payments', DestinationCluster.fromName('prod-eu'))).toBe(true);
    expect(project.allowsDestination('payments', DestinationCluster.fromName('prod-us'))).toBe(false);
    expect(project.allowsDestination('ledger', DestinationCluster.IN_CLUSTER)).toBe(false);
    expect(project.allowsSource(REPO)).toBe(true);
    // Argo CD compares repository URLs normalized (lower case, no ".git", no trailing "/"): so does the project
    expect(project.allowsSource(`${REPO}/`)).toBe(true);
    expect(project.allowsSource(REPO.toUpperCase().replace('HTTPS', 'https'))).toBe(true);
    expect(project.allowsSource('https://git.acme.internal/platform/other.git')).toBe(false);
  });
});

describe('SafeProject roles', () => {
  // GIVEN developer and on-call groups
  const { project, manifest } = newProject({ developerGroups: ['payments-dev'], onCallGroups: ['payments-oncall', 'sre'] });

  test('the developer role may get and sync the project\'s Applications, and nothing else', () => {
    // THEN
    expect(roleOf(manifest, 'developer')).toEqual({
      name: 'developer',
      description: 'See and sync the project\'s Applications',
      groups: ['payments-dev'],
      policies: [
        'p, proj:payments:developer, applications, get, payments/*, allow',
        'p, proj:payments:developer, applications, sync, payments/*, allow',
      ],
    });
  });

  test('the on-call role may get, sync and update (to suspend or restore a sync policy), and nothing else', () => {
    // THEN
    expect(roleOf(manifest, 'oncall')).toEqual({
      name: 'oncall',
      description: 'See and sync, and update an Application to suspend or restore its sync policy (break-glass)',
      groups: ['payments-oncall', 'sre'],
      policies: [
        'p, proj:payments:oncall, applications, get, payments/*, allow',
        'p, proj:payments:oncall, applications, sync, payments/*, allow',
        'p, proj:payments:oncall, applications, update, payments/*, allow',
      ],
    });
    expect(manifest.spec.roles.map((r: any) => r.name)).toEqual(['developer', 'oncall']);
  });

  test('no role holds override (or a wildcard action) and no policy denies anything, by default', () => {
    // THEN every policy of every role is an allow of get, sync or update
    const policies = allPolicies(manifest);
    expect(policies).toHaveLength(5);
    for (const line of policies) {
      const policy = line.slice(line.indexOf(' ') + 1);
      expect(['get', 'sync', 'update']).toContain(actionOf(policy));
      expect(policy.split(',').map((f) => f.trim())[5]).toBe('allow');
    }
  });

  test('rbacPolicyCsv renders the same roles as global policy lines, exactly', () => {
    // THEN
    expect(project.rbacPolicyCsv).toBe([
      'p, role:payments-developer, applications, get, payments/*, allow',
      'p, role:payments-developer, applications, sync, payments/*, allow',
      'g, payments-dev, role:payments-developer',
      'p, role:payments-oncall, applications, get, payments/*, allow',
      'p, role:payments-oncall, applications, sync, payments/*, allow',
      'p, role:payments-oncall, applications, update, payments/*, allow',
      'g, payments-oncall, role:payments-oncall',
      'g, sre, role:payments-oncall',
      '',
    ].join('\n'));
  });

  test('the AppProject with roles validates against the Argo CD 3.5 CRD', () => {
    // THEN
    expect(crdErrors('appproject', '3.5', manifest)).toEqual([]);
  });

  test('an empty list of developer groups gives no developer role', () => {
    // GIVEN
    const { manifest: noDevelopers } = newProject({ developerGroups: [], onCallGroups: ['payments-oncall'] });
    // THEN
    expect(noDevelopers.spec.roles.map((r: any) => r.name)).toEqual(['oncall']);
  });
});

describe('SafeProject override grant', () => {
  const reason = 'The platform team replays manifests during cluster restores';
  // GIVEN a reasoned override grant
  const { gitops, project, manifest } = newProject({ overrideGrant: { groups: ['platform-admins'], reason: `  ${reason}  ` } });

  test('adds an override role for the granted groups only', () => {
    // THEN
    expect(roleOf(manifest, 'override')).toEqual({
      name: 'override',
      description: `Sync local manifests in place of Git: ${reason}`,
      groups: ['platform-admins'],
      policies: [
        'p, proj:payments:override, applications, get, payments/*, allow',
        'p, proj:payments:override, applications, override, payments/*, allow',
      ],
    });
    const holders = allPolicies(manifest).filter((p) => actionOf(p.slice(p.indexOf(' ') + 1)) === 'override').map((p) => p.split(' ')[0]);
    expect(holders).toEqual(['override']);
  });

  test('records the reason as a suppression of SA205 on the AppProject, so synth passes', () => {
    // THEN
    expect(manifest.metadata.annotations).toEqual({ 'safe-argocd/suppress.SA205': reason });
    expect(() => gitops.renderFiles()).not.toThrow();
  });

  test('adds the override lines to rbacPolicyCsv', () => {
    // THEN
    expect(project.rbacPolicyCsv).toBe([
      'p, role:payments-override, applications, get, payments/*, allow',
      'p, role:payments-override, applications, override, payments/*, allow',
      'g, platform-admins, role:payments-override',
      '',
    ].join('\n'));
  });

  test('validates against the Argo CD 3.5 AppProject CRD', () => {
    // THEN
    expect(crdErrors('appproject', '3.5', manifest)).toEqual([]);
  });
});

describe('SafeProject in the GitOps tree', () => {
  test('the GitOpsApp writes applications/<name>/AppProject.<name>.k8s.yaml next to the project\'s Applications', () => {
    // GIVEN a project and one of its apps
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = new SafeProject(gitops, 'project', projectProps());
    addConfigMap(new SafeApplication(gitops, 'checkout', appProps({ project })), 'settings');
    // WHEN
    const files = gitops.renderFiles();
    // THEN
    const paths = files.map((f) => f.path);
    expect(paths).toContain('applications/payments/AppProject.payments.k8s.yaml');
    expect(paths).toContain('applications/payments/Application.checkout.k8s.yaml');
    const written = yamlOf(files.find((f) => f.path === 'applications/payments/AppProject.payments.k8s.yaml')!.content);
    expect(written).toEqual(project.resource.toJson());
    expect(paths.filter((p) => p.includes('AppProject'))).toHaveLength(1);
  });

  test('an app of the project that deploys to an allowed destination from an allowed repository synthesizes', () => {
    // GIVEN
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = new SafeProject(gitops, 'project', projectProps());
    addConfigMap(new SafeApplication(gitops, 'checkout', appProps({ project })), 'settings');
    // WHEN
    const files = gitops.renderFiles();
    // THEN
    expect(yamlOf(files.find((f) => f.path === 'applications/payments/Application.checkout.k8s.yaml')!.content).spec.project).toBe('payments');
  });

  test('fails when an app of the project deploys to a namespace the project does not allow', () => {
    // GIVEN
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = new SafeProject(gitops, 'project', projectProps());
    addConfigMap(new SafeApplication(gitops, 'checkout', appProps({ project, destinationNamespace: 'ledger' })), 'settings');
    // WHEN / THEN
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-031\] project payments does not allow the destination namespace "ledger"/);
  });

  test('fails when an app of the project deploys to an allowed namespace on another cluster', () => {
    // GIVEN
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = new SafeProject(gitops, 'project', projectProps());
    addConfigMap(new SafeApplication(gitops, 'checkout', appProps({ project, destinationCluster: DestinationCluster.fromName('prod-eu') })), 'settings');
    // WHEN / THEN
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-031\].*"payments" on prod-eu/);
  });

  test('fails when an app of the project reads a repository the project does not allow', () => {
    // GIVEN
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = new SafeProject(gitops, 'project', projectProps());
    addConfigMap(new SafeApplication(gitops, 'checkout', appProps({ project, repoUrl: 'https://git.acme.internal/platform/fork.git' })), 'settings');
    // WHEN / THEN
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-031\] project payments does not allow the repository "https:\/\/git\.acme\.internal\/platform\/fork\.git"/);
  });

  test('fails when an escape-hatch patch puts "*" into sourceRepos', () => {
    // GIVEN
    const { gitops, project } = newProject();
    ApiObject.of(project).addJsonPatch(JsonPatch.add('/spec/sourceRepos/-', '*'));
    // WHEN / THEN
    expect(() => gitops.renderFiles()).toThrow(/SA201 permissive-project \[warning\] on AppProject argocd\/payments at project\/Resource \/spec\/sourceRepos\/1/);
  });

  test('fails when an escape-hatch patch gives a role override without a reasoned grant', () => {
    // GIVEN
    const { gitops, project } = newProject({ developerGroups: ['payments-dev'] });
    ApiObject.of(project).addJsonPatch(JsonPatch.add('/spec/roles/0/policies/-', 'p, proj:payments:developer, applications, override, payments/*, allow'));
    // WHEN / THEN
    expect(() => gitops.renderFiles()).toThrow(/SA205 override-granted .* \/spec\/roles\/0\/policies\/2/);
  });

  test('also validates outside a GitOpsApp', () => {
    // GIVEN a plain cdk8s app
    const project = new SafeProject(Testing.app(), 'project', projectProps());
    ApiObject.of(project).addJsonPatch(JsonPatch.replace('/spec/destinations/0/namespace', '*'));
    // WHEN
    const errors = project.node.validate();
    // THEN
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^SA201 .* \/spec\/destinations\/0\/namespace/);
  });
});

describe('SafeProject refuses bad props', () => {
  test.each<[string, Partial<SafeProjectProps>, RegExp]>([
    ['the name is "default"', { name: 'default' }, /\[SAFE-002\] project: name is "default"/],
    ['the name is not a DNS-1123 label', { name: 'Payments_Team' }, /\[SAFE-001\] project: name is "Payments_Team"/],
    ['sourceRepos is empty', { sourceRepos: [] }, /\[SAFE-030\] project: sourceRepos is \[\]; it must list at least one repository/],
    ['sourceRepos holds "*"', { sourceRepos: [REPO, '*'] }, /\[SAFE-030\] project: sourceRepos is "\*"/],
    ['sourceRepos holds a glob', { sourceRepos: ['https://git.acme.internal/*'] }, /\[SAFE-030\] project: sourceRepos is "https:\/\/git\.acme\.internal\/\*"/],
    ['sourceRepos holds an empty string', { sourceRepos: ['  '] }, /\[SAFE-030\] project: sourceRepos is "  "/],
    ['destinations is empty', { destinations: [] }, /\[SAFE-030\] project: destinations is \[\]; it must list at least one destination/],
    ['a destination namespace is "*"', { destinations: [{ namespace: '*' }] }, /\[SAFE-030\] project: destinations\[\]\.namespace is "\*"/],
    ['a destination namespace is a glob', { destinations: [{ namespace: 'payments-*' }] }, /\[SAFE-030\] project: destinations\[\]\.namespace is "payments-\*"/],
    ['clusterResources allows any kind', { clusterResources: [{ group: '', kind: '*' }] }, /\[SAFE-030\] project: clusterResources is \{"group":"","kind":"\*"\}/],
    ['clusterResources allows any group', { clusterResources: [{ group: '*', kind: 'ClusterRole' }] }, /\[SAFE-030\] project: clusterResources is \{"group":"\*","kind":"ClusterRole"\}/],
    ['a developer group holds "*"', { developerGroups: ['*'] }, /\[SAFE-001\] project: developerGroups is "\*"/],
    ['a developer group is empty', { developerGroups: [''] }, /\[SAFE-001\] project: developerGroups is ""/],
    ['an on-call group holds a comma', { onCallGroups: ['payments,sre'] }, /\[SAFE-001\] project: onCallGroups is "payments,sre"/],
    ['an on-call group holds a space', { onCallGroups: ['payments oncall'] }, /\[SAFE-001\] project: onCallGroups is "payments oncall"/],
    ['an override group holds "*"', { overrideGrant: { groups: ['*'], reason: 'cluster restores need it' } }, /\[SAFE-001\] project: overrideGrant\.groups is "\*"/],
    ['the override grant has no reason', { overrideGrant: { groups: ['platform-admins'], reason: '' } }, /\[SAFE-018\] project: overrideGrant is .*"reason":""/],
    ['the override grant has a short reason', { overrideGrant: { groups: ['platform-admins'], reason: ' because  ' } }, /\[SAFE-018\] project: overrideGrant /],
    ['the override grant names no group', { overrideGrant: { groups: [], reason: 'cluster restores need it' } }, /\[SAFE-018\] project: overrideGrant is .*"groups":\[\]/],
  ])('fails when %s', (_, overrides, message) => {
    // GIVEN / WHEN / THEN
    expect(() => newProject(overrides)).toThrow(message);
  });

  test.each([
    ['server', DestinationCluster.fromServer('https://*.acme.internal'), 'https://\\*\\.acme\\.internal'],
    ['name', DestinationCluster.fromName('prod-?'), 'prod-\\?'],
  ])('fails when a destination cluster\'s %s is a glob (Argo CD matches destination clusters by glob)', (_, cluster, shown) => {
    // GIVEN a cluster pattern, which Argo CD's AppProject reads as a glob
    // (pkg/apis/application/v1alpha1/app_project_types.go isDestinationMatched: globMatch(item.Server, dst.Server))
    // WHEN / THEN
    expect(() => newProject({ destinations: [{ namespace: 'payments', cluster }] }))
      .toThrow(new RegExp(`\\[SAFE-030\\] project: destinations\\[\\]\\.cluster is "${shown}"`));
  });
});
