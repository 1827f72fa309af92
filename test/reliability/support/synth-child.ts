/**
 * A synth run as its own process, for the tests that kill it: `synth-child.ts <outdir> <variant> <apps> [mode]`.
 *
 * It writes `writing` to stdout when the first file of the temporary tree is written, `swapped` when the new tree
 * has been renamed into place (the previous one is then removed), and `done` once synth() returned, so that the
 * parent can time its SIGKILL against the write phase. With mode `die-while-writing` it kills itself once it has
 * written ten files of its temporary tree. With mode `die-between-renames` it
 * kills itself right after the previous tree was renamed away and before the new one is renamed in: the one
 * moment of the swap at which `outdir` does not exist.
 */
import type { PathLike, PathOrFileDescriptor } from 'fs';
import * as path from 'path';

// The real module object, so that the library's own `fs` calls go through these wrappers.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs: typeof import('fs') = require('fs');

const [outdir, variant, apps, mode] = process.argv.slice(2);
const target = path.resolve(outdir);

const writeFileSync = fs.writeFileSync;
let written = 0;
(fs as any).writeFileSync = (file: PathOrFileDescriptor, ...rest: any[]) => {
  if (typeof file === 'string' && file.startsWith(`${target}.safe-argocd-tmp`)) {
    if (written++ === 0) {
      fs.writeSync(1, 'writing\n');
    }
    if (written === 10 && mode === 'die-while-writing') {
      process.kill(process.pid, 'SIGKILL');
    }
  }
  return (writeFileSync as any)(file, ...rest);
};

// With SAFE_ARGOCD_TEST_SWAP_LOG, each swap of this run's tree into place is logged: `start <variant>` before the
// rename and `end <variant>` after it (under the outdir's lock, so the log's order is the order of the swaps).
const swapLog = process.env.SAFE_ARGOCD_TEST_SWAP_LOG;
const renameSync = fs.renameSync;
(fs as any).renameSync = (from: PathLike, to: PathLike) => {
  const swapping = path.resolve(String(from)).startsWith(`${target}.safe-argocd-tmp`) && path.resolve(String(to)) === target;
  if (swapping && swapLog) {
    fs.appendFileSync(swapLog, `start ${variant}\n`);
  }
  renameSync(from, to);
  if (swapping && swapLog) {
    fs.appendFileSync(swapLog, `end ${variant}\n`);
  }
  if (path.resolve(String(from)) === target && mode === 'die-between-renames') {
    process.kill(process.pid, 'SIGKILL');
  }
  if (swapping) {
    fs.writeSync(1, 'swapped\n');
  }
};

// Loaded only now, after the wrappers are in place.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildLargeApp } = require('./large-app') as typeof import('./large-app');
type Variant = import('./large-app').Variant;
const app = buildLargeApp(outdir, variant as Variant, Number(apps));
// With SAFE_ARGOCD_TEST_GO_AT (a time, in ms since the epoch), the synth starts then, so that runs started one after
// another synth at the same moment.
const goAt = Number(process.env.SAFE_ARGOCD_TEST_GO_AT ?? 0);
if (goAt > Date.now()) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, goAt - Date.now());
}
app.synth();
fs.writeSync(1, 'done\n');
