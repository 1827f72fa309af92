import { execFileSync } from 'child_process';

// jq-wasm loads asynchronously, and synthesis is synchronous: compile in a short-lived child process,
// all expressions of a synth at once, and remember the answers.
const WORKER = `
const { loadJq } = require(process.argv[1]);
let input = '';
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', async () => {
  const jq = await loadJq();
  const out = JSON.parse(input).map((expression) => {
    // exit code 3 is a compile error; 5 is a runtime error on the null input, which proves it compiled
    const wrapped = jq.raw(null, 'del(' + expression + ')');
    if (wrapped.exitCode === 3) {
      return wrapped.stderr.trim();
    }
    // An expression that closes del's "(" early (".a) | (.b") compiles inside del(...) but not inside
    // [...], where its ")" has no partner: jq's own parser proves the expression stays inside del.
    const bracketed = jq.raw(null, '[' + expression + ']');
    return bracketed.exitCode === 3
      ? 'the expression is not self-contained: it would escape the del(...) Argo CD wraps around it'
      : null;
  });
  process.stdout.write(JSON.stringify(out));
});
`;

const cache = new Map<string, string | null>();

/**
 * Compiles jq path expressions the way Argo CD runs them (`del(<expression>)`), with jq 1.8.
 * Returns each expression's compile error, or null when it compiles.
 */
export function compileJq(expressions: readonly string[]): (string | null)[] {
  const missing = [...new Set(expressions.filter((e) => !cache.has(e)))];
  if (missing.length > 0) {
    const stdout = execFileSync(process.execPath, ['-e', WORKER, require.resolve('jq-wasm')], {
      input: JSON.stringify(missing),
      encoding: 'utf8',
      timeout: 30_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const results = JSON.parse(stdout) as (string | null)[];
    missing.forEach((e, i) => cache.set(e, results[i]));
  }
  return expressions.map((e) => cache.get(e) ?? null);
}
