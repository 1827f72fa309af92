import { readFileSync } from 'fs';
import { join } from 'path';
import { parseAuditConfig } from '../../src/audit/config';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Severity } from '../../src/rules/severity';

describe('parseAuditConfig', () => {
  test('an empty file is an empty config', () => {
    // GIVEN an empty config file
    // WHEN it is parsed
    // THEN nothing is suppressed and nothing is overridden
    expect(parseAuditConfig('')).toEqual({ suppressions: [], failOn: undefined, argoCdVersion: undefined });
  });

  test('reads suppressions with and without limits, failOn and argocdVersion', () => {
    // GIVEN a config with every key
    const text = [
      'argocdVersion: "3.1"',
      'failOn: error',
      'suppressions:',
      '  - ruleId: SA006',
      '    reason: "  retries are handled by the release pipeline  "',
      '  - ruleId: SA101',
      '    reason: replicas are removed in the next release',
      '    paths: [legacy/]',
      '    applications: [legacy]',
    ].join('\n');

    // WHEN it is parsed
    const config = parseAuditConfig(text);

    // THEN reasons are trimmed and missing limits are empty lists
    expect(config.argoCdVersion).toBe(ArgoCdVersion.V3_1);
    expect(config.failOn).toBe(Severity.ERROR);
    expect(config.suppressions).toEqual([
      { ruleId: 'SA006', reason: 'retries are handled by the release pipeline', paths: [], applications: [] },
      { ruleId: 'SA101', reason: 'replicas are removed in the next release', paths: ['legacy/'], applications: ['legacy'] },
    ]);
  });

  test.each([
    ['suppressions whose entries are all commented out', 'suppressions:\n  # - ruleId: SA006\n  #   reason: retries are handled by the release pipeline\n'],
    ['an empty paths list', 'suppressions:\n  - ruleId: SA006\n    reason: retries are handled by the release pipeline\n    paths:\n'],
  ])('a key left empty reads as absent: %s', (_name, text) => {
    // GIVEN a config where a list key has no value (YAML null)
    // WHEN it is parsed
    const config = parseAuditConfig(text);

    // THEN it is an empty list, not an error
    expect(config.suppressions.flatMap((s) => s.paths)).toEqual([]);
  });

  test('fails on thousands of unknown keys with one short error: five named, the rest counted', () => {
    // GIVEN a config of 15,000 stray keys
    const text = Array.from({ length: 15_000 }, (_, i) => `stray${i}: x`).join('\n');

    // WHEN it is parsed / THEN the error names the first five and counts the others
    expect(() => parseAuditConfig(text)).toThrow(/^\.safe-argocd\.yaml: unknown key "stray0" .*unknown key "stray4" \(allowed: [^)]*\); 14995 more unknown keys$/);
  });

  test('fails when there are several mistakes: one error names each of them and the file', () => {
    // GIVEN a config with an unknown key, an unknown rule, a short reason and a bad applications list
    const text = 'colour: red\nsuppressions:\n  - ruleId: SA999\n    reason: ok\n    applications: web\n';

    // WHEN it is parsed
    // THEN the error lists every mistake
    expect(() => parseAuditConfig(text, 'ci/.safe-argocd.yaml')).toThrow(
      'ci/.safe-argocd.yaml: unknown key "colour" (allowed: suppressions, failOn, argocdVersion, exclude, failOnUnreadable, newGitFileGlobbing); '
      + 'suppressions[0].ruleId "SA999" is not a rule id (see RULES.md); '
      + 'suppressions[0].reason must say, in at least 10 characters, why the finding is acceptable; '
      + 'suppressions[0].applications must be a list of strings',
    );
  });

  test.each([
    ['suppressions is a mapping', 'suppressions: {ruleId: SA001}\n', 'suppressions must be a list'],
    ['an entry is a string', 'suppressions: [SA001]\n', 'suppressions[0] must be a mapping with ruleId and reason'],
    ['the reason is ten spaces', 'suppressions:\n  - {ruleId: SA001, reason: "          "}\n', 'suppressions[0].reason must say'],
    ['aliases expand too far', `a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [${'*a,'.repeat(20)}*a]\nc: [${'*b,'.repeat(20)}*b]\n`, 'not valid YAML'],
  ])('fails when %s', (_name, text, message) => {
    // GIVEN a wrong config
    // WHEN it is parsed
    // THEN it throws with the message
    expect(() => parseAuditConfig(text)).toThrow(message);
  });
});

