import * as fs from 'fs';
import * as path from 'path';
import { failure, ErrorCode } from '../core/errors';

/** A file to write, relative to the output folder. */
export interface TreeFile {
  readonly path: string;
  readonly content: string;
}

/**
 * Replaces `outdir` with exactly `files`, so that a reader sees either the whole previous tree or the
 * whole new one. The tree is written to `<outdir>.safe-argocd-tmp` and swapped in with two renames; a
 * process that dies between them leaves the previous tree in `<outdir>.safe-argocd-old`, which the next
 * write puts back before it starts.
 */
export function writeTreeAtomically(outdir: string, files: readonly TreeFile[]): void {
  const target = path.resolve(outdir);
  const cwd = process.cwd();
  if (target === path.parse(target).root || cwd === target || cwd.startsWith(target + path.sep)) {
    throw failure(ErrorCode.WRITE_FAILED, `refusing to replace ${JSON.stringify(outdir)}: it is the working directory, one of its parents, or a filesystem root. Fix: give the app its own output folder, e.g. outdir: 'dist'.`);
  }
  const tmp = `${target}.safe-argocd-tmp`;
  const old = `${target}.safe-argocd-old`;

  if (!fs.existsSync(target) && fs.existsSync(old)) {
    fs.renameSync(old, target); // an earlier write died between its two renames
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  try {
    fs.mkdirSync(tmp, { recursive: true });
    for (const file of files) {
      const dest = path.join(tmp, ...file.path.split('/'));
      if (!dest.startsWith(tmp + path.sep)) {
        throw new Error(`file path ${JSON.stringify(file.path)} leaves the output folder`);
      }
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      fs.writeFileSync(dest, file.content);
    }
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw failure(ErrorCode.WRITE_FAILED, `writing the GitOps tree failed; ${JSON.stringify(outdir)} is unchanged: ${(e as Error).message}`);
  }
  fs.rmSync(old, { recursive: true, force: true });
  if (fs.existsSync(target)) {
    fs.renameSync(target, old);
  }
  fs.renameSync(tmp, target);
  fs.rmSync(old, { recursive: true, force: true });
}
