import { ApiObject, Chart, JsonPatch, Testing } from 'cdk8s';
import { ExternalSource, GitOpsApp, SafeApplication } from '../../src';
import { HumanAccess, HumanAccessProps } from '../../src/governance/human-access';
import { appProps, newApp, yamlOf } from '../support/app';
import { rbacErrors } from '../support/rbac';

const RBAC = 'rbac.authorization.k8s.io';

/** The rules every HumanAccess grants: reads and logs. */
const READ_RULES = [
  { apiGroups: [''], resources: ['configmaps', 'endpoints', 'events', 'persistentvolumeclaims', 'pods', 'serviceaccounts', 'services'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['apps'], resources: ['daemonsets', 'deployments', 'replicasets', 'statefulsets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['batch'], resources: ['cronjobs', 'jobs'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses', 'networkpolicies'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
];
const EXEC_RULE = { apiGroups: [''], resources: ['pods/exec'], verbs: ['create', 'get'] };
const PORT_FORWARD_RULE = { apiGroups: [''], resources: ['pods/portforward'], verbs: ['create', 'get'] };

/** A HumanAccess in a fresh app, and its rendered objects. */
function humans(props: Partial<HumanAccessProps> = {}) {
  const { gitops, app } = newApp();
  const access = new HumanAccess(app, 'humans', { groups: ['payments-oncall'], ...props });
  return { gitops, app, access, role: access.role.toJson(), binding: access.roleBinding.toJson() };
}

/**
 * Every (resource, verb) pair a Role grants that is neither a read (get, list, watch) nor `create` on
 * pods/exec or pods/portforward. Written independently of the construct, from the rendered manifest.
 */
function writeGrants(role: any): string[] {
  const found: string[] = [];
  for (const rule of role.rules) {
    for (const group of rule.apiGroups) {
      for (const resource of rule.resources) {
        for (const verb of rule.verbs) {
          const read = ['get', 'list', 'watch'].includes(verb);
          const stream = verb === 'create' && group === '' && ['pods/exec', 'pods/portforward'].includes(resource);
          if (!read && !stream) {
            found.push(`${verb} ${group}/${resource}`);
          }
        }
      }
    }
  }
  return found;
}

/** Every resource a Role names, as `group/resource`. */
function resourcesOf(role: any): string[] {
  return role.rules.flatMap((r: any) => r.apiGroups.flatMap((g: string) => r.resources.map((x: string) => `${g}/${x}`)));
}

describe('HumanAccess with defaults', () => {
  // GIVEN an app WHEN HumanAccess is added with one group and nothing else
  const { gitops, app, access, role, binding } = humans();

  test('resolves the defaults: named <app>-humans, in the destination namespace, exec on, port-forward off', () => {
    expect(access.roleName).toBe('checkout-humans');
    expect(access.namespace).toBe(app.destinationNamespace);
    expect(access.groups).toEqual(['payments-oncall']);
    expect(access.allowExec).toBe(true);
    expect(access.allowPortForward).toBe(false);
  });

  test('renders a namespaced Role with reads, logs and exec, and nothing else', () => {
    expect(role).toEqual({
      apiVersion: `${RBAC}/v1`,
      kind: 'Role',
      metadata: { name: 'checkout-humans', namespace: 'payments' },
      rules: [...READ_RULES, EXEC_RULE],
    });
  });

  test('renders a RoleBinding of the same name that binds the group to the Role', () => {
    expect(binding).toEqual({
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'checkout-humans', namespace: 'payments' },
      roleRef: { apiGroup: RBAC, kind: 'Role', name: 'checkout-humans' },
      subjects: [{ apiGroup: RBAC, kind: 'Group', name: 'payments-oncall' }],
    });
  });

  test('the Role is the default child, so ApiObject.of reaches it', () => {
    expect(ApiObject.of(access)).toBe(access.role);
  });

  test('both objects validate against their Kubernetes schemas', () => {
    expect(rbacErrors(role)).toEqual([]);
    expect(rbacErrors(binding)).toEqual([]);
  });

  test('no rule grants a verb other than get, list, watch, except create on pods/exec', () => {
    // THEN a scan of every rule, group, resource and verb finds no write
    expect(writeGrants(role)).toEqual([]);
    expect(role.rules.flatMap((r: any) => r.verbs)).toContain('create');
    expect(role.rules.filter((r: any) => r.verbs.includes('create')).map((r: any) => r.resources)).toEqual([['pods/exec']]);
  });

  test('secrets are not readable, and nothing is granted by wildcard', () => {
    expect(resourcesOf(role).filter((r) => r.endsWith('/secrets'))).toEqual([]);
    expect(JSON.stringify(role.rules)).not.toContain('*');
    expect(resourcesOf(role)).not.toContain('/pods/portforward');
  });

  test('the app synthesizes, writing the Role and the RoleBinding into the app\'s folder', () => {
    // WHEN the GitOps tree is rendered THEN the app's rules pass and both files are there
    const files = gitops.renderFiles();
    const byPath = new Map(files.map((f) => [f.path, f.content]));
    expect(yamlOf(byPath.get('workloads/checkout/Role.checkout-humans.k8s.yaml')!)).toEqual(role);
    expect(yamlOf(byPath.get('workloads/checkout/RoleBinding.checkout-humans.k8s.yaml')!)).toEqual(binding);
  });
});

describe('HumanAccess props', () => {
  test('name and groups are used as given, groups in their order', () => {
    // GIVEN an explicit name and groups as identity providers spell them
    const groups = ['oidc:payments-oncall', 'Payments-SRE', 'payments@acme.internal', 'acme:payments/dev', '0f8fad5b-d9cb-469f-a165-70867728950e'];
    // WHEN HumanAccess is added
    const { access, role, binding, gitops } = humans({ name: 'payments.oncall', groups });
    // THEN both objects carry the name, and every group is a subject
    expect(access.roleName).toBe('payments.oncall');
    expect(role.metadata.name).toBe('payments.oncall');
    expect(binding.metadata.name).toBe('payments.oncall');
    expect(binding.roleRef.name).toBe('payments.oncall');
    expect(binding.subjects).toEqual(groups.map((name) => ({ apiGroup: RBAC, kind: 'Group', name })));
    expect(rbacErrors(binding)).toEqual([]);
    expect(gitops.renderFiles().map((f) => f.path)).toContain('workloads/checkout/RoleBinding.payments.oncall.k8s.yaml');
  });

  test('allowExec: false leaves pods/exec out entirely (get alone opens a WebSocket exec before Kubernetes 1.35)', () => {
    // GIVEN exec switched off WHEN HumanAccess is added
    const { access, role } = humans({ allowExec: false });
    // THEN only reads and logs remain
    expect(access.allowExec).toBe(false);
    expect(role.rules).toEqual(READ_RULES);
    expect(resourcesOf(role)).not.toContain('/pods/exec');
    expect(writeGrants(role)).toEqual([]);
  });

  test('allowPortForward: true adds create and get on pods/portforward', () => {
    const { access, role } = humans({ allowPortForward: true });
    expect(access.allowPortForward).toBe(true);
    expect(role.rules).toEqual([...READ_RULES, EXEC_RULE, PORT_FORWARD_RULE]);
  });

  test.each([
    [true, false],
    [false, false],
    [true, true],
    [false, true],
  ])('with allowExec %s and allowPortForward %s: valid, no write verbs, no secrets, synthesizes', (allowExec, allowPortForward) => {
    // GIVEN each combination of the switches WHEN HumanAccess is added
    const { role, binding, gitops } = humans({ allowExec, allowPortForward });
    // THEN the invariants hold
    expect(rbacErrors(role)).toEqual([]);
    expect(rbacErrors(binding)).toEqual([]);
    expect(writeGrants(role)).toEqual([]);
    expect(resourcesOf(role).filter((r) => r.endsWith('/secrets'))).toEqual([]);
    expect(resourcesOf(role).includes('/pods/exec')).toBe(allowExec);
    expect(resourcesOf(role).includes('/pods/portforward')).toBe(allowPortForward);
    expect(() => gitops.renderFiles()).not.toThrow();
  });

  test('two HumanAccess with their own names live side by side', () => {
    // GIVEN readers without exec and on-call engineers with port-forward
    const { app, gitops } = newApp();
    new HumanAccess(app, 'readers', { name: 'checkout-readers', groups: ['payments-dev'], allowExec: false });
    new HumanAccess(app, 'oncall', { groups: ['payments-oncall'], allowPortForward: true });
    // WHEN synthesized THEN four objects are written
    const paths = gitops.renderFiles().map((f) => f.path).filter((p) => p.includes('/Role'));
    expect(paths).toEqual([
      'workloads/checkout/Role.checkout-humans.k8s.yaml',
      'workloads/checkout/Role.checkout-readers.k8s.yaml',
      'workloads/checkout/RoleBinding.checkout-humans.k8s.yaml',
      'workloads/checkout/RoleBinding.checkout-readers.k8s.yaml',
    ]);
  });

  test('the output is the same on every synth', () => {
    expect(humans().gitops.renderFiles()).toEqual(humans().gitops.renderFiles());
  });
});

describe('HumanAccess refusals', () => {
  test('fails when groups is empty', () => {
    const { app } = newApp();
    expect(() => new HumanAccess(app, 'humans', { groups: [] })).toThrow(/^\[SAFE-024\] checkout\/humans: groups is \[\]; it must name at least one SSO group/);
  });

  test('fails when groups is missing', () => {
    const { app } = newApp();
    expect(() => new HumanAccess(app, 'humans', {} as HumanAccessProps)).toThrow(/^\[SAFE-024\] checkout\/humans: groups is missing/);
  });

  test.each([
    ['is empty', ''],
    ['has a space', 'payments oncall'],
    ['holds two groups', 'payments-oncall,payments-dev'],
    ['is a wildcard', '*'],
    ['starts with a separator', ':payments'],
    ['ends with a separator', 'payments-'],
    ['is longer than 253 characters', `a${'b'.repeat(253)}`],
  ])('fails when a group name %s', (_label, group) => {
    // GIVEN a valid group and a bad one WHEN HumanAccess is added THEN the bad one is named by its index
    const { app } = newApp();
    expect(() => new HumanAccess(app, 'humans', { groups: ['payments-oncall', group] }))
      .toThrow(/^\[SAFE-024\] checkout\/humans: groups\[1\] .* must be an SSO group name/);
  });

  test('fails when a group is not a string', () => {
    const { app } = newApp();
    expect(() => new HumanAccess(app, 'humans', { groups: [42 as unknown as string] })).toThrow(/^\[SAFE-024\] checkout\/humans: groups\[0\] is 42/);
  });

  test.each(['system:authenticated', 'system:masters', 'System:serviceaccounts'])('fails when a group is the Kubernetes system group %s', (group) => {
    const { app } = newApp();
    expect(() => new HumanAccess(app, 'humans', { groups: [group] }))
      .toThrow(/^\[SAFE-024\] checkout\/humans: groups\[0\] .* names a Kubernetes system group/);
  });

  test('fails when a group is listed twice', () => {
    const { app } = newApp();
    expect(() => new HumanAccess(app, 'humans', { groups: ['payments-oncall', 'payments-dev', 'payments-oncall'] }))
      .toThrow(/^\[SAFE-011\] checkout\/humans: groups\[2\] is "payments-oncall"; it repeats groups\[0\]/);
  });

  test.each([
    ['has capitals and an underscore', 'Checkout_Humans'],
    ['starts with "-"', '-humans'],
    ['is longer than 253 characters', 'a'.repeat(254)],
    ['is empty', ''],
  ])('fails when name %s', (_label, name) => {
    const { app } = newApp();
    expect(() => new HumanAccess(app, 'humans', { name, groups: ['payments-oncall'] }))
      .toThrow(/^\[SAFE-001\] checkout\/humans: name .* must be a DNS-1123 subdomain/);
  });

  test('fails when defined in a plain cdk8s Chart, outside a SafeApplication', () => {
    // GIVEN a plain chart WHEN HumanAccess is added THEN it refuses, and creates nothing
    const chart = new Chart(Testing.app(), 'plain', { namespace: 'payments' });
    expect(() => new HumanAccess(chart, 'humans', { groups: ['payments-oncall'] })).toThrow(/^\[SAFE-010\] plain\/humans: scope /);
    expect(chart.node.findAll().filter((c) => ApiObject.isApiObject(c))).toEqual([]);
  });

  test('fails when defined in a chart of a GitOpsApp that is not a SafeApplication', () => {
    const chart = new Chart(new GitOpsApp({ outdir: 'dist' }), 'plain');
    expect(() => new HumanAccess(chart, 'humans', { groups: ['payments-oncall'] })).toThrow(/^\[SAFE-010\] plain\/humans: scope /);
  });

  test('fails when the app deploys an external source, which would never apply the Role', () => {
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const app = new SafeApplication(gitops, 'legacy', appProps({ name: 'legacy', externalSource: ExternalSource.gitPath('deploy') }));
    expect(() => new HumanAccess(app, 'humans', { groups: ['payments-oncall'] })).toThrow(/^\[SAFE-013\] legacy\/humans: scope is "legacy"/);
  });

  test('fails at synth when two HumanAccess share a name, reported once', () => {
    // GIVEN two HumanAccess with the default name
    const { app, gitops } = newApp();
    new HumanAccess(app, 'readers', { groups: ['payments-dev'] });
    new HumanAccess(app, 'oncall', { groups: ['payments-oncall'] });
    // WHEN synthesized THEN the clash is reported by the later one
    let message = '';
    try {
      gitops.renderFiles();
    } catch (e: any) {
      message = e.message;
    }
    expect(message).toMatch(/checkout\/oncall: \[SAFE-011\] checkout\/readers also defines a Role or RoleBinding payments\/checkout-humans/);
    expect(message.match(/SAFE-011/g)).toHaveLength(1);
  });

  test('fails at synth when another Role of the same name is defined in the app', () => {
    const { app, gitops } = newApp();
    new HumanAccess(app, 'humans', { groups: ['payments-oncall'] });
    new ApiObject(app, 'raw', { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'checkout-humans' }, rules: [] });
    expect(() => gitops.renderFiles()).toThrow(/checkout\/humans: \[SAFE-011\] checkout\/raw also defines a Role or RoleBinding payments\/checkout-humans/);
  });

  test.each([
    ['a write verb', JsonPatch.add('/rules/0/verbs/-', 'delete'), /rule 0 grants delete on configmaps/],
    ['secrets', JsonPatch.add('/rules/0/resources/-', 'secrets'), /rule 0 grants access to secrets/],
    ['a wildcard verb', JsonPatch.replace('/rules/1/verbs', ['*']), /rule 1 grants a wildcard/],
    ['patch on pods/exec', JsonPatch.add('/rules/7/verbs/-', 'patch'), /rule 7 grants patch on pods\/exec/],
    ['a new rule for pods/attach', JsonPatch.add('/rules/-', { apiGroups: [''], resources: ['pods/attach'], verbs: ['create'] }), /rule 8 grants create on pods\/attach/],
  ])('fails at synth when an escape hatch adds %s to the Role', (_label, patch, detail) => {
    // GIVEN HumanAccess whose Role is patched through ApiObject.of
    const { access, gitops } = humans();
    ApiObject.of(access).addJsonPatch(patch);
    // WHEN synthesized THEN the widened grant is reported
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-025\] Role payments\/checkout-humans /);
    expect(() => gitops.renderFiles()).toThrow(detail);
  });

  test('fails at synth when an escape hatch binds the groups to another role', () => {
    const { access, gitops } = humans();
    access.roleBinding.addJsonPatch(JsonPatch.replace('/roleRef', { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' }));
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-025\] RoleBinding payments\/checkout-humans binds .*cluster-admin/);
  });
});

describe('rbacErrors (test support) is not vacuous', () => {
  test('fails when a rule has no verbs, a RoleBinding no roleRef, or a subject no name', () => {
    expect(rbacErrors({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'x' }, rules: [{ apiGroups: [''], resources: ['pods'] }] }).join('\n')).toContain('verbs');
    expect(rbacErrors({ apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'x' } }).join('\n')).toContain('roleRef');
    expect(rbacErrors({
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'x' },
      roleRef: { apiGroup: RBAC, kind: 'Role', name: 'x' },
      subjects: [{ kind: 'Group' }],
    }).join('\n')).toContain('name');
    expect(() => rbacErrors({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole' })).toThrow(/no schema for/);
  });
});
