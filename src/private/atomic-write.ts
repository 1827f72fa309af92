import type * as Crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { failure, ErrorCode } from '../core/errors';

/** A file to write, relative to the output folder. */
export interface TreeFile {
  readonly path: string;
  readonly content: string;
}

/** How long a synth waits for another one writing the same outdir, by default. */
export const LOCK_TIMEOUT_MS = 120_000;

/** A lock file without a readable pid (its writer died between creating and filling it) is stale after this long. */
const UNREADABLE_LOCK_STALE_MS = 5_000;

/**
 * What the writes leave beside an outdir while they run, or after a crash: `<outdir>.safe-argocd-lock`, and the
 * trees `<outdir>.safe-argocd-tmp-<pid>-<random>` and `<outdir>.safe-argocd-old-<pid>-<random>` (earlier releases
 * used the names without the suffix). Readers of a repository (the audit) skip folders of these names.
 */
export const LEFTOVER_NAME = /\.safe-argocd-(tmp|old|lock)(-\d+-[0-9a-f]+)?(\.break)?$/;

/** Options of {@link writeTreeAtomically}. */
export interface WriteOptions {
  /** How long to wait for another process holding the outdir's lock. @default LOCK_TIMEOUT_MS */
  readonly lockTimeoutMs?: number;
}

/**
 * Replaces `outdir` with exactly `files`, so that a reader sees either the whole previous tree or the whole new
 * one, and concurrent writers of one outdir never mix their trees.
 *
 * - An exclusive lock file `<outdir>.safe-argocd-lock` (created with `wx`, holding the pid) serializes the
 *   writers of one outdir; a writer waits for a live holder (up to `lockTimeoutMs`), and takes over the lock of a
 *   process that no longer runs.
 * - The tree is written to `<outdir>.safe-argocd-tmp-<pid>-<random>`, then swapped in with two renames: the
 *   previous tree to `<outdir>.safe-argocd-old-<pid>-<random>`, the new one to `outdir`.
 * - A process that dies between the two renames leaves no `outdir`, and both folders of its id; the next write
 *   (under the lock) puts the previous tree back first. The `old` folder of a process whose `tmp` folder is gone
 *   was already replaced, so it is only removed, never renamed into place. Whatever dead processes left is removed.
 *
 * Every failure throws `[SAFE-101]`: the tree was not written.
 */
export function writeTreeAtomically(outdir: string, files: readonly TreeFile[], options: WriteOptions = {}): void {
  const target = path.resolve(outdir);
  const cwd = process.cwd();
  if (target === path.parse(target).root || cwd === target || cwd.startsWith(target + path.sep)) {
    throw failure(ErrorCode.WRITE_FAILED, `refusing to replace ${JSON.stringify(outdir)}: it is the working directory, one of its parents, or a filesystem root. Fix: give the app its own output folder, e.g. outdir: 'dist'.`);
  }
  // Said when the failure is reported: an outdir that is not there (`cdk8s synth` removes it first) is not "unchanged".
  const unchanged = (): string => (fs.existsSync(target)
    ? `writing the GitOps tree failed; ${JSON.stringify(outdir)} is unchanged`
    : `writing the GitOps tree failed; nothing was written to ${JSON.stringify(outdir)}, which does not exist`);
  try {
    fs.mkdirSync(path.dirname(target), { recursive: true });
  } catch (e) {
    throw failure(ErrorCode.WRITE_FAILED, `${unchanged()}: cannot create its parent folder: ${(e as Error).message}`);
  }
  const lock = `${target}.safe-argocd-lock`;
  const token = acquireLock(lock, outdir, options.lockTimeoutMs ?? LOCK_TIMEOUT_MS);
  try {
    try {
      recover(target);
    } catch (e) {
      throw failure(ErrorCode.WRITE_FAILED, `${unchanged()}: cleaning up after an earlier write that died failed: ${(e as Error).message}. Fix: remove the folders named ${path.basename(target)}.safe-argocd-* beside it and run again.`);
    }
    const id = `${process.pid}-${random(6).toString('hex')}`;
    const tmp = `${target}.safe-argocd-tmp-${id}`;
    const old = `${target}.safe-argocd-old-${id}`;
    try {
      fs.mkdirSync(tmp);
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
      throw failure(ErrorCode.WRITE_FAILED, `${unchanged()}: ${(e as Error).message}`);
    }
    swap(target, tmp, old, unchanged);
    // A failure from here on leaves the new tree in place; the next write removes what remains.
    fs.rmSync(old, { recursive: true, force: true });
  } finally {
    releaseLock(lock, token);
  }
}

