// Used only by `npm run mutation`: see jest-environment.cjs for why.
// Without an active mutant (Stryker's coverage run) every test file runs and the coverage file is
// started afresh. With one, only the files whose tests cover that mutant run; a mutant the coverage
// run did not see with a test (static, or a file without the environment) still gets every file.
//
// SAFE_ARGOCD_MUTATION_TESTS (optional) is a comma-separated list of folders or files under the project
// root, e.g. `test/rules,test/audit`: only test files under them run, in the coverage run and for every
// mutant. A score measured that way is a lower bound of the whole suite's: every mutant it counts as killed
// is killed by a test the whole suite also runs.
'use strict';
const fs = require('fs');
const path = require('path');
const { COVERAGE_FILE_NAME } = require('./jest-environment.cjs');

// This file is <rootDir>/test/mutation/stryker/jest-filter.cjs (see stryker.config.json).
const COVERAGE_FILE = path.join(__dirname, '..', '..', '..', COVERAGE_FILE_NAME);

let filesByMutant;

const ROOT = path.join(__dirname, '..', '..', '..');

/** The test files in scope: all, or those under the folders named in SAFE_ARGOCD_MUTATION_TESTS. */
function inScope(testPaths) {
  const scope = (process.env.SAFE_ARGOCD_MUTATION_TESTS || '').split(',').map((s) => s.trim()).filter(Boolean);
  if (scope.length === 0) return testPaths;
  const prefixes = scope.map((s) => path.join(ROOT, s));
  return testPaths.filter((p) => prefixes.some((prefix) => p === prefix || p.startsWith(prefix + path.sep)));
}

function load() {
  const map = new Map();
  for (const line of fs.readFileSync(COVERAGE_FILE, 'utf8').split('\n')) {
    if (!line) continue;
    const { testPath, mutants } = JSON.parse(line);
    for (const id of mutants) {
      if (!map.has(id)) map.set(id, new Set());
      map.get(id).add(testPath);
    }
  }
  return map;
}

module.exports = async function filter(allTestPaths) {
  const testPaths = inScope(allTestPaths);
  const activeMutant = process.env.__STRYKER_ACTIVE_MUTANT__;
  if (activeMutant === undefined) {
    fs.rmSync(COVERAGE_FILE, { force: true });
    filesByMutant = undefined;
    return { filtered: testPaths };
  }
  if (filesByMutant === undefined) {
    filesByMutant = fs.existsSync(COVERAGE_FILE) ? load() : new Map();
  }
  const files = filesByMutant.get(activeMutant);
  return { filtered: files ? testPaths.filter((p) => files.has(p)) : testPaths };
};
