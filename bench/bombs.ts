/*
 * Times the audit of each bomb of test/support/bombs.ts against the budget of 1 s each:
 * `npm run bench:bombs [-- [--cli] name...]`. Exits 1 when a bomb held to the budget takes longer.
 *
 * By default `auditFiles` runs in this process. With --cli the built command (lib/cli/bin.js, `npx projen compile`
 * first) runs on each bomb written to a temporary folder, as a user runs it: a new node process, timed from spawn to
 * exit, with its JSON report written to a file; start-up, reading, the report and writing it are in the time.
 */
import { spawnSync } from 'child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join, resolve } from 'path';
import { ArgoCdVersion } from '../src/core/argocd-version';
import { auditFiles } from '../src/audit/audit';
import {
  durationBomb, excludeBomb, excludeBombPatterns, globDestinationBomb, globIgnoreBomb, globSourceRepoBomb, hugeListBomb, kustomizeOverlayBomb,
  kustomizePatchBomb, manyKeysBomb, matrixGitFilesBomb, mergeChildrenBomb, pairingBomb, pemValuesBomb, projectBomb, replaceBomb, rolloutPairingBomb, slashBomb, templatedBomb, trimMarkerBomb,
} from '../test/support/bombs';

/** What every bomb must be answered within. */
const BUDGET_MS = 1000;

interface Bomb {
  readonly make: () => Record<string, string>;
  /** Exclude globs the audit is given, as from `--exclude` or the config's `exclude`. */
  readonly exclude?: () => string[];
  /** Why the bomb is timed but not held to the budget. */
  readonly reportOnly?: string;
  /** The audit's budget of objects a file, when not the default (as --max-objects-per-file). */
  readonly maxObjectsPerFile?: number;
}

const OVER_LIMIT = 'over the 5 MiB file limit: the CLI refuses it unread unless --max-file-size is raised';
const RAISED = 'audited past the default budget of 5,000 objects a file (--max-objects-per-file 250000): linear, not held to 1 s';
const APPLICATIONS = 'thousands of Applications, each audited as its own unit: linear, and not one of the glob, slash and workload pairing bombs';

const BOMBS: Record<string, Bomb> = {
  'glob-destination': { make: globDestinationBomb },
  'glob-source-repo': { make: globSourceRepoBomb },
  'glob-ignore': { make: globIgnoreBomb },
  'slashes-300k': { make: () => slashBomb(300_000) },
  'window-duration-300k': { make: () => durationBomb(300_000) },
  // The largest of each shape the CLI reads with its default 5 MiB limit, held to the budget: those of more objects
  // than the default budget a file are answered with a problem saying so...
  'pairing-4.9mb': { make: () => pairingBomb(16_000) },
  'rollout-pairing-4.8mb': { make: () => rolloutPairingBomb(9_000) },
  'list-150k': { make: () => hugeListBomb(150_000) },
  // ...the most objects the default budget lets through in one file, audited...
  'pairing-5k-objects': { make: () => pairingBomb(2_500) },
  'list-5k': { make: () => hugeListBomb(5_000) },
  'projects-7.5k': { make: () => projectBomb(7_500) },
  'projects-5k': { make: () => projectBomb(5_000), reportOnly: APPLICATIONS },
  'projects-7.5k-raised': { make: () => projectBomb(7_500), maxObjectsPerFile: 250_000, reportOnly: APPLICATIONS },
  'pem-values-25k': { make: () => pemValuesBomb(25_000) },
  // Linear now, but read by the careful parser (the `yaml` package), which parses about 1 MB a second here.
  'keys-60k': { make: () => manyKeysBomb(60_000), reportOnly: 'a file with a custom tag is read by the careful parser, several times slower than js-yaml; pairwise key checks took minutes' },
  'exclude-600': { make: () => excludeBomb(600, 200), exclude: () => excludeBombPatterns(600) },
  'exclude-5000': { make: () => excludeBomb(5_000, 200), exclude: () => excludeBombPatterns(5_000) },
  'appset-templated-80k': { make: () => templatedBomb(80_000) },
  'appset-trim-100k': { make: () => trimMarkerBomb(100_000) },
  'appset-replace-x9': { make: () => replaceBomb(9) },
  'appset-matrix-git-200': { make: () => matrixGitFilesBomb(200) },
  'appset-merge-700': { make: () => mergeChildrenBomb(700) },
  'kustomize-patches-1k-x1k': { make: () => kustomizePatchBomb(1_000, 1_000) },
  'kustomize-overlays-1k-x100': { make: () => kustomizeOverlayBomb(1_000, 100) },
  // ...the same files audited with the budget raised...
  'pairing-4.9mb-raised': { make: () => pairingBomb(16_000), maxObjectsPerFile: 250_000, reportOnly: RAISED },
  'rollout-pairing-4.8mb-raised': { make: () => rolloutPairingBomb(9_000), maxObjectsPerFile: 250_000, reportOnly: RAISED },
  'list-150k-raised': { make: () => hugeListBomb(150_000), maxObjectsPerFile: 250_000, reportOnly: RAISED },
  // ...and the sizes of the attack, which the CLI refuses unread unless --max-file-size is raised.
  'pairing-5mb': { make: () => pairingBomb(17_000), reportOnly: OVER_LIMIT },
  'pairing-10mb': { make: () => pairingBomb(34_000), reportOnly: OVER_LIMIT },
  'rollout-pairing-10mb': { make: () => rolloutPairingBomb(19_000), reportOnly: OVER_LIMIT },
  'list-175k': { make: () => hugeListBomb(175_000), reportOnly: OVER_LIMIT },
};

