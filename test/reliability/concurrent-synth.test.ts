/**
 * Chaos: synths of one fleet into one outdir, run at once in separate processes, some killed with SIGKILL at random
 * moments. Whatever happens, outdir is one complete tree of one of the runs, a run that exits 0 has written its tree,
 * and `safe-argocd audit` of the folder around outdir reads only that tree.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import { join } from 'path';
import { withOutdirLock } from '../../src/private/atomic-write';
import { runCli } from '../cli/support';
import { readTree, tempDir } from '../support/app';
import { buildLargeApp, Variant } from './support/large-app';

const ROOT = join(__dirname, '..', '..');
const CHILD = join(__dirname, 'support', 'synth-child.ts');
/** Apps of each run's fleet: some 240 files, about 1 MB. */
const APPS = 40;
const ROUNDS = 2;
const CONCURRENT = 6;
/** How long after the start of a round its runs start to synth: time for them to load. */
const LOAD_MS = 8000;
/** Runs of each round killed at a random moment. */
const KILLED = 3;

/** A small seeded generator (Park-Miller), so that a failure can be replayed with its seed. */
function random(seed: number): () => number {
  let a = (seed % 2147483646) + 1;
  return () => {
    a = (a * 16807) % 2147483647;
    return (a - 1) / 2147483646;
  };
}

interface Run {
  readonly variant: Variant;
  readonly killAfterMs?: number;
  code?: number | null;
  signal?: NodeJS.Signals | null;
  stdout?: string;
  stderr?: string;
  /** What outdir held when the run exited 0, read under the outdir's lock. */
  treeAtExit?: string;
  /** The swap log's lines then. */
  logAtExit?: string[];
}

/** Which run's tree `outdir` holds: the variant, `missing`, or `a mix`. */
function whoseTree(outdir: string, trees: Map<Variant, Record<string, string>>): string {
  if (!fs.existsSync(outdir)) {
    return 'missing';
  }
  const tree = readTree(outdir);
  const keys = Object.keys(tree);
  for (const [variant, expected] of trees) {
    if (keys.length === Object.keys(expected).length && keys.every((k) => tree[k] === expected[k])) {
      return variant;
    }
  }
  return 'a mix';
}

/**
 * Whose tree outdir holds, under the lock: when a run was killed between its two renames, outdir is missing and the
 * previous tree waits beside it for the next synth to put back; that tree is the one counted.
 */
function treeNow(outdir: string, trees: Map<Variant, Record<string, string>>): string {
  const whose = whoseTree(outdir, trees);
  const aside = fs.readdirSync(join(outdir, '..')).filter((n) => n.startsWith('dist.safe-argocd-old-'));
  return whose === 'missing' && aside.length === 1 ? whoseTree(join(outdir, '..', aside[0]), trees) : whose;
}

/**
 * The trees outdir may hold, given the swap log: that of the last completed swap, or of a swap started after it whose
 * run was killed before it logged the end (the rename may have happened); none before the first swap.
 */
function allowedTrees(log: readonly string[]): string[] {
  const ends = log.filter((l) => l.startsWith('end ')).map((l) => l.slice(4));
  const lastEnd = log.map((l) => l.startsWith('end ')).lastIndexOf(true);
  const pending = log.slice(lastEnd + 1).filter((l) => l.startsWith('start ')).map((l) => l.slice(6));
  return [...(ends.length > 0 ? [ends[ends.length - 1]] : ['missing']), ...pending];
}

