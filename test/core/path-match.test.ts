import { doublestarMatches, pathMatch, pathspecMatches } from '../../src/core/path-match';

describe('pathMatch: Go\'s path.Match, as the git directories generator uses it', () => {
  test.each([
    ['apps/*', 'apps/a', true],
    ['apps/*', 'apps/a/b', false],
    ['apps/**', 'apps/a/b', false],
    ['apps/*/*', 'apps/a/b', true],
    ['apps/?', 'apps/a', true],
    ['apps?a', 'apps/a', false],
    ['apps/[^a]*', 'apps/a', false],
    ['apps/[^a]*', 'apps/b', true],
    ['apps/[!a]*', 'apps/a', true],
    ['apps/[!a]*', 'apps/!x', true],
    ['apps/[!a]*', 'apps/b', false],
    ['apps/{a,b}', 'apps/a', false],
    ['apps/{a,b}', 'apps/{a,b}', true],
    ['apps/[a-c]', 'apps/b', true],
    ['apps/[a-cx-z]', 'apps/y', true],
    ['apps/[a-c]', 'apps/d', false],
    ['apps/[\\]]', 'apps/]', true],
    ['apps/\\*', 'apps/*', true],
    ['apps/\\*', 'apps/a', false],
    ['a[/]b', 'a/b', true],
    ['a[^x]b', 'a/b', true],
    ['*', '', true],
    ['', '', true],
    ['é?', 'éü', true],
    ['*c', 'abc', true],
    ['a*b*c', 'abxbc', true],
    ['a*b*c', 'abxb', false],
  ])('%p matches %p: %p', (pattern, name, expected) => {
    expect(pathMatch(pattern, name)).toBe(expected);
  });

  test.each(['apps/[', 'apps/[]', 'apps/[^]', 'apps/[a-]', 'apps/[-a]', 'apps/\\', 'apps/[a'])('the malformed pattern %p matches nothing', (pattern) => {
    // GIVEN a pattern path.Match refuses / WHEN matched against names it would otherwise fit / THEN no match
    expect([pathMatch(pattern, 'apps/['), pathMatch(pattern, 'apps/a'), pathMatch(pattern, 'apps/\\')]).toEqual([false, false, false]);
  });

  test('a pattern that backtracks in a regex engine answers on a long name', () => {
    // GIVEN many stars and a name of 10,000 a's that does not end in b / WHEN matched / THEN no match
    expect(pathMatch(`${'*a'.repeat(30)}b`, 'a'.repeat(10_000))).toBe(false);
    expect(pathMatch(`${'*a'.repeat(30)}`, 'a'.repeat(10_000))).toBe(true);
  });
});

describe('pathspecMatches: what `git ls-files -- <pattern>` lists, as the git files generator reads', () => {
  test.each([
    ['cfg/*.json', 'cfg/a.json', true],
    ['cfg/*.json', 'cfg/sub/a.json', true],
    ['cfg/**/*.json', 'cfg/sub/a.json', true],
    ['cfg/?/a.json', 'cfg/x/a.json', true],
    ['cfg?a.json', 'cfg/a.json', true],
    ['cfg', 'cfg/a.json', true],
    ['cfg/', 'cfg/sub/a.json', true],
    ['cf', 'cfg/a.json', false],
    ['cfg/a.json', 'cfg/a.json', true],
    ['cfg/[^a].json', 'cfg/b.json', true],
    ['cfg/[!a].json', 'cfg/a.json', false],
    ['cfg/[!a].json', 'cfg/b.json', true],
    ['cfg/[]a].json', 'cfg/].json', true],
    ['cfg/[[:digit:]].json', 'cfg/7.json', true],
    ['cfg/[[:digit:]].json', 'cfg/x.json', false],
    ['cfg/{a,b}.json', 'cfg/a.json', false],
    ['cfg/{a,b}.json', 'cfg/{a,b}.json', true],
    ['cfg/\\*.json', 'cfg/*.json', true],
    ['cfg/\\*.json', 'cfg/a.json', false],
    ['cfg/?.json', 'cfg/é.json', false],
    ['cfg/??.json', 'cfg/é.json', true],
    ['.', 'cfg/a.json', true],
    ['./cfg/*.json', 'cfg/a.json', true],
    ['cfg/[a', 'cfg/[a', true],
    ['cfg/[a*', 'cfg/a', false],
    ['cfg/[[:nope:]]', 'cfg/n', false],
  ])('%p lists %p: %p', (pattern, file, expected) => {
    expect(pathspecMatches(pattern, file)).toBe(expected);
  });
});

