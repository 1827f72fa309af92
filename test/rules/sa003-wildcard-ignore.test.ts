import { expectFindings, findingsFor, safeApplication } from './support';
import { Manifest } from '../../src/core/manifest';

function ignoring(...entries: unknown[]): Manifest {
  return safeApplication({ spec: { ignoreDifferences: entries } });
}

describe('SA003 wildcard-or-unscoped-ignore', () => {
  test('passes when every entry names one group, kind and object', () => {
    // GIVEN the second entry is in the core group, which has no group name
    const app = ignoring(
      { group: 'apps', kind: 'Deployment', name: 'checkout', jsonPointers: ['/spec/replicas'] },
      { kind: 'ConfigMap', name: 'checkout-flags', jsonPointers: ['/data'] },
    );
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test.each(['*', 'apps*', 'app?', '{apps,batch}'])('fails when the group is the glob %j', (group) => {
    // GIVEN
    const app = ignoring({ group, kind: 'Deployment', name: 'checkout' });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/group']);
    expect(findings[0].value).toBe(group);
  });

  test.each(['*', 'Deploy*'])('fails when the kind is the glob %j', (kind) => {
    // GIVEN
    const app = ignoring({ group: 'apps', kind, name: 'checkout' });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/kind']);
  });

  test.each([undefined, ''])('fails when the name is %j', (name) => {
    // GIVEN
    const app = ignoring({ group: 'apps', kind: 'Deployment', name });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/name']);
  });

  test('fails when the kind is missing', () => {
    // GIVEN
    const app = ignoring({ group: 'apps', name: 'checkout' });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/kind']);
  });

  test('fails when an entry is not an object, pointing at that entry', () => {
    // GIVEN
    const app = ignoring({ group: 'apps', kind: 'Deployment', name: 'checkout' }, 'apps/Deployment');
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/1']);
    expect(findings[0].value).toBe('apps/Deployment');
  });

  test('fails once per problem of an entry, group then kind then name', () => {
    // GIVEN
    const app = ignoring({ group: '*', kind: '*' });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, [
      'SA003 /spec/ignoreDifferences/0/group',
      'SA003 /spec/ignoreDifferences/0/kind',
      'SA003 /spec/ignoreDifferences/0/name',
    ]);
  });
});

describe('SA003 edges', () => {
  test('an entry with neither kind nor name is reported for both, with an empty kind in the message', () => {
    const app = ignoring({ group: 'apps', jsonPointers: ['/spec/replicas'] });
    const findings = findingsFor(app);
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/kind', 'SA003 /spec/ignoreDifferences/0/name']);
    expect(findings.map((f) => f.message)).toEqual(['the entry names no kind', 'the entry for kind "" names no object, so it applies to every one']);
  });

  test('an empty kind and an empty name count as missing', () => {
    const app = ignoring({ group: 'apps', kind: '', name: '', jsonPointers: ['/spec/replicas'] });
    const findings = findingsFor(app);
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/kind', 'SA003 /spec/ignoreDifferences/0/name']);
  });

  test('a group or kind that is not a string is not read as a glob (Kubernetes refuses the entry anyway)', () => {
    const app = ignoring({ group: ['*'], kind: 'Deployment', name: 'web', jsonPointers: ['/spec/replicas'] });
    expect(findingsFor(app)).toEqual([]);
  });
});
