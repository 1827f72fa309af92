/**
 * A synth run as its own process, for the tests that kill it: `synth-child.ts <outdir> <old|new> <apps> [mode]`.
 *
 * It writes `writing` to stdout when the first file of the temporary tree is written, `swapped` when the new tree
 * has been renamed into place (the previous one is then removed), and `done` once synth() returned, so that the
 * parent can time its SIGKILL against the write phase. With mode `die-between-renames` it
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
let announced = false;
(fs as any).writeFileSync = (file: PathOrFileDescriptor, ...rest: any[]) => {
  if (!announced && typeof file === 'string' && file.startsWith(`${target}.safe-argocd-tmp-`)) {
    announced = true;
    fs.writeSync(1, 'writing\n');
  }
  return (writeFileSync as any)(file, ...rest);
};

const renameSync = fs.renameSync;
(fs as any).renameSync = (from: PathLike, to: PathLike) => {
  renameSync(from, to);
  if (path.resolve(String(from)) === target && mode === 'die-between-renames') {
    process.kill(process.pid, 'SIGKILL');
  }
  if (path.resolve(String(from)).startsWith(`${target}.safe-argocd-tmp-`) && path.resolve(String(to)) === target) {
    fs.writeSync(1, 'swapped\n');
  }
};

// Loaded only now, after the wrappers are in place.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildLargeApp } = require('./large-app') as typeof import('./large-app');
buildLargeApp(outdir, variant as 'old' | 'new', Number(apps)).synth();
fs.writeSync(1, 'done\n');
