#!/usr/bin/env node
import { main } from './main';
import { nodeIo } from './node-io';

main(process.argv.slice(2), nodeIo()).then((code) => {
  process.exitCode = code;
}, (e) => {
  process.stderr.write(`safe-argocd: ${(e as Error).stack ?? e}\n`);
  process.exitCode = 2;
});
