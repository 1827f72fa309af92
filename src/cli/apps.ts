import { execFileSync } from 'child_process';
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

/** The URL of the `origin` remote of the repository at `root`, when git is there to say it. */
export function gitRemoteUrl(root: string): string | undefined {
  try {
    const url = execFileSync('git', ['config', '--get', 'remote.origin.url'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
    return url.length > 0 ? url : undefined;
  } catch {
    return undefined;
  }
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
