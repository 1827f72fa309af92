import { Testing } from 'cdk8s';
import { appProjectOf, expectFindings, findingsOf, modified, Overrides, safeApplication } from './support';
import { SafeProject, SafeProjectProps } from '../../src';
import { Manifest } from '../../src/core/manifest';
import { overrideGranted } from '../../src/rules/sa205-override-granted';

/** An AppProject "payments" with a developer role (get, sync), with `overrides` merged in (lists replace). */
function appProject(overrides: Overrides = {}): Manifest {
  return modified(appProjectOf({ spec: { roles: [developer()] } }), overrides);
}

/** A role named `name` with the given policy lines, or get and sync. */
function developer(name = 'developer', policies?: string[]): { [key: string]: unknown } {
  return {
    name,
    groups: ['payments-dev'],
    policies: policies ?? [
      `p, proj:payments:${name}, applications, get, payments/*, allow`,
      `p, proj:payments:${name}, applications, sync, payments/*, allow`,
    ],
  };
}

/** The AppProject a SafeProject renders. */
function rendered(props: Partial<SafeProjectProps> = {}): Manifest {
  return new SafeProject(Testing.app(), 'project', {
    name: 'payments', sourceRepos: ['https://git.acme.internal/payments/checkout.git'], destinations: [{ namespace: 'checkout' }], ...props,
  }).resource.toJson() as Manifest;
}

