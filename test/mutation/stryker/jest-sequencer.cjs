// Used only by `npm run mutation` (see stryker.config.json and MUTATION.md), never by `npx jest`.
//
// Jest runs the slowest test files first, which suits parallel runs. A mutant is run in band and stops at the
// first failing test (Stryker's bail), so here the fast unit tests go first: most mutants die there in a second
// or two. The broad, slow files (properties, examples, docs, reliability) come last, smallest file first within
// each group.
'use strict';
const fs = require('fs');
const Sequencer = require('@jest/test-sequencer').default;

const SLOW = [/\/test\/properties\//, /\/test\/examples\//, /\/test\/docs\//, /\/test\/reliability\//, /\/test\/cli\//];

function group(path) {
  return SLOW.some((re) => re.test(path)) ? 1 : 0;
}

function size(path) {
  try {
    return fs.statSync(path).size;
  } catch {
    return 0;
  }
}

class FastFirstSequencer extends Sequencer {
  sort(tests) {
    return [...tests].sort((a, b) => group(a.path) - group(b.path) || size(a.path) - size(b.path) || (a.path < b.path ? -1 : 1));
  }
}

module.exports = FastFirstSequencer;
