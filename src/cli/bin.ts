#!/usr/bin/env node
// First, before the rest is loaded: the heap of this process is sized for an audit (see young-generation.ts).
import './young-generation';
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
// When nothing is left to do, every write to stdout and stderr included (a pipe read slowly keeps the loop busy until it
// has taken the last byte), the process exits at once with the code set above, instead of first freeing a heap of tens
// of MB page by page, which an audit of a large repository spent about 10 ms on.
process.once('beforeExit', () => process.exit());
