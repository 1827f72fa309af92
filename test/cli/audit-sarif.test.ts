import { cpSync, readFileSync } from 'fs';
import { join } from 'path';
import Ajv from 'ajv';
import { ALL_RULES } from '../../src/rules/registry';
import { applicationYaml, FAILURE_MODES, runCli, writeTree } from '../audit/support';
import { tempDir } from '../support/app';

/**
 * The OASIS SARIF 2.1.0 schema. It is written for draft-04 (`$schema` draft-04, `id` instead of `$id`), which
 * Ajv 8 does not ship; it uses no keyword whose meaning changed after draft-04 (no boolean exclusiveMinimum),
 * so it is compiled as draft-07 with `id` renamed.
 */
function sarifValidator() {
  const { $schema, id, ...schema } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'schemas', 'sarif', 'sarif-schema-2.1.0.json'), 'utf8'));
  expect($schema).toBe('http://json-schema.org/draft-04/schema#');
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile({ ...schema, $id: id });
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; startColumn: number } } }[];
  suppressions?: { kind: string; justification: string }[];
}

async function sarifOf(root: string, ...args: string[]) {
  const run = await runCli(['audit', root, '--repo-root', root, '--format', 'sarif', ...args]);
  const log = JSON.parse(run.stdout);
  const rules = log.runs[0].tool.driver.rules as { id: string; help: { text: string; markdown: string } }[];
  return { run, log, results: log.runs[0].results as SarifResult[], rules };
}

/** A copy of the fixture where SA003 is suppressed by config and SA001 by an annotation on its Application. */
function suppressedCopy(): string {
  const root = tempDir();
  cpSync(FAILURE_MODES, root, { recursive: true });
  writeTree(root, {
    '.safe-argocd.yaml': 'suppressions:\n  - ruleId: SA003\n    reason: the wildcard is reviewed by the platform team\n',
    'apps/half-enforced.yaml': applicationYaml('half-enforced', {
      syncPolicy: { automated: { prune: true, selfHeal: false } },
      annotations: { 'safe-argocd/suppress.SA001': 'selfHeal is off during the database move' },
    }),
  });
  return root;
}

