// Used only by `npm run mutation` (see stryker.config.json and MUTATION.md), never by `npx jest`.
//
// Stryker's jest runner passes the tests that cover a mutant to Jest as a test *name* pattern, so
// Jest still loads every test file (and cdk8s-plus with it) for every mutant: ~14 s a mutant here.
// This environment records, during Stryker's coverage run, which test files cover which mutant;
// jest-filter.cjs then hands Jest only those files. Test names, results and timeouts are Stryker's.
'use strict';
const fs = require('fs');
const path = require('path');
const { TestEnvironment } = require('jest-environment-node');

// In the sandbox root. Stryker loads this environment from the project (its working directory),
// but jest-filter.cjs from the sandbox (<rootDir>), so the path must not depend on __dirname.
const COVERAGE_FILE_NAME = '.stryker-mutant-test-files.jsonl';

class MutantCoverageByFileEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    // The sandbox lies inside the repository, under .stryker-tmp/: without a .git of its own, the library would
    // take the repository's root for the sandbox's and write every source.path under .stryker-tmp/sandbox-*/.
    const marker = path.join(config.projectConfig.rootDir, '.git');
    if (!fs.existsSync(marker)) {
      fs.writeFileSync(marker, 'gitdir: ../../.git\n');
    }
    this.coverageFile = path.join(config.projectConfig.rootDir, COVERAGE_FILE_NAME);
    this.testPath = context.testPath;
    this.coveredMutants = new Set();
  }

  handleTestEvent(event) {
    // Stryker's own environment sets `currentTestId` on test_start and clears it after this
    // handler has seen test_done, so the coverage of the finished test is complete here.
    if (event.name !== 'test_done' || process.env.__STRYKER_ACTIVE_MUTANT__) return;
    const ctx = this.global.__stryker__;
    const perTest = ctx && ctx.mutantCoverage && ctx.mutantCoverage.perTest;
    if (!perTest || ctx.currentTestId === undefined) return;
    for (const mutantId of Object.keys(perTest[ctx.currentTestId] || {})) {
      this.coveredMutants.add(mutantId);
    }
  }

  async teardown() {
    if (this.coveredMutants.size > 0) {
      fs.appendFileSync(this.coverageFile, JSON.stringify({ testPath: this.testPath, mutants: [...this.coveredMutants] }) + '\n');
    }
    await super.teardown();
  }
}

module.exports = MutantCoverageByFileEnvironment;
module.exports.COVERAGE_FILE_NAME = COVERAGE_FILE_NAME;
