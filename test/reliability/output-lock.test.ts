/**
 * The outdir's lock and the leftovers of writes that died: what one process can show of writeTreeAtomically.
 * Concurrent writers killed at random are test/reliability/concurrent-synth.test.ts.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import { join } from 'path';
import { writeTreeAtomically } from '../../src/private/atomic-write';
import { readTree, tempDir } from '../support/app';

const TREE = [{ path: 'applications/a.yaml', content: 'new: a\n' }, { path: 'workloads/a/cm.yaml', content: 'new: cm\n' }];
const NEW = { 'applications/a.yaml': 'new: a\n', 'workloads/a/cm.yaml': 'new: cm\n' };

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(join(dir, file, '..'), { recursive: true });
    fs.writeFileSync(join(dir, file), content);
  }
}

/** Runs `body` with fs.writeFileSync failing (ENOSPC) for files under `under`. */
function withFailingDisk(under: string, body: () => void): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const nodeFs = require('fs');
  const real = nodeFs.writeFileSync;
  nodeFs.writeFileSync = (file: unknown, ...rest: unknown[]) => {
    if (typeof file === 'string' && file.startsWith(under)) {
      throw new Error('ENOSPC: no space left on device');
    }
    return real(file, ...rest);
  };
  try {
    body();
  } finally {
    nodeFs.writeFileSync = real;
  }
}

