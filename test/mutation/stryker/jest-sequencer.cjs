// Used only by `npm run mutation` (see stryker.config.json and MUTATION.md), never by `npx jest`.
//
// Jest runs the slowest test files first, which suits parallel runs. A mutant is run in band and stops at the
// first failing test (Stryker's bail), so here the tests most likely to fail go first:
// 1. for a mutant, the test files named after the mutated source file (src/rules/sa006-x.ts: test/rules/sa006-x*.ts),
//    then the other test files of its folder (test/rules/);
// 2. the fast unit tests before the broad, slow files (properties, examples, docs, reliability, CLI);
// 3. the smallest file first.
'use strict';
const fs = require('fs');
const path = require('path');
const Sequencer = require('@jest/test-sequencer').default;

const SLOW = [/\/test\/properties\//, /\/test\/examples\//, /\/test\/docs\//, /\/test\/reliability\//, /\/test\/cli\//];

// This file is <rootDir>/test/mutation/stryker/jest-sequencer.cjs; the instrumented sources are <rootDir>/src.
const ROOT = path.join(__dirname, '..', '..', '..');
const SRC = path.join(ROOT, 'src');
const TEST = path.join(ROOT, 'test');

let sourceByMutant;

/** Mutant id to its source file, relative to src/ and without `.ts`, read from Stryker's instrumented sources. */
function sourcesByMutant() {
  const map = new Map();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.name.endsWith('.ts')) {
        const text = fs.readFileSync(full, 'utf8');
        if (!text.includes('stryMutAct_')) continue;
        const source = path.relative(SRC, full).slice(0, -'.ts'.length);
        for (const match of text.matchAll(/stryMutAct_\w+\("(\d+)"\)/g)) {
          map.set(match[1], source);
        }
      }
    }
  };
  try {
    walk(SRC);
  } catch {
    // Not in a Stryker sandbox: no relevance ordering.
  }
  return map;
}

/** 0: named after the mutated file; 1: same folder; 2: anything else. */
function relevance(testPath, source) {
  if (source === undefined) return 2;
  const test = path.relative(TEST, testPath);
  const folder = path.dirname(source);
  const base = path.basename(source);
  if (path.dirname(test) === folder && path.basename(test).startsWith(base)) return 0;
  return path.dirname(test) === folder ? 1 : 2;
}

function group(testPath) {
  return SLOW.some((re) => re.test(testPath)) ? 1 : 0;
}

function size(testPath) {
  try {
    return fs.statSync(testPath).size;
  } catch {
    return 0;
  }
}

class FastFirstSequencer extends Sequencer {
  sort(tests) {
    const mutant = process.env.__STRYKER_ACTIVE_MUTANT__;
    let source;
    if (mutant !== undefined) {
      sourceByMutant = sourceByMutant || sourcesByMutant();
      source = sourceByMutant.get(mutant);
    }
    const key = (t) => [relevance(t.path, source), group(t.path), size(t.path)];
    return [...tests].sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2] || (a.path < b.path ? -1 : 1);
    });
  }
}

module.exports = FastFirstSequencer;
