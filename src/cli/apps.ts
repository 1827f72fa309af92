import type * as ChildProcess from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { compareStrings } from '../core/order';
import { ExistingApp, LIBRARY } from '../scaffold/new-service';

/** How deep below the repository root, and how many folders, the search for apps of this library looks. */
const SEARCH_DEPTH = 4;
const SEARCH_FOLDERS = 5000;
const NOT_SEARCHED = new Set(['node_modules', 'dist', 'lib', 'vendor']);

/** Whether `dir` holds a cdk8s app that uses this library: a `cdk8s.yaml`, and a package.json that depends on it. */
export function isLibraryApp(dir: string): boolean {
  if (!fs.existsSync(path.join(dir, 'cdk8s.yaml'))) {
    return false;
  }
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    return [pkg.dependencies, pkg.devDependencies].some((deps) => typeof deps === 'object' && deps !== null && LIBRARY in deps);
  } catch {
    return false;
  }
}

/** The nearest folder from `start` up to `stop` (or the filesystem root) that holds an app of this library. */
export function enclosingApp(start: string, stop?: string): string | undefined {
  for (let d = path.resolve(start); ; d = path.dirname(d)) {
    if (isLibraryApp(d)) {
      return d;
    }
    if (d === stop || path.dirname(d) === d) {
      return undefined;
    }
  }
}

/** The apps of this library in a repository, nearest the root first; hidden folders and dependencies are not searched. */
export function appsInRepository(root: string): string[] {
  const found: string[] = [];
  let level = [path.resolve(root)];
  let seen = 0;
  for (let depth = 0; depth <= SEARCH_DEPTH && level.length > 0 && seen < SEARCH_FOLDERS; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      seen++;
      if (isLibraryApp(dir)) {
        found.push(dir);
        continue;
      }
      let entries: fs.Dirent[] = [];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        // An unreadable folder holds no app we could add to.
      }
      for (const e of entries.sort((a, b) => compareStrings(a.name, b.name))) {
        if (e.isDirectory() && !e.name.startsWith('.') && !NOT_SEARCHED.has(e.name)) {
          next.push(path.join(dir, e.name));
        }
      }
    }
    level = next;
  }
  return found;
}

/**
 * The URL of the `origin` remote of the repository at `root`: read from `.git/config` when that file says it
 * plainly, else asked of git, when git is there to say it.
 */
export function gitRemoteUrl(root: string): string | undefined {
  const read = originUrlInConfig(root);
  if (read !== undefined) {
    return read.url;
  }
  try {
    // Loaded only when git must answer: child_process brings Node's streams and sockets with it, a few ms of every start.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { execFileSync } = require('child_process') as typeof ChildProcess;
    const url = execFileSync('git', ['config', '--get', 'remote.origin.url'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
    return url.length > 0 ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `remote.origin.url` as `.git/config` writes it (the last one wins, as with `git config --get`), without starting
 * git: `{ url: undefined }` when the file plainly has none. Undefined, for git to answer, when the file cannot say
 * it alone: `.git` is not a folder (a worktree), the file includes others, or the value is quoted or escaped.
 */
export function originUrlInConfig(root: string): { url?: string } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(root, '.git', 'config'), 'utf8');
  } catch {
    return undefined;
  }
  let inOrigin = false;
  let url: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(?:[#;].*)?$/.exec(line);
      if (header === null || /^include(if)?$/i.test(header[1]) || header[1].includes('.') || header[2]?.includes('\\')) {
        return undefined;
      }
      // Section names are case-insensitive; the subsection, in quotes, is not.
      inOrigin = header[1].toLowerCase() === 'remote' && header[2] === 'origin';
      continue;
    }
    const entry = /^url\s*=\s*(.*)$/i.exec(line);
    if (inOrigin && entry !== null) {
      const value = entry[1].trim();
      // Quotes, escapes and comments (`#` or `;` anywhere outside quotes) are left to git.
      if (/["\\#;]/.test(value)) {
        return undefined;
      }
      url = value.length > 0 ? value : undefined;
    }
  }
  return { url };
}

/** What `safe-argocd new` needs to know of an existing app to add a service to it. */
export function readExistingApp(dir: string): ExistingApp {
  const services = path.join(dir, 'services');
  let serviceFiles: string[] = [];
  try {
    serviceFiles = fs.readdirSync(services);
  } catch {
    // No services/ folder: the index is missing too, and the scaffolder says so.
  }
  const index = path.join(services, 'index.ts');
  return { servicesIndex: fs.existsSync(index) ? fs.readFileSync(index, 'utf8') : undefined, serviceFiles };
}
