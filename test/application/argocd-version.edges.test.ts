import { ArgoCdVersion } from '../../src/application/argocd-version';

function unknown(shown: string): string {
  return `[SAFE-005] ArgoCdVersion.of: version is ${shown}; it must be one of the supported releases 2.14, 3.0, 3.1, 3.5. `
    + 'Fix: name the newest supported release that is not newer than the Argo CD you run';
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
    ['text after the patch', '3.1.16-rc1'],
  ])('fails when the release has %s, with the whole message', (_label, text) => {
    expect(() => ArgoCdVersion.of(text)).toThrow(unknown(JSON.stringify(text)));
  });

  test('a number is read as its text, and a missing release is refused as missing', () => {
    expect(() => ArgoCdVersion.of(3.1 as never)).not.toThrow();
    expect(ArgoCdVersion.of(3.1 as never)).toBe(ArgoCdVersion.V3_1);
    expect(() => ArgoCdVersion.of(undefined as never)).toThrow(unknown('missing'));
  });
});
