import { expectFindings, findingsOf, safeApplication } from './support';
import { Manifest } from '../../src/core/manifest';
import { malformedIgnorePointer, pointerFix } from '../../src/rules/sa013-malformed-ignore-pointer';

function ignoring(...jsonPointers: unknown[]): Manifest {
  return safeApplication({ spec: { ignoreDifferences: [{ group: 'apps', kind: 'Deployment', name: 'web', jsonPointers }] } });
}

describe('SA013 malformed-ignore-pointer', () => {
  test('passes on well-formed pointers, escapes included', () => {
    // GIVEN
    const app = ignoring('/spec/replicas', '/metadata/annotations/example.com~1revision', '/data/a~0b');
    // WHEN
    const findings = findingsOf(malformedIgnorePointer, [], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test.each([
    ['spec/replicas', '/spec/replicas'],
    ['.spec.replicas', '/spec/replicas'],
    ['/metadata/annotations/a~b', '/metadata/annotations/a~0b'],
    ['/data/key~', '/data/key~0'],
  ])('fails on %j and names the pointer meant, %j', (pointer, fixed) => {
    // GIVEN
    const app = ignoring('/spec/replicas', pointer);
    // WHEN
    const findings = findingsOf(malformedIgnorePointer, [], app);
    // THEN
    expectFindings(findings, app, ['SA013 /spec/ignoreDifferences/0/jsonPointers/1']);
    expect(findings[0].value).toBe(pointer);
    expect(findings[0].message).toContain(`write ${JSON.stringify(fixed)}`);
  });

  test('fails on the empty pointer, which names the whole object, without a correction', () => {
    // GIVEN
    const app = ignoring('');
    // WHEN
    const findings = findingsOf(malformedIgnorePointer, [], app);
    // THEN
    expectFindings(findings, app, ['SA013 /spec/ignoreDifferences/0/jsonPointers/0']);
    expect(findings[0].message).not.toContain('write');
    expect(pointerFix('  ')).toBeUndefined();
  });

  test('skips entries and pointers that are not what the CRD allows (other rules and Kubernetes refuse them)', () => {
    const app = safeApplication({ spec: { ignoreDifferences: ['apps/Deployment', { kind: 'Deployment', name: 'web', jsonPointers: [7] }] } });
    expect(findingsOf(malformedIgnorePointer, [], app)).toEqual([]);
  });
});