describe('safe-argocd audit --format sarif', () => {
  const validate = sarifValidator();

  test('the schema check is not vacuous: a result with an unknown level is rejected', () => {
    // GIVEN a log whose only result has level "fatal"
    const bad = { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }] };

    // WHEN it is validated
    // THEN the validator rejects it at the level
    expect(validate(bad)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toContain('/runs/0/results/0/level');
  });

  test('the log of the failure-modes fixture validates against the SARIF 2.1.0 schema', async () => {
    // GIVEN the fixture
    // WHEN it is audited as SARIF
    const { log } = await sarifOf(FAILURE_MODES);

    // THEN the log is valid SARIF 2.1.0
    expect(validate(log)).toBe(true);
    expect(validate.errors ?? []).toEqual([]);
    expect(log.version).toBe('2.1.0');
  });

  test('one result per finding, each with ruleId, level, and a region with line and column', async () => {
    // GIVEN the fixture and its JSON report
    const json = JSON.parse((await runCli(['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES, '--format', 'json'])).stdout);

    // WHEN it is audited as SARIF
    const { results, rules } = await sarifOf(FAILURE_MODES);

    // THEN results and findings correspond one to one, with the same places
    expect(results).toHaveLength(json.findings.length);
    const places = (list: { rule: string; uri: string; line: number; column: number; level: string }[]) => list.map((p) => JSON.stringify(p)).sort();
    expect(places(results.map((r) => ({
      rule: r.ruleId,
      uri: r.locations[0].physicalLocation.artifactLocation.uri,
      line: r.locations[0].physicalLocation.region.startLine,
      column: r.locations[0].physicalLocation.region.startColumn,
      level: r.level,
    })))).toEqual(places(json.findings.map((f: { ruleId: string; severity: string; location: { file: string; line: number; column: number } }) => ({
      rule: f.ruleId, uri: f.location.file, line: f.location.line, column: f.location.column, level: f.severity,
    }))));
    for (const r of results) {
      expect(r.locations[0].physicalLocation.artifactLocation.uriBaseId).toBe('SRCROOT');
      expect(rules[r.ruleIndex].id).toBe(r.ruleId);
      expect(r.suppressions).toBeUndefined();
    }
  });

  test('every rule carries help text and markdown with its fix', async () => {
    // GIVEN the fixture
    // WHEN it is audited as SARIF
    const { rules } = await sarifOf(FAILURE_MODES);

    // THEN every rule of the registry is described, in id order, each with help that ends in its fix
    expect(rules.map((r) => r.id)).toEqual(ALL_RULES.map((r) => r.id));
    expect(rules.length).toBeGreaterThanOrEqual(13);
    for (const rule of rules) {
      expect(rule.help.text).toMatch(/\n\nFix: \S/);
      expect(rule.help.markdown).toMatch(/\n\n\*\*Fix:\*\* \S/);
    }
  });

  test('every rule links its section of RULES.md (helpUri) and carries a numeric security-severity for code scanning', async () => {
    // GIVEN the committed RULES.md, and its headings' anchors as GitHub derives them
    const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const anchors = readFileSync(join(__dirname, '..', '..', 'RULES.md'), 'utf8').split('\n')
      .filter((l) => l.startsWith('## ')).map((l) => slug(l.slice(3)));

    // WHEN the fixture is audited as SARIF
    const { log } = await sarifOf(FAILURE_MODES);
    type SarifRule = { id: string; helpUri: string; defaultConfiguration: { level: string }; properties: Record<string, unknown> };
    const rules = log.runs[0].tool.driver.rules as SarifRule[];

    // THEN each helpUri is absolute and ends in the anchor of that rule's own heading, and the score matches the level
    expect(validate(log)).toBe(true);
    const order = { error: 3, warning: 2, note: 1 } as Record<string, number>;
    for (const rule of rules) {
      const url = new URL(rule.helpUri);
      expect(url.protocol).toBe('https:');
      expect(url.pathname).toMatch(/\/RULES\.md$/);
      expect(anchors).toContain(url.hash.slice(1));
      expect(url.hash.slice(1)).toMatch(new RegExp(`^${rule.id.toLowerCase()}-`));
      const score = rule.properties['security-severity'];
      expect(typeof score).toBe('string');
      expect(Number(score)).toBeGreaterThan(0);
      expect(Number(score)).toBeLessThanOrEqual(10);
      expect(rule.properties.tags).toContain('security');
      for (const other of rules) {
        if (order[rule.defaultConfiguration.level] > order[other.defaultConfiguration.level]) {
          expect(Number(score)).toBeGreaterThan(Number(other.properties['security-severity']));
        }
      }
    }
    expect(log.runs[0].tool.driver.informationUri).toMatch(/^https:\/\/.*\/RULES\.md$/);
  });

  test('with --rule, rules lists only the selected rules and ruleIndex still points at the right one', async () => {
    // GIVEN the fixture
    // WHEN only SA103 and SA001 are selected
    const { log, results, rules } = await sarifOf(FAILURE_MODES, '--rule', 'SA103', '--rule', 'SA001');

    // THEN the log is valid, and each result's index names its own rule
    expect(validate(log)).toBe(true);
    expect(rules.map((r) => r.id)).toEqual(['SA001', 'SA103']);
    expect(results.map((r) => [r.ruleId, rules[r.ruleIndex].id])).toEqual([['SA001', 'SA001'], ['SA103', 'SA103']]);
  });

  test('suppressed findings are results with a suppressions entry: inSource for annotations, external for config', async () => {
    // GIVEN the fixture with SA003 suppressed in .safe-argocd.yaml and SA001 by an annotation
    const root = suppressedCopy();

    // WHEN it is audited as SARIF
    const { run, log, results } = await sarifOf(root);

    // THEN the log is valid, and the two suppressed results say why
    expect(validate(log)).toBe(true);
    expect(results).toHaveLength(6);
    const suppressed = results.filter((r) => r.suppressions).map((r) => [r.ruleId, r.suppressions]);
    expect(suppressed.sort()).toEqual([
      ['SA001', [{ kind: 'inSource', justification: 'selfHeal is off during the database move' }]],
      ['SA003', [{ kind: 'external', justification: 'the wildcard is reviewed by the platform team' }]],
    ]);
    expect(run.code).toBe(1);
  });

  test('a run with unreadable files is valid SARIF that says execution was not successful', async () => {
    // GIVEN the fixture with a file that is not YAML
    const root = tempDir();
    cpSync(FAILURE_MODES, root, { recursive: true });
    writeTree(root, { 'workloads/broken.yaml': 'kind: [unclosed\n' });

    // WHEN it is audited as SARIF
    const { run, log } = await sarifOf(root);

    // THEN the problem is a tool notification on the file, and the log still validates
    expect(validate(log)).toBe(true);
    const invocation = log.runs[0].invocations[0];
    expect(invocation.executionSuccessful).toBe(false);
    expect(invocation.toolExecutionNotifications).toHaveLength(1);
    expect(invocation.toolExecutionNotifications[0].locations[0].physicalLocation.artifactLocation.uri).toBe('workloads/broken.yaml');
    expect(invocation.toolExecutionNotifications[0].message.text).toMatch(/^workloads\/broken\.yaml: YAML error at line \d+, column \d+: /);
    // The findings decide the exit code; the unreadable file would with --fail-on-unreadable.
    expect(run.code).toBe(1);
  });
});
