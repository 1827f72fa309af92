import * as fs from 'fs';
import * as path from 'path';
import { overLimit, OverLimit, readListedFile } from './read-file';
import { AuditFile, FileProblem, FolderLink, UnreadFile } from '../audit/types';
import { compareStrings } from '../core/order';
import { LEFTOVER_NAME } from '../private/atomic-write';
import { gitRoot, pathInside } from '../private/repository';

const SKIPPED_DIRS = new Set(['.git', 'node_modules']);
const MANIFEST_FILE = /\.(ya?ml|json)$/i;

/** Files to audit, and the paths that could not be used. Contents are read only when the audit asks. */
export interface CollectedFiles {
  readonly files: AuditFile[];
  readonly problems: FileProblem[];
  /** The paths of the other files walked (neither YAML nor JSON), unread: the folders and source types they make. */
  readonly otherFiles: string[];
  /** The symbolic links to folders inside the given paths, whose files are walked where the folder is. */
  readonly folderLinks: FolderLink[];
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
 * Walks the given files and folders: YAML and JSON files, `.git` and `node_modules` skipped, and the folders a
 * synth leaves beside its outdir while it writes or after it died (`<outdir>.safe-argocd-*`), symbolic links
 * followed only when they stay inside the given paths (a loop or a link out of the tree is reported and
 * skipped), files over `maxBytes` and anything but regular files (a FIFO, a device) reported, read no further than
 * their first 64 KiB.
 * Paths are relative to `root`, with `/`; a name that is not valid UTF-8 is shown with its bytes escaped (`\xff`)
 * and read by its bytes.
 */
export function collectFiles(paths: readonly string[], root: string, maxBytes: number): CollectedFiles {
  // Paths are held as latin1 strings, one character a byte, so that names that are not valid UTF-8 survive;
  // bytes() turns them back for the file system, shownName() into text.
  const files: AuditFile[] = [];
  const problems: FileProblem[] = [];
  const otherFiles: string[] = [];
  const folderLinks: FolderLink[] = [];
  const realRoot = safeRealpath(raw(root)) ?? raw(path.resolve(root));
  const display = (p: string) => displayPath(p, realRoot);
  const allowed: string[] = [];
  for (const p of paths) {
    const real = safeRealpath(raw(p));
    if (real === undefined) {
      problems.push({ file: p, message: 'does not exist or cannot be resolved' });
    } else {
      allowed.push(real);
    }
  }
  const inside = (real: string) => allowed.some((a) => real === a || real.startsWith(a + path.sep));
  const visited = new Set<string>();
  const seenFiles = new Set<string>();

  /**
   * A file to audit. `stat`, when it was taken, decides now whether it can be read; a file the listing gave as
   * regular is taken at its word and read as such, its type and size asked only when it fills the first read
   * (see readListedFile).
   */
  const addFile = (real: string, shown: string, stat?: fs.Stats) => {
    if (seenFiles.has(real)) {
      return;
    }
    seenFiles.add(real);
    if (stat !== undefined && !stat.isFile()) {
      problems.push({ file: shown, message: 'is not a regular file (a FIFO, a socket or a device); skipped without reading' });
      return;
    }
    if (stat !== undefined && stat.size > maxBytes) {
      problems.push({ file: shown, message: tooLarge(stat.size, maxBytes, false) });
      return;
    }
    files.push(new FileOnDisk(shown, real, maxBytes));
  };

  const addOther = (real: string, full: string, name: string, stat?: fs.Stats) => {
    if (MANIFEST_FILE.test(name)) {
      addFile(real, display(full), stat);
    } else {
      otherFiles.push(display(full));
    }
  };

  const walk = (dir: string) => {
    if (visited.has(dir)) {
      return;
    }
    visited.add(dir);
    let entries: { name: string; shown: string; dirent: fs.Dirent<string | Buffer> }[];
    try {
      entries = listFolder(bytes(dir));
    } catch (e) {
      problems.push({ file: display(dir), message: `cannot be listed: ${(e as Error).message}` });
      return;
    }
    entries.sort((a, b) => compareStrings(a.shown, b.shown) || compareStrings(a.name, b.name));
    // The folder is a real path, resolved and normalized, and a name holds no separator: joining is adding.
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const { name, dirent: entry } of entries) {
      const full = prefix + name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(name) && !LEFTOVER_NAME.test(name)) {
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
          problems.push({ file: display(full), message: `symbolic link to ${shownName(real)}, outside the audited paths; skipped` });
          continue;
        }
        const stat = fs.statSync(bytes(real));
        if (stat.isDirectory()) {
          if (!SKIPPED_DIRS.has(name) && !LEFTOVER_NAME.test(name)) {
            folderLinks.push({ path: display(full), target: display(real) });
            walk(real);
          }
        } else if (stat.isFile()) {
          addOther(real, full, name, stat);
        }
        continue;
      }
      if (entry.isFile()) {
        addOther(full, full, name);
      }
    }
  };

  for (const real of allowed) {
    const stat = fs.statSync(bytes(real));
    if (stat.isDirectory()) {
      walk(real);
    } else {
      addFile(real, display(real), stat);
    }
  }
  return { files, problems, otherFiles, folderLinks };
}

