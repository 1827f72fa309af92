import { expectFindings, findingsOf, safeApplication } from './support';
import { Manifest } from '../../src/core/manifest';
import { ignoreGroupMatchesNothing } from '../../src/rules/sa019-ignore-group-matches-nothing';

function ignoring(...entries: unknown[]): Manifest {
  return safeApplication({ spec: { ignoreDifferences: entries } });
}

describe('SA019 ignore-group-matches-nothing', () => {
  test('passes on the core group omitted or written "", on named groups and on globs', () => {
    // GIVEN
    const app = ignoring(
      { kind: 'Secret', name: 'a', jsonPointers: ['/data'] },
      { group: '', kind: 'ConfigMap', name: 'b', jsonPointers: ['/data'] },
      { group: 'apps', kind: 'Deployment', name: 'c', jsonPointers: ['/spec/replicas'] },
      { group: 'networking.k8s.io', kind: 'Ingress', name: 'd', jsonPointers: ['/spec/rules'] },
      { group: '*', kind: 'Job', jsonPointers: ['/status'] },
      'not an entry',
    );
    // WHEN
    const findings = findingsOf(ignoreGroupMatchesNothing, [], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails on group "core", the core group\'s name in Kubernetes\' docs but not in the API', () => {
    // GIVEN
    const app = ignoring({ group: 'core', kind: 'Secret', name: 'webhook-server-secret', jsonPointers: ['/data'] });
    // WHEN
    const findings = findingsOf(ignoreGroupMatchesNothing, [], app);
    // THEN
    expectFindings(findings, app, ['SA019 /spec/ignoreDifferences/0/group']);
  });

  test.each([
    ['core', 'omit the group (or write "") for the core group'],
    ['Core', 'omit the group (or write "") for the core group'],
    ['v1', 'omit the group (or write "") for the core group'],
    ['core/v1', 'omit the group (or write "") for the core group'],
    ['apps/v1', 'write "apps"'],
    ['Apps', 'write "apps"'],
  ])('fails on group %j and says what to write: %s', (group, fix) => {
    // GIVEN the entry of the second place
    const app = ignoring({ group: 'apps', kind: 'Deployment', name: 'web', jsonPointers: ['/spec/replicas'] }, { group, kind: 'Secret', name: 'webhook-server-secret', jsonPointers: ['/data'] });
    // WHEN
    const findings = findingsOf(ignoreGroupMatchesNothing, [], app);
    // THEN
    expect(findings.map((f) => `${f.rule.id} ${f.path}`)).toEqual(['SA019 /spec/ignoreDifferences/1/group']);
    expect(findings[0].value).toBe(group);
    expect(findings[0].message).toContain('ignores nothing');
    expect(findings[0].message).toContain(fix);
  });
});