/**
 * Runs `body` holding the lock of `outdir` that {@link writeTreeAtomically} takes, so that it sees a whole tree
 * (for checks of concurrent writes).
 */
export function withOutdirLock<T>(outdir: string, body: () => T, timeoutMs: number = LOCK_TIMEOUT_MS): T {
  const lock = `${path.resolve(outdir)}.safe-argocd-lock`;
  const token = acquireLock(lock, outdir, timeoutMs);
  try {
    return body();
  } finally {
    releaseLock(lock, token);
  }
}

/** The two renames; when the second one fails, the first one is undone. */
function swap(target: string, tmp: string, old: string, unchanged: () => string): void {
  const hadTree = fs.lstatSync(target, { throwIfNoEntry: false }) !== undefined;
  try {
    if (hadTree) {
      fs.renameSync(target, old);
    }
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw failure(ErrorCode.WRITE_FAILED, `${unchanged()}: moving the previous tree aside failed: ${(e as Error).message}`);
  }
  try {
    fs.renameSync(tmp, target);
  } catch (e) {
    if (hadTree) {
      fs.renameSync(old, target);
    }
    fs.rmSync(tmp, { recursive: true, force: true });
    throw failure(ErrorCode.WRITE_FAILED, `${unchanged()}: moving the new tree into place failed: ${(e as Error).message}`);
  }
}

/**
 * Repairs what writes that died left beside `target` (called under the lock): the previous tree of a write that
 * died between its two renames goes back into place; every other leftover of a process that is gone is removed.
 */
function recover(target: string): void {
  const parent = path.dirname(target);
  const base = path.basename(target);
  const groups = new Map<string, { tmp?: string; old?: string }>();
  for (const name of fs.readdirSync(parent).sort()) {
    if (!name.startsWith(`${base}.safe-argocd-`)) {
      continue;
    }
    const match = /^\.safe-argocd-(tmp|old)(?:-(\d+)-([0-9a-f]+))?$/.exec(name.slice(base.length));
    if (!match) {
      continue;
    }
    const pid = match[2] === undefined ? undefined : Number(match[2]);
    if (pid !== undefined && pid !== process.pid && isAlive(pid)) {
      continue; // not a writer of this outdir (it would hold the lock): a reused pid, left until it is gone
    }
    const id = match[2] === undefined ? '' : `${match[2]}-${match[3]}`;
    const group = groups.get(id) ?? {};
    group[match[1] as 'tmp' | 'old'] = path.join(parent, name);
    groups.set(id, group);
  }
  for (const group of groups.values()) {
    // Both folders of one write exist only between its two renames: the old one is the tree that was in place.
    if (group.old !== undefined && group.tmp !== undefined && fs.lstatSync(target, { throwIfNoEntry: false }) === undefined) {
      fs.renameSync(group.old, target);
    }
    for (const leftover of [group.tmp, group.old]) {
      if (leftover !== undefined) {
        fs.rmSync(leftover, { recursive: true, force: true });
      }
    }
  }
}

/** Whether a process of this pid runs (one of another user counts: EPERM). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Blocks this thread for `ms` milliseconds (the synth is synchronous). */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

interface Holder {
  readonly text: string;
  readonly pid?: number;
  readonly ageMs: number;
}

