import { cdk8s, javascript, JsonFile, TaskShell } from 'projen';
import { enforceLayers } from './projenrc/layers';
import { addPackaging } from './projenrc/package';
import { addProjectTasks } from './projenrc/tasks';

const project = new cdk8s.ConstructLibraryCdk8s({
  name: 'cdk8s-safe-argocd',
  description: 'Argo CD Applications whose only expressible shape is the safe one: hardened sync policy, scoped ignore rules, PreSync migrations, and the rules that audit the rest.',
  author: 'cdk8s-safe-argocd contributors',
  authorAddress: 'cdk8s-safe-argocd@users.noreply.example.org',
  repositoryUrl: 'https://example.org/cdk8s-safe-argocd/cdk8s-safe-argocd.git',
  defaultReleaseBranch: 'main',
  keywords: ['cdk8s', 'argocd', 'gitops', 'kubernetes', 'self-heal'],
  packageManager: javascript.NodePackageManager.NPM,
  // jq-wasm, a bundled dependency, needs Node 20. @types/node follows this version, so the compiler refuses
  // Node APIs newer than it.
  minNodeVersion: '20.0.0',
  projenrcTs: true,
  github: false,
  release: false,
  jsiiVersion: '~6.0.0',
  cdk8sVersion: '2.70.106',
  constructsVersion: '10.8.1',
  peerDeps: ['cdk8s-plus-28@^2.5.6'],
  bundledDeps: ['jq-wasm@3.0.0-jq-1.8.2', 'yaml@^2.8.1', 'js-yaml@^4.3.2', 'fast-json-patch@^3.1.1', 're2js@^2.10.0'],
  devDeps: [
    'cdk8s-plus-28@^2.5.6',
    'ajv@^8.17.1',
    'fast-check@^4',
    'kubernetes-models@4.5.1',
    'cdk8s-cli@2.207.60',
    'esbuild@~0.28.2',
    '@types/js-yaml@^4.0.9',
    '@stryker-mutator/core@~9.6.0',
    '@stryker-mutator/jest-runner@~9.6.0',
  ],
  // The example app writes its GitOps tree to dist/, as cdk8s apps do by default;
  // jsii packages go elsewhere so that one never replaces the other.
  artifactsDirectory: 'pkg',
  // lib/*.js ships without source maps: a map points at src/*.ts, which is not in the package, and inline maps
  // with their sources were 73 % of the shipped JavaScript.
  tsconfig: { compilerOptions: { inlineSourceMap: false, inlineSources: false } },
  jestOptions: {
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      collectCoverage: false,
    },
  },
  eslintOptions: {
    dirs: ['src'],
    devdirs: ['test', 'examples', 'projenrc', 'scripts'],
    ignorePatterns: ['src/imports/**', 'node_modules/**', 'lib/**', 'pkg/**', 'dist/**'],
  },
  gitignore: ['/pkg/', '/.stryker-tmp/', '/reports/', '*.safe-argocd-*'],
  // The package is lib/ with the .jsii assembly, the docs and the bundled dependencies; everything else stays out.
  // examples/ import from src/, which is not in the package, so they would not run from it.
  npmIgnoreOptions: {
    ignorePatterns: [
      '/examples/', '/scripts/', '/.ci/', '/bench/', '/schemas/',
      '/MUTATION.md', '/ARCHITECTURE.md', '/stryker.config.json', '/.stryker-tmp/', '/reports/',
      '/pkg/', '/dist-fleet/', '/dist-platform/', '*.tgz', '*.safe-argocd-*',
    ],
  },
});

// examples/ and scripts/ are type-checked (and linted) like test/, against the sources in src/.
for (const dir of ['examples', 'scripts']) {
  new JsonFile(project, `${dir}/tsconfig.json`, {
    obj: {
      extends: '../tsconfig.json',
      compilerOptions: { rootDir: '..', noEmit: true },
      include: ['**/*.ts'],
    },
  });
}

// Tasks run in the system shell: the built-in one reports a command that a signal killed (a synth or jest ended by
// SIGKILL, the kernel's out-of-memory killer) as a success, and a killed test run would pass CI.
project.tasks.shell = TaskShell.system();

addPackaging(project);

addProjectTasks(project);
enforceLayers(project);

project.synth();
