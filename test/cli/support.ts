import { spawnSync } from 'child_process';
import { join } from 'path';
import { CliIo, main } from '../../src/cli/main';
import { nodeIo } from '../../src/cli/node-io';

const REPO = join(__dirname, '..', '..');

/** What one in-process run of the CLI printed, wrote and returned. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Files written, path to text. */
  readonly written: Map<string, string>;
}

/**
 * Runs `safe-argocd` in-process: files are read from disk, nothing is written (writes are recorded), no
 * colour and no debug unless `io` says so.
 */
export async function runCli(args: readonly string[], io: Partial<CliIo> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const written = new Map<string, string>();
  const code = await main(args, {
    stdout: (t) => { stdout += t; },
    stderr: (t) => { stderr += t; },
    readBytes: nodeIo().readBytes,
    writeFile: (p, t) => { written.set(p, t); },
    exists: () => false,
    mkdir: () => undefined,
    color: false,
    ...io,
  });
  return { code, stdout, stderr, written };
}

/** What the bin entry printed and returned, run as a program. */
export interface ProgramRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The signal that ended it: SIGTERM when it overran the timeout it was given. */
  readonly signal?: string;
}

/**
 * Runs the bin entry as a program, with `env` added to this process's environment (a value of undefined
 * removes the variable) and `preload` modules required first.
 */
export function runBin(
  args: readonly string[], env: Record<string, string | undefined> = {}, preload: readonly string[] = [], timeoutMs?: number,
): ProgramRun {
  const fullEnv: Record<string, string | undefined> = { ...process.env, TS_NODE_PROJECT: join(REPO, 'test', 'tsconfig.json'), ...env };
  for (const [key, value] of Object.entries(fullEnv)) {
    if (value === undefined) {
      delete fullEnv[key];
    }
  }
  const node = [...preload.flatMap((p) => ['-r', p]), '-r', 'ts-node/register/transpile-only', join(REPO, 'src', 'cli', 'bin.ts'), ...args];
  const run = spawnSync(process.execPath, node, { encoding: 'utf8', env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'], ...timeoutMs ? { timeout: timeoutMs } : {} });
  return { status: run.status ?? -1, stdout: run.stdout, stderr: run.stderr, ...run.signal ? { signal: run.signal } : {} };
}
