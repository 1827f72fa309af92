import { join } from 'path';
// The linter's classic API, for the project's .eslintrc.json (the lint task sets ESLINT_USE_FLAT_CONFIG=false).
// eslint-disable-next-line import/no-extraneous-dependencies
import { LegacyESLint } from 'eslint/use-at-your-own-risk';

const ROOT = join(__dirname, '..', '..');

/**
 * The import rules' messages for `text` in place of the source of `file`, an existing file (relative to the
 * repository), linted as `npm test` lints. Nothing is written.
 */
async function importProblems(file: string, text: string): Promise<string[]> {
  const eslint = new LegacyESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(text, { filePath: join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId?.startsWith('import/no-')).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the direction of imports (ARCHITECTURE.md) is enforced by the linter', () => {
  test('fails when a rule imports a construct', async () => {
    const problems = await importProblems('src/rules/sa008-allow-empty.ts',
      'import { SafeApplication } from \'../application/safe-application\';\nexport const x = SafeApplication;\n');
    expect(problems).toContainEqual(expect.stringMatching(/^import\/no-restricted-paths: .*Rules are pure functions over manifests/));
  }, 60_000);

  test('fails when core/ imports anything else of src/', async () => {
    const problems = await importProblems('src/core/order.ts', 'import { runRules } from \'../rules/engine\';\nexport const x = runRules;\n');
    expect(problems).toContainEqual(expect.stringMatching(/^import\/no-restricted-paths: .*core\/ is the bottom layer/));
  }, 60_000);

  test('fails when a construct imports the CLI, the audit or the drift model', async () => {
    const problems = await importProblems('src/application/suppression.ts', 'import { auditFiles } from \'../audit/audit\';\nexport const x = auditFiles;\n');
    expect(problems).toContainEqual(expect.stringMatching(/^import\/no-restricted-paths: .*Constructs render manifests/));
  }, 60_000);

  test('fails when the drift model imports the rules or the audit', async () => {
    const problems = await importProblems('src/drift/json.ts',
      'import { runRules } from \'../rules/engine\';\nimport { auditFiles } from \'../audit/audit\';\nexport const x = [runRules, auditFiles];\n');
    const refusals = problems.filter((p) => /^import\/no-restricted-paths: .*The drift model reads manifests/.test(p));
    expect(refusals).toHaveLength(2);
  }, 60_000);

  test('fails when two files import each other', async () => {
    // drift/engine.ts imports drift/json.ts: json.ts importing engine.ts back closes a loop.
    const problems = await importProblems('src/drift/json.ts', 'import { simulate } from \'./engine\';\nexport const x = simulate;\n');
    expect(problems).toContainEqual('import/no-cycle: Dependency cycle detected.');
  }, 60_000);

  test('passes the imports the layers allow', async () => {
    const problems = await importProblems('src/rules/sa008-allow-empty.ts',
      'import { ArgoCdVersion } from \'../core/argocd-version\';\nimport { at } from \'../core/manifest\';\nexport const x = [ArgoCdVersion, at];\n');
    expect(problems).toEqual([]);
  }, 60_000);
});
