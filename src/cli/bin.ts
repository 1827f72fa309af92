#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'fs';
import { main } from './main';

main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => readFileSync(path, 'utf8'),
  writeFile: (path, text) => writeFileSync(path, text),
  isTerminal: Boolean(process.stdout.isTTY),
}).then((code) => {
  process.exitCode = code;
}, (e) => {
  process.stderr.write(`safe-argocd: ${(e as Error).stack ?? e}\n`);
  process.exitCode = 2;
});
