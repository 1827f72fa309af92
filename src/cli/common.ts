import { errorLine } from './messages';
import { Command, usageOf } from './usage';
import { ErrorCode } from '../core/errors';

/** What the CLI may touch: output streams and files. Injected so that tests run it in-process. */
export interface CliIo {
  /**
   * Whether text written to stdout may be coloured. The caller decides it from the terminal and the
   * environment (NO_COLOR, FORCE_COLOR; see `colorFor` in node-io); a report written to a file never is.
   */
  readonly color: boolean;
  /** Whether errors print their stack trace even without `--debug` (the bin entry sets it from SAFE_ARGOCD_DEBUG). */
  readonly debug?: boolean;
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * The bytes of `file`, which must be a regular file (a symbolic link is followed) of at most `maxBytes`;
   * throws naming the reason otherwise, without reading a larger file, a FIFO or a device.
   */
  readBytes(file: string, maxBytes: number): Uint8Array;
  /**
   * Standard input, at most `maxBytes` (throws naming the limit beyond it). Without it, `-` is refused as an input.
   */
  readStdin?(maxBytes: number): Uint8Array;
  writeFile(file: string, text: string): void;
  /** Whether a file or folder exists at `file`. */
  exists(file: string): boolean;
  /** Creates the folder `dir` and its parents; nothing happens when it exists. */
  mkdir(dir: string): void;
}

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
/** Usage errors, unreadable input, and unexpected errors. */
export const EXIT_USAGE = 2;

/** Prints a usage error of `command`: the reason on one line, then the command's usage; returns exit 2. */
export function usageError(io: CliIo, command: Command, what: string, fix: string): number {
  io.stderr(errorLine(command, ErrorCode.USAGE, what, fix) + usageOf(command));
  return EXIT_USAGE;
}

/**
 * A `--max-file-size` in bytes, or undefined when it is not a plain decimal number of MB (`5`, `0.5`; not `0x10`,
 * `1e3` or ` 5`) of at least one byte.
 */
export function maxBytes(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value)) {
    return undefined;
  }
  const bytes = Number(value) * 1048576;
  return bytes >= 1 ? bytes : undefined;
}

/** A `--max-objects-per-file`: a plain whole number of at least one (`10000`; not `1e4`, `0x10` or ` 5`), else undefined. */
export function maxObjects(value: string | undefined): number | undefined {
  if (value === undefined || !/^[1-9]\d{0,8}$/.test(value)) {
    return undefined;
  }
  return Number(value);
}

export const MAX_OBJECTS_PER_FILE_FLAG = ['--max-objects-per-file', 'must be a whole number of objects from 1 to 999999999, written plainly (e.g. 20000)',
  'give a number of objects, e.g. --max-objects-per-file 20000'] as const;

export const MAX_FILE_SIZE = ['--max-file-size', 'must be a size in MB, a plain decimal number (e.g. 5 or 0.5) of at least one byte (0.000001)',
  'give a number of MB, e.g. --max-file-size 5'] as const;
