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
    const result = jq.raw(null, 'del(' + expression + ')');
    // exit code 3 is a compile error; 5 is a runtime error on the null input, which proves it compiled
    return result.exitCode === 3 ? result.stderr.trim() : null;
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
  for (const e of expressions) {
    if (!cache.has(e) && !balanced(e)) {
      cache.set(e, 'unbalanced parentheses: the expression would escape the del(...) Argo CD wraps around it');
    }
  }
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

/** Whether parentheses outside string literals balance without ever closing more than they opened. */
function balanced(expression: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i];
    if (inString) {
      if (c === '\\') {
        i++;
      } else if (c === '"') {
        inString = false;
      }
    } else if (c === '"') {
      inString = true;
    } else if (c === '(') {
      depth++;
    } else if (c === ')' && --depth < 0) {
      return false;
    }
  }
  return depth === 0 && !inString;
}
