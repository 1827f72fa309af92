import { execFileSync } from 'child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'fs';
import { join, parse as parsePath } from 'path';
import { parse, stringify } from 'yaml';
import { CliIo, main } from '../../src/cli/main';
import { readTree, tempDir } from '../support/app';

const REPO = join(__dirname, '..', '..');
const GENERATED = ['README.md', '.gitignore', 'package.json', 'cdk8s.yaml', 'tsconfig.json', 'main.ts', 'main.test.ts'];

/** Runs the CLI in-process on the real file system and captures what it prints. */
async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => { stdout += t; },
    stderr: (t) => { stderr += t; },
    readFile: (p) => readFileSync(p, 'utf8'),
    readBytes: () => { throw new Error('not expected'); },
    writeFile: (p, t) => writeFileSync(p, t),
    exists: (p) => existsSync(p),
    mkdir: (d) => { mkdirSync(d, { recursive: true }); },
    color: false,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** Runs the CLI in-process with a file system in memory: nothing exists, writes are recorded. */
async function runInMemory(args: string[]) {
  let stdout = '';
  const written = new Map<string, string>();
  const code = await main(args, {
    stdout: (t) => { stdout += t; },
    stderr: () => undefined,
    readFile: () => { throw new Error('not expected'); },
    readBytes: () => { throw new Error('not expected'); },
    writeFile: (p, t) => { written.set(p, t); },
    exists: () => false,
    mkdir: () => undefined,
    color: false,
  });
  return { code, stdout, written };
}

/**
 * Makes `cdk8s-safe-argocd` in the generated project resolve to this repository's src, as `npm install`
 * would resolve the published package, without downloading anything: a package whose main requires
 * src/index.ts (compiled by the ts-node the program runs with), and links to this repository's cdk8s,
 * cdk8s-plus-28 and constructs, so that the app and the library share one copy of each.
 */
function linkLocalPackage(project: string): void {
  const modules = join(project, 'node_modules');
  mkdirSync(join(modules, 'cdk8s-safe-argocd'), { recursive: true });
  writeFileSync(join(modules, 'cdk8s-safe-argocd', 'package.json'), JSON.stringify({ name: 'cdk8s-safe-argocd', version: '0.0.0', main: 'index.js' }));
  writeFileSync(join(modules, 'cdk8s-safe-argocd', 'index.js'), `module.exports = require(${JSON.stringify(join(REPO, 'src', 'index.ts'))});\n`);
  for (const dep of ['cdk8s', 'cdk8s-plus-28', 'constructs']) {
    symlinkSync(join(REPO, 'node_modules', dep), join(modules, dep), 'dir');
  }
}

/** Runs the generated main.ts from its folder the way `cdk8s synth` runs it, with ts-node (transpile only). */
function synth(project: string, outdir: string): void {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TS_NODE_')));
  execFileSync(process.execPath, ['-r', join(REPO, 'node_modules', 'ts-node', 'register', 'transpile-only'), 'main.ts'], {
    cwd: project,
    encoding: 'utf8',
    env: {
      ...env,
      CDK8S_OUTDIR: outdir,
      // The generated tsconfig.json is used; the library's src lies outside the project, which TypeScript 6
      // refuses without a rootDir that holds both (TS5011).
      TS_NODE_COMPILER_OPTIONS: JSON.stringify({ rootDir: parsePath(project).root }),
    },
  });
}

async function auditJson(dist: string, root: string) {
  const result = await run(['audit', dist, '--repo-root', root, '--format', 'json']);
  return { code: result.code, report: JSON.parse(result.stdout) };
}

