import { readdirSync, readFileSync } from 'fs';
import { dirname, join, normalize, relative } from 'path';
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

/** The folders of src/ each folder imports (type-only imports included), from the source text. */
function folderImports(): Map<string, Set<string>> {
  const src = join(ROOT, 'src');
  const graph = new Map<string, Set<string>>();
  const folderOf = (file: string) => relative(src, file).split(/[\\/]/)[0].replace(/\.ts$/, '');
  for (const name of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.ts')) {
      continue;
    }
    const file = join(src, name);
    const from = folderOf(file);
    for (const match of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;]*?from '(\.[^']+)'/gms)) {
      const to = folderOf(normalize(join(dirname(file), match[1])));
      if (to !== from) {
        graph.set(from, (graph.get(from) ?? new Set()).add(to));
      }
    }
  }
  return graph;
}

/** Each folder that reaches itself again through the folders it imports, with one such loop. */
function folderLoops(graph: Map<string, Set<string>>): string[] {
  const loops: string[] = [];
  for (const start of graph.keys()) {
    const stack: string[][] = [[start]];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const path = stack.pop()!;
      for (const next of graph.get(path[path.length - 1]) ?? []) {
        if (next === start) {
          loops.push([...path, next].join(' -> '));
          stack.length = 0;
          break;
        }
        if (!seen.has(next)) {
          seen.add(next);
          stack.push([...path, next]);
        }
      }
    }
  }
  return loops;
}

describe('the folders of src/ are layers', () => {
  test('no folder imports one that imports it back, directly or through others', () => {
    expect(folderLoops(folderImports())).toEqual([]);
  });

  test('the check finds a loop of folders (it can fail)', () => {
    const graph = folderImports();
    graph.get('private')!.add('application');
    expect(folderLoops(graph)).toContainEqual(expect.stringMatching(/^private -> application -> .*private$|^application -> private -> application$/));
  });
});

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

  test('fails when a construct\'s internals or value types import a construct', async () => {
    const problems = await importProblems('src/private/format.ts',
      'import { SafeApplication } from \'../application/safe-application\';\nexport const x = SafeApplication;\n');
    expect(problems).toContainEqual(expect.stringMatching(/^import\/no-restricted-paths: .*private\/ holds what the constructs share/));
    const fromValues = await importProblems('src/values/jq-path.ts',
      'import { formatFinding } from \'../private/format\';\nexport const x = formatFinding;\n');
    expect(fromValues).toContainEqual(expect.stringMatching(/^import\/no-restricted-paths: .*values\/ holds the value types of props/));
  }, 60_000);

  test('fails when application/ imports a construct built on it', async () => {
    const problems = await importProblems('src/application/suppression.ts',
      'import { SafeProject } from \'../governance/safe-project\';\nexport const x = SafeProject;\n');
    expect(problems).toContainEqual(expect.stringMatching(/^import\/no-restricted-paths: .*application\/ is the base/));
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
