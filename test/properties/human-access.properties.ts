import { ApiObject, JsonPatch } from 'cdk8s';
import * as fc from 'fast-check';
import { argoCdVersion, checkTree, dnsLabel, Doc, newApp, notSubdomain, refusalProperties, runs, subdomain } from './support';
import { ArgoProject, ExternalSource, GitOpsApp, HumanAccess, SafeApplication } from '../../src';

/** SSO group names as identity providers send them, never a Kubernetes `system:` group. */
const group = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9]([A-Za-z0-9._:@/-]{0,30}[A-Za-z0-9])?$/),
  fc.tuple(fc.constantFrom('oidc:', 'acme:', ''), dnsLabel, fc.constantFrom('', '@acme.internal')).map(([a, b, c]) => `${a}${b}${c}`),
).filter((g) => !g.toLowerCase().startsWith('system:'));

const access = fc.record({
  groups: fc.uniqueArray(group, { minLength: 1, maxLength: 4 }),
  allowExec: fc.option(fc.boolean(), { nil: undefined }),
  allowPortForward: fc.option(fc.boolean(), { nil: undefined }),
});
const input = fc.record({
  appName: dnsLabel,
  version: argoCdVersion,
  first: access,
  // A second HumanAccess in the same app needs a name of its own.
  second: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.tuple(access, subdomain) }),
}).filter((i) => i.second === undefined || i.second[1] !== `${i.appName}-humans`);

const READ = ['get', 'list', 'watch'];

describe('HumanAccess properties', () => {
  test('for any props the constructor accepts: read, logs and exec only, no Secrets, the groups bound, valid RBAC objects', () => {
    fc.assert(fc.property(input, (i) => {
      // GIVEN a fresh app with one or two HumanAccess of arbitrary valid props
      const build = () => {
        const { gitops, app } = newApp(i.appName, i.version);
        new HumanAccess(app, 'humans', i.first);
        if (i.second) {
          new HumanAccess(app, 'more', { ...i.second[0], name: i.second[1] });
        }
        return gitops;
      };
      // WHEN the tree is rendered THEN it passes every check (the Kubernetes RBAC schemas included)
      const { byKindName } = checkTree(build);
      for (const [a, name] of [[i.first, `${i.appName}-humans`], ...(i.second ? [i.second] : [])] as const) {
        const role = byKindName.get(`Role/${name}`)!;
        const binding = byKindName.get(`RoleBinding/${name}`)!;
        // THEN the Role grants reads, logs, and exec and port-forward only as asked, never a write verb or a Secret
        expect(role.metadata.namespace).toBe('payments');
        const rules: Doc[] = role.rules;
        for (const r of rules) {
          expect(r.resources).not.toContain('secrets');
          expect([...r.apiGroups, ...r.resources, ...r.verbs]).not.toContain('*');
          const streams = r.resources.every((x: string) => x === 'pods/exec' || x === 'pods/portforward');
          expect(r.verbs.filter((v: string) => !(streams ? ['create', 'get'] : READ).includes(v))).toEqual([]);
        }
        expect(rules.some((r) => r.resources.includes('pods/log'))).toBe(true);
        expect(rules.some((r) => r.resources.includes('pods/exec'))).toBe(a.allowExec ?? true);
        expect(rules.some((r) => r.resources.includes('pods/portforward'))).toBe(a.allowPortForward ?? false);
        // THEN exactly the groups are bound to that Role
        expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name });
        expect(binding.subjects).toEqual(a.groups.map((g) => ({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: g })));
      }
    }), runs(4101));
  });
});

const make = (groups: string[], name?: string) => () => new HumanAccess(newApp('checkout').app, 'humans', { groups, name });
refusalProperties('HumanAccess refusals', {
  'groups (none)': fc.constantFrom([], undefined).map((g) => make(g as unknown as string[])),
  'groups[0]': fc.oneof(
    fc.constantFrom('', ' ', 'a b', '-team', 'team-', 'a,b', '*', 'system:masters', 'System:Authenticated', 'SYSTEM:nodes', 'x'.repeat(254), 'a\nb'),
    fc.string({ maxLength: 12 }).filter((g) => !/^[A-Za-z0-9]([A-Za-z0-9._:@/-]*[A-Za-z0-9])?$/.test(g)),
    dnsLabel.map((g) => `system:${g}`),
  ).map((g) => make([g, 'payments-oncall'])),
  'groups[1] (a duplicate)': group.map((g) => make([g, g])),
  'name': notSubdomain.map((n) => make(['payments-oncall'], n)),
  'scope (an app with an external source)': dnsLabel.map((name) => () => {
    const app = new SafeApplication(new GitOpsApp({ outdir: 'dist' }), 'app', {
      name,
      project: ArgoProject.fromName('payments'),
      repoUrl: 'https://git.acme.internal/gitops.git',
      destinationNamespace: 'payments',
      externalSource: ExternalSource.gitPath('deploy/prod'),
    });
    return new HumanAccess(app, 'humans', { groups: ['payments-oncall'] });
  }),
}, 4200);

describe('HumanAccess escape hatches', () => {
  test('fails at synth when a JSON patch widens any read rule of the Role with any other verb', () => {
    const verb = fc.oneof(
      fc.constantFrom('create', 'update', 'patch', 'delete', 'deletecollection', 'escalate', 'bind', 'impersonate', '*'),
      fc.string({ minLength: 1, maxLength: 10 }).filter((v) => !READ.includes(v)),
    );
    fc.assert(fc.property(verb, fc.integer({ min: 0, max: 6 }), (v, rule) => {
      // GIVEN a HumanAccess whose Role a patch widens
      const { gitops, app } = newApp('checkout');
      const humans = new HumanAccess(app, 'humans', { groups: ['payments-oncall'] });
      ApiObject.of(humans).addJsonPatch(JsonPatch.add(`/rules/${rule}/verbs/-`, v));
      // WHEN rendered THEN the synth refuses with SAFE-025, naming the rule
      expect(() => gitops.renderFiles()).toThrow(new RegExp(`\\[SAFE-025\\] Role payments/checkout-humans rule ${rule} `));
    }), runs(4301));
  });
});
