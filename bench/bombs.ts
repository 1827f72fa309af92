/* Times `auditFiles` on each bomb of test/support/bombs.ts: `npx ts-node --transpile-only --project test/tsconfig.json bench/bombs.ts [name...]`. */
import { ArgoCdVersion } from '../src/core/argocd-version';
import { auditFiles } from '../src/audit/audit';
import { globDestinationBomb, globIgnoreBomb, globSourceRepoBomb, hugeListBomb, pairingBomb, slashBomb } from '../test/support/bombs';

const BOMBS: Record<string, () => Record<string, string>> = {
  'glob-destination': globDestinationBomb,
  'glob-source-repo': globSourceRepoBomb,
  'glob-ignore': globIgnoreBomb,
  'slashes-300k': () => slashBomb(300_000),
  'pairing-5mb': () => pairingBomb(17_000),
  'pairing-10mb': () => pairingBomb(34_000),
  'list-175k': () => hugeListBomb(175_000),
};

const only = process.argv.slice(2);
for (const [name, make] of Object.entries(BOMBS)) {
  if (only.length > 0 && !only.includes(name)) {
    continue;
  }
  const tree = make();
  const files = Object.entries(tree).map(([path, text]) => ({ path, content: Buffer.from(text) }));
  const bytes = files.reduce((n, f) => n + f.content.length, 0);
  const start = process.hrtime.bigint();
  let outcome: string;
  try {
    const result = auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST });
    outcome = `${result.findings.length} findings, ${result.problems.length} problems, ${result.stats.manifests} manifests`;
  } catch (e) {
    outcome = `threw ${String((e as Error).message).split('\n')[0]}`;
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  console.log(`${name.padEnd(18)} ${(bytes / 1048576).toFixed(1).padStart(5)} MB ${ms.toFixed(0).padStart(7)} ms  ${outcome}`);
}
