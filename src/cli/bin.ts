#!/usr/bin/env node
import { lstatSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { main } from './main';

main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => readFileSync(path, 'utf8'),
  writeFile: (path, text) => writeFileSync(path, text),
  // lstat, not exists: a dangling symbolic link is there too, and writing through it would land elsewhere.
  exists: (path) => lstatSync(path, { throwIfNoEntry: false }) !== undefined,
  mkdir: (dir) => { mkdirSync(dir, { recursive: true }); },
  isTerminal: Boolean(process.stdout.isTTY),
}).then((code) => {
  process.exitCode = code;
}, (e) => {
  process.stderr.write(`safe-argocd: ${(e as Error).stack ?? e}\n`);
  process.exitCode = 2;
});
