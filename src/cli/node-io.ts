import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'fs';
import { CliIo } from './main';

/** The environment variables the CLI reads. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Whether an environment variable is set to turn something on: present, not empty, not `0` or `false`. */
function isOn(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/**
 * Whether text output to stdout is coloured. In this order, the first that applies decides:
 * - `FORCE_COLOR` set and not empty: on, unless it is `0` or `false` (then off, even on a terminal). It
 *   wins over `NO_COLOR`, as in Node.js itself (`tty.hasColors`, `util.styleText`): it is asked for one run,
 *   `NO_COLOR` is a standing preference.
 * - `NO_COLOR` set and not empty (https://no-color.org): off.
 * - otherwise on when stdout is a terminal that is not `TERM=dumb`.
 * An empty `FORCE_COLOR` or `NO_COLOR` counts as unset, as no-color.org asks.
 */
export function colorFor(env: Env, isTTY: boolean): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') {
    return isOn(env.FORCE_COLOR);
  }
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') {
    return false;
  }
  return isTTY && env.TERM !== 'dumb';
}

/** Whether `SAFE_ARGOCD_DEBUG` asks for stack traces, as `--debug` does (`1`; any value but empty, `0` or `false`). */
export function debugFor(env: Env): boolean {
  return isOn(env.SAFE_ARGOCD_DEBUG);
}

/** The CLI's access to this process's streams, environment and the file system. */
export function nodeIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readFile: (path) => readFileSync(path, 'utf8'),
    readBytes,
    writeFile: (path, text) => writeFileSync(path, text),
    // lstat, not exists: a dangling symbolic link is there too, and writing through it would land elsewhere.
    exists: (path) => lstatSync(path, { throwIfNoEntry: false }) !== undefined,
    mkdir: (dir) => { mkdirSync(dir, { recursive: true }); },
    color: colorFor(process.env, Boolean(process.stdout.isTTY)),
    debug: debugFor(process.env),
  };
}

/** Reads a regular file of at most `maxBytes`; the size is checked on the open file, before reading. */
function readBytes(path: string, maxBytes: number): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      throw new Error('is not a regular file');
    }
    if (stat.size > maxBytes) {
      throw new Error(`is ${(stat.size / 1048576).toFixed(1)} MB, over the ${(maxBytes / 1048576).toFixed(0)} MB limit; not read `
        + '(raise --max-file-size if it really is one manifest)');
    }
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
