import { cdk8s } from 'projen';

/** The CLI's entry point, as package.json's `bin` names it. */
const BIN = 'lib/cli/bin.js';

/**
 * What `npm pack` and `npm publish` ship: the bin, and a fresh build of lib/ before every pack.
 */
export function addPackaging(project: cdk8s.ConstructLibraryCdk8s): void {
  project.addBins({ 'safe-argocd': BIN });

  // The bin is executable in lib/ and in the tarball, not only once npm has linked it.
  project.compileTask.exec(`node -e "require('fs').chmodSync('${BIN}', 0o755)"`);

  // npm runs prepack before `npm pack` and `npm publish`: the package is always built from the sources
  // as they are, and a file of lib/ whose source is gone is not shipped.
  project.addTask('prepack', {
    description: 'Build lib/ afresh (npm runs this before npm pack and npm publish)',
    steps: [
      { exec: 'node -e "require(\'fs\').rmSync(\'lib\', { recursive: true, force: true })"' },
      { spawn: project.compileTask.name },
    ],
  });
}
