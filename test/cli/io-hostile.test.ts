/**
 * The CLI's input and output against a hostile environment: FIFOs and devices given by name, a huge config, stdout
 * that cannot be written, file names that are not UTF-8, --dir where nothing belongs, sizes at the edges, and the
 * folders a synth leaves beside its outdir.
 */
import { spawn, spawnSync } from 'child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'fs';
import { join } from 'path';
import { runCli } from './support';
import { tempDir } from '../support/app';

const REPO = join(__dirname, '..', '..');
const BIN = join(REPO, 'src', 'cli', 'bin.ts');
const ENV = { ...process.env, TS_NODE_PROJECT: join(REPO, 'test', 'tsconfig.json') };
/** A hang is the failure these tests look for: a run that does not end in this time is killed. */
const HANG_MS = 30_000;

const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: payments\ndata:\n  key: value\n';

/** Runs the bin entry as its own process, killed if it hangs. */
function bin(args: readonly string[], stdout: 'pipe' | number = 'pipe') {
  const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', BIN, ...args], {
    cwd: REPO, env: ENV, encoding: 'utf8', stdio: ['ignore', stdout, 'pipe'], timeout: HANG_MS,
  });
  return { status: run.status, signal: run.signal, stdout: run.stdout ?? '', stderr: run.stderr };
}

function fifo(dir: string, name: string): string {
  const p = join(dir, name);
  expect(spawnSync('mkfifo', [p]).status).toBe(0);
  return p;
}

describe('FIFOs and devices given by name are refused without being read', () => {
  const dir = tempDir();
  const app = join(dir, 'app.yaml');
  writeFileSync(app, 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: a\n  namespace: argocd\nspec:\n'
    + '  project: payments\n  source: {repoURL: "https://git.acme.internal/x.git", path: ., targetRevision: main}\n'
    + '  destination: {server: "https://kubernetes.default.svc", namespace: payments}\n');
  const desired = join(dir, 'desired.yaml');
  writeFileSync(desired, CONFIG_MAP);

  test.each([
    ['audit of a FIFO', () => ['audit', fifo(tempDir(), 'f.yaml'), '--format', 'json'], /"file": "f\.yaml",\s*"message": "is not a regular file/],
    ['audit of /dev/zero', () => ['audit', '/dev/zero', '--format', 'json'], /"file": "zero",\s*"message": "is not a regular file/],
    ['audit --config of a FIFO', () => ['audit', desired, '--config', fifo(tempDir(), 'c.yaml')], /cannot read the config [^ ]*c\.yaml: is not a regular file \(it is a FIFO\)/],
    ['simulate --app of a FIFO', () => ['simulate', '--app', fifo(tempDir(), 'a.yaml'), '--desired', desired], /cannot read --app [^ ]*a\.yaml: is not a regular file \(it is a FIFO\)/],
    ['simulate --live of /dev/zero', () => ['simulate', '--app', app, '--desired', desired, '--live', '/dev/zero'], /cannot read --live \/dev\/zero: is not a regular file \(it is a device\)/],
    ['audit --write-baseline to a FIFO nobody reads', () => ['audit', desired, '--write-baseline', fifo(tempDir(), 'b.json')],
      /cannot write --write-baseline [^ ]*b\.json: is not a regular file \(it is a FIFO\); not written/],
    ['audit --output to a FIFO nobody reads', () => ['audit', desired, '--output', fifo(tempDir(), 'r.txt')], /cannot write --output [^ ]*r\.txt: is not a regular file \(it is a FIFO\); not written/],
    ['audit --output to /dev/zero', () => ['audit', desired, '--output', '/dev/zero'], /cannot write --output \/dev\/zero: is not a regular file \(it is a device\)/],
  ])('%s: exit 2, naming the file and why', (_name, args, reason) => {
    const run = bin(args());
    expect([run.signal, run.status]).toEqual([null, 2]);
    expect(run.stderr + run.stdout).toMatch(reason);
  }, HANG_MS + 10_000);

  test('--output /dev/stdout and --output - write the report to standard output, piped', () => {
    // GIVEN a manifest / WHEN audited with the report sent to /dev/stdout and to - (stdout is a pipe here)
    const runs = [bin(['audit', desired, '--output', '/dev/stdout', '--format', 'json']), bin(['audit', desired, '--output', '-', '--format', 'json'])];

    // THEN both print the JSON report on stdout and pass
    for (const run of runs) {
      expect([run.signal, run.status, run.stderr]).toEqual([null, 0, '']);
      expect(JSON.parse(run.stdout).stats.manifests).toBe(1);
    }
  }, 2 * HANG_MS);
});

describe('the audit config', () => {
  test('a config over 1 MB is refused unread, with a clear message', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'm.yaml'), CONFIG_MAP);
    const config = join(dir, 'big.yaml');
    writeFileSync(config, `suppressions: []\n# ${'x'.repeat(2 * 1048576)}\n`);
    const run = await runCli(['audit', dir, '--repo-root', dir, '--config', config]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`safe-argocd audit: [SAFE-103] cannot read the config ${config}: is 2.0 MB, over the 1 MB limit for a config file; not read. `
      + `Fix: a config holds only suppressions, failOn, argocdVersion, exclude, failOnUnreadable and newGitFileGlobbing; check that ${config} is the right file and keep it under 1 MB.\n`);
  });
});

