import { ArgoCdVersion } from '../../src/application/argocd-version';
import { parseAuditConfig } from '../../src/audit/config';
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

  test('fails when there are several mistakes: one error names each of them and the file', () => {
    // GIVEN a config with an unknown key, an unknown rule, a short reason and a bad applications list
    const text = 'colour: red\nsuppressions:\n  - ruleId: SA999\n    reason: ok\n    applications: web\n';

    // WHEN it is parsed
    // THEN the error lists every mistake
    expect(() => parseAuditConfig(text, 'ci/.safe-argocd.yaml')).toThrow(
      'ci/.safe-argocd.yaml: unknown key "colour" (allowed: suppressions, failOn, argocdVersion); '
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
