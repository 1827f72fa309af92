import { lstatSync, mkdirSync, readSync } from 'fs';
import { CliIo, EXIT_USAGE } from './main';
import { errorLine, messageOf } from './messages';
import { overLimit, readRegularFile, writeRegularFile } from './read-file';
import { ErrorCode } from '../core/errors';

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
    stdout: (text) => writeInPieces((piece) => process.stdout.write(piece), text),
    stderr: (text) => process.stderr.write(text),
    readBytes,
    readStdin,
    writeFile: writeRegularFile,
    // lstat, not exists: a dangling symbolic link is there too, and writing through it would land elsewhere.
    exists: (path) => lstatSync(path, { throwIfNoEntry: false }) !== undefined,
    mkdir: (dir) => { mkdirSync(dir, { recursive: true }); },
    color: colorFor(process.env, Boolean(process.stdout.isTTY)),
    debug: debugFor(process.env),
  };
}

/** How much of a long text is written at once: about 1 MB of ASCII. */
const PIECE = 1048576;

/**
 * Writes `text` in pieces of about `size` characters, never splitting a surrogate pair, so each piece encodes to the
 * same UTF-8 as the whole would. A report of many megabytes written in one call is encoded into one buffer as large,
 * which costs several times more than encoding it piece by piece.
 */
export function writeInPieces(write: (piece: string) => unknown, text: string, size: number = PIECE): void {
  let start = 0;
  while (text.length - start > size) {
    let end = start + size;
    const last = text.charCodeAt(end - 1);
    // A high surrogate at the end of a piece stays with the low surrogate that follows it.
    if (last >= 0xd800 && last <= 0xdbff) {
      end += end - 1 > start ? -1 : 1;
    }
    write(text.slice(start, end));
    start = end;
  }
  write(start === 0 ? text : text.slice(start));
}

/** Reads standard input to its end, refusing it as soon as it passes `maxBytes`. */
function readStdin(maxBytes: number): Uint8Array {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.alloc(65536);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      // A non-blocking stdin with nothing buffered yet: wait for the writer.
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      if ((e as NodeJS.ErrnoException).code === 'EOF') {
        break;
      }
      throw e;
    }
    if (n === 0) {
      break;
    }
    total += n;
    if (total > maxBytes) {
      throw new Error(overLimit(total, maxBytes));
    }
    chunks.push(Buffer.from(chunk.subarray(0, n)));
  }
  return Buffer.concat(chunks);
}

/** Reads a regular file of at most `maxBytes`: no FIFO or device, and the size checked before reading. */
function readBytes(path: string, maxBytes: number): Uint8Array {
  return readRegularFile(path, maxBytes);
}

/**
 * Makes a failed write to stdout (a full disk, a reader that closed the pipe) one line on stderr and exit code 2,
 * instead of a crash with a stack trace and exit 1 (which would read as "findings"). Returns whether it happened.
 * A failed write to stderr is dropped: there is nowhere left to say it.
 */
export function watchOutput(stdout: NodeJS.WritableStream = process.stdout, stderr: NodeJS.WritableStream = process.stderr): () => boolean {
  let failed = false;
  stdout.on('error', (e) => {
    process.exitCode = EXIT_USAGE;
    if (failed) {
      return;
    }
    failed = true;
    try {
      stderr.write(errorLine(undefined, ErrorCode.WRITE_FAILED, `cannot write the output to stdout: ${messageOf(e)}`,
        'send stdout where it can be written to the end: a disk with room, a reader that does not stop early, or use --output where the command has it'));
    } catch {
      // stderr failed too
    }
  });
  stderr.on('error', () => undefined);
  return () => failed;
}
