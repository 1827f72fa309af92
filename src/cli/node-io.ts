import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'fs';
import { CliIo } from './main';

/** The CLI's access to this process's streams and the file system. */
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
    isTerminal: Boolean(process.stdout.isTTY),
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
