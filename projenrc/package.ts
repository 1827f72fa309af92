import { cdk8s } from 'projen';

/** The CLI's entry point, as package.json's `bin` names it. */
const BIN = 'lib/cli/bin.js';

/**
 * What `npm pack` and `npm publish` ship: the bin, and a fresh build of lib/ before every pack.
 */
export function addPackaging(project: cdk8s.ConstructLibraryCdk8s): void {
  project.addBins({ 'safe-argocd': BIN });

  // The bin is one file: its own modules and the YAML parsers it uses are bundled into it, so that start-up
  // reads one file instead of some 180 (about 100 ms of every run). jq-wasm stays outside: its WebAssembly is
  // found beside its package. lib/ keeps the unbundled modules for the library's users.
  project.compileTask.exec(`esbuild ${BIN} --bundle --platform=node --target=node20 --external:jq-wasm --allow-overwrite --log-level=warning --outfile=${BIN}`);
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