describe('doublestarMatches: the repo server\'s globbing of a git files generator under the new git file globbing', () => {
  test.each([
    // `*` and `?` stay in one folder, where a pathspec's cross folders.
    ['apps/*/application.yaml', 'apps/a/application.yaml', true],
    ['apps/*/application.yaml', 'apps/a/b/application.yaml', false],
    ['*.yaml', 'a.yaml', true],
    ['*.yaml', 'subdir/b.yaml', false],
    ['apps/?.yaml', 'apps/x.yaml', true],
    ['apps/?.yaml', 'apps/x/y.yaml', false],
    // `**` as a folder name is any number of folders, none too; as the last name, anything below.
    ['apps/**/application.yaml', 'apps/a/b/application.yaml', true],
    ['apps/**/application.yaml', 'apps/application.yaml', true],
    ['**/config.json', 'config.json', true],
    ['**/config.json', 'a/b/config.json', true],
    ['**/config.json', 'a/bconfig.json', false],
    ['a/**/b/**/c.yaml', 'a/x/b/y/z/c.yaml', true],
    ['a/**/b/**/c.yaml', 'a/b/c.yaml', true],
    ['a/**/b/**/c.yaml', 'a/xb/c.yaml', false],
    ['apps/**', 'apps/x/y.yaml', true],
    ['apps/**', 'appsx/y.yaml', false],
    ['**', 'a/b/c.yaml', true],
    // Inside a name, `**` is `*`.
    ['apps/**.yaml', 'apps/a.yaml', true],
    ['apps/**.yaml', 'apps/b/a.yaml', false],
    // Alternatives, nested too; sets negated by ^ or !; escapes.
    ['{apps,svc}/*.yaml', 'svc/a.yaml', true],
    ['{apps,svc}/*.yaml', 'other/a.yaml', false],
    ['a/{b,c/{d,e}}/f.json', 'a/c/e/f.json', true],
    ['a/{b,c/{d,e}}/f.json', 'a/c/f.json', false],
    ['apps/[!a]*.yaml', 'apps/b.yaml', true],
    ['apps/[!a]*.yaml', 'apps/a.yaml', false],
    ['apps/[^a]*.yaml', 'apps/a.yaml', false],
    ['apps/[{,]x.yaml', 'apps/,x.yaml', true],
    ['apps/\\*.yaml', 'apps/*.yaml', true],
    ['apps/\\*.yaml', 'apps/x.yaml', false],
    // The pattern is cleaned as a path; a malformed one matches nothing.
    ['./apps//x.yaml', 'apps/x.yaml', true],
    ['apps/./x.yaml', 'apps/x.yaml', true],
    ['apps/{a,b.yaml', 'apps/a', false],
    ['apps/[a.yaml', 'apps/[a.yaml', false],
    ['apps/x\\', 'apps/x', false],
    ['apps/{a,b}/x[.yaml', 'apps/a/x[.yaml', false],
  ])('%p lists %p: %p', (pattern, file, expected) => {
    expect(doublestarMatches(pattern, file)).toBe(expected);
  });

  test('a pattern of more alternatives than the bound matches nothing, and answers at once', () => {
    // GIVEN seven pairs of braces: 128 patterns
    const pattern = `${'{a,b}'.repeat(7)}.yaml`;
    // WHEN matched / THEN nothing, though one of them would
    expect(doublestarMatches(pattern, 'aaaaaaa.yaml')).toBe(false);
    // while six pairs (64 patterns) are expanded
    expect(doublestarMatches(`${'{a,b}'.repeat(6)}.yaml`, 'ababab.yaml')).toBe(true);
  });
});