describe('a failed write to stdout', () => {
  test('to a full disk (/dev/full): exit 2 and one line on stderr, no stack trace', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const run = bin(['help'], full);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/^safe-argocd: \[SAFE-101\] cannot write the output to stdout: ENOSPC: no space left on device, write\. Fix: [^\n]*\.\n$/);
    } finally {
      closeSync(full);
    }
  }, HANG_MS + 10_000);

  test('to a pipe whose reader stopped (EPIPE): exit 2 and one line on stderr', async () => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', BIN, 'help'], { cwd: REPO, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const status = await new Promise((resolve) => child.on('close', (code) => resolve(code)));
    expect(status).toBe(2);
    expect(stderr).toMatch(/^safe-argocd: \[SAFE-101\] cannot write the output to stdout: [^\n]*EPIPE[^\n]*\n$/);
  }, HANG_MS + 10_000);
});

describe('file names that are not valid UTF-8', () => {
  test('are read by their bytes and reported with the bytes escaped', async () => {
    // GIVEN a manifest and a broken file whose names hold the byte 0xff
    const dir = tempDir();
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/ok-`), Buffer.from([0xff]), Buffer.from('.yaml')]), CONFIG_MAP);
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/caf\u00e9-`), Buffer.from([0xfe]), Buffer.from('.yaml')]), 'key: [unclosed\n');
    // WHEN audited
    const run = await runCli(['audit', dir, '--repo-root', dir, '--format', 'json']);
    const report = JSON.parse(run.stdout);
    // THEN both were read: one manifest, and the broken one named with its valid characters and the byte escaped
    expect(report.stats.files).toBe(2);
    expect(report.stats.manifests).toBe(1);
    expect(report.problems.map((p: { file: string }) => p.file)).toEqual(['caf\u00e9-\\xfe.yaml']);
    expect(report.problems[0].message).not.toMatch(/cannot be read/);
  });
});

describe('new --dir', () => {
  const inMemory = (args: string[]) => runCli(args, { exists: () => false });

  test('an empty --dir is a usage error, not the working directory', async () => {
    const run = await inMemory(['new', 'orders', '--dir', '']);
    expect(run.code).toBe(2);
    expect(run.written.size).toBe(0);
    expect(run.stderr).toMatch(/^safe-argocd new: \[SAFE-103\] --dir is ""; it must name a folder\. Fix: give a folder for the new app, e\.g\. --dir deploy, or leave --dir out\.\n/);
    expect(run.stderr).toContain('usage: safe-argocd new');
  });

  test.each([
    ['/proc/self/orders', /lies under \/proc, a system folder of the kernel, not of files/],
    ['/sys/orders', /lies under \/sys/],
    ['/dev/shm-like/orders', /lies under \/dev/],
  ])('--dir %s is refused', async (dir, reason) => {
    const run = await inMemory(['new', 'orders', '--dir', dir]);
    expect(run.code).toBe(2);
    expect(run.written.size).toBe(0);
    expect(run.stderr).toMatch(reason);
  });

  test('a --dir below a file is refused', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    const run = await inMemory(['new', 'orders', '--dir', join(dir, 'file', 'orders')]);
    expect(run.code).toBe(2);
    expect(run.written.size).toBe(0);
    expect(run.stderr).toContain(`${join(dir, 'file')} is not a folder`);
  });
});

describe('--max-file-size', () => {
  test.each(['0x10', '1e1', ' 5', '5 ', '.5', '-1', '0', '0.0000001', 'Infinity', ''])('%j is refused', async (value) => {
    const run = await runCli(['audit', tempDir(), `--max-file-size=${value}`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--max-file-size is ${JSON.stringify(value)}; it must be a size in MB, a plain decimal number (e.g. 5 or 0.5) of at least one byte`);
  });

  test('sizes never read 0: a tiny limit is in bytes, and equal-looking sizes are exact', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'small.yaml'), CONFIG_MAP);
    writeFileSync(join(dir, 'five.yaml'), Buffer.alloc(5 * 1048576 + 1, 0x20));
    const run = await runCli(['audit', dir, '--repo-root', dir, '--format', 'json', '--max-file-size', '0.00005']);
    expect(JSON.parse(run.stdout).problems).toEqual([
      { file: 'five.yaml', message: 'is 5.0 MB, over the 52 bytes limit; skipped (raise --max-file-size if it really is one manifest file)' },
      { file: 'small.yaml', message: `is ${CONFIG_MAP.length} bytes, over the 52 bytes limit; skipped (raise --max-file-size if it really is one manifest file)` },
    ]);
    const atFive = await runCli(['audit', dir, '--repo-root', dir, '--format', 'json', '--max-file-size', '5']);
    expect(JSON.parse(atFive.stdout).problems).toEqual([
      { file: 'five.yaml', message: 'is 5242881 bytes, over the limit of 5242880 bytes; skipped (raise --max-file-size if it really is one manifest file)' },
    ]);
    const half = await runCli(['audit', dir, '--repo-root', dir, '--format', 'json', '--max-file-size', '0.5']);
    expect(JSON.parse(half.stdout).problems[0].message).toMatch(/^is 5\.0 MB, over the 512\.0 kB limit/);
  });
});

describe('audit of the folder that holds an outdir', () => {
  test('skips what synths leave beside it (*.safe-argocd-tmp-*, *.safe-argocd-old-*)', async () => {
    const dir = tempDir();
    for (const folder of ['dist', 'dist.safe-argocd-tmp-123-abcdef', 'dist.safe-argocd-old-123-abcdef', 'dist.safe-argocd-tmp', 'dist.safe-argocd-old']) {
      mkdirSync(join(dir, folder));
      writeFileSync(join(dir, folder, 'cm.yaml'), folder === 'dist' ? CONFIG_MAP : 'key: [broken\n');
    }
    const run = await runCli(['audit', dir, '--repo-root', dir, '--format', 'json']);
    const report = JSON.parse(run.stdout);
    expect([run.code, report.stats.files, report.problems]).toEqual([0, 1, []]);
  });
});
