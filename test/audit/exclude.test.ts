import { applicationYaml, configMapYaml } from './support';
import { auditFiles } from '../../src/audit/audit';
import { excludeMatcher, excludeProblem, isExcluded } from '../../src/audit/exclude';
import { AuditFile } from '../../src/audit/types';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import * as glob from '../../src/core/glob';

describe('isExcluded', () => {
  test.each([
    ['dashboards/**', 'dashboards/a/b.json', true],
    ['dashboards', 'dashboards/a/b.json', true],
    ['dashboards/', 'dashboards/a.json', true],
    ['./dashboards', 'dashboards/a.json', true],
    ['dashboards', 'other/dashboards.json', false],
    ['*.json', 'data.json', true],
    ['*.json', 'apps/data.json', false],
    ['**/*.json', 'apps/data.json', true],
    ['**/*.json', 'data.json', true],
    ['**/testdata', 'a/b/testdata/x.yaml', true],
    ['**/testdata', 'testdata/x.yaml', true],
    ['apps/*/values.yaml', 'apps/web/values.yaml', true],
    ['apps/*/values.yaml', 'apps/web/deep/values.yaml', false],
    ['{legacy,old}/**', 'old/x.yaml', true],
    ['legacy', 'legacy-2/x.yaml', false],
  ])('%s leaves out %s: %p', (pattern, file, expected) => {
    // GIVEN a pattern and a path / WHEN matched / THEN as documented
    expect(isExcluded(file, [pattern])).toBe(expected);
  });

  test('a path of 10,000 folders with a backtracking pattern is answered at once', () => {
    // GIVEN a long path and a pattern of many stars
    const file = `${'a/'.repeat(10_000)}b.yaml`;
    const started = Date.now();

    // WHEN it is matched / THEN it does not match, quickly
    expect(isExcluded(file, ['**a**a**a**a**c/*.json'])).toBe(false);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test.each([[''], ['/'], ['[z-a]'], ['x\\']])('fails when the pattern is %p', (pattern) => {
    // GIVEN a pattern that cannot be used / WHEN checked / THEN the reason is given
    expect(excludeProblem(pattern)).toMatch(/empty|not a valid glob/);
  });
});

describe('excludeMatcher', () => {
  afterEach(() => jest.restoreAllMocks());

  test('compiles each pattern once, however many paths it matches, and answers as isExcluded', () => {
    // GIVEN 600 patterns (more than a shared glob cache of 1,000 holds as p and p/**) and 200 paths
    const compile = jest.spyOn(glob, 'compileGlob');
    const patterns = [...Array.from({ length: 599 }, (_, i) => `vendor${i}`), 'dir7'];
    const files = Array.from({ length: 200 }, (_, i) => `dir${i + 1}/sub/deeper/cm.yaml`);

    // WHEN every path is matched against them
    const matches = excludeMatcher(patterns);
    const excluded = files.filter((f) => matches(f));

    // THEN each pattern was compiled twice (p and p/**) and no more, and only dir7's file is left out
    expect(compile).toHaveBeenCalledTimes(1200);
    expect(excluded).toEqual(['dir7/sub/deeper/cm.yaml']);
  });

  test('builds no automaton for a pattern whose literal start a path lacks: thousands of large patterns cost a prefix test each', () => {
    // GIVEN 3,000 patterns of 300 alternatives each under folders no path is in, then one that matches, and 200 paths
    const large = '{a,b}'.repeat(300);
    const patterns = [...Array.from({ length: 3_000 }, (_, i) => `nomatch${i}/${large}/**`), `dir7/${large}`];
    const files = Array.from({ length: 200 }, (_, i) => `dir${i + 1}/${'ab'.repeat(150)}/cm.yaml`);
    const started = Date.now();

    // WHEN every path is matched against them
    const matches = excludeMatcher(patterns);
    const excluded = files.filter((f) => matches(f));

    // THEN only dir7's file is left out, at once: building all 6,000 automata first took 10 s
    expect(excluded).toEqual([`dir7/${'ab'.repeat(150)}/cm.yaml`]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('auditFiles with exclude', () => {
  test('excluded files are counted and never read; the rest is audited', () => {
    // GIVEN an Application with a finding, and a data file that throws if read
    const reads: string[] = [];
    const file = (path: string, text: string): AuditFile => ({ path, get content() { reads.push(path); return Buffer.from(text); } });
    const files = [
      file('apps/web.yaml', applicationYaml('web', { syncPolicy: { automated: { prune: true, selfHeal: false } } })),
      file('workloads/web/configmap.yaml', configMapYaml('settings', 'web')),
      file('dashboards/big.json', '{"not": "a manifest",'),
    ];

    // WHEN they are audited with dashboards excluded
    const result = auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST, exclude: ['dashboards'] });

    // THEN the data file was not read, not a problem, and counted; SA001 is still found
    expect(reads).not.toContain('dashboards/big.json');
    expect(result.problems).toEqual([]);
    expect(result.stats.excludedFiles).toBe(1);
    expect(result.stats.files).toBe(2);
    expect(result.findings.map((f) => f.ruleId)).toEqual(['SA001']);
  });
});
