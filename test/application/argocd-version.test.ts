import { ArgoCdVersion } from '../../src/application/argocd-version';

describe('ArgoCdVersion', () => {
  describe('of', () => {
    test.each([
      ['3.1', ArgoCdVersion.V3_1],
      ['v3.1.16', ArgoCdVersion.V3_1],
      ['2.14.x', ArgoCdVersion.V2_14],
      ['3.0', ArgoCdVersion.V3_0],
      ['v3.5.1', ArgoCdVersion.V3_5],
    ])('resolves %p to the static instance', (text, expected) => {
      // GIVEN a release name in one of the accepted spellings
      // WHEN it is looked up
      const version = ArgoCdVersion.of(text);
      // THEN it is the very instance the class exposes, not a copy
      expect(version).toBe(expected);
    });

    test.each(['3.2', '4.0', 'latest', '', '3', '3.1.16-rc1'])('fails when the release is %p', (text) => {
      // GIVEN a release this library does not support (or text that is no release at all)
      // WHEN it is looked up
      const lookUp = () => ArgoCdVersion.of(text);
      // THEN the error has the unknown-version code
      expect(lookUp).toThrow(/\[SAFE-005\]/);
    });

    test('fails with a message that lists every supported release', () => {
      // GIVEN an unsupported release
      // WHEN it is looked up
      const lookUp = () => ArgoCdVersion.of('3.2');
      // THEN the message names the value and the releases that would have been accepted
      expect(lookUp).toThrow(/\[SAFE-005\]/);
      expect(lookUp).toThrow(/"3\.2"/);
      expect(lookUp).toThrow(/2\.14, 3\.0, 3\.1, 3\.5/);
    });
  });

  test('LATEST is 3.5', () => {
    // GIVEN / WHEN the newest supported release is asked for
    // THEN it is the 3.5 instance
    expect(ArgoCdVersion.LATEST).toBe(ArgoCdVersion.V3_5);
    expect(ArgoCdVersion.LATEST.version).toBe('3.5');
  });

  test('all() lists the releases oldest first', () => {
    // GIVEN / WHEN every supported release is listed
    const versions = ArgoCdVersion.all().map((v) => v.version);
    // THEN they come in release order
    expect(versions).toEqual(['2.14', '3.0', '3.1', '3.5']);
  });

  test.each([
    [ArgoCdVersion.V2_14, false],
    [ArgoCdVersion.V3_0, false],
    [ArgoCdVersion.V3_1, true],
    [ArgoCdVersion.V3_5, true],
  ])('hasAutomatedEnabled of %p is %p', (version, expected) => {
    // GIVEN a release
    // WHEN asked whether syncPolicy.automated.enabled exists (from 3.1 on)
    // THEN the answer follows the CRDs
    expect(version.hasAutomatedEnabled).toBe(expected);
  });

  test('isAtLeast compares major before minor', () => {
    // GIVEN the 3.1 and 2.14 releases
    const v31 = ArgoCdVersion.V3_1;
    const v214 = ArgoCdVersion.V2_14;
    // WHEN / THEN they compare as release numbers, not as decimals or strings
    expect(v31.isAtLeast(3, 1)).toBe(true);
    expect(v31.isAtLeast(3, 0)).toBe(true);
    expect(v31.isAtLeast(2, 14)).toBe(true);
    expect(v31.isAtLeast(3, 2)).toBe(false);
    expect(v31.isAtLeast(4, 0)).toBe(false);
    expect(v214.isAtLeast(2, 9)).toBe(true);
    expect(v214.isAtLeast(3, 0)).toBe(false);
  });

  test('exposes major, minor and version', () => {
    // GIVEN / WHEN the 2.14 release is read
    const v = ArgoCdVersion.V2_14;
    // THEN its parts are numbers and its version is major.minor
    expect([v.major, v.minor, v.version]).toEqual([2, 14, '2.14']);
  });
});
