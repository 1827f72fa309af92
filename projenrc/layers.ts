import { cdk8s } from 'projen';

/** The folders of src/ that hold constructs; `application/` is the base the others build on. */
const CONSTRUCTS = ['application', 'workloads', 'secrets', 'governance', 'fleet'];
/** Below the constructs: their internals, and the value types their props take. */
const INTERNALS = ['private', 'values'];
/** The folders above the constructs: what wires files and commands to the library. */
const TOOLS = ['cli', 'audit', 'drift', 'scaffold'];

const dirs = (names: string[]) => names.map((n) => `./src/${n}`);

/**
 * The direction of imports (ARCHITECTURE.md), checked by the linter, which `npm test` runs: no file imports
 * one that imports it back, `core/` imports nothing else of `src/`, the rules import only `core/`, and the
 * constructs never import the tools above them, and the drift model imports only `core/`.
 */
export function enforceLayers(project: cdk8s.ConstructLibraryCdk8s): void {
  project.eslint?.addRules({
    'import/no-cycle': ['error', { ignoreExternal: true }],
    'import/no-restricted-paths': ['error', {
      zones: [
        {
          target: './src/core',
          from: './src',
          except: ['./core'],
          message: 'core/ is the bottom layer: it imports nothing else of src/ (ARCHITECTURE.md).',
        },
        {
          target: './src/values',
          from: dirs([...CONSTRUCTS, 'private', 'rules', ...TOOLS]),
          message: 'values/ holds the value types of props: it imports core/ only (ARCHITECTURE.md).',
        },
        {
          target: './src/private',
          from: dirs([...CONSTRUCTS, ...TOOLS]),
          message: 'private/ holds what the constructs share: it imports core/, values/ and rules/, never a construct (ARCHITECTURE.md).',
        },
        {
          target: './src/application',
          from: dirs(['workloads', 'secrets', 'governance', 'fleet']),
          message: 'application/ is the base the other constructs build on: it never imports them (ARCHITECTURE.md).',
        },
        {
          target: './src/rules',
          from: dirs([...CONSTRUCTS, ...INTERNALS, ...TOOLS]),
          message: 'Rules are pure functions over manifests: they import only core/ (ARCHITECTURE.md).',
        },
        {
          target: './src/drift',
          from: dirs([...CONSTRUCTS, ...INTERNALS, 'rules', 'cli', 'audit', 'scaffold']),
          message: 'The drift model reads manifests, not constructs or findings: it imports core/ only (ARCHITECTURE.md).',
        },
        {
          target: './src/audit',
          from: dirs([...CONSTRUCTS, ...INTERNALS, 'cli', 'drift', 'scaffold']),
          message: 'The audit reads manifests, not constructs: it imports core/ and rules/ (ARCHITECTURE.md).',
        },
        {
          target: dirs([...CONSTRUCTS, ...INTERNALS]),
          from: dirs(TOOLS),
          message: 'Constructs render manifests; the tools above them call them, never the other way (ARCHITECTURE.md).',
        },
        {
          target: './src/scaffold',
          from: dirs(['cli', ...CONSTRUCTS, ...INTERNALS]),
          message: 'The scaffolder writes text from templates; it imports core/ only (ARCHITECTURE.md).',
        },
      ],
    }],
  });
}
