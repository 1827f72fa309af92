import { execFileSync, spawnSync } from 'child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'fs';
import { join, parse as parsePath } from 'path';
import { parse, stringify } from 'yaml';
import { CliIo, main } from '../../src/cli/main';
import { readTree, tempDir } from '../support/app';

const REPO = join(__dirname, '..', '..');
const GENERATED = ['README.md', '.gitignore', 'package.json', 'cdk8s.yaml', 'tsconfig.json', 'main.ts', 'main.test.ts',
  'services/service.ts', 'services/index.ts', 'services/orders.ts'];

/** Runs the CLI in-process on the real file system and captures what it prints. */
async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => { stdout += t; },
    stderr: (t) => { stderr += t; },
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
    expect(Object.keys(readTree(dir)).sort()).toEqual([...GENERATED].sort());
    expect(stdout).toBe([
      ...GENERATED.map((f) => `wrote ${join(dir, ...f.split('/'))}`),
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
    expect([...written.keys()]).toEqual(GENERATED.map((f) => join('orders', ...f.split('/'))));
    expect(written.get(join('orders', 'services', 'orders.ts'))).toContain('project: \'shop\'');
    expect(stdout).toContain('  cd ./orders && npm install\n');
  });

  test('the options reach the generated program', async () => {
    // WHEN every option is given
    const { code, written } = await runInMemory(['new', 'orders', '--hpa', '2:6', '--migration', '--external-secret', 'DATABASE_URL', '--dir', 'svc']);

    // THEN the service's file uses each of them
    const mainTs = written.get(join('svc', 'services', 'orders.ts'))!;
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
    expect(stdout).toContain('safe-argocd new <service> [--project <name>] [--hpa MIN:MAX] [--migration] [--external-secret KEY] [--dir <dir>]\n'
      + '                  [--image <ref>] [--repo-url <url>] [--library <version-or-tarball>]');
  });
});

