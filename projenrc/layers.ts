import { cdk8s } from 'projen';

/** The folders of src/ that hold constructs and their internals. */
const CONSTRUCTS = ['application', 'workloads', 'secrets', 'governance', 'fleet', 'private'];
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
          target: './src/rules',
          from: dirs([...CONSTRUCTS, ...TOOLS]),
          message: 'Rules are pure functions over manifests: they import only core/ (ARCHITECTURE.md).',
        },
        {
          target: './src/drift',
          from: dirs([...CONSTRUCTS, 'rules', 'cli', 'audit', 'scaffold']),
          message: 'The drift model reads manifests, not constructs or findings: it imports core/ only (ARCHITECTURE.md).',
        },
        {
          target: './src/audit',
          from: dirs([...CONSTRUCTS, 'cli', 'drift', 'scaffold']),
          message: 'The audit reads manifests, not constructs: it imports core/ and rules/ (ARCHITECTURE.md).',
        },
        {
          target: dirs(CONSTRUCTS),
          from: dirs(TOOLS),
          message: 'Constructs render manifests; the tools above them call them, never the other way (ARCHITECTURE.md).',
        },
        {
          target: './src/scaffold',
          from: dirs(['cli', ...CONSTRUCTS]),
          message: 'The scaffolder writes text from templates; it imports core/ only (ARCHITECTURE.md).',
        },
      ],
    }],
  });
}
