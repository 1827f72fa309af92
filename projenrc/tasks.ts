import { cdk8s } from 'projen';

const TS_NODE = 'ts-node --project test/tsconfig.json';

/**
 * Tasks this project adds to the ones projen generates.
 */
export function addProjectTasks(project: cdk8s.ConstructLibraryCdk8s): void {
  project.addTask('example', {
    description: 'Synthesize the bundled checkout example into dist/',
    exec: `${TS_NODE} examples/checkout/main.ts`,
  });

  // A synth replaces its outdir as a whole, so the fleet gets a folder of its own next to the checkout's dist/.
  project.addTask('example:fleet', {
    description: 'Synthesize the fleet example (many services from one typed table) into dist-fleet/',
    exec: `${TS_NODE} examples/fleet/main.ts`,
  });
  project.gitignore.exclude('/dist-fleet/');
  project.addTask('example:platform', {
    description: 'Synthesize the platform example (charts, overlays, a StatefulSet, a Rollout, a git-generated fleet) into dist-platform/',
    exec: `${TS_NODE} examples/platform/main.ts`,
  });
  project.gitignore.exclude('/dist-platform/');

  // The Argo CD types in src/imports are generated from the CRDs of the newest supported release.
  // Re-run after changing the CRD; never edit src/imports by hand.
  project.addTask('import', {
    description: 'Regenerate src/imports from the Argo CD CRDs',
    steps: [
      { exec: 'cdk8s import application:=schemas/argo-cd/v3.5.1/application-crd.yaml -l typescript -o src/imports --no-check-upgrade' },
    ],
  });

  // The fields SA020 knows, from the CRDs of every supported release; test/rules/sa020-unknown-field.test.ts checks it is current.
  project.addTask('argocd-fields', {
    description: 'Regenerate src/rules/argocd-fields.ts from the Argo CD CRDs in schemas/argo-cd',
    exec: `${TS_NODE} scripts/argocd-fields.ts`,
  });

  const rulesDoc = project.addTask('rules-doc', {
    description: 'Generate RULES.md from the rule registry',
    exec: `${TS_NODE} scripts/rules-doc.ts`,
  });
  project.postCompileTask.spawn(rulesDoc);

  project.addTask('readme', {
    description: 'Rewrite the README blocks that are taken from examples/ and their output',
    exec: `${TS_NODE} scripts/readme.ts`,
  });

  project.addTask('bench:audit', {
    description: 'Benchmark safe-argocd audit against plain YAML parsing of a generated fleet (400 and 2,000 apps)',
    exec: 'ts-node --transpile-only --project test/tsconfig.json bench/audit.ts',
  });

  project.addTask('bench:bombs', {
    description: 'Time the audit of each hostile-input bomb of test/support/bombs.ts against its 1 s budget; fails when one is over',
    exec: 'ts-node --transpile-only --project test/tsconfig.json bench/bombs.ts',
    receiveArgs: true,
  });

  project.addTask('bench:simulate', {
    description: 'Benchmark simulating a whole Application of 500 resources against its live objects, against parsing the same input',
    exec: 'ts-node --transpile-only --project test/tsconfig.json bench/simulate.ts',
  });

  project.addTask('bench:synth', {
    description: 'Benchmark synthesizing a fleet (100, 400 and 2,000 services) against plain cdk8s ApiObjects of the same manifests',
    exec: 'ts-node --transpile-only --project test/tsconfig.json bench/synth.ts',
  });

  // Slow (tens of minutes on two cores), so it is not part of build or CI; see MUTATION.md.
  // Property tests run 100 times a mutant instead of 1,000: a mutant they catch is caught in the first runs.
  project.addTask('mutation', {
    description: 'Mutation-test src/rules, src/application, src/workloads and src/drift with Stryker',
    env: { SAFE_ARGOCD_PROPERTY_RUNS: '100' },
    steps: [
      { exec: 'stryker run', receiveArgs: true },
    ],
  });

  project.addTask('check-generated', {
    description: 'Fail when a generated file (API.md, RULES.md) differs from what is committed',
    exec: 'git diff --exit-code -- API.md RULES.md',
  });
}