/**
 * A regular file the walk found, whose bytes are read each time the audit asks for them. One class for all: an object and a
 * getter made for each of a repository's thousands of files cost the garbage collector more.
 */
class FileOnDisk implements AuditFile {
  /** The file as the audit names it. */
  readonly path: string;

  /**
   * @param shown the file as the audit names it
   * @param real its real path, latin1-held
   */
  constructor(shown: string, private readonly real: string, private readonly maxBytes: number) {
    this.path = shown;
  }

  get content(): Uint8Array {
    try {
      return readListedFile(bytes(this.real), this.maxBytes);
    } catch (e) {
      throw e instanceof OverLimit ? new UnreadFile(tooLarge(e.size, this.maxBytes, e.grew)) : e;
    }
  }
}

/**
 * The entries of a folder, each named by the latin1 string of its bytes and shown as text. Names are listed as text
 * first, which costs no buffer a name; a folder with a name that is not ASCII is listed again by bytes, so that a
 * name that is not valid UTF-8 keeps its bytes.
 */
function listFolder(dir: string | Buffer): { name: string; shown: string; dirent: fs.Dirent<string | Buffer> }[] {
  const listed = fs.readdirSync(dir, { withFileTypes: true });
  if (listed.every((dirent) => ASCII.test(dirent.name))) {
    return listed.map((dirent) => ({ name: dirent.name, shown: dirent.name, dirent }));
  }
  return fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' })
    .map((dirent) => ({ name: dirent.name.toString('latin1'), shown: shownName(dirent.name.toString('latin1')), dirent }));
}

/** What a file over the size limit is reported as. */
function tooLarge(size: number, maxBytes: number, grew: boolean): string {
  return `${overLimit(size, maxBytes)}${grew ? ' (it grew while it was read)' : ''}; skipped (raise --max-file-size if it really is one manifest file)`;
}

/** A path given as text, as the latin1 string of its UTF-8 bytes. */
/** Whether two paths name one file: the same path once resolved, or, when both exist, the same file (a link to it). */
export function sameFile(a: string, b: string): boolean {
  if (path.resolve(a) === path.resolve(b)) {
    return true;
  }
  const [x, y] = [fs.statSync(a, { throwIfNoEntry: false }), fs.statSync(b, { throwIfNoEntry: false })];
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
}

/**
 * The given files and folders as the audit names the files under them: relative to `root` with `/` (`.` for the root
 * itself), or as given when outside it.
 */
export function auditedPaths(paths: readonly string[], root: string): string[] {
  const realRoot = safeRealpath(raw(root)) ?? raw(path.resolve(root));
  return paths.map((p) => displayPath(safeRealpath(raw(p)) ?? raw(path.resolve(p)), realRoot));
}

/** How a real path (latin1-held) is shown: relative to `realRoot` with `/`, or as it is when outside it. */
function displayPath(p: string, realRoot: string): string {
  const underRoot = realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep;
  // Most paths lie under the root: their relative path is the rest of the string.
  const rel = p.startsWith(underRoot) ? p.slice(underRoot.length) : path.relative(realRoot, p);
  // Outside the root is `..` and what starts with `../`, not a name that starts with two dots (`..data`).
  const outside = rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
  const shown = shownName(outside ? p : rel || '.');
  return path.sep === '/' ? shown : shown.split(path.sep).join('/');
}

function raw(p: string): string {
  return Buffer.from(p, 'utf8').toString('latin1');
}

/** A latin1-held path for the file system: its bytes, or itself when it is ASCII (as nearly every path is). */
function bytes(p: string): string | Buffer {
  return ASCII.test(p) ? p : Buffer.from(p, 'latin1');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/** A latin1-held name as text: its UTF-8, each byte that is not part of valid UTF-8 as `\xNN`. */
export function shownName(p: string): string {
  // ASCII, as nearly every name is, is valid UTF-8 and reads as itself.
  if (ASCII.test(p)) {
    return p;
  }
  const buf = Buffer.from(p, 'latin1');
  let out = '';
  let i = 0;
  while (i < buf.length) {
    const lead = buf[i];
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
    let char: string | undefined;
    if (length > 0 && i + length <= buf.length) {
      try {
        char = UTF8.decode(buf.subarray(i, i + length));
      } catch {
        char = undefined;
      }
    }
    if (char === undefined) {
      out += `\\x${lead.toString(16).padStart(2, '0')}`;
      i += 1;
    } else {
      out += char;
      i += length;
    }
  }
  return out;
}

function safeRealpath(p: string): string | undefined {
  try {
    return fs.realpathSync(bytes(p), { encoding: 'buffer' }).toString('latin1');
  } catch {
    return undefined;
  }
}