describe('concurrent synths of one outdir, killed at random', () => {
  const made: string[] = [];
  afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  test('leave one complete tree, of the last run to swap; every run that exits 0 wrote its tree; audit reads only it', async () => {
    const seed = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
    const next = random(seed);
    const dir = tempDir();
    made.push(dir);
    const outdir = join(dir, 'dist');
    const log = join(tempDir(), 'swaps.log');
    made.push(join(log, '..'));
    fs.writeFileSync(log, '');
    const readLog = () => fs.readFileSync(log, 'utf8').split('\n').filter((l) => l);

    // GIVEN the tree each run renders (each run a fleet of its own contents)
    const total = ROUNDS * CONCURRENT + 1;
    const variants = Array.from({ length: total }, (_, i) => `run-${i}` as Variant);
    const render = (v: Variant) => Object.fromEntries(buildLargeApp(outdir, v, APPS).renderFiles().map((f) => [f.path, f.content]));
    const trees = new Map(variants.map((v) => [v, render(v)] as const));

    const start = (run: Run, last: boolean, goAt: number) => new Promise<void>((resolve, reject) => {
      // The last run kills itself while it writes, so that its temporary folder is left for the audit below.
      const mode = last ? ['die-while-writing'] : [];
      const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', CHILD, outdir, run.variant, String(APPS), ...mode], {
        cwd: ROOT,
        env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'test', 'tsconfig.json'), SAFE_ARGOCD_TEST_SWAP_LOG: log, SAFE_ARGOCD_TEST_GO_AT: String(goAt) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      if (run.killAfterMs !== undefined) {
        setTimeout(() => child.kill('SIGKILL'), goAt - Date.now() + run.killAfterMs);
      }
      child.on('error', reject);
      child.on('close', (code, signal) => {
        Object.assign(run, { code, signal, stdout, stderr });
        if (code === 0) {
          // WHEN a run exits 0 THEN (under the lock, so that no swap is half-done) outdir holds its tree, or that of
          // a run that swapped after it
          withOutdirLock(outdir, () => {
            run.treeAtExit = treeNow(outdir, trees);
            run.logAtExit = readLog();
          }, 120_000);
        }
        resolve();
      });
    });

    // WHEN rounds of concurrent synths run, all starting their synth at one moment (once loaded), some of each killed
    // between 0 and 3 s after it (while they render, wait for the lock, write or swap), and a last one dies while it writes
    const started = performance.now();
    const runs: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const killed = new Set<number>();
      while (killed.size < KILLED) {
        killed.add(Math.floor(next() * CONCURRENT));
      }
      const batch = variants.slice(round * CONCURRENT, (round + 1) * CONCURRENT)
        .map((variant, i) => ({ variant, killAfterMs: killed.has(i) ? Math.round(next() * 3000) : undefined }));
      runs.push(...batch);
      const goAt = Date.now() + LOAD_MS;
      await Promise.all(batch.map((run) => start(run, false, goAt)));
    }
    const last: Run = { variant: variants[total - 1] };
    runs.push(last);
    await start(last, true, 0);
    const seconds = Math.round((performance.now() - started) / 1000);

    const summary = runs.map((r) => `${r.variant}: ${r.signal ?? `exit ${r.code}`}${r.killAfterMs === undefined ? '' : ` (kill ${r.killAfterMs} ms after the start of the synths)`}`
      + `${r.treeAtExit === undefined ? '' : `, at exit ${r.treeAtExit}`}`);
    const context = `seed ${seed} (CHAOS_SEED=${seed} replays it), ${seconds} s:\n${summary.join('\n')}\nswaps:\n${readLog().join('\n')}`;
    if (process.env.CHAOS_VERBOSE) {
      process.stderr.write(`${context}\nfinal: ${treeNow(outdir, trees)}\n`);
    }
    const killed = runs.filter((r) => r.signal === 'SIGKILL');
    const succeeded = runs.filter((r) => r.code === 0);

    // THEN every run either exited 0, silently, or was killed: none failed, none printed a raw error
    expect([context, runs.filter((r) => r.signal !== 'SIGKILL' && (r.code !== 0 || r.stderr !== ''))
      .map((r) => `${r.variant}: exit ${r.code} ${r.stderr}`)]).toEqual([context, []]);
    // THEN the chaos happened: runs were killed, others succeeded, and some of each overlapped
    expect([context, killed.length > 0 && succeeded.length > 0]).toEqual([context, true]);
    // THEN every run that exited 0 swapped its tree in, and at its exit outdir held a whole tree: the last one swapped in
    for (const run of succeeded) {
      expect([context, run.variant, run.logAtExit!.includes(`end ${run.variant}`)]).toEqual([context, run.variant, true]);
      expect([context, run.variant, allowedTrees(run.logAtExit!)]).toEqual([context, run.variant, expect.arrayContaining([run.treeAtExit])]);
    }
    // THEN at the end outdir is one complete tree: that of the last swap
    const final = treeNow(outdir, trees);
    expect([context, allowedTrees(readLog())]).toEqual([context, expect.arrayContaining([final])]);
    expect(final).not.toMatch(/missing|mix/);

    // THEN the killed last run left its temporary folder beside outdir, and an audit of the folder around outdir
    // reads the tree alone: the same files, findings and problems as an audit of outdir
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('dist.safe-argocd-tmp-')).length).toBeGreaterThan(0);
    const ofFolder = await runCli(['audit', dir, '--repo-root', dir, '--format', 'json']);
    const ofTree = await runCli(['audit', outdir, '--repo-root', dir, '--format', 'json']);
    expect(ofFolder.stderr).toBe('');
    expect(JSON.parse(ofFolder.stdout)).toEqual(JSON.parse(ofTree.stdout));
    expect(JSON.parse(ofTree.stdout).stats.files).toBe(Object.keys(trees.get(final as Variant)!).filter((f) => /\.(ya?ml|json)$/.test(f)).length);

  }, 240_000);
});
