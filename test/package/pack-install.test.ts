import { spawnSync } from 'child_process';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../cli/support';
import { tempDir, yamlOf } from '../support/app';

// Packs this repository as `npm pack` does (the prepack step builds lib/), checks what the tarball holds,
// installs it into a fresh cdk8s TypeScript app and runs that app's synth and the installed CLI.
// Apart from lib/ and .jsii, which the prepack build writes, everything it creates is in a temporary folder,
// removed at the end.

const REPO = resolve(__dirname, '..', '..');
const PKG = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
const MINUTES = 60_000;

/** What the package holds at its top level, and nothing else. */
const TOP_LEVEL = ['.jsii', 'API.md', 'LICENSE', 'README.md', 'RULES.md', 'docs', 'lib', 'node_modules', 'package.json'];

// The consumer app, in the shape `cdk8s init typescript-app` gives it.
const CDK8S_YAML = 'language: typescript\napp: npx ts-node main.ts\n';
const TSCONFIG = {
  compilerOptions: { target: 'ES2017', lib: ['es2016'], module: 'CommonJS', strict: true, declaration: true, noEmitOnError: true },
  include: ['**/*.ts'],
  exclude: ['node_modules'],
};
const MAIN_TS = `import { Autoscaler, GitOpsApp, HpaManagedDeployment, SafeApplication, SafeProject } from '${PKG.name}';

const repoUrl = 'https://git.acme.internal/platform/gitops.git';
const app = new GitOpsApp();

const payments = new SafeProject(app, 'payments', {
  name: 'payments',
  sourceRepos: [repoUrl],
  destinations: [{ namespace: 'payments' }],
});

const checkout = new SafeApplication(app, 'checkout', {
  name: 'checkout',
  project: payments,
  repoUrl,
  destinationNamespace: 'payments',
});

new HpaManagedDeployment(checkout, 'web', {
  metadata: { name: 'checkout-web' },
  autoscaler: Autoscaler.hpa({ minReplicas: 2, maxReplicas: 6, cpuUtilizationPercent: 70 }),
  containers: [{ name: 'web', image: 'registry.acme.internal/payments/checkout:1.0.0', portNumber: 8080 }],
});

app.synth();
`;

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment of the commands run in the consumer app: this process's, without what npm sets for the
 * script or `npm exec` that runs this test (this package, its lifecycle, its prefix, an `npm exec -c` command,
 * which a nested npx would run instead of its own), so that npm and npx there work on the app alone.
 */
function consumerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_package_|npm_lifecycle_|npm_config_local_prefix$|npm_config_call$|npm_command$|init_cwd$)/i.test(key)) {
      env[key] = value;
    }
  }
  return env;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Run {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) {
    throw r.error;
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs a command that must succeed; a failure throws with its output. */
function mustRun(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Run {
  const r = run(command, args, cwd, env);
  if (r.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  }
  return r;
}

let work: string;
let tarball: string;
let shipped: string[];
let unpacked: string;
let consumer: string;
let synth: Run;

beforeAll(() => {
  work = tempDir();
  const packDir = join(work, 'pack');
  mkdirSync(packDir);
  mustRun('npm', ['pack', '--pack-destination', packDir], REPO);
  tarball = join(packDir, `${PKG.name}-${PKG.version}.tgz`);

  shipped = mustRun('tar', ['tzf', tarball], work).stdout.split('\n').filter((l) => l !== '')
    .map((l) => l.replace(/^package\//, ''));
  unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  mustRun('tar', ['xzf', tarball, '-C', unpacked], work);

  consumer = join(work, 'app');
  mkdirSync(consumer);
  const env = consumerEnv();
  // A GitOps repository is a Git repository: `safe-argocd audit` resolves source paths from its root.
  mustRun('git', ['init', '--quiet'], consumer, env);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer-app', version: '1.0.0', private: true }, null, 2));
  writeFileSync(join(consumer, 'cdk8s.yaml'), CDK8S_YAML);
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  writeFileSync(join(consumer, 'main.ts'), MAIN_TS);
  const versionOf = (name: string) => `${name}@${PKG.devDependencies[name]}`;
  mustRun('npm', [
    'install', '--no-audit', '--no-fund', '--prefer-offline',
    tarball,
    ...['cdk8s', 'cdk8s-plus-28', 'constructs', 'cdk8s-cli', 'ts-node', 'typescript'].map(versionOf),
  ], consumer, env);
  synth = run('npx', ['--no', '--', 'cdk8s', 'synth', '--no-check-upgrade'], consumer, env);
}, 5 * MINUTES);

afterAll(() => {
  if (work) {
    rmSync(work, { recursive: true, force: true });
  }
});

describe('the packed tarball', () => {
  const own = () => shipped.filter((f) => !f.startsWith('node_modules/'));

  test('holds lib/ with declarations, the assembly, the docs and the bundled dependencies, and nothing else', () => {
    expect([...new Set(shipped.map((f) => f.split('/')[0]))].sort()).toEqual(TOP_LEVEL);
    for (const f of ['lib/index.js', 'lib/index.d.ts', 'lib/cli/bin.js', '.jsii', 'README.md', 'LICENSE', 'API.md', 'RULES.md']) {
      expect(shipped).toContain(f);
    }
    for (const dep of PKG.bundledDependencies) {
      expect(shipped).toContain(`node_modules/${dep}/package.json`);
    }
  });

  test('ships no sources, tests, mutation-testing files, schemas, scripts, benchmarks or examples', () => {
    expect(own().filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    for (const dir of ['src/', 'test/', 'schemas/', 'scripts/', 'bench/', 'examples/']) {
      expect(own().filter((f) => f.startsWith(dir))).toEqual([]);
    }
    expect(own().filter((f) => f === 'MUTATION.md' || f === 'stryker.config.json')).toEqual([]);
  });

  test('ships its JavaScript without source maps', () => {
    const js = own().filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(50);
    const mapped = js.filter((f) => readFileSync(join(unpacked, 'package', f), 'utf8').includes('sourceMappingURL='));
    expect(mapped).toEqual([]);
    expect(own().filter((f) => f.endsWith('.map'))).toEqual([]);
  });

  test('ships every docs/ page the README links to', () => {
    const readme = readFileSync(join(unpacked, 'package', 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((l) => !shipped.includes(l))).toEqual([]);
  });

  test('declares its bin, executable, with a shebang, and the Node versions it runs on', () => {
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8'));
    expect(manifest.bin).toEqual({ 'safe-argocd': 'lib/cli/bin.js' });
    expect(manifest.engines.node).toBe('>= 20.0.0');
    const bin = join(unpacked, 'package', 'lib', 'cli', 'bin.js');
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(() => accessSync(bin, constants.X_OK)).not.toThrow();
  });
});

describe('a cdk8s app with the tarball installed', () => {
  test('synthesizes a GitOps tree whose Application points at its workloads', () => {
    expect(synth.stderr).toBe('');
    expect(synth.status).toBe(0);
    const application = yamlOf(readFileSync(join(consumer, 'dist/applications/payments/Application.checkout.k8s.yaml'), 'utf8'));
    expect(application.kind).toBe('Application');
    expect(application.spec.source.path).toBe('dist/workloads/checkout');
    expect(application.spec.syncPolicy.automated).toMatchObject({ prune: true, selfHeal: true });
    expect(readdirSync(join(consumer, 'dist/workloads/checkout')).sort()).toEqual([
      'Deployment.checkout-web.k8s.yaml',
      'HorizontalPodAutoscaler.checkout-web.k8s.yaml',
    ]);
  });

  test('runs the installed safe-argocd bin', () => {
    const bin = join(consumer, 'node_modules', '.bin', 'safe-argocd');
    expect(existsSync(bin)).toBe(true);
    expect(realpathSync(bin)).toBe(realpathSync(join(consumer, 'node_modules', PKG.name, 'lib', 'cli', 'bin.js')));
  });

  test('safe-argocd --version prints the version of the installed package', () => {
    const r = run('npx', ['--no', '--', 'safe-argocd', '--version'], consumer, consumerEnv());
    expect(r).toEqual({ status: 0, stdout: `${PKG.version}\n`, stderr: '' });
  }, MINUTES);

  test('safe-argocd audit finds the synthesized tree clean', () => {
    const r = run('npx', ['--no', '--', 'safe-argocd', 'audit', 'dist'], consumer, consumerEnv());
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('0 error(s), 0 warning(s), 0 note(s)');
    expect(r.stdout).toContain('1 Application(s), 4 manifest(s) in 4 file(s)');
    expect(r.stdout).not.toContain('not audited');
  }, MINUTES);

  test('the bin is one file of ASCII: it loads none of the package\'s other modules', () => {
    // Start-up reads one file instead of one per module; only jq-wasm and re2js are looked up outside it.
    const text = readFileSync(join(consumer, 'node_modules', PKG.name, 'lib', 'cli', 'bin.js'), 'utf8');
    expect(text.match(/require\(["'][^"']+["']\)/g)?.filter((r) => /["']\.{1,2}\//.test(r)) ?? []).toEqual([]);
    expect(text).toContain('require.resolve("jq-wasm")');
    // One character outside ASCII would have Node decode, and V8 hold, the whole file at two bytes a character.
    expect(text.match(/[^\x00-\x7f]/g) ?? []).toEqual([]);
  });

  test('the installed bin builds a kustomization whose patch targets Applications by a regular expression', async () => {
    // GIVEN a Kustomize folder whose patch turns on auto-sync, without self-heal, for the Applications named `web.*`
    const tree = join(consumer, 'kustomized');
    mkdirSync(tree, { recursive: true });
    const app = (name: string) => [
      'apiVersion: argoproj.io/v1alpha1', 'kind: Application', `metadata: { name: ${name}, namespace: argocd }`,
      'spec:', '  project: payments', '  source: { repoURL: https://git.acme.internal/platform/charts.git, targetRevision: 1.4.2, path: web }',
      '  destination: { server: https://kubernetes.default.svc, namespace: web }', '',
    ].join('\n');
    writeFileSync(join(tree, 'web.yaml'), app('web-eu'));
    writeFileSync(join(tree, 'api.yaml'), app('api-eu'));
    writeFileSync(join(tree, 'kustomization.yaml'), [
      'resources: [web.yaml, api.yaml]', 'patches:', '  - target: { kind: Application, name: "web.*" }', '    patch: |-',
      '      - op: add', '        path: /spec/syncPolicy', '        value: { automated: { prune: true } }', '',
    ].join('\n'));
    const args = ['audit', tree, '--repo-root', consumer, '--repo-url', 'https://git.acme.internal/platform/gitops.git', '--format', 'json'];

    // WHEN the installed bin, whose regular expressions are re2js's from the package's own dependencies, and the sources audit it
    const installed = run('npx', ['--no', '--', 'safe-argocd', ...args], consumer, consumerEnv());
    const sources = await runCli(args);

    // THEN both report the same, byte for byte: auto-sync without self-heal on web-eu, which the patch matched, not on api-eu
    expect(installed.stderr).toBe('');
    expect(installed.status).toBe(sources.code);
    expect(installed.stdout).toBe(sources.stdout);
    const halfEnforced = JSON.parse(installed.stdout).findings.filter((f: { ruleId: string }) => f.ruleId === 'SA001');
    expect(halfEnforced.map((f: { application: string }) => f.application)).toEqual(['web-eu']);
  }, MINUTES);

  test('the installed bin reports on an unsafe tree exactly what the sources do', async () => {
    // GIVEN a tree with findings: an Application without an ignore rule for a Deployment its HPA scales, which declares replicas
    const tree = join(consumer, 'unsafe');
    mkdirSync(join(tree, 'web'), { recursive: true });
    writeFileSync(join(tree, 'app.yaml'), [
      'apiVersion: argoproj.io/v1alpha1', 'kind: Application', 'metadata: { name: web, namespace: argocd }',
      'spec:', '  project: default', '  source: { repoURL: https://git.acme.internal/platform/gitops.git, targetRevision: HEAD, path: unsafe/web }',
      '  destination: { server: https://kubernetes.default.svc, namespace: web }', '  syncPolicy: { automated: { prune: true, selfHeal: true } }', '',
    ].join('\n'));
    writeFileSync(join(tree, 'web', 'all.yaml'), [
      'apiVersion: apps/v1', 'kind: Deployment', 'metadata: { name: web, namespace: web }', 'spec: { replicas: 2 }', '---',
      'apiVersion: autoscaling/v2', 'kind: HorizontalPodAutoscaler', 'metadata: { name: web, namespace: web }',
      'spec: { scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: web }, minReplicas: 2, maxReplicas: 5 }', '',
    ].join('\n'));
    const args = ['audit', tree, '--repo-root', consumer, '--repo-url', 'https://git.acme.internal/platform/gitops.git', '--format', 'json'];

    // WHEN the installed bin and the sources audit it
    const installed = run('npx', ['--no', '--', 'safe-argocd', ...args], consumer, consumerEnv());
    const sources = await runCli(args);

    // THEN both exit 1 with the same report, byte for byte, which holds the autoscaler findings
    expect(installed.stderr).toBe('');
    expect([installed.status, sources.code]).toEqual([1, 1]);
    expect(installed.stdout).toBe(sources.stdout);
    expect(JSON.parse(installed.stdout).findings.map((f: { ruleId: string }) => f.ruleId).sort()).toEqual(['SA005', 'SA006', 'SA101', 'SA102']);
  }, MINUTES);

  test('the installed bin writes a report of megabytes to a pipe read late, whole, before it exits', () => {
    // GIVEN 1,500 Applications with findings: a JSON report of several MB, many times what a pipe holds
    const tree = join(consumer, 'many');
    mkdirSync(tree, { recursive: true });
    for (let i = 0; i < 1500; i++) {
      writeFileSync(join(tree, `app-${i}.yaml`), [
        'apiVersion: argoproj.io/v1alpha1', 'kind: Application', `metadata: { name: app-${i}, namespace: argocd }`,
        'spec:', '  project: default', '  source: { repoURL: https://git.acme.internal/platform/gitops.git, targetRevision: main, path: many }',
        '  destination: { server: https://kubernetes.default.svc, namespace: web }', '',
      ].join('\n'));
    }
    const out = join(work, 'many.json');

    // WHEN its output goes into a pipe whose reader starts only after a second, when the bin has long finished its work
    const r = run('bash', ['-c', '"$0" audit many --repo-root . --repo-url https://git.acme.internal/platform/gitops.git --format json '
      + '| { sleep 1; cat > "$1"; }; echo "${PIPESTATUS[0]}"', join(consumer, 'node_modules', '.bin', 'safe-argocd'), out], consumer, consumerEnv());

    // THEN it exits 1 (findings) only after the reader took the whole report, which parses and names every Application
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('1\n');
    const report = readFileSync(out, 'utf8');
    expect(report.length).toBeGreaterThan(1_000_000);
    const apps = new Set(JSON.parse(report).findings.map((f: { application: string }) => f.application));
    expect(apps.size).toBe(1500);
  }, MINUTES);

  test('safe-argocd simulate runs a jqPathExpression with the installed jq', () => {
    // GIVEN an Application whose ignore rule is a jq expression, and a live Deployment scaled by an autoscaler
    const dir = join(consumer, 'simulate');
    mkdirSync(dir, { recursive: true });
    const deployment = (replicas: number) => JSON.stringify({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'payments' }, spec: { replicas, paused: false },
    });
    writeFileSync(join(dir, 'app.json'), JSON.stringify({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'checkout', namespace: 'argocd' },
      spec: {
        project: 'payments',
        destination: { server: 'https://kubernetes.default.svc', namespace: 'payments' },
        source: { repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'main', path: 'dist/workloads/checkout' },
        ignoreDifferences: [{ group: 'apps', kind: 'Deployment', jqPathExpressions: ['.spec.replicas'] }],
        syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['RespectIgnoreDifferences=true'] },
      },
    }));
    writeFileSync(join(dir, 'desired.json'), deployment(2));
    writeFileSync(join(dir, 'live.json'), deployment(5));

    // WHEN the installed bin simulates it
    const r = run('npx', ['--no', '--', 'safe-argocd', 'simulate', '--app', 'simulate/app.json', '--desired', 'simulate/desired.json',
      '--live', 'simulate/live.json', '--format', 'json'], consumer, consumerEnv());

    // THEN jq ran: the replicas the autoscaler set are not drift
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout);
    expect(report.warnings).toEqual([]);
    expect(report.differences).toEqual([]);
    expect(report.keptIgnored).toEqual(['/spec/replicas']);
  }, MINUTES);

  // Last: `cdk8s synth --stdout` removes dist/, the folder cdk8s.yaml names, before it runs the app.
  test('cdk8s synth -o <absolute folder> names source paths from the Git root', () => {
    const r = run('npx', ['--no', '--', 'cdk8s', 'synth', '--no-check-upgrade', '-o', join(consumer, 'deploy', 'rendered')], consumer, consumerEnv());
    expect(r.status).toBe(0);
    const application = yamlOf(readFileSync(join(consumer, 'deploy/rendered/applications/payments/Application.checkout.k8s.yaml'), 'utf8'));
    expect(application.spec.source.path).toBe('deploy/rendered/workloads/checkout');
  }, MINUTES);

  test('cdk8s synth --stdout prints one valid YAML stream, its source paths those of the folder cdk8s.yaml names', () => {
    const r = run('npx', ['--no', '--', 'cdk8s', 'synth', '--no-check-upgrade', '--stdout'], consumer, consumerEnv());
    expect(r.status).toBe(0);
    const documents = parseAllDocuments(r.stdout);
    expect(documents.flatMap((d) => d.errors)).toEqual([]);
    const manifests = documents.map((d) => d.toJS());
    expect(manifests.map((m) => m.kind).sort()).toEqual(['AppProject', 'Application', 'Deployment', 'HorizontalPodAutoscaler']);
    expect(manifests.find((m) => m.kind === 'Application').spec.source.path).toBe('dist/workloads/checkout');
  }, MINUTES);
});
