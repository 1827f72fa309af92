import { ArgoProject } from '../../src/values/argo-project';

const NOT_A_NAME = 'it must be an AppProject name (lowercase letters, digits, "-" and "."). Fix: use the metadata.name of the AppProject';

describe('ArgoProject.fromName refuses values that are not strings with the name code, not a TypeError', () => {
  test.each([
    ['null', null, 'null'],
    ['a number', 7, '7'],
  ])('fails when the name is %s', (_label, value, shown) => {
    expect(() => ArgoProject.fromName(value as never)).toThrow(`[SAFE-001] ArgoProject.fromName: projectName is ${shown}; ${NOT_A_NAME}`);
  });

  test('fails when the name is too long for a subdomain, showing its first 116 characters', () => {
    const name = 'a'.repeat(254);
    expect(() => ArgoProject.fromName(name)).toThrow(`[SAFE-001] ArgoProject.fromName: projectName is "${'a'.repeat(116)}...; ${NOT_A_NAME}`);
  });

  test('accepts the longest subdomain, 253 characters', () => {
    const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(name).toHaveLength(253);
    expect(ArgoProject.fromName(name)).toEqual({ projectName: name });
  });
});
