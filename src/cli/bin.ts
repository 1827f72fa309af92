#!/usr/bin/env node
import { EXIT_USAGE, hasDebugFlag, main } from './main';
import { unexpectedError } from './messages';
import { debugFor, nodeIo } from './node-io';

const args = process.argv.slice(2);
main(args, nodeIo()).then((code) => {
  process.exitCode = code;
}, (e) => {
  // main reports its own errors; this is the last resort, when even that failed.
  process.stderr.write(unexpectedError(undefined, e, hasDebugFlag(args) || debugFor(process.env)));
  process.exitCode = EXIT_USAGE;
});
