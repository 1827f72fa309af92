/**
 * Atomic output: a synth that dies while it writes leaves `outdir` as the previous tree or the new one, never a mix.
 *
 * A synth that fails validation, or whose disk fails half-way, leaving the previous tree byte-identical and no
 * temporary folder, is covered in test/application/gitops-app.test.ts ("GitOpsApp atomic output"); these tests add
 * what only a separate process can show: SIGKILL at any moment of a real synth.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import { join } from 'path';
import { readTree, tempDir } from '../support/app';
import { buildLargeApp, Variant } from './support/large-app';

const ROOT = join(__dirname, '..', '..');
const CHILD = join(__dirname, 'support', 'synth-child.ts');
const APPS = 200;

interface ChildRun {
  readonly signal: NodeJS.Signals | null;
  readonly code: number | null;
  readonly stderr: string;
  /** From spawn to the first file of the temporary tree, from there to the swap, and from there to exit, in ms. */
  readonly beforeWriting?: number;
  readonly writing?: number;
  readonly afterSwap?: number;
}

/**
 * Runs a synth of the large app in its own process (src through ts-node, as test/cli/simulate.test.ts runs the CLI),
 * killed with SIGKILL `kill.ms` after it spawned or after it started writing, if asked.
 */
function synthInChild(outdir: string, variant: Variant, kill?: { after: 'spawn' | 'writing'; ms: number }, mode?: string): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', CHILD, outdir, variant, String(APPS), ...(mode ? [mode] : [])], {
      cwd: ROOT,
      env: { ...process.env, TS_NODE_PROJECT: join(ROOT, 'test', 'tsconfig.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let writingAt: number | undefined;
    let swappedAt: number | undefined;
    if (kill?.after === 'spawn') {
      setTimeout(() => child.kill('SIGKILL'), kill.ms);
    }
    child.stdout.on('data', (d) => {
      stdout += d;
      if (writingAt === undefined && stdout.includes('writing\n')) {
        writingAt = performance.now();
        if (kill?.after === 'writing') {
          setTimeout(() => child.kill('SIGKILL'), kill.ms);
        }
      }
      if (swappedAt === undefined && stdout.includes('swapped\n')) {
        swappedAt = performance.now();
      }
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const ended = performance.now();
      resolve({
        code,
        signal,
        stderr,
        beforeWriting: writingAt && writingAt - started,
        writing: writingAt && swappedAt && swappedAt - writingAt,
        afterSwap: swappedAt && ended - swappedAt,
      });
    });
  });
}

/** The paths at which two trees differ (at most five), so that a failure does not print two 2 MB trees. */
function differences(a: Record<string, string>, b: Record<string, string>): string[] {
  const paths = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return paths.filter((p) => a[p] !== b[p]).slice(0, 5);
}

/** What `outdir` holds after a kill: the previous tree, the new one, or (a failure) a mix. */
function classify(outdir: string, previous: Record<string, string>, next: Record<string, string>): string {
  if (!fs.existsSync(outdir)) {
    return 'missing';
  }
  const tree = readTree(outdir);
  if (differences(tree, previous).length === 0) {
    return 'previous';
  }
  if (differences(tree, next).length === 0) {
    return 'new';
  }
  return `a mix: differs from the previous tree at ${differences(tree, previous).join(', ')} and from the new one at ${differences(tree, next).join(', ')}`;
}

