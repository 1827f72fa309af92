import { execFileSync } from 'child_process';

// jq-wasm loads asynchronously, and synthesis is synchronous: compile in a short-lived child process,
// all expressions of a synth at once, and remember the answers. Each program is wrapped in
// `if false then ... else null end`: jq compiles all of it and runs none of it, so an expression that would
// never end at run time (`def f: f; f`, `until(false; .)`) is still only compiled.
const WORKER = `
const { loadJq } = require(process.argv[1]);
let input = '';
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', async () => {
  const jq = await loadJq();
  const compiles = (program) => jq.raw(null, 'if false then ' + program + ' else null end');
  const out = JSON.parse(input).map((expression) => {
    // exit code 3 is a compile error. Its message is taken from the bare del(...) program, whose line and
    // column are the ones users see from Argo CD. It does not compile either, so it does not run (were it
    // to compile after all, the child's time limit would still bound it).
    const wrapped = compiles('del(' + expression + ')');
    if (wrapped.exitCode === 3) {
      const bare = jq.raw(null, 'del(' + expression + ')');
      return (bare.exitCode === 3 ? bare.stderr : wrapped.stderr).trim();
    }
    // An expression that closes del's "(" early (".a) | (.b") compiles inside del(...) but not inside
    // [...], where its ")" has no partner: jq's own parser proves the expression stays inside del.
    const bracketed = compiles('[' + expression + ']');
    return bracketed.exitCode === 3
      ? 'the expression is not self-contained: it would escape the del(...) Argo CD wraps around it'
      : null;
  });
  process.stdout.write(JSON.stringify(out));
});
`;

/** How long one check (a batch, or one expression) may take, and the child's heap. */
const CHECK_TIMEOUT_MS = 30_000;
const CHILD_HEAP_MB = 256;

/** The start of the answer for an expression jq could not check at all (a bound, not a compile error). */
export const JQ_UNCHECKED = 'could not be checked:';

const cache = new Map<string, string | null>();

/**
 * Compiles jq path expressions the way Argo CD runs them (`del(<expression>)`), with jq 1.8, without running
 * them. Returns each expression's compile error, or null when it compiles; an expression the check could not
 * finish (time or memory) gets an answer starting with {@link JQ_UNCHECKED} that says why.
 */
export function compileJq(expressions: readonly string[]): (string | null)[] {
  const missing = [...new Set(expressions.filter((e) => !cache.has(e)))];
  if (missing.length > 0) {
    const results = check(missing);
    if (results) {
      missing.forEach((e, i) => cache.set(e, results[i]));
    } else {
      // The batch failed: check one by one, so that the answer names the expression that caused it.
      for (const e of missing) {
        const alone = check([e]);
        cache.set(e, alone ? alone[0] : uncheckedReason(lastFailure));
      }
    }
  }
  return expressions.map((e) => cache.get(e) ?? null);
}

let lastFailure: unknown;

/** The answers for `expressions`, or undefined when the child did not give them. */
function check(expressions: readonly string[]): (string | null)[] | undefined {
  try {
    const stdout = execFileSync(process.execPath, [`--max-old-space-size=${CHILD_HEAP_MB}`, '-e', WORKER, require.resolve('jq-wasm')], {
      input: JSON.stringify(expressions),
      encoding: 'utf8',
      timeout: CHECK_TIMEOUT_MS,
      killSignal: 'SIGKILL',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const results = JSON.parse(stdout) as (string | null)[];
    return Array.isArray(results) && results.length === expressions.length ? results : undefined;
  } catch (e) {
    lastFailure = e;
    return undefined;
  }
}

/** Why the check of one expression failed, in words: the time limit, memory, or the child's own message. */
function uncheckedReason(e: unknown): string {
  const error = e as { code?: string; signal?: string; stderr?: string; message?: string } | undefined;
  if (error?.code === 'ETIMEDOUT' || error?.signal === 'SIGKILL' || error?.signal === 'SIGTERM') {
    return `${JQ_UNCHECKED} jq did not finish compiling it within ${CHECK_TIMEOUT_MS / 1000} s`;
  }
  const stderr = String(error?.stderr ?? '');
  if (/Aborted\(|out of memory|heap limit/i.test(stderr)) {
    return `${JQ_UNCHECKED} jq ran out of memory compiling it`;
  }
  const detail = (stderr.trim().split('\n').find((l) => l.trim()) ?? String(error?.message ?? error).split('\n')[0]).trim();
  return `${JQ_UNCHECKED} the jq check failed (${detail})`;
}