const CLI = resolve(__dirname, '..', 'lib', 'cli', 'bin.js');

/** The bomb audited by the built command in a new process: its outcome, from the JSON report. */
function auditByCli(tree: Record<string, string>, bomb: Bomb): string {
  const dir = mkdtempSync(join(tmpdir(), 'safe-argocd-bomb-'));
  try {
    for (const [file, text] of Object.entries(tree)) {
      mkdirSync(dirname(join(dir, 'repo', file)), { recursive: true });
      writeFileSync(join(dir, 'repo', file), text);
    }
    const args = [CLI, 'audit', join(dir, 'repo'), '--repo-root', join(dir, 'repo'), '--format', 'json', '--output', join(dir, 'report.json'),
      // The exclude bombs carry their globs in the tree's .safe-argocd.yaml, which the command reads.
      ...bomb.maxObjectsPerFile ? ['--max-objects-per-file', String(bomb.maxObjectsPerFile)] : []];
    const start = process.hrtime.bigint();
    const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 256 * 1048576 });
    cliMs = Number(process.hrtime.bigint() - start) / 1e6;
    if (run.status !== 0 && run.status !== 1) {
      return `exit ${run.status}: ${run.stderr.split('\n')[0]}`;
    }
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    return `${report.findings.length} findings, ${report.problems.length} problems, ${report.stats.manifests} manifests (exit ${run.status})`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
let cliMs = 0;

const args = process.argv.slice(2);
const viaCli = args.includes('--cli');
const only = args.filter((a) => a !== '--cli');
let over = 0;
console.log(`audit of hostile input ${viaCli ? 'by the command, spawn to exit' : 'in this process'}, budget ${BUDGET_MS} ms a bomb (node ${process.version})`);
for (const [name, bomb] of Object.entries(BOMBS)) {
  if (only.length > 0 && !only.includes(name)) {
    continue;
  }
  const { make, exclude, reportOnly, maxObjectsPerFile } = bomb;
  const tree = make();
  const files = Object.entries(tree).map(([path, text]) => ({ path, content: Buffer.from(text) }));
  const bytes = files.reduce((n, f) => n + f.content.length, 0);
  let outcome: string;
  let ms: number;
  if (viaCli) {
    outcome = auditByCli(tree, bomb);
    ms = cliMs;
  } else {
    const start = process.hrtime.bigint();
    try {
      const result = auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST, exclude: exclude?.(), ...maxObjectsPerFile ? { maxObjectsPerFile } : {} });
      outcome = `${result.findings.length} findings, ${result.problems.length} problems, ${result.stats.manifests} manifests`;
    } catch (e) {
      outcome = `threw ${String((e as Error).message).split('\n')[0]}`;
    }
    ms = Number(process.hrtime.bigint() - start) / 1e6;
  }
  const within = ms < BUDGET_MS;
  over += !within && !reportOnly ? 1 : 0;
  const verdict = reportOnly ? `not held to the budget (${reportOnly})` : within ? 'within budget' : `OVER the ${BUDGET_MS} ms budget`;
  console.log(`${name.padEnd(28)} ${(bytes / 1048576).toFixed(1).padStart(5)} MB ${ms.toFixed(0).padStart(7)} ms  ${verdict}; ${outcome}`);
}
if (over > 0) {
  console.log(`${over} bomb(s) over the ${BUDGET_MS} ms budget`);
  process.exitCode = 1;
}