describe('parseAuditConfig argocdVersion', () => {
  test.each([
    ['"3.4"', ArgoCdVersion.V3_4],
    ['3.4', ArgoCdVersion.V3_4],
    ['3.4.7', ArgoCdVersion.V3_4],
    ['v3.2.1', ArgoCdVersion.V3_2],
    ['2.14.x', ArgoCdVersion.V2_14],
    ['3.3', ArgoCdVersion.V3_3],
    ['3.10', ArgoCdVersion.LATEST],
  ])('reads argocdVersion: %s as ArgoCdVersion.of does', (written, expected) => {
    // GIVEN a config naming a release in one of the accepted forms (3.10 is minor 10, a 3.x newer than every known one)
    // WHEN it is parsed
    // THEN it is that release's instance
    expect(parseAuditConfig(`argocdVersion: ${written}\n`).argoCdVersion).toBe(expected);
  });

  test.each([
    ['2.13', /version is "2\.13"; it must be Argo CD 2\.14 or newer/],
    ['3.04', /version is "3\.04"; it must name an Argo CD release as major\.minor/],
    ['4.0', /version is "4\.0"; it must be Argo CD 2\.14 to 3\.5 or a later 3\.x/],
    ['[3.4]', /version is \["3\.4"\]; it must name an Argo CD release/],
  ])('fails when argocdVersion is %s, naming the file and the SAFE-005 reason', (written, message) => {
    // GIVEN a config naming no release this library renders for (or a list, which is no release at all)
    // WHEN it is parsed
    const parsing = () => parseAuditConfig(`argocdVersion: ${written}\n`, 'ci/.safe-argocd.yaml');
    // THEN the error names the file and carries ArgoCdVersion.of's message
    expect(parsing).toThrow(/^ci\/\.safe-argocd\.yaml: \[SAFE-005\] ArgoCdVersion\.of: /);
    expect(parsing).toThrow(message);
  });
});

describe('parseAuditConfig: exclude and failOnUnreadable', () => {
  test('reads exclude globs and failOnUnreadable', () => {
    // GIVEN a config with both
    const config = parseAuditConfig('exclude:\n  - dashboards/**\n  - "**/*.json"\nfailOnUnreadable: true\n');

    // WHEN it is parsed / THEN both are kept as written
    expect(config.exclude).toEqual(['dashboards/**', '**/*.json']);
    expect(config.failOnUnreadable).toBe(true);
    expect(parseAuditConfig('failOnUnreadable: false\n').failOnUnreadable).toBe(false);
    expect(parseAuditConfig('failOn: error\n')).toEqual({ suppressions: [], failOn: 'error', argoCdVersion: undefined });
  });

  test('reads newGitFileGlobbing, and leaves it out when the config does not say', () => {
    // GIVEN configs that set it either way, and one that does not / WHEN parsed / THEN it is what they say, or absent
    expect(parseAuditConfig('newGitFileGlobbing: true\n').newGitFileGlobbing).toBe(true);
    expect(parseAuditConfig('newGitFileGlobbing: false\n').newGitFileGlobbing).toBe(false);
    expect('newGitFileGlobbing' in parseAuditConfig('failOn: error\n')).toBe(false);
  });

  test.each([
    ['exclude: dashboards\n', 'exclude must be a list of globs'],
    ['exclude: ["[z-a]"]\n', 'exclude[0] "[z-a]" is not a valid glob'],
    ['exclude: [""]\n', 'exclude[0] "" is empty'],
    ['failOnUnreadable: yes\n', 'failOnUnreadable is "yes"; use true or false'],
    ['newGitFileGlobbing: on\n', 'newGitFileGlobbing is "on"; use true or false'],
  ])('fails when the config says %p', (text, message) => {
    // GIVEN a config with a bad value / WHEN it is parsed / THEN the error names the key
    expect(() => parseAuditConfig(text, 'ci/.safe-argocd.yaml')).toThrow(`ci/.safe-argocd.yaml: ${message}`);
  });
});

describe('the config of docs/audit-in-ci.md', () => {
  test('parses, with every key the recipe explains', () => {
    // GIVEN the first YAML block of the CI recipe
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'audit-in-ci.md'), 'utf8');
    const yaml = /```yaml\n([\s\S]*?)```/.exec(doc)![1];

    // WHEN it is parsed
    const config = parseAuditConfig(yaml, 'docs/audit-in-ci.md');

    // THEN it is a valid config that excludes and fails on unreadable files
    expect(config.exclude).toEqual(['dashboards/**', '**/values*.yaml']);
    expect(config.failOnUnreadable).toBe(true);
    expect(config.suppressions.map((s) => s.ruleId)).toEqual(['SA007']);
  });
});
