// Used only by `npm run mutation` (see stryker.config.json and MUTATION.md): appends each mutant's result to
// reports/mutation/live.jsonl as soon as it is known, so that a long run's survivors can be read (and tests
// written for them) before the run ends. Stryker's own reports are written only when the run ends.
'use strict';
const fs = require('fs');
const path = require('path');

const FILE = path.join('reports', 'mutation', 'live.jsonl');

class LiveReporter {
  static inject = [];

  onMutationTestingPlanReady() {
    fs.mkdirSync(path.dirname(FILE), { recursive: true });
    fs.writeFileSync(FILE, '');
  }

  onMutantTested(result) {
    const { id, fileName, status, mutatorName, replacement, location, statusReason } = result;
    const line = { id, file: path.relative(process.cwd(), fileName), status, mutatorName, replacement, location };
    if (status === 'Survived' || status === 'NoCoverage') line.reason = statusReason;
    fs.appendFileSync(FILE, JSON.stringify(line) + '\n');
  }
}

exports.strykerPlugins = [{ kind: 'Reporter', name: 'live', injectableClass: LiveReporter }];
