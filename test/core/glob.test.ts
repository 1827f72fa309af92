import * as fc from 'fast-check';
import { compileGlob, globMatches, isValidGlob } from '../../src/core/glob';

describe('globMatches: the syntax Argo CD reads', () => {
  test.each([
    ['*', '', true],
    ['*', 'anything/at all', true],
    ['apps', 'apps', true],
    ['apps', 'app', false],
    ['*.k8s.io', 'networking.k8s.io', true],
    ['*.k8s.io', 'k8s.io', false],
    ['Deploy?ent', 'Deployment', true],
    ['Deploy?ent', 'Deployent', false],
    ['[DS]*', 'StatefulSet', true],
    ['[DS]*', 'Job', false],
    ['[!DS]*', 'Job', true],
    ['[!DS]*', 'Deployment', false],
    ['team-[a-c]', 'team-b', true],
    ['team-[a-c]', 'team-d', false],
    ['team-[!a-c]', 'team-d', true],
    ['{Deployment,StatefulSet}', 'StatefulSet', true],
    ['{Deployment,StatefulSet}', 'DaemonSet', false],
    ['{prod-*,staging}', 'prod-eu', true],
    ['{a,{b,c}x}', 'cx', true],
    ['{a,{b,c}x}', 'c', false],
    ['{a,b', 'b', true],
    ['a,b', 'a,b', true],
    ['a}b', 'a}b', true],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'axb', false],
    ['a.b', 'axb', false],
    ['(x|y)+', '(x|y)+', true],
    ['^$', '^$', true],
    ['ü?', 'üß', true],
  ])('%p against %p is %p', (pattern, value, expected) => {
    // GIVEN / WHEN / THEN, matched at once or compiled once first
    expect(globMatches(pattern, value)).toBe(expected);
    expect(compileGlob(pattern)(value)).toBe(expected);
  });

  test.each([['[abc'], ['[]'], ['[z-a]'], ['[a-bc]'], ['trailing\\']])('%p does not compile and matches nothing, as in Argo CD', (pattern) => {
    // GIVEN a pattern Argo CD cannot compile / WHEN matched / THEN nothing matches, not even the pattern itself
    expect(isValidGlob(pattern)).toBe(false);
    expect(globMatches(pattern, pattern)).toBe(false);
    expect(globMatches(pattern, 'abc')).toBe(false);
    expect(compileGlob(pattern)(pattern)).toBe(false);
  });

  test('with separators, * and ? stop at them while ** and classes do not', () => {
    // GIVEN / WHEN / THEN the sourceRepos reading (separator "/")
    expect(globMatches('https://github.com/acme/*', 'https://github.com/acme/web', '/')).toBe(true);
    expect(globMatches('https://github.com/acme/*', 'https://github.com/acme/team/web', '/')).toBe(false);
    expect(globMatches('https://github.com/acme/**', 'https://github.com/acme/team/web', '/')).toBe(true);
    expect(globMatches('a?b', 'a/b', '/')).toBe(false);
    expect(globMatches('a[/]b', 'a/b', '/')).toBe(true);
    expect(globMatches('https://github.com/acme/*', 'https://github.com/acme/team/web')).toBe(true);
  });

  test('a backtracking bomb is answered at once, and correctly', () => {
    // GIVEN patterns that take a backtracking matcher exponential or high-polynomial time
    const namespace = 'a'.repeat(63);
    const bombs: [string, string][] = [
      ['*a*a*a*a*a*a*a*a*a*a*a*a*b', namespace],
      [`${'*a'.repeat(200)}b`, 'a'.repeat(5000)],
      [`${'{a,a}'.repeat(200)}b`, 'a'.repeat(200)],
      [`${'**a'.repeat(100)}/b`, 'a/'.repeat(3000)],
    ];
    const started = Date.now();
    for (const [pattern, value] of bombs) {
      // WHEN matched / THEN no match without the final b, a match with it, and the loop ends
      expect(globMatches(pattern, value, '/')).toBe(false);
      expect(globMatches(pattern, `${value}b`, '/')).toBe(true);
    }
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  test('literal patterns and patterns that end in one * or ** (answered without the automaton) match what a reference reading does', () => {
    // GIVEN a reference: `**` any run of characters, `*` any run without the separator, everything else itself
    const reference = (pattern: string, separators: string) => new RegExp(`^${pattern.replace(/\*\*|\*|[^*]/g, (t) => (t === '**'
      ? '[\\s\\S]*' : t === '*' ? (separators === '' ? '[\\s\\S]*' : '[^/]*') : t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')))}$`);
    const text = (max: number) => fc.array(fc.constantFrom('a', 'b', '/', '*'), { maxLength: max }).map((cs) => cs.join(''));
    fc.assert(fc.property(text(6), text(8).map((v) => v.replace(/\*/g, 'a')), fc.constantFrom('', '/'), (pattern, value, separators) => {
      // WHEN matched, at once and compiled / THEN as the reference says
      const expected = reference(pattern, separators).test(value);
      expect(globMatches(pattern, value, separators)).toBe(expected);
      expect(compileGlob(pattern, separators)(value)).toBe(expected);
    }), { numRuns: 3000 });
  });
});