describe('safe-argocd new, end to end: generate, link the local package, synthesize, audit', () => {
  const ADDRESSES = ['--repo-url', 'https://git.acme.internal/shop/gitops.git', '--image', 'registry.acme.internal/shop/orders:1.0.0'];
  test.each([
    // As `cdk8s synth` runs it: CDK8S_OUTDIR=dist, relative to the project.
    ['every option, CDK8S_OUTDIR=dist', ['--project', 'shop', '--hpa', '2:6', '--migration', '--external-secret', 'DATABASE_URL', ...ADDRESSES], 'dist', []],
    // An absolute CDK8S_OUTDIR inside the project does not move source.path.
    ['the addresses only, an absolute CDK8S_OUTDIR', ADDRESSES, undefined, []],
    // The placeholders left in place are warnings: the repository of the Application, the image of the Deployment.
    ['no option', [], 'dist', [
      'SA009 dist/applications/orders/Application.orders.k8s.yaml orders',
      'SA009 dist/workloads/orders/Deployment.orders.k8s.yaml orders',
    ]],
  ])('%s: the synth output audits with exactly the findings expected, the Application paired with its workloads', async (_, options, outdir, expected) => {
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

    // THEN it has the findings expected, and the Application found its workloads (an empty source path would be a note)
    type Finding = { ruleId: string; location: { file: string }; application: string };
    expect(report.findings.map((f: Finding) => `${f.ruleId} ${f.location.file} ${f.application}`).sort()).toEqual(expected);
    expect(report.problems).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.stats.applications).toBe(1);
    expect(report.stats.manifests).toBe(tree.length);
    expect(code).toBe(expected.length === 0 ? 0 : 1);
  }, 60_000);

  test('the pairing is real: without its ignore rule, the HPA-managed Deployment is reported under the Application', async () => {
    // GIVEN a generated, synthesized service with an HPA
    const root = tempDir();
    const project = join(root, 'orders');
    expect((await run(['new', 'orders', '--hpa', '2:6', '--dir', project, ...ADDRESSES])).code).toBe(0);
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

describe('safe-argocd new in a platform repository: services added to one app, one project per team', () => {
  /** Runs the bin entry in `cwd`, as a user runs it. */
  function bin(cwd: string, args: string[]): { code: number; stdout: string; stderr: string } {
    const result = spawnSync(process.execPath, ['-r', join(REPO, 'node_modules', 'ts-node', 'register', 'transpile-only'), join(REPO, 'src', 'cli', 'bin.ts'), ...args], {
      cwd, encoding: 'utf8', env: { ...process.env, TS_NODE_PROJECT: join(REPO, 'test', 'tsconfig.json') },
    });
    return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
  }

  /** A Git repository with an origin remote, holding nothing yet. */
  function platformRepo(): string {
    const repo = join(tempDir(), 'platform');
    mkdirSync(join(repo, 'services'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repo });
    execFileSync('git', ['remote', 'add', 'origin', 'https://git.acme.internal/platform/gitops.git'], { cwd: repo });
    return repo;
  }

  test('twice in one repository: one app, one AppProject per team, source paths from the Git root, audited clean', async () => {
    // GIVEN a platform repository
    const repo = platformRepo();
    const app = join(repo, 'services', 'deploy');

    // WHEN a first service makes the app, a second is added from the repository root, a third from inside the app
    const first = bin(repo, ['new', 'orders', '--project', 'shop', '--hpa', '2:6', '--migration', '--dir', join('services', 'deploy'), '--image', 'registry.acme.internal/shop/orders:1.0.0']);
    const second = bin(repo, ['new', 'billing', '--project', 'shop', '--external-secret', 'API_KEY', '--image', 'registry.acme.internal/shop/billing:1.0.0']);
    const third = bin(join(app, 'services'), ['new', 'search', '--project', 'catalog', '--image', 'registry.acme.internal/catalog/search:2.0.0']);

    // THEN each adds one file to the app (and the table), and nothing is made twice
    expect([first.code, second.code, third.code]).toEqual([0, 0, 0]);
    expect(second.stdout).toBe([
      `wrote ${join('services', 'deploy', 'services', 'billing.ts')}`,
      `updated ${join('services', 'deploy', 'services', 'index.ts')}`,
      `added billing to the app in ${join('services', 'deploy')}`,
      'next:',
      `  cd ${join('services', 'deploy')} && npm run synth && npm run audit`,
      '',
    ].join('\n'));
    expect(Object.keys(readTree(app)).filter((p) => p.startsWith('services/')).sort())
      .toEqual(['services/billing.ts', 'services/index.ts', 'services/orders.ts', 'services/search.ts', 'services/service.ts']);
    expect(readdirSync(join(repo, 'services'))).toEqual(['deploy']);
    const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    expect(pkg.scripts.audit).toBe('safe-argocd audit dist --repo-root ../..');
    expect(readFileSync(join(app, 'main.ts'), 'utf8')).toContain('const REPO = \'https://git.acme.internal/platform/gitops.git\';');

    // WHEN the app synthesizes, as `npm run synth` runs it
    linkLocalPackage(app);
    synth(app, 'dist');

    // THEN one AppProject per team, allowing its services' namespaces; each source.path is from the Git root
    const tree = readTree(join(app, 'dist'));
    expect(Object.keys(tree).filter((p) => p.includes('/AppProject.'))).toEqual(['applications/catalog/AppProject.catalog.k8s.yaml', 'applications/shop/AppProject.shop.k8s.yaml']);
    expect(parse(tree['applications/shop/AppProject.shop.k8s.yaml']).spec.destinations.map((d: { namespace: string }) => d.namespace)).toEqual(['orders', 'billing']);
    for (const [project, name] of [['shop', 'orders'], ['shop', 'billing'], ['catalog', 'search']]) {
      const application = parse(tree[`applications/${project}/Application.${name}.k8s.yaml`]);
      expect(application.spec.source.path).toBe(`services/deploy/dist/workloads/${name}`);
      expect(application.spec.source.repoURL).toBe('https://git.acme.internal/platform/gitops.git');
    }
    expect(tree['workloads/search/Deployment.search.k8s.yaml']).toContain('image: registry.acme.internal/catalog/search:2.0.0\n');

    // WHEN the repository is audited, from its root and as the app's `npm run audit` does
    const fromRoot = await auditJson(repo, repo);
    const asScript = await auditJson(join(app, 'dist'), join(app, '..', '..'));

    // THEN both are clean, and every Application found its workloads
    for (const { code, report } of [fromRoot, asScript]) {
      expect(report.findings).toEqual([]);
      expect(report.notes).toEqual([]);
      expect(report.problems).toEqual([]);
      expect(report.stats.applications).toBe(3);
      expect(code).toBe(0);
    }
  }, 120_000);

  test('fails when the repository has an app and --dir points elsewhere: [SAFE-034], nothing written', () => {
    // GIVEN a repository with an app
    const repo = platformRepo();
    expect(bin(repo, ['new', 'orders', '--dir', join('services', 'deploy')]).code).toBe(0);

    // WHEN a second app is asked for beside it
    const { code, stdout, stderr } = bin(repo, ['new', 'billing', '--dir', join('services', 'billing')]);

    // THEN it refuses, naming the app and the fix
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`[SAFE-034] this repository already has an app of cdk8s-safe-argocd (${join('services', 'deploy')}); another would render its own AppProject`);
    expect(stderr).toContain(`Fix: add the service to it with \`safe-argocd new billing --dir ${join('services', 'deploy')}\``);
    expect(readdirSync(join(repo, 'services'))).toEqual(['deploy']);
  }, 60_000);

  test.each([['./missing.tgz'], ['missing-1.0.0.tgz'], ['../nowhere/lib']])('fails when --library %s is a path where nothing is: exit 2, nothing written', async (library) => {
    // GIVEN a folder for the new app / WHEN it is made with a tarball path that does not exist
    const dir = join(tempDir(), 'shop');
    const result = await run(['new', 'shop', '--dir', dir, '--library', library]);

    // THEN it refuses, naming the path, and writes nothing
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`[SAFE-103] --library ${library} is a path, but nothing is there`);
    expect(existsSync(dir)).toBe(false);
  });

  test('--library with a version range is written as given', async () => {
    // GIVEN / WHEN a new app is made with a range / THEN the dependency is that range
    const { code, written } = await runInMemory(['new', 'shop', '--dir', join(tempDir(), 'shop'), '--library', '~1.2.0']);
    expect(code).toBe(0);
    const pkg = [...written.entries()].find(([p]) => p.endsWith('package.json'))![1];
    expect(JSON.parse(pkg).dependencies['cdk8s-safe-argocd']).toBe('~1.2.0');
  });

  test('--library with a tarball path depends on it by a file: path from the app; the remote origin is the repository', () => {
    // GIVEN a repository and a packed tarball beside it
    const repo = platformRepo();
    writeFileSync(join(repo, 'cdk8s-safe-argocd-1.0.0.tgz'), '');

    // WHEN a new app is made with it
    expect(bin(repo, ['new', 'orders', '--library', 'cdk8s-safe-argocd-1.0.0.tgz', '--dir', 'deploy']).code).toBe(0);

    // THEN
    const pkg = JSON.parse(readFileSync(join(repo, 'deploy', 'package.json'), 'utf8'));
    expect(pkg.dependencies['cdk8s-safe-argocd']).toBe('file:../cdk8s-safe-argocd-1.0.0.tgz');
    expect(pkg.scripts.audit).toBe('safe-argocd audit dist --repo-root ..');
  }, 60_000);
});