/** Who holds a lock file, or undefined when it is gone. */
function readHolder(file: string): Holder | undefined {
  try {
    const ageMs = Date.now() - fs.statSync(file).mtimeMs;
    const text = fs.readFileSync(file, 'utf8');
    const pid = /^(\d+) [0-9a-f]+\n$/.exec(text)?.[1];
    return { text, pid: pid === undefined ? undefined : Number(pid), ageMs };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return undefined;
    }
    throw e;
  }
}

/**
 * Whether a lock's holder is gone: its pid runs no process, or is this process's own (which holds no lock while it
 * waits for one: the lock was left by an earlier process of the same pid, as in containers that start alike).
 */
function isStale(holder: Holder): boolean {
  return holder.pid === undefined ? holder.ageMs > UNREADABLE_LOCK_STALE_MS : holder.pid === process.pid || !isAlive(holder.pid);
}

/** Creates `file` exclusively with this process's token; false when it exists. */
function createExclusive(file: string, token: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      return false;
    }
    throw e;
  }
  try {
    fs.writeSync(fd, token);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw e;
  }
  fs.closeSync(fd);
  return true;
}

/**
 * Takes the lock of an outdir: `<outdir>.safe-argocd-lock`, created exclusively and holding `<pid> <random>`.
 * Waits, with a bounded retry, while a live process holds it; the lock of a process that is gone is stale and
 * taken over. Returns the token written, for the release.
 */
function acquireLock(lock: string, outdir: string, timeoutMs: number): string {
  const token = `${process.pid} ${random(8).toString('hex')}\n`;
  const deadline = Date.now() + timeoutMs;
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    let holder: Holder | undefined;
    try {
      if (createExclusive(lock, token)) {
        return token;
      }
      holder = readHolder(lock);
      if (holder !== undefined && isStale(holder)) {
        breakStaleLock(lock, holder.text);
        continue;
      }
    } catch (e) {
      throw failure(ErrorCode.WRITE_FAILED, `cannot take the lock ${lock} of ${JSON.stringify(outdir)}; nothing was written: ${(e as Error).message}. `
        + 'Fix: make the folder that holds the output writable, and run again.');
    }
    if (holder === undefined) {
      continue; // released in the meantime
    }
    if (Date.now() >= deadline) {
      const who = holder.pid === undefined ? 'another synth' : `another synth (pid ${holder.pid})`;
      throw failure(ErrorCode.WRITE_FAILED, `${who} is writing ${JSON.stringify(outdir)}: its lock ${lock} was still held after ${Math.round(timeoutMs / 1000)} s; nothing was written. `
        + `Fix: let that synth finish and run again; if no synth is running, delete ${lock}.`);
    }
    sleep(Math.min(wait + Math.floor(Math.random() * wait), Math.max(1, deadline - Date.now())));
  }
}

/**
 * Removes a stale lock, unless another process took it over in the meantime: the check and the removal happen
 * under `<lock>.break`, a second exclusive file held for those two steps only.
 */
function breakStaleLock(lock: string, staleText: string): void {
  const breaker = `${lock}.break`;
  const token = `${process.pid} ${random(8).toString('hex')}\n`;
  if (!createExclusive(breaker, token)) {
    const other = readHolder(breaker);
    if (other !== undefined && isStale(other)) {
      fs.rmSync(breaker, { force: true }); // its process died within the two steps below
    }
    sleep(5);
    return;
  }
  try {
    if (readHolder(lock)?.text === staleText) {
      fs.rmSync(lock, { force: true });
    }
  } finally {
    fs.rmSync(breaker, { force: true });
  }
}

/** Removes the lock if it is still this process's. */
function releaseLock(lock: string, token: string): void {
  try {
    if (readHolder(lock)?.text === token) {
      fs.rmSync(lock, { force: true });
    }
  } catch {
    // A lock left behind is stale once this process is gone.
  }
}

/**
 * `n` random bytes. crypto is loaded when a file is first written: a run that only reads (an audit to standard output)
 * does not pay the few ms its modules take to load.
 */
function random(n: number): Buffer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('crypto') as typeof Crypto).randomBytes(n);
}
