import { closeSync, constants, fstatSync, ftruncateSync, openSync, PathLike, readSync, Stats, statSync, writeFileSync } from 'fs';

/**
 * Reads a regular file of at most `maxBytes` (a symbolic link is followed). The file is opened without
 * blocking (a FIFO with no writer would block the open) and its type checked on the open descriptor, so a FIFO,
 * a socket or a device (`/dev/zero`) is refused without being read; at most `maxBytes + 1` bytes are ever read,
 * even from a file that grows meanwhile. Throws otherwise, with a message
 * that follows the file's name ("is not a regular file ...").
 */
export function readRegularFile(file: PathLike, maxBytes: number): Buffer {
  // eslint-disable-next-line no-bitwise
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    return readRest(fd, regularSize(fd, maxBytes, 0), maxBytes, [], 0);
  } finally {
    closeSync(fd);
  }
}

/** Where {@link readListedFile} reads a file's first bytes: files are read one after another, and most fit. */
const FIRST_READ = Buffer.allocUnsafe(65536);

/**
 * Reads a file that the listing of its folder gave as a regular file, of at most `maxBytes` (a symbolic link is
 * followed), as {@link readRegularFile} does but without first asking the open descriptor for the file's type and
 * size: a system call and an object a file, which were a twentieth of an audit of 12,000 small files. Its first 64 KiB
 * are read at once; fewer bytes than asked mean the end of the file, as a read of a regular file gives fewer only at
 * its end (or when a signal interrupts it, which a read from a local file system does not allow). A file that fills
 * them is asked for its type and size then, and refused unread beyond them when it is no longer a regular file or is
 * over the limit. Opened without blocking, so that a file that became a FIFO since it was listed still ends the read.
 */
export function readListedFile(file: PathLike, maxBytes: number): Buffer {
  // eslint-disable-next-line no-bitwise
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const limit = Math.floor(maxBytes) + 1;
    const n = readSync(fd, FIRST_READ, 0, Math.min(FIRST_READ.length, limit), null);
    // Copied out: the next file is read into the same bytes.
    const first = Buffer.from(FIRST_READ.subarray(0, n));
    if (n < FIRST_READ.length && n < limit) {
      return first;
    }
    return readRest(fd, regularSize(fd, maxBytes, n), maxBytes, [first], n);
  } finally {
    closeSync(fd);
  }
}

/**
 * The size of the file open at `fd`, of which `read` bytes were read already; throws when it is not a regular file
 * ("is not a regular file ...") or when it, or what was read of it, is over `maxBytes` (grown while read when only what
 * was read is).
 */
function regularSize(fd: number, maxBytes: number, read: number): number {
  const stat = fstatSync(fd);
  if (!stat.isFile()) {
    throw new Error(`is not a regular file (it is ${kindOf(stat)}); not read`);
  }
  if (stat.size > maxBytes || read > maxBytes) {
    throw new OverLimit(Math.max(stat.size, read), maxBytes, stat.size <= maxBytes);
  }
  return stat.size;
}

/**
 * Reads the rest of a regular file of `size` bytes (when it was asked) of which `chunks` hold the first `total`: the
 * whole file and one byte more at first, so that a file read in one go needs no copy, then 64 KiB at a time for a file
 * that grew; at most `maxBytes + 1` bytes in all.
 */
function readRest(fd: number, size: number, maxBytes: number, chunks: Buffer[], total: number): Buffer {
  for (;;) {
    // Not zero-filled: only the bytes read into it are kept.
    const chunk = Buffer.allocUnsafe(Math.min(size > total ? size - total + 1 : 65536, Math.floor(maxBytes) + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) {
      break;
    }
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > maxBytes) {
      throw new OverLimit(total, maxBytes, true);
    }
    // Asked for more than its size and given exactly that: the end, without a further read that finds nothing.
    if (n < chunk.length && total === size) {
      break;
    }
  }
  // Most files come in one read: that chunk is the answer, without a copy.
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
}

/** What reading a file over the size limit throws: the size found (at least), and whether it grew while it was read. */
export class OverLimit extends Error {
  constructor(readonly size: number, maxBytes: number, readonly grew: boolean) {
    super(`${overLimit(size, maxBytes)}${grew ? ' (it grew while it was read)' : ''}; not read`);
  }
}

/**
 * Writes `text` to `file`, created when missing, which must be a regular file when it exists (a symbolic link is
 * followed): opened without blocking and without truncating, its type checked on the open descriptor, so that a FIFO
 * nobody reads, a socket or a device is refused, unchanged, instead of blocking the run or writing into it.
 */
export function writeRegularFile(file: PathLike, text: string): void {
  // Checked before the open too: a FIFO without a reader fails the open with a cryptic ENXIO.
  const existing = statSync(file, { throwIfNoEntry: false });
  if (existing !== undefined && !existing.isFile()) {
    throw new Error(`is not a regular file (it is ${kindOf(existing)}); not written`);
  }
  // eslint-disable-next-line no-bitwise
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK, 0o666);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      throw new Error(`is not a regular file (it is ${kindOf(stat)}); not written`);
    }
    ftruncateSync(fd, 0);
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) {
    return 'a folder';
  }
  if (stat.isFIFO()) {
    return 'a FIFO';
  }
  if (stat.isSocket()) {
    return 'a socket';
  }
  if (stat.isCharacterDevice() || stat.isBlockDevice()) {
    return 'a device';
  }
  return 'not a file';
}

/** A number of bytes for people: `12 bytes`, `3.4 kB`, `5.1 MB`; never `0.0`. */
export function sizeText(bytes: number): string {
  if (bytes >= 1048576) {
    return `${(bytes / 1048576).toFixed(1)} MB`;
  }
  if (bytes >= 1024) {
    return `${(bytes / 1024).toFixed(1)} kB`;
  }
  return bytes === 1 ? '1 byte' : `${bytes} bytes`;
}

/** A limit for people: a whole number of MB as such (`5 MB`), else as {@link sizeText}. */
function limitText(bytes: number): string {
  return bytes >= 1048576 && bytes % 1048576 === 0 ? `${bytes / 1048576} MB` : sizeText(bytes);
}

/** `is <size>, over the <limit> limit`, in exact bytes when the rounded sizes would read the same. */
export function overLimit(size: number, maxBytes: number): string {
  const limit = Math.floor(maxBytes);
  const [a, b] = [sizeText(size), limitText(limit)];
  return a === b || a === sizeText(limit) ? `is ${size} bytes, over the limit of ${limit} bytes` : `is ${a}, over the ${b} limit`;
}
