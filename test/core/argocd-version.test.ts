import { KNOWN_RELEASES } from '../../src/core/argocd-features';
import { ArgoCdVersion } from '../../src/core/argocd-version';

describe('ArgoCdVersion', () => {
  describe('of', () => {
    test.each([
      ['3.1', ArgoCdVersion.V3_1],
      ['v3.1.16', ArgoCdVersion.V3_1],
      ['2.14.x', ArgoCdVersion.V2_14],
      ['2.14.21', ArgoCdVersion.V2_14],
      ['3.0', ArgoCdVersion.V3_0],
      ['3.2', ArgoCdVersion.V3_2],
      ['v3.2.1', ArgoCdVersion.V3_2],
      ['3.3', ArgoCdVersion.V3_3],
      ['3.3.x', ArgoCdVersion.V3_3],
      ['3.4', ArgoCdVersion.V3_4],
      ['3.4.7', ArgoCdVersion.V3_4],
      ['3.4.0', ArgoCdVersion.V3_4],
      ['v3.5.1', ArgoCdVersion.V3_5],
    ])('resolves %p to the static instance', (text, expected) => {
      // GIVEN a release name in one of the accepted spellings
      // WHEN it is looked up
      const version = ArgoCdVersion.of(text);
      // THEN it is the very instance the class exposes, not a copy
      expect(version).toBe(expected);
    });

    test.each(['3.6', 'v3.6.0', '3.10', '3.99.x'])('treats %p, a 3.x newer than every known release, as the newest known one', (text) => {
      // GIVEN a later minor of the newest known major
      // WHEN it is looked up
      const version = ArgoCdVersion.of(text);
      // THEN it renders as the newest known release (3.10 is minor 10, not 3.1)
      expect(version).toBe(ArgoCdVersion.LATEST);
      expect(version.version).toBe('3.5');
    });

    test.each([
      ['a major alone', '3'],
      ['a fourth part', '3.4.7.1'],
      ['a word', 'latest'],
      ['a leading zero in the minor', '3.04'],
      ['a leading zero in the patch', '3.4.07'],
      ['nothing', ''],
      ['a pre-release suffix', '3.1.16-rc1'],
      ['a trailing dot', '3.4.'],
    ])('fails when the release is %s (%p): not a release at all', (_label, text) => {
      // GIVEN text that is not written major.minor[.patch]
      // WHEN it is looked up
      const lookUp = () => ArgoCdVersion.of(text);
      // THEN the error has the unknown-version code, the value and the forms that are accepted
      expect(lookUp).toThrow(/^\[SAFE-005\] ArgoCdVersion\.of: version is /);
      expect(lookUp).toThrow(JSON.stringify(text));
      expect(lookUp).toThrow('(3.4, 3.4.7, v3.2.1, 2.14.x)');
    });

    test.each(['2.13', 'v2.13.5', '2.0', '1.8.7', '0.1'])('fails when the release is %p, older than 2.14', (text) => {
      // GIVEN a release older than every supported one
      // WHEN it is looked up
      const lookUp = () => ArgoCdVersion.of(text);
      // THEN the error says it is too old and how to fix it
      expect(lookUp).toThrow(/^\[SAFE-005\] ArgoCdVersion\.of: version is .*; it must be Argo CD 2\.14 or newer/);
      expect(lookUp).toThrow('Fix: upgrade Argo CD to 2.14 or newer');
    });

    test.each(['2.15', '2.99.1'])('fails when the release is %p: 2.14 was the last 2.x', (text) => {
      expect(() => ArgoCdVersion.of(text)).toThrow(/\[SAFE-005\].*there is no 2\.\d+: the last 2\.x release is 2\.14/);
    });

    test.each(['4.0', 'v4.1.0', '9.9'])('fails when the release is %p, a major newer than every known release', (text) => {
      // GIVEN a new major release, which may change what rendered fields mean
      // WHEN it is looked up
      const lookUp = () => ArgoCdVersion.of(text);
      // THEN it is refused, naming what is allowed and the upgrade that fixes it
      expect(lookUp).toThrow(/\[SAFE-005\].*it must be Argo CD 2\.14 to 3\.5 or a later 3\.x; \d\.\d is a new major release/);
      expect(lookUp).toThrow(/Fix: upgrade cdk8s-safe-argocd to a release that knows Argo CD \d/);
    });
  });

  test('LATEST is 3.5, the newest of all()', () => {
    // GIVEN / WHEN the newest supported release is asked for
    // THEN it is the 3.5 instance, and the last of the list
    expect(ArgoCdVersion.LATEST).toBe(ArgoCdVersion.V3_5);
    expect(ArgoCdVersion.LATEST.version).toBe('3.5');
    expect(ArgoCdVersion.all().slice(-1)).toEqual([ArgoCdVersion.LATEST]);
  });

  test('all() lists every minor from 2.14 to 3.5, oldest first', () => {
    // GIVEN / WHEN every known release is listed
    const versions = ArgoCdVersion.all().map((v) => v.version);
    // THEN they come in release order, with no minor left out
    expect(versions).toEqual(['2.14', '3.0', '3.1', '3.2', '3.3', '3.4', '3.5']);
  });

  test('all() is exactly the V<major>_<minor> constants, and the releases the feature table knows', () => {
    // GIVEN the static constants named after a release
    const constants = Object.entries(ArgoCdVersion)
      .filter(([name]) => /^V\d+_\d+$/.test(name))
      .map(([name, value]) => [name, (value as ArgoCdVersion).version]);
    // WHEN compared with all() and with the releases in src/core
    // THEN a constant missing from all(), or a release missing a constant, fails here
    expect(constants).toEqual(ArgoCdVersion.all().map((v) => [`V${v.major}_${v.minor}`, v.version]));
    expect(ArgoCdVersion.all().map((v) => [v.major, v.minor])).toEqual(KNOWN_RELEASES.map((r) => [r.major, r.minor]));
  });

  test.each([
    [ArgoCdVersion.V2_14, false],
    [ArgoCdVersion.V3_0, false],
    [ArgoCdVersion.V3_1, true],
    [ArgoCdVersion.V3_2, true],
    [ArgoCdVersion.V3_3, true],
    [ArgoCdVersion.V3_4, true],
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
    expect(ArgoCdVersion.V3_4.isAtLeast(3, 10)).toBe(false);
  });

  test('exposes major, minor and version', () => {
    // GIVEN / WHEN the 2.14 and 3.4 releases are read
    // THEN their parts are numbers and their version is major.minor
    expect([ArgoCdVersion.V2_14.major, ArgoCdVersion.V2_14.minor, ArgoCdVersion.V2_14.version]).toEqual([2, 14, '2.14']);
    expect([ArgoCdVersion.V3_4.major, ArgoCdVersion.V3_4.minor, ArgoCdVersion.V3_4.version]).toEqual([3, 4, '3.4']);
  });
});
