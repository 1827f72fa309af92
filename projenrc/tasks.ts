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

  // The Argo CD types in src/imports are generated from the CRDs of the newest supported release.
  // Re-run after changing the CRD; never edit src/imports by hand.
  project.addTask('import', {
    description: 'Regenerate src/imports from the Argo CD CRDs',
    steps: [
      { exec: 'cdk8s import application:=../shared/crds/argo-cd-v3.5.1/application-crd.yaml -l typescript -o src/imports --no-check-upgrade' },
    ],
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

  project.addTask('check-generated', {
    description: 'Fail when a generated file (API.md, RULES.md) differs from what is committed',
    exec: 'git diff --exit-code -- API.md RULES.md',
  });
}
