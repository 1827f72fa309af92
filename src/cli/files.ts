import * as fs from 'fs';
import * as path from 'path';
import { AuditFile, FileProblem } from '../audit/types';
import { compareStrings } from '../core/order';
import { gitRoot, pathInside } from '../private/repository';

const SKIPPED_DIRS = new Set(['.git', 'node_modules']);
const MANIFEST_FILE = /\.(ya?ml|json)$/i;

/** Files to audit, and the paths that could not be used. Contents are read only when the audit asks. */
export interface CollectedFiles {
  readonly files: AuditFile[];
  readonly problems: FileProblem[];
}

/**
 * The repository root: the Git work tree holding the first path. Outside Git, the working directory when the
 * path lies inside it (where a synth run from there takes the root to be), else the path's own folder.
 */
export function findRepoRoot(start: string): string {
  const first = path.resolve(start);
  const dir = fs.existsSync(first) && fs.statSync(first).isDirectory() ? first : path.dirname(first);
  const cwd = process.cwd();
  return gitRoot(dir) ?? (pathInside(cwd, dir) !== undefined ? cwd : dir);
}

/**
 * Walks the given files and folders: YAML and JSON files, `.git` and `node_modules` skipped, symbolic links
 * followed only when they stay inside the given paths (a loop or a link out of the tree is reported and
 * skipped), files over `maxBytes` reported without being read. Paths are relative to `root`, with `/`.
 */
export function collectFiles(paths: readonly string[], root: string, maxBytes: number): CollectedFiles {
  const files: AuditFile[] = [];
  const problems: FileProblem[] = [];
  const realRoot = safeRealpath(root) ?? path.resolve(root);
  const display = (p: string) => {
    const rel = path.relative(realRoot, p);
    return (rel.startsWith('..') || path.isAbsolute(rel) ? p : rel || '.').split(path.sep).join('/');
  };
  const allowed: string[] = [];
  for (const p of paths) {
    const real = safeRealpath(p);
    if (real === undefined) {
      problems.push({ file: p, message: 'does not exist or cannot be resolved' });
    } else {
      allowed.push(real);
    }
  }
  const inside = (real: string) => allowed.some((a) => real === a || real.startsWith(a + path.sep));
  const visited = new Set<string>();
  const seenFiles = new Set<string>();

  const addFile = (real: string, shown: string) => {
    if (seenFiles.has(real)) {
      return;
    }
    seenFiles.add(real);
    let size: number;
    try {
      size = fs.statSync(real).size;
    } catch (e) {
      problems.push({ file: shown, message: `cannot be read: ${(e as Error).message}` });
      return;
    }
    if (size > maxBytes) {
      problems.push({ file: shown, message: `is ${(size / 1048576).toFixed(1)} MB, over the ${(maxBytes / 1048576).toFixed(0)} MB limit; skipped without reading (raise --max-file-size if it really is one manifest file)` });
      return;
    }
    files.push({ path: shown, get content() { return fs.readFileSync(real); } });
  };

  const walk = (dir: string) => {
    if (visited.has(dir)) {
      return;
    }
    visited.add(dir);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      problems.push({ file: display(dir), message: `cannot be listed: ${(e as Error).message}` });
      return;
    }
    entries.sort((a, b) => compareStrings(a.name, b.name));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) {
          walk(full);
        }
        continue;
      }
      if (entry.isSymbolicLink()) {
        const real = safeRealpath(full);
        if (real === undefined) {
          problems.push({ file: display(full), message: 'symbolic link that cannot be resolved (broken, or a loop); skipped' });
          continue;
        }
        if (!inside(real)) {
          problems.push({ file: display(full), message: `symbolic link to ${real}, outside the audited paths; skipped` });
          continue;
        }
        const stat = fs.statSync(real);
        if (stat.isDirectory()) {
          if (!SKIPPED_DIRS.has(entry.name)) {
            walk(real);
          }
        } else if (stat.isFile() && MANIFEST_FILE.test(entry.name)) {
          addFile(real, display(full));
        }
        continue;
      }
      if (entry.isFile() && MANIFEST_FILE.test(entry.name)) {
        addFile(full, display(full));
      }
    }
  };

  for (const real of allowed) {
    const stat = fs.statSync(real);
    if (stat.isDirectory()) {
      walk(real);
    } else {
      addFile(real, display(real));
    }
  }
  return { files, problems };
}

function safeRealpath(p: string): string | undefined {
  try {
    return fs.realpathSync(p);
  } catch {
    return undefined;
  }
}
