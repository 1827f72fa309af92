import { execFileSync } from 'child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { OverLimit, readListedFile, readRegularFile } from '../../src/cli/read-file';
import { tempDir } from '../support/app';

const MB = 1048576;

/** Both ways of reading a file: one that asks the descriptor what it is first, one for files a listing gave as regular. */
const READERS = [['readRegularFile', readRegularFile], ['readListedFile', readListedFile]] as const;

describe.each(READERS)('%s reads regular files whole, and refuses the rest', (_name, read) => {
  const dir = tempDir();
  const sizes = [0, 1, 4095, 65535, 65536, 65537, 131072, 200_000];
  test.each(sizes)('a regular file of %i bytes: every byte', (size) => {
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) {
      bytes[i] = (i * 7 + 3) % 251;
    }
    const file = join(dir, `f${size}.yaml`);
    writeFileSync(file, bytes);
    expect(read(file, 5 * MB).equals(bytes)).toBe(true);
  });

  test('two files read one after the other do not share bytes', () => {
    writeFileSync(join(dir, 'a.yaml'), 'a: 1\n');
    writeFileSync(join(dir, 'b.yaml'), 'bb: 22\n');
    writeFileSync(join(dir, 'c.yaml'), Buffer.alloc(70_000, 0x63));
    const a = read(join(dir, 'a.yaml'), MB);
    read(join(dir, 'b.yaml'), MB);
    const c = read(join(dir, 'c.yaml'), MB);
    read(join(dir, 'b.yaml'), MB);
    expect(a.toString()).toBe('a: 1\n');
    expect(c.equals(Buffer.alloc(70_000, 0x63))).toBe(true);
  });

  test.each([[10, 11], [10, 500], [65536, 65537], [65536, 300_000]])('over a limit of %i bytes (%i): refused with the file\'s real size', (limit, size) => {
    const file = join(dir, `big-${limit}-${size}.yaml`);
    writeFileSync(file, Buffer.alloc(size, 0x61));
    let thrown: unknown;
    try {
      read(file, limit);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(OverLimit);
    expect((thrown as OverLimit).size).toBe(size);
    expect((thrown as OverLimit).grew).toBe(false);
  });

  test.each([100, 65536, 100_000])('exactly at a limit of %i bytes: read', (size) => {
    const file = join(dir, `at-limit-${size}.yaml`);
    writeFileSync(file, Buffer.alloc(size, 0x62));
    expect(read(file, size).length).toBe(size);
  });

  test('a device that never ends (/dev/zero) is refused as a device, unread beyond the first read', () => {
    expect(() => read('/dev/zero', MB)).toThrow('is not a regular file (it is a device); not read');
  });
});

describe('readListedFile, given what is no longer the regular file its folder listed, still ends', () => {
  const dir = tempDir();

  test('a FIFO with no writer: nothing, without blocking', () => {
    const fifo = join(dir, 'now-a-fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    expect(readListedFile(fifo, MB).length).toBe(0);
  });

  test('a folder: the error its read gives', () => {
    const folder = join(dir, 'now-a-folder.yaml');
    mkdirSync(folder);
    expect(() => readListedFile(folder, MB)).toThrow(/EISDIR/);
  });
});

describe('readRegularFile refuses what is not a regular file unread', () => {
  const dir = tempDir();

  test('a folder is refused as a folder', () => {
    const folder = join(dir, 'now-a-folder.yaml');
    mkdirSync(folder);
    expect(() => readRegularFile(folder, MB)).toThrow('is not a regular file (it is a folder); not read');
  });

  test('a FIFO with no writer is refused without blocking', () => {
    const fifo = join(dir, 'now-a-fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    expect(() => readRegularFile(fifo, MB)).toThrow('is not a regular file (it is a FIFO); not read');
  });

  test('a device that never ends (/dev/zero) is refused as a device', () => {
    expect(() => readRegularFile('/dev/zero', MB)).toThrow('is not a regular file (it is a device); not read');
  });
});

describe.each(READERS)('%s leaves no file open', (_name, read) => {
  // The descriptors this process holds, where the system lists them.
  const openFiles = () => readdirSync('/proc/self/fd').length;
  const onLinux = existsSync('/proc/self/fd') ? test : test.skip;

  onLinux('after small, large, empty and refused files alike', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'small.yaml'), 'i: 1\n');
    writeFileSync(join(dir, 'big.yaml'), Buffer.alloc(70_000, 0x61));
    writeFileSync(join(dir, 'empty.yaml'), '');
    const before = openFiles();
    for (let i = 0; i < 50; i++) {
      expect(read(join(dir, 'small.yaml'), MB).toString()).toBe('i: 1\n');
      expect(read(join(dir, 'big.yaml'), MB).length).toBe(70_000);
      expect(read(join(dir, 'empty.yaml'), MB).length).toBe(0);
      expect(() => read(join(dir, 'big.yaml'), 10)).toThrow(OverLimit);
      expect(() => read(dir, MB)).toThrow(/it is a folder|EISDIR/);
    }
    expect(openFiles()).toBe(before);
  });
});
