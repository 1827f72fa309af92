/*
 * Times `auditFiles` on each bomb of test/support/bombs.ts, in this process, against the budget of 1 s each:
 * `npm run bench:bombs [-- name...]`. Exits 1 when a bomb held to the budget takes longer.
 */
import { ArgoCdVersion } from '../src/core/argocd-version';
import { auditFiles } from '../src/audit/audit';
import {
  durationBomb, excludeBomb, excludeBombPatterns, globDestinationBomb, globIgnoreBomb, globSourceRepoBomb, hugeListBomb, manyKeysBomb, matrixGitFilesBomb,
  mergeChildrenBomb, pairingBomb, pemValuesBomb, projectBomb, replaceBomb, rolloutPairingBomb, slashBomb, templatedBomb, trimMarkerBomb,
} from '../test/support/bombs';

/** What every bomb must be answered within. */
const BUDGET_MS = 1000;

interface Bomb {
  readonly make: () => Record<string, string>;
  /** Exclude globs the audit is given, as from `--exclude` or the config's `exclude`. */
  readonly exclude?: () => string[];
  /** Why the bomb is timed but not held to the budget. */
  readonly reportOnly?: string;
}

const OVER_LIMIT = 'over the 5 MiB file limit: the CLI refuses it unread unless --max-file-size is raised';

const BOMBS: Record<string, Bomb> = {
  'glob-destination': { make: globDestinationBomb },
  'glob-source-repo': { make: globSourceRepoBomb },
  'glob-ignore': { make: globIgnoreBomb },
  'slashes-300k': { make: () => slashBomb(300_000) },
  'window-duration-300k': { make: () => durationBomb(300_000) },
  // The largest of each shape the CLI reads with its default 5 MiB limit, held to the budget...
  'pairing-4.9mb': { make: () => pairingBomb(16_000) },
  'rollout-pairing-4.8mb': { make: () => rolloutPairingBomb(9_000) },
  'list-150k': { make: () => hugeListBomb(150_000) },
  'projects-7.5k': { make: () => projectBomb(7_500) },
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
  // ...and the sizes of the attack, which the CLI refuses unread unless --max-file-size is raised.
  'pairing-5mb': { make: () => pairingBomb(17_000), reportOnly: OVER_LIMIT },
  'pairing-10mb': { make: () => pairingBomb(34_000), reportOnly: OVER_LIMIT },
  'rollout-pairing-10mb': { make: () => rolloutPairingBomb(19_000), reportOnly: OVER_LIMIT },
  'list-175k': { make: () => hugeListBomb(175_000), reportOnly: OVER_LIMIT },
};

const only = process.argv.slice(2);
let over = 0;
console.log(`audit of hostile input, budget ${BUDGET_MS} ms a bomb (node ${process.version})`);
for (const [name, { make, exclude, reportOnly }] of Object.entries(BOMBS)) {
  if (only.length > 0 && !only.includes(name)) {
    continue;
  }
  const tree = make();
  const files = Object.entries(tree).map(([path, text]) => ({ path, content: Buffer.from(text) }));
  const bytes = files.reduce((n, f) => n + f.content.length, 0);
  const start = process.hrtime.bigint();
  let outcome: string;
  try {
    const result = auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST, exclude: exclude?.() });
    outcome = `${result.findings.length} findings, ${result.problems.length} problems, ${result.stats.manifests} manifests`;
  } catch (e) {
    outcome = `threw ${String((e as Error).message).split('\n')[0]}`;
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const within = ms < BUDGET_MS;
  over += !within && !reportOnly ? 1 : 0;
  const verdict = reportOnly ? `not held to the budget (${reportOnly})` : within ? 'within budget' : `OVER the ${BUDGET_MS} ms budget`;
  console.log(`${name.padEnd(18)} ${(bytes / 1048576).toFixed(1).padStart(5)} MB ${ms.toFixed(0).padStart(7)} ms  ${verdict}; ${outcome}`);
}
if (over > 0) {
  console.log(`${over} bomb(s) over the ${BUDGET_MS} ms budget`);
  process.exitCode = 1;
}