describe('SA205 override-granted', () => {
  test('passes when no role grants override', () => {
    // GIVEN
    const project = appProject();
    // WHEN
    const findings = findingsOf(overrideGranted, [project], safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes on a SafeProject with developer and on-call roles', () => {
    // GIVEN
    const project = rendered({ developerGroups: ['payments-dev'], onCallGroups: ['payments-oncall'] });
    // WHEN
    const findings = findingsOf(overrideGranted, [project]);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when "override" is only part of an application or role name', () => {
    // GIVEN
    const project = appProject({
      spec: { roles: [developer('override-viewers', ['p, proj:payments:override-viewers, applications, get, payments/override, allow'])] },
    });
    // WHEN
    const findings = findingsOf(overrideGranted, [project]);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the project has no roles, or a role has no policies', () => {
    // GIVEN
    const noRoles = appProject({ spec: { roles: undefined } });
    const noPolicies = appProject({ metadata: { name: 'search' }, spec: { roles: [{ name: 'viewer', groups: ['search-dev'] }] } });
    // WHEN
    const findings = findingsOf(overrideGranted, [noRoles, noPolicies]);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when a role grants override, at that policy', () => {
    // GIVEN
    const project = appProject({
      spec: {
        roles: [
          developer(),
          developer('release', [
            'p, proj:payments:release, applications, get, payments/*, allow',
            'p, proj:payments:release, applications, override, payments/*, allow',
          ]),
        ],
      },
    });
    // WHEN
    const findings = findingsOf(overrideGranted, [project]);
    // THEN
    expectFindings(findings, project, ['SA205 /spec/roles/1/policies/1']);
    expect(findings[0].message).toBe('role release grants override');
    expect(findings[0].value).toBe('p, proj:payments:release, applications, override, payments/*, allow');
    expect(findings[0].suppressedBecause).toBeUndefined();
  });

  test('fails when override is written without spaces', () => {
    // GIVEN
    const project = appProject({ spec: { roles: [developer('release', ['p,proj:payments:release,applications,override,payments/checkout,allow'])] } });
    // WHEN
    const findings = findingsOf(overrideGranted, [project]);
    // THEN
    expectFindings(findings, project, ['SA205 /spec/roles/0/policies/0']);
  });

  test('fails when the AppProject is audited as the application itself', () => {
    // GIVEN
    const project = appProject({ spec: { roles: [developer('release', ['p, proj:payments:release, applications, override, payments/*, allow'])] } });
    // WHEN
    const findings = findingsOf(overrideGranted, [], project);
    // THEN
    expectFindings(findings, project, ['SA205 /spec/roles/0/policies/0']);
  });

  test('fails, marked suppressed with the grant\'s reason, on a SafeProject with an override grant', () => {
    // GIVEN
    const reason = 'The platform team replays manifests during cluster restores';
    const project = rendered({ developerGroups: ['payments-dev'], overrideGrant: { groups: ['platform-admins'], reason } });
    // WHEN
    const findings = findingsOf(overrideGranted, [project]);
    // THEN the finding is on the override role (index 1, after developer) and suppressed by the recorded reason
    expectFindings(findings, project, ['SA205 /spec/roles/1/policies/1']);
    expect(findings[0].message).toBe('role override grants override');
    expect(findings[0].suppressedBecause).toBe(reason);
  });

  test('fails when a role grants every action with "*", which includes override', () => {
    // GIVEN a wildcard action, which Argo CD accepts in project roles (types.go validActions has "*")
    const project = appProject({ spec: { roles: [developer('admin', ['p, proj:payments:admin, applications, *, payments/*, allow'])] } });
    // WHEN
    const findings = findingsOf(overrideGranted, [project]);
    // THEN
    expectFindings(findings, project, ['SA205 /spec/roles/0/policies/0']);
  });

  test.each([
    ['a global role', 'p, role:admin, applications, override, */*, allow'],
    ['another role of the project', 'p, proj:payments:release, applications, override, payments/*, allow'],
    ['the role of another project', 'p, proj:search:admin, applications, override, search/*, allow'],
  ])('passes when an override policy of a role names %s as its subject, which grants the role\'s members nothing', (_, policy) => {
    // GIVEN a role "admin" of payments whose override line is written for another subject
    const project = appProject({ spec: { roles: [developer(), { name: 'admin', groups: ['me@example.org'], policies: [policy] }] } });
    // WHEN
    const findings = findingsOf(overrideGranted, [project]);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the same role grants override to itself beside a line for another subject', () => {
    // GIVEN a role with a line for the global admin and one for itself
    const project = appProject({
      spec: {
        roles: [{
          name: 'admin',
          groups: ['me@example.org'],
          policies: ['p, role:admin, applications, override, */*, allow', 'p, proj:payments:admin, applications, override, payments/*, allow'],
        }],
      },
    });
    // WHEN
    const findings = findingsOf(overrideGranted, [project]);
    // THEN only the role's own line is reported
    expectFindings(findings, project, ['SA205 /spec/roles/0/policies/1']);
    expect(findings[0].message).toBe('role admin grants override');
  });

  test('passes when a role explicitly denies override', () => {
    // GIVEN a deny policy, which takes override away (docs/operator-manual/rbac.md "The deny effect")
    const project = appProject({
      spec: { roles: [developer('developer', ['p, proj:payments:developer, applications, sync, payments/*, allow', 'p, proj:payments:developer, applications, override, payments/*, deny'])] },
    });
    // WHEN
    const findings = findingsOf(overrideGranted, [project]);
    // THEN
    expect(findings).toEqual([]);
  });
});

describe('SA205 edges', () => {
  test('roles that are not objects and policies that are not strings are skipped', () => {
    const grant = 'p, proj:payments:oncall, applications, override, payments/*, allow';
    const project = appProject({ spec: { roles: [null, 'junk', { name: 'oncall', policies: [7, null, grant] }] } });
    const findings = findingsOf(overrideGranted, [project]);
    expectFindings(findings, project, ['SA205 /spec/roles/2/policies/2']);
    expect(findings[0].message).toBe('role oncall grants override');
  });

  test('only policy lines (p) grant: a grouping or malformed line naming override grants nothing', () => {
    const project = appProject({
      spec: { roles: [{ name: 'oncall', policies: ['g, proj:payments:oncall, applications, override, payments/*, allow', 'override'] }] },
    });
    expect(findingsOf(overrideGranted, [project])).toEqual([]);
  });
});
