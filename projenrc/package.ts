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
  // found beside its package. re2js stays outside too, loaded from the package's bundled dependencies only when a
  // Kustomize target names a regular expression: start-up then neither reads nor compiles its 300 kB.
  // lib/ keeps the unbundled modules for the library's users. Whitespace is left out (names are kept, so stack traces
  // still read): a quarter less to read, decode and scan at every start, about 10 ms and 480 page faults a run.
  project.compileTask.exec(`esbuild ${BIN} --bundle --platform=node --target=node20 --minify-whitespace --external:jq-wasm --external:re2js --allow-overwrite --log-level=warning --outfile=${BIN}`);
  // ASCII only: esbuild keeps the curly quotes of a bundled parser's comments as they are, and one character outside
  // ASCII makes Node decode the whole file to UTF-16 and V8 hold and scan it at two bytes a character. Each such
  // character, in a comment, a string or a regular expression, is written as its \uXXXX escape, which means the same there.
  const escape = '(c) => String.fromCharCode(92) + \'u\' + c.charCodeAt(0).toString(16).padStart(4, \'0\')';
  project.compileTask.exec(`node -e "const fs = require('fs'); fs.writeFileSync('${BIN}', fs.readFileSync('${BIN}', 'utf8').replace(/[^\\x00-\\x7f]/g, ${escape}))"`);
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
