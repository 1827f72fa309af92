import { ArgoCdVersion } from '../../src/core/argocd-version';

function malformed(shown: string): string {
  return `[SAFE-005] ArgoCdVersion.of: version is ${shown}; it must name an Argo CD release as major.minor, optionally with a patch number `
    + 'or x and a leading v (3.4, 3.4.7, v3.2.1, 2.14.x). '
    + 'Fix: write the release of the Argo CD you run that way, e.g. \'3.5\' (`argocd version` shows it)';
}

describe('ArgoCdVersion.of spellings', () => {
  test.each(['  3.1 ', '\tv3.1.16\n'])('ignores whitespace around the release: %p', (text) => {
    expect(ArgoCdVersion.of(text)).toBe(ArgoCdVersion.V3_1);
  });

  test.each([
    ['text before the release', 'argocd-3.1'],
    ['a letter before the v', 'xv3.1'],
    ['a space inside the major number', '3 .1'],
    ['a letter after the major number', '3a.1'],
    ['a leading zero', '03.1'],
    ['a leading zero in the minor', '3.04'],
    ['text after the patch', '3.1.16-rc1'],
    ['a fourth part', '3.4.7.1'],
    ['a major alone', '3'],
    ['a word', 'latest'],
    ['a capital V', 'V3.4'],
  ])('fails when the release has %s, with the whole message', (_label, text) => {
    expect(() => ArgoCdVersion.of(text)).toThrow(malformed(JSON.stringify(text)));
  });

  test('a number is read as its text, and a missing release is refused as missing', () => {
    expect(() => ArgoCdVersion.of(3.1 as never)).not.toThrow();
    expect(ArgoCdVersion.of(3.1 as never)).toBe(ArgoCdVersion.V3_1);
    expect(ArgoCdVersion.of(3.4 as never)).toBe(ArgoCdVersion.V3_4);
    expect(() => ArgoCdVersion.of(undefined as never)).toThrow(malformed('missing'));
    expect(() => ArgoCdVersion.of({ major: 3, minor: 4 } as never)).toThrow(malformed('{"major":3,"minor":4}'));
  });

  test('a release older than 2.14 is refused with the whole message', () => {
    expect(() => ArgoCdVersion.of('v2.13.5')).toThrow(
      '[SAFE-005] ArgoCdVersion.of: version is "v2.13.5"; it must be Argo CD 2.14 or newer; 2.13 is older than every supported '
      + 'release (2.14 to 3.5). Fix: upgrade Argo CD to 2.14 or newer, then name that release');
  });

  test('a 2.x after 2.14 is refused with the whole message', () => {
    expect(() => ArgoCdVersion.of('2.15')).toThrow(
      '[SAFE-005] ArgoCdVersion.of: version is "2.15"; it must be a released Argo CD version; there is no 2.15: the last 2.x release '
      + 'is 2.14. Fix: name the release of the Argo CD you run (`argocd version` shows it)');
  });

  test('a new major is refused with the whole message', () => {
    expect(() => ArgoCdVersion.of('4.0.2')).toThrow(
      '[SAFE-005] ArgoCdVersion.of: version is "4.0.2"; it must be Argo CD 2.14 to 3.5 or a later 3.x; 4.0 is a new major release, '
      + 'which may change what an Application means, and this library does not know it yet. '
      + 'Fix: upgrade cdk8s-safe-argocd to a release that knows Argo CD 4; until then, name \'3.5\' only once the upgrade notes of '
      + 'Argo CD 4.0 show that nothing rendered changed');
  });

  test('the boundaries: 2.14.0 is accepted, 2.13.99 is not; 3.5.x is 3.5, 3.6.0 is the newest known, 4.0.0 is not', () => {
    expect(ArgoCdVersion.of('2.14.0')).toBe(ArgoCdVersion.V2_14);
    expect(() => ArgoCdVersion.of('2.13.99')).toThrow(/2\.13 is older/);
    expect(ArgoCdVersion.of('3.5.x')).toBe(ArgoCdVersion.V3_5);
    expect(ArgoCdVersion.of('3.6.0')).toBe(ArgoCdVersion.LATEST);
    expect(() => ArgoCdVersion.of('4.0.0')).toThrow(/4\.0 is a new major release/);
  });
});
