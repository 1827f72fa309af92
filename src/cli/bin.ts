#!/usr/bin/env node
import { EXIT_USAGE, hasDebugFlag, main } from './main';
import { unexpectedError } from './messages';
import { debugFor, nodeIo, watchOutput } from './node-io';

const args = process.argv.slice(2);
const outputFailed = watchOutput();
main(args, nodeIo()).then((code) => {
  process.exitCode = outputFailed() ? EXIT_USAGE : code;
}, (e) => {
  // main reports its own errors; this is the last resort, when even that failed.
  process.stderr.write(unexpectedError(undefined, e, hasDebugFlag(args) || debugFor(process.env)));
  process.exitCode = EXIT_USAGE;
});