describe('the outdir lock', () => {
  test('a lock held by a live process is waited for, then a clear [SAFE-101] error names it; nothing is written', () => {
    // GIVEN a previous tree and a lock held by another process that runs (this one's parent, as another writer would)
    const dir = tempDir();
    writeFiles(join(dir, 'dist'), { 'old.yaml': 'old\n' });
    fs.writeFileSync(join(dir, 'dist.safe-argocd-lock'), `${process.ppid} 0123abcd\n`);
    // WHEN a write cannot take the lock in time
    const started = Date.now();
    expect(() => writeTreeAtomically(join(dir, 'dist'), TREE, { lockTimeoutMs: 300 }))
      .toThrow(/^\[SAFE-101\] another synth \(pid \d+\) is writing "[^"]*dist": its lock [^ ]*dist\.safe-argocd-lock was still held after 0 s; nothing was written\. Fix: let that synth finish and run again; if no synth is running, delete [^ ]*dist\.safe-argocd-lock\.$/);
    // THEN it waited, and left the tree and the other's lock alone
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(readTree(join(dir, 'dist'))).toEqual({ 'old.yaml': 'old\n' });
    expect(fs.readdirSync(dir).sort()).toEqual(['dist', 'dist.safe-argocd-lock']);
    expect(fs.readFileSync(join(dir, 'dist.safe-argocd-lock'), 'utf8')).toBe(`${process.ppid} 0123abcd\n`);
  });

  test('a write waits for the live holder to release the lock, then writes', async () => {
    // GIVEN a lock held by another process that releases it after 400 ms
    const dir = tempDir();
    const lock = join(dir, 'dist.safe-argocd-lock');
    const holder = spawn(process.execPath, ['-e', `const fs = require('fs'); fs.writeFileSync(${JSON.stringify(lock)}, process.pid + ' 00ff\\n');
      process.stdout.write('held\\n'); setTimeout(() => fs.rmSync(${JSON.stringify(lock)}), 400);`], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    // WHEN a write starts meanwhile THEN it completes once the lock is free, and releases its own
    const started = Date.now();
    try {
      writeTreeAtomically(join(dir, 'dist'), TREE, { lockTimeoutMs: 30_000 });
    } finally {
      await new Promise((resolve) => holder.once('close', resolve));
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(readTree(join(dir, 'dist'))).toEqual(NEW);
    expect(fs.readdirSync(dir)).toEqual(['dist']);
  });

  test('the lock of a process that is gone, of an earlier process of this pid, or an empty one left long ago, is taken over', () => {
    for (const content of [`${deadPid()} 0123abcd\n`, `${process.pid} 0123abcd\n`, '']) {
      const dir = tempDir();
      const lock = join(dir, 'dist.safe-argocd-lock');
      fs.writeFileSync(lock, content);
      const longAgo = new Date(Date.now() - 60_000);
      fs.utimesSync(lock, longAgo, longAgo);
      writeTreeAtomically(join(dir, 'dist'), TREE, { lockTimeoutMs: 2_000 });
      expect(readTree(join(dir, 'dist'))).toEqual(NEW);
      expect(fs.readdirSync(dir)).toEqual(['dist']);
    }
  });

  test('an outdir whose parent folder cannot be made is a [SAFE-101] error', () => {
    const dir = tempDir();
    fs.writeFileSync(join(dir, 'file'), '');
    expect(() => writeTreeAtomically(join(dir, 'file', 'dist'), TREE)).toThrow(/^\[SAFE-101\] writing the GitOps tree failed; nothing was written to "[^"]*dist", which does not exist: cannot create its parent folder: EEXIST/);
  });

  test('a write that fails where no outdir is (cdk8s synth removed it) says nothing was written, not that the folder is unchanged', () => {
    // GIVEN no outdir, and a disk that fails the first file
    const dir = tempDir();
    // WHEN the write fails / THEN the error says that there is no tree, and none is left behind
    withFailingDisk(join(dir, 'dist.safe-argocd-tmp-'), () => {
      expect(() => writeTreeAtomically(join(dir, 'dist'), TREE)).toThrow(/^\[SAFE-101\] writing the GitOps tree failed; nothing was written to "[^"]*dist", which does not exist: ENOSPC/);
    });
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('leftovers of writes that died', () => {
  test('each write uses a folder of its own, <outdir>.safe-argocd-tmp-<pid>-<random>', () => {
    // GIVEN the folders beside the outdir while each of two writes writes its files
    const dir = tempDir();
    const names: string[] = [];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nodeFs = require('fs');
    const real = nodeFs.writeFileSync;
    nodeFs.writeFileSync = (file: unknown, ...rest: unknown[]) => {
      names.push(...fs.readdirSync(dir));
      return real(file, ...rest);
    };
    try {
      writeTreeAtomically(join(dir, 'dist'), TREE);
      writeTreeAtomically(join(dir, 'dist'), TREE);
    } finally {
      nodeFs.writeFileSync = real;
    }
    const tmps = [...new Set(names.filter((n) => n.includes('tmp')))];
    expect(tmps).toEqual([expect.stringMatching(new RegExp(`^dist\\.safe-argocd-tmp-${process.pid}-[0-9a-f]{12}$`)), expect.stringMatching(/tmp-/)]);
    expect(tmps[0]).not.toBe(tmps[1]);
  });

  test('the previous tree of a write that died between its two renames is put back before the next write', () => {
    // GIVEN what a write killed between its renames leaves: no outdir, its previous tree and its complete new one
    const dir = tempDir();
    const id = `${deadPid()}-00aa11bb22cc`;
    writeFiles(join(dir, `dist.safe-argocd-old-${id}`), { 'previous.yaml': 'previous\n' });
    writeFiles(join(dir, `dist.safe-argocd-tmp-${id}`), { 'killed-run.yaml': 'killed\n' });
    fs.writeFileSync(join(dir, 'dist.safe-argocd-lock'), `${id.split('-')[0]} 00aa\n`);
    // WHEN the next write fails on its first file
    withFailingDisk(join(dir, 'dist.safe-argocd-tmp-'), () => {
      expect(() => writeTreeAtomically(join(dir, 'dist'), TREE)).toThrow(/^\[SAFE-101\] writing the GitOps tree failed; "[^"]*dist" is unchanged: ENOSPC/);
    });
    // THEN the previous tree is back in place and nothing else is left
    expect(readTree(join(dir, 'dist'))).toEqual({ 'previous.yaml': 'previous\n' });
    expect(fs.readdirSync(dir)).toEqual(['dist']);
  });

  test('a stale previous tree (its write completed) is never renamed into place', () => {
    // GIVEN no outdir (removed, as `cdk8s synth` does first), and previous trees that writes killed after their swap
    // left behind: without their temporary folder, which the completed swap renamed into place
    for (const stale of [`dist.safe-argocd-old-${deadPid()}-00aa11bb22cc`, 'dist.safe-argocd-old']) {
      const dir = tempDir();
      writeFiles(join(dir, stale), { 'stale.yaml': 'stale\n' });
      // WHEN a write fails THEN there is still no outdir, rather than the stale tree
      withFailingDisk(join(dir, 'dist.safe-argocd-tmp'), () => {
        expect(() => writeTreeAtomically(join(dir, 'dist'), TREE)).toThrow(/SAFE-101/);
      });
      expect([stale, fs.readdirSync(dir)]).toEqual([stale, []]);
    }
  });

  test('leftovers of processes that are gone are removed; those of a running process are left alone', () => {
    const dir = tempDir();
    const dead = `${deadPid()}-00aa11bb22cc`;
    const live = `${process.ppid}-00aa11bb22cc`;
    for (const name of [`dist.safe-argocd-tmp-${dead}`, `dist.safe-argocd-old-${dead}`, 'dist.safe-argocd-tmp', `dist.safe-argocd-tmp-${live}`]) {
      writeFiles(join(dir, name), { 'x.yaml': 'x\n' });
    }
    writeFiles(join(dir, 'dist'), { 'previous.yaml': 'previous\n' });
    writeTreeAtomically(join(dir, 'dist'), TREE);
    expect(readTree(join(dir, 'dist'))).toEqual(NEW);
    expect(fs.readdirSync(dir).sort()).toEqual(['dist', `dist.safe-argocd-tmp-${live}`]);
  });
});