describe('safe-argocd new', () => {
  test('writes the project into --dir, lists each file, and prints the next two commands', async () => {
    // GIVEN an empty folder
    const dir = join(tempDir(), 'orders');

    // WHEN a service is generated into it
    const { code, stdout, stderr } = await run(['new', 'orders', '--dir', dir]);

    // THEN every file is written and named, and the next commands are printed
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([...GENERATED].sort());
    expect(stdout).toBe([
      ...GENERATED.map((f) => `wrote ${join(dir, f)}`),
      'next:',
      `  cd ${dir} && npm install`,
      '  npm run synth && npm run audit',
      '',
    ].join('\n'));
  });

  test('without --dir, writes to ./<service>', async () => {
    // WHEN only the service is named
    const { code, stdout, written } = await runInMemory(['new', 'orders', '--project', 'shop']);

    // THEN the files go to orders/, and the first command goes there
    expect(code).toBe(0);
    expect([...written.keys()]).toEqual(GENERATED.map((f) => join('orders', f)));
    expect(written.get(join('orders', 'main.ts'))).toContain('name: \'shop\'');
    expect(stdout).toContain('  cd ./orders && npm install\n');
  });

  test('the options reach the generated program', async () => {
    // WHEN every option is given
    const { code, written } = await runInMemory(['new', 'orders', '--hpa', '2:6', '--migration', '--external-secret', 'DATABASE_URL', '--dir', 'svc']);

    // THEN main.ts uses each of them
    const mainTs = written.get(join('svc', 'main.ts'))!;
    expect(code).toBe(0);
    expect(mainTs).toContain('Autoscaler.hpa({ minReplicas: 2, maxReplicas: 6, cpuUtilizationPercent: 70 })');
    expect(mainTs).toContain('new MigrationHook(');
    expect(mainTs).toContain('secretKey: \'DATABASE_URL\'');
  });

  test('fails when a file it would write exists: exit 2 with [SAFE-034] naming it, and nothing written', async () => {
    // GIVEN a folder that already has a main.ts
    const dir = join(tempDir(), 'orders');
    mkdirSync(dir);
    writeFileSync(join(dir, 'main.ts'), '// mine\n');

    // WHEN a service is generated into it
    const { code, stdout, stderr } = await run(['new', 'orders', '--dir', dir]);

    // THEN it refuses, names the file, and leaves the folder as it was
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`[SAFE-034] ${join(dir, 'main.ts')} already exists; nothing was written.`);
    expect(readdirSync(dir)).toEqual(['main.ts']);
    expect(readFileSync(join(dir, 'main.ts'), 'utf8')).toBe('// mine\n');
  });

  test.each([
    [['new'], 'give exactly one service name'],
    [['new', 'orders', 'billing'], 'give exactly one service name, not orders billing'],
    [['new', 'orders', '--replicas', '3'], 'usage:'],
    [['new', 'Orders'], '[SAFE-001] safe-argocd new: service is "Orders"'],
    [['new', 'orders', '--project', 'default'], '[SAFE-002] safe-argocd new: --project is "default"'],
    [['new', 'orders', '--hpa', '0:3'], '[SAFE-033] safe-argocd new: --hpa is "0:3"'],
    [['new', 'orders', '--external-secret', 'db/password'], '[SAFE-033] safe-argocd new: --external-secret is "db/password"'],
  ])('fails when the arguments are wrong: %j exits 2 and writes nothing', async (args, message) => {
    // GIVEN an empty folder
    const root = tempDir();

    // WHEN the CLI is run with bad arguments
    const { code, stdout, stderr } = await run([...args, '--dir', join(root, 'svc')]);

    // THEN exit 2, the reason, and no file
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(readdirSync(root)).toEqual([]);
  });

  test('USAGE lists the command', async () => {
    const { stdout } = await run(['new', '--help']);
    expect(stdout).toContain('safe-argocd new <service> [--project <name>] [--hpa MIN:MAX] [--migration] [--external-secret KEY] [--dir <dir>]');
  });
});

describe('safe-argocd new, end to end: generate, link the local package, synthesize, audit', () => {
  test.each([
    // As `cdk8s synth` runs it: CDK8S_OUTDIR=dist, relative to the project.
    ['every option, CDK8S_OUTDIR=dist', ['--project', 'shop', '--hpa', '2:6', '--migration', '--external-secret', 'DATABASE_URL'], 'dist'],
    // An absolute CDK8S_OUTDIR does not move source.path: the program says where dist/ lies in the repository.
    ['no option, an absolute CDK8S_OUTDIR', [], undefined],
  ])('%s: the synth output audits clean, the Application paired with its workloads', async (_, options, outdir) => {
    // GIVEN a service generated by the bin entry, as a user runs it, with this repository's package linked
    const root = tempDir();
    const project = join(root, 'orders');
    execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', join(REPO, 'src', 'cli', 'bin.ts'), 'new', 'orders', ...options, '--dir', project], {
      encoding: 'utf8', env: { ...process.env, TS_NODE_PROJECT: join(REPO, 'test', 'tsconfig.json') },
    });
    linkLocalPackage(project);

    // WHEN its program synthesizes into the project's dist/
    synth(project, outdir ?? join(project, 'dist'));

    // THEN the tree is where cdk8s.yaml says, and the Application deploys the folder its workloads were written to
    const tree = Object.entries(readTree(join(project, 'dist'))).filter(([path]) => path.endsWith('.yaml'));
    const application = parse(tree.find(([path]) => path.endsWith('/Application.orders.k8s.yaml'))![1]);
    expect(application.spec.source.path).toBe('dist/workloads/orders');
    expect(tree.filter(([path]) => path.startsWith('workloads/orders/')).length).toBeGreaterThanOrEqual(2);

    // WHEN the synth output is audited with the project as the repository root
    const { code, report } = await auditJson(join(project, 'dist'), project);

    // THEN it is clean, and the Application found its workloads (an empty source path would be a note)
    expect(report.findings).toEqual([]);
    expect(report.problems).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.stats.applications).toBe(1);
    expect(report.stats.manifests).toBe(tree.length);
    expect(code).toBe(0);
  }, 60_000);

  test('the pairing is real: without its ignore rule, the HPA-managed Deployment is reported under the Application', async () => {
    // GIVEN a generated, synthesized service with an HPA
    const root = tempDir();
    const project = join(root, 'orders');
    expect((await run(['new', 'orders', '--hpa', '2:6', '--dir', project])).code).toBe(0);
    linkLocalPackage(project);
    synth(project, 'dist');

    // WHEN a copy whose Application lost its ignoreDifferences is audited
    const copy = join(tempDir(), 'orders');
    cpSync(project, copy, { recursive: true, filter: (src) => !src.includes('node_modules') });
    const file = join(copy, 'dist', 'applications', 'orders', 'Application.orders.k8s.yaml');
    const application = parse(readFileSync(file, 'utf8'));
    delete application.spec.ignoreDifferences;
    writeFileSync(file, stringify(application));
    const { code, report } = await auditJson(join(copy, 'dist'), copy);

    // THEN SA102 names the Deployment's file and the Application
    expect(code).toBe(1);
    type Finding = { ruleId: string; location: { file: string }; application: string };
    expect(report.findings.map((f: Finding) => [f.ruleId, f.location.file, f.application]))
      .toContainEqual(['SA102', 'dist/workloads/orders/Deployment.orders.k8s.yaml', 'orders']);
  }, 60_000);
});