describe('a synth killed with SIGKILL', () => {
  // Every folder made here holds a few MB; they are removed at the end.
  const made: string[] = [];
  const folder = () => {
    const dir = tempDir();
    made.push(dir);
    return dir;
  };
  afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  // GIVEN the previous and the new tree of a 200-app GitOps repository, as a synth in this process writes them
  const work = folder();
  const previousDir = join(work, 'previous', 'dist');
  buildLargeApp(previousDir, 'old', APPS).synth();
  const PREVIOUS = readTree(previousDir);
  buildLargeApp(join(work, 'next', 'dist'), 'new', APPS).synth();
  const NEXT = readTree(join(work, 'next', 'dist'));

  /** A repository folder whose outdir holds exactly the previous tree. */
  function withPreviousOutput(): { dir: string; outdir: string } {
    const dir = folder();
    fs.cpSync(previousDir, join(dir, 'dist'), { recursive: true });
    return { dir, outdir: join(dir, 'dist') };
  }

  test('the trees are large and differ in content and in files', () => {
    // THEN a kill has over a thousand files to interrupt, and a mix of the two trees would show
    expect(Object.keys(PREVIOUS).length).toBeGreaterThan(1000);
    expect(Object.keys(NEXT).filter((p) => !(p in PREVIOUS)).length).toBeGreaterThan(0);
    expect(Object.keys(PREVIOUS).filter((p) => !(p in NEXT)).length).toBeGreaterThan(0);
    expect(differences(PREVIOUS, NEXT)).toHaveLength(5);
  });

  test('at any moment of its write, leaves the previous tree or the new one, never a mix; the next synth completes', async () => {
    // GIVEN how long a whole synth of the new tree takes in a child process, over the previous output
    const calibration = withPreviousOutput();
    const full = await synthInChild(calibration.outdir, 'new');
    expect([full.code, full.stderr]).toEqual([0, '']);
    expect(classify(calibration.outdir, PREVIOUS, NEXT)).toBe('new');
    expect(fs.readdirSync(calibration.dir)).toEqual(['dist']);
    const before = full.beforeWriting!;
    const writing = full.writing!;
    const afterSwap = full.afterSwap!;

    // WHEN synths are killed while they validate, at fractions of the write phase, while they remove the previous
    // tree after the swap, and once they should be done
    const kills = [
      { after: 'spawn' as const, ms: Math.round(before / 3) },
      ...[0, 0.4, 0.9].map((f) => ({ after: 'writing' as const, ms: Math.round(f * writing) })),
      { after: 'writing' as const, ms: Math.round(writing + afterSwap / 3) },
      { after: 'writing' as const, ms: Math.round(2 * (writing + afterSwap)) },
    ];
    // (One repository folder, reset before each kill, so that one app can run the following synth every time.)
    const { dir, outdir } = withPreviousOutput();
    const following = buildLargeApp(outdir, 'new', APPS);
    const seen: string[] = [];
    for (const kill of kills) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.cpSync(previousDir, outdir, { recursive: true });
      const run = await synthInChild(outdir, 'new', kill);
      const outcome = classify(outdir, PREVIOUS, NEXT);
      const leftovers = fs.readdirSync(dir).filter((e) => e !== 'dist').sort();
      seen.push(`${kill.after}+${kill.ms}ms: ${run.signal ?? `exit ${run.code}`}, ${outcome}, ${leftovers.join(' ') || 'no leftovers'}`);
      // THEN outdir is one whole tree. (Missing only in the microseconds between the swap's two renames: then the
      // previous tree waits whole in .safe-argocd-old-<id> and the new one in .safe-argocd-tmp-<id>; see the next test.)
      if (outcome === 'missing') {
        expect(classify(join(dir, leftovers.find((l) => l.startsWith('dist.safe-argocd-old-'))!), PREVIOUS, NEXT)).toBe('previous');
        expect(classify(join(dir, leftovers.find((l) => l.startsWith('dist.safe-argocd-tmp-'))!), PREVIOUS, NEXT)).toBe('new');
      } else {
        expect([kill, outcome]).toEqual([kill, expect.stringMatching(/^(previous|new)$/)]);
      }
      // THEN a following synth writes the new tree and removes whatever the killed one left behind
      following.synth();
      expect(classify(outdir, PREVIOUS, NEXT)).toBe('new');
      expect(fs.readdirSync(dir)).toEqual(['dist']);
    }
    // THEN the kills did land where they were meant to: before writing, and in the middle of it
    expect(seen[0]).toMatch(/SIGKILL, previous, no leftovers$/);
    expect(seen.filter((s) => /SIGKILL, previous, dist\.safe-argocd-lock dist\.safe-argocd-tmp-\d+-[0-9a-f]+$/.test(s)).length).toBeGreaterThan(0);
  }, 300_000);

  test('between the swap\'s two renames, leaves the previous tree whole in .safe-argocd-old-<id>, and the next synth puts things right', async () => {
    // GIVEN a synth that dies right after renaming the previous tree away, before renaming the new one in
    const { dir, outdir } = withPreviousOutput();
    const run = await synthInChild(outdir, 'new', undefined, 'die-between-renames');
    expect(run.signal).toBe('SIGKILL');
    // THEN outdir is missing for that moment: the previous tree is whole in .safe-argocd-old-<id>, the new one in
    // .safe-argocd-tmp-<id> of the same id, and the dead process's lock is still there
    // (the README says a crash mid-write leaves the previous output "as it was"; during the swap it is only recoverable)
    const left = fs.readdirSync(dir).sort();
    expect(left).toEqual(['dist.safe-argocd-lock', expect.stringMatching(/^dist\.safe-argocd-old-\d+-[0-9a-f]+$/), expect.stringMatching(/^dist\.safe-argocd-tmp-\d+-[0-9a-f]+$/)]);
    expect(left[1].slice('dist.safe-argocd-old-'.length)).toBe(left[2].slice('dist.safe-argocd-tmp-'.length));
    expect(classify(join(dir, left[1]), PREVIOUS, NEXT)).toBe('previous');
    expect(classify(join(dir, left[2]), PREVIOUS, NEXT)).toBe('new');
    // WHEN the next synth runs THEN it restores, then replaces, and leaves nothing behind
    buildLargeApp(outdir, 'new', APPS).synth();
    expect(classify(outdir, PREVIOUS, NEXT)).toBe('new');
    expect(fs.readdirSync(dir)).toEqual(['dist']);
  }, 120_000);
});
