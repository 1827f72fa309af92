import { readFileSync } from 'fs';
import { dirname, join, normalize, posix } from 'path';
import * as kplus from 'cdk8s-plus-28';
import * as ts from 'typescript';
import * as library from '../../src';
import { addServiceToApp, ExistingApp, nextCommands, PackageVersions, ProjectFile, renderServiceProject, ServiceProjectOptions } from '../../src/scaffold/new-service';

const REPO = join(__dirname, '..', '..');
const OWN = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));

/** The generated project as path -> content. */
function render(options: ServiceProjectOptions, versions?: PackageVersions): Map<string, string> {
  return new Map(renderServiceProject(options, versions).map((f) => [f.path, f.content]));
}

/**
 * Runs a generated project's module in this process, with the modules it imports from the project (relative
 * paths, resolved among `files`). Besides those it may import `cdk8s-safe-argocd` (this repository's src) and
 * `cdk8s-plus-28`, and nothing else.
 */
function load(files: Map<string, string>, entry: string, cache = new Map<string, unknown>()): any {
  if (cache.has(entry)) {
    return cache.get(entry);
  }
  const source = files.get(entry);
  if (source === undefined) {
    throw new Error(`the generated project has no ${entry}`);
  }
  const options = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
  const js = ts.transpileModule(source, { compilerOptions: options }).outputText;
  const known: { [id: string]: unknown } = { 'cdk8s-safe-argocd': library, 'cdk8s-plus-28': kplus };
  const mod = { exports: {} as any };
  cache.set(entry, mod.exports);
  const resolve = (id: string) => {
    if (id.startsWith('./')) {
      const base = posix.join(posix.dirname(entry), id);
      const file = [`${base}.ts`, `${base}/index.ts`].find((f) => files.has(f));
      if (file === undefined) {
        throw new Error(`${entry} imports ${id}, which the generated project does not have`);
      }
      return load(files, file, cache);
    }
    if (!(id in known)) {
      throw new Error(`${entry} imports ${id}, which the generated package.json does not provide here`);
    }
    return known[id];
  };
  // No require.main: the generated main.ts synthesizes only when run as a program.
  new Function('require', 'module', 'exports', js)(resolve, mod, mod.exports);
  return mod.exports;
}

/**
 * Type-checks generated projects, each with its own tsconfig.json, against this repository's src
 * (`cdk8s-safe-argocd` mapped to src/index.ts). The files stay in memory, at paths inside test/ so
 * that cdk8s, cdk8s-plus-28 and the @types resolve from this repository's node_modules.
 */
function typeErrors(projects: { [name: string]: ProjectFile[] }): string[] {
  const virtual = new Map<string, string>();
  const errors: string[] = [];
  let options: ts.CompilerOptions | undefined;
  for (const [name, files] of Object.entries(projects)) {
    const dir = join(__dirname, '__generated__', name);
    for (const f of files) {
      virtual.set(normalize(join(dir, f.path)), f.content);
    }
    const tsconfig = JSON.parse(files.find((f) => f.path === 'tsconfig.json')!.content);
    const converted = ts.convertCompilerOptionsFromJson(tsconfig.compilerOptions, dir);
    errors.push(...converted.errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')));
    options = converted.options;
  }
  const compilerOptions: ts.CompilerOptions = { ...options, noEmit: true, paths: { 'cdk8s-safe-argocd': [join(REPO, 'src', 'index.ts')] } };
  const host = ts.createCompilerHost(compilerOptions);
  const { fileExists, readFile, getSourceFile } = host;
  const dirs = new Set([...virtual.keys()].map((f) => dirname(f)));
  host.fileExists = (f) => virtual.has(normalize(f)) || fileExists.call(host, f);
  host.directoryExists = (d) => dirs.has(normalize(d)) || ts.sys.directoryExists(d);
  host.readFile = (f) => virtual.get(normalize(f)) ?? readFile.call(host, f);
  host.getSourceFile = (f, language, ...rest) => {
    const text = virtual.get(normalize(f));
    return text === undefined ? getSourceFile.call(host, f, language, ...rest) : ts.createSourceFile(f, text, language);
  };
  const program = ts.createProgram([...virtual.keys()].filter((f) => f.endsWith('.ts')), compilerOptions, host);
  // Only the generated files: this repository's src is checked by its own build.
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => !d.file || virtual.has(normalize(d.file.fileName)));
  return [...errors, ...diagnostics.map((d) => {
    const where = d.file ? `${d.file.fileName.slice(REPO.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : '';
    return `${where}TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  })];
}

const FULL: ServiceProjectOptions = { service: 'orders', project: 'shop', hpa: '2:6', migration: true, externalSecret: 'DATABASE_URL' };
const NEW_APP = ['README.md', '.gitignore', 'package.json', 'cdk8s.yaml', 'tsconfig.json', 'main.ts', 'main.test.ts',
  'services/service.ts', 'services/index.ts'];

/** An app made by renderServiceProject, as addServiceToApp reads it. */
function existing(files: Map<string, string>): ExistingApp {
  return {
    servicesIndex: files.get('services/index.ts'),
    serviceFiles: [...files.keys()].filter((p) => p.startsWith('services/')).map((p) => p.slice('services/'.length)),
  };
}

/** A new app with `first`, then each of `more` added, as path -> content. */
function appWith(first: ServiceProjectOptions, ...more: ServiceProjectOptions[]): Map<string, string> {
  const files = render(first);
  for (const options of more) {
    for (const f of addServiceToApp(options, existing(files))) {
      files.set(f.path, f.content);
    }
  }
  return files;
}

describe('renderServiceProject: a new app', () => {
  test('writes a cdk8s app: main program, its test, the service table, one file for the service, configs and README', () => {
    // WHEN only the service is named
    const files = renderServiceProject({ service: 'orders' });

    // THEN these files, in this order
    expect(files.map((f) => f.path)).toEqual([...NEW_APP, 'services/orders.ts']);
  });

  test('package.json: this library at a caret range, its peers at this package\'s ranges, the tools at the versions this package uses', () => {
    // WHEN the project is rendered with this package's own package.json
    const pkg = JSON.parse(render({ service: 'orders', project: 'shop' }).get('package.json')!);

    // THEN it is named after the project, depends on this library and its peers, and builds with the same tools
    expect(pkg.name).toBe('shop-gitops');
    expect(pkg.private).toBe(true);
    expect(pkg.dependencies).toEqual({
      'cdk8s': OWN.peerDependencies.cdk8s,
      'cdk8s-plus-28': OWN.peerDependencies['cdk8s-plus-28'],
      'cdk8s-safe-argocd': `^${OWN.version}`,
      'constructs': OWN.peerDependencies.constructs,
    });
    for (const tool of ['@types/jest', '@types/node', 'cdk8s-cli', 'jest', 'ts-jest', 'ts-node', 'typescript']) {
      expect(pkg.devDependencies[tool]).toBe(OWN.devDependencies[tool]);
    }
    expect(Object.keys(pkg.devDependencies)).toHaveLength(7);
    expect(pkg.scripts).toEqual({ synth: 'ts-node main.ts', test: 'jest', audit: 'safe-argocd audit dist --repo-root .' });
  });

  test('package.json: never "*": a caret range of this version, released or not, or the --library spec as given', () => {
    // GIVEN this package's ranges at two versions
    const at = (version: string) => ({ ...OWN, version } as PackageVersions);

    // WHEN rendered
    const dependency = (options: ServiceProjectOptions, versions?: PackageVersions) => JSON.parse(render(options, versions).get('package.json')!)
      .dependencies['cdk8s-safe-argocd'];

    // THEN
    expect(dependency({ service: 'orders' }, at('1.4.2'))).toBe('^1.4.2');
    expect(dependency({ service: 'orders' }, at('0.0.0'))).toBe('^0.0.0');
    expect(dependency({ service: 'orders', library: 'file:../cdk8s-safe-argocd-1.4.2.tgz' })).toBe('file:../cdk8s-safe-argocd-1.4.2.tgz');
  });

  test('package.json: the audit reads the repository from its root, given relative to the app', () => {
    const pkg = JSON.parse(render({ service: 'orders', repoRoot: '../..' }).get('package.json')!);
    expect(pkg.scripts.audit).toBe('safe-argocd audit dist --repo-root ../..');
  });

  test('cdk8s.yaml runs main.ts with ts-node and writes to dist/; main.ts leaves the repository root to the library', () => {
    // WHEN rendered
    const files = render({ service: 'orders' });

    // THEN cdk8s synth writes dist/, and the source.path of each app is found from the Git root at synth
    expect(files.get('cdk8s.yaml')).toBe('language: typescript\napp: npx ts-node main.ts\noutput: dist\n');
    expect(files.get('main.ts')).toContain('const app = new GitOpsApp(props);');
    expect(files.get('main.ts')).not.toContain('outdirFromRepoRoot');
    expect(files.get('.gitignore')).toBe('node_modules/\n/dist.safe-argocd-*\n');
  });

  test('the project defaults to the service name; --project names it', () => {
    expect(render({ service: 'orders' }).get('services/orders.ts')).toContain('  project: \'orders\',\n');
    expect(render({ service: 'orders', project: 'shop' }).get('services/orders.ts')).toContain('  project: \'shop\',\n');
  });

  test('--repo-url and --image replace the placeholders, which are example.com addresses otherwise', () => {
    // WHEN rendered with and without them
    const placeholders = render({ service: 'orders', project: 'shop' });
    const given = render({ service: 'orders', project: 'shop', repoUrl: 'git@git.acme.test:platform/gitops.git', image: 'registry.acme.test/shop/orders:1.0.0' });

    // THEN
    expect(placeholders.get('main.ts')).toContain('const REPO = \'https://git.example.com/shop/gitops.git\';');
    expect(placeholders.get('services/orders.ts')).toContain('const IMAGE = \'registry.example.com/shop/orders:0.1.0\';');
    expect(given.get('main.ts')).toContain('const REPO = \'git@git.acme.test:platform/gitops.git\';');
    expect(given.get('services/orders.ts')).toContain('const IMAGE = \'registry.acme.test/shop/orders:1.0.0\';');
  });

  test('without --hpa: a Deployment with 2 replicas; with --hpa MIN:MAX an HpaManagedDeployment with those bounds', () => {
    // WHEN rendered without and with --hpa
    const fixed = render({ service: 'orders' }).get('services/orders.ts')!;
    const scaled = render({ service: 'orders', hpa: '3:12' }).get('services/orders.ts')!;

    // THEN
    expect(fixed).toContain('new kplus.Deployment(application, \'web\'');
    expect(fixed).toContain('replicas: 2,');
    expect(fixed).not.toContain('new HpaManagedDeployment');
    expect(scaled).toContain('new HpaManagedDeployment(application, \'web\'');
    expect(scaled).toContain('Autoscaler.hpa({ minReplicas: 3, maxReplicas: 12, cpuUtilizationPercent: 70 })');
    expect(scaled).not.toContain('replicas: 2');
  });

  test('--migration adds a MigrationHook; --external-secret KEY an ExternalSecret whose key both containers read', () => {
    // WHEN rendered without and with both
    const plain = render({ service: 'orders' }).get('services/orders.ts')!;
    const full = render(FULL).get('services/orders.ts')!;

    // THEN
    expect(plain).not.toContain('MigrationHook');
    expect(plain).not.toContain('ExternalSecret');
    expect(full).toContain('new MigrationHook(application, \'migrate\'');
    expect(full).toContain('data: [{ secretKey: \'DATABASE_URL\', remoteKey: \'shop/orders\', remoteProperty: \'DATABASE_URL\' }]');
    expect(full.match(/envVariables: env,/g)).toHaveLength(2);
  });

  test('the README gives the commands to run, and how to add a service', () => {
    const readme = render({ service: 'orders' }).get('README.md')!;
    expect(readme).toContain('npm install\nnpm run synth && npm run audit');
    expect(readme).toContain('npx safe-argocd new <service> --project <team>');
  });

  test('nextCommands: install in the folder, then synthesize and audit; a folder with spaces is quoted', () => {
    expect(nextCommands('./orders')).toEqual(['cd ./orders && npm install', 'npm run synth && npm run audit']);
    expect(nextCommands('/tmp/my services/orders')).toEqual(['cd \'/tmp/my services/orders\' && npm install', 'npm run synth && npm run audit']);
  });

  test.each([
    ['Orders'], ['orders_api'], ['-orders'], ['orders-'], ['9orders'], [''], ['a'.repeat(64)], ['default'], ['kube-orders'],
  ])('fails when the service name is %j: [SAFE-001] naming service', (service) => {
    expect(() => renderServiceProject({ service })).toThrow(/^\[SAFE-001\] safe-argocd new: service /);
  });

  test('fails when the project is not a DNS-1123 label: [SAFE-001] naming --project', () => {
    expect(() => renderServiceProject({ service: 'orders', project: 'Shop Team' })).toThrow(/^\[SAFE-001\] safe-argocd new: --project is "Shop Team"/);
  });

  test('fails when the project is default: [SAFE-002] naming --project', () => {
    expect(() => renderServiceProject({ service: 'orders', project: 'default' })).toThrow(/^\[SAFE-002\] safe-argocd new: --project is "default"/);
  });

  test.each([
    ['3'], ['0:2'], ['5:2'], ['a:b'], ['2:'], ['-1:3'], ['2:3:4'], [' 2:3'], ['1.5:3'], ['1:10001'],
  ])('fails when --hpa is %j: [SAFE-033] naming --hpa', (hpa) => {
    expect(() => renderServiceProject({ service: 'orders', hpa })).toThrow(/^\[SAFE-033\] safe-argocd new: --hpa .*MIN:MAX/);
  });

  test('--hpa accepts 1:1 and 1:10000', () => {
    expect(render({ service: 'orders', hpa: '1:1' }).get('services/orders.ts')).toContain('minReplicas: 1, maxReplicas: 1,');
    expect(render({ service: 'orders', hpa: '1:10000' }).get('services/orders.ts')).toContain('minReplicas: 1, maxReplicas: 10000,');
  });

  test.each([['db/password'], ['1PASSWORD'], ['DB-URL'], ['']])('fails when --external-secret is %j: [SAFE-033] naming --external-secret', (key) => {
    expect(() => renderServiceProject({ service: 'orders', externalSecret: key })).toThrow(/^\[SAFE-033\] safe-argocd new: --external-secret /);
  });

  test.each([['/local/path'], ['https://git example.com/x'], ['git.example.com/x.git'], ['https://git.example.com/x\'.git'], ['']])(
    'fails when --repo-url is %j: [SAFE-003] naming --repo-url', (repoUrl) => {
      expect(() => renderServiceProject({ service: 'orders', repoUrl })).toThrow(/^\[SAFE-003\] safe-argocd new: --repo-url .*Fix: /);
    });

  test.each([['registry.example.com/orders:1 0'], ['orders\'; process.exit(1); \''], [''], [':1.0']])(
    'fails when --image is %j: [SAFE-033] naming --image', (image) => {
      expect(() => renderServiceProject({ service: 'orders', image })).toThrow(/^\[SAFE-033\] safe-argocd new: --image .*Fix: /);
    });

  test.each([[''], [' 1.0.0'], ['1.0.0"'], ['a\nb']])('fails when --library is %j: [SAFE-033] naming --library', (spec) => {
    expect(() => renderServiceProject({ service: 'orders', library: spec })).toThrow(/^\[SAFE-033\] safe-argocd new: --library .*Fix: /);
  });
});

describe('addServiceToApp: one more service in an app made by new', () => {
  test('writes the service\'s file and adds it to the table, after the last import and at the end of the list', () => {
    // GIVEN an app with orders
    const files = render({ service: 'orders', project: 'shop' });

    // WHEN billing-api is added
    const added = addServiceToApp({ service: 'billing-api', project: 'shop' }, existing(files));

    // THEN one new file, and the table with one more import and one more entry
    expect(added.map((f) => f.path)).toEqual(['services/billing-api.ts', 'services/index.ts']);
    expect(added[0].content).toContain('export const billingApi: Service = {');
    expect(added[1].content).toBe(files.get('services/index.ts')!
      .replace('import { orders } from \'./orders\';\n', 'import { orders } from \'./orders\';\nimport { billingApi } from \'./billing-api\';\n')
      .replace('  orders,\n];', '  orders,\n  billingApi,\n];'));
  });

  test('fails when the service\'s file exists: [SAFE-034], nothing to write', () => {
    const files = render({ service: 'orders' });
    expect(() => addServiceToApp({ service: 'orders' }, existing(files))).toThrow('[SAFE-034] safe-argocd new: services/orders.ts already exists; nothing was written.');
  });

  test('fails when the app has no services/index.ts: [SAFE-034] saying so', () => {
    expect(() => addServiceToApp({ service: 'orders' }, { serviceFiles: [] }))
      .toThrow(/^\[SAFE-034\] safe-argocd new: this app's services\/index.ts does not exist, so there is nothing to add orders to; nothing was written\. Fix: /);
  });

  test('fails when services/index.ts has no table to add to: [SAFE-034] naming the line it looks for', () => {
    expect(() => addServiceToApp({ service: 'orders' }, { servicesIndex: 'export const ALL = [];\n', serviceFiles: ['index.ts'] }))
      .toThrow('has no table opened by "export const SERVICES: Service[] = [" and closed by "];"');
  });

  test('fails when the table already has the name the service would export: [SAFE-034]', () => {
    const files = render({ service: 'billing-api' });
    const index = files.get('services/index.ts')!;
    expect(() => addServiceToApp({ service: 'billing-api' }, { servicesIndex: index, serviceFiles: ['index.ts'] }))
      .toThrow('[SAFE-034] safe-argocd new: services/index.ts already has billingApi; nothing was written.');
  });

  test('fails on the same bad options as a new app', () => {
    expect(() => addServiceToApp({ service: 'orders', project: 'default' }, existing(render({ service: 'billing' })))).toThrow(/^\[SAFE-002\]/);
  });
});

describe('the generated program', () => {
  const variants: { [name: string]: Map<string, string> } = {
    'minimal': appWith({ service: 'orders' }),
    'full': appWith(FULL),
    'hpa-only': appWith({ service: 'billing-api', project: 'payments', hpa: '1:3' }),
    'secret-no-hpa': appWith({ service: 'search', migration: true, externalSecret: 'API_TOKEN' }),
    // A name long enough that the migration Job's name is cut and hashed.
    'long-name-migration': appWith({ service: 'customer-loyalty-points-ledger', migration: true }),
    // Three services, two teams: the shop project is shared by two of them.
    'three-services': appWith(FULL, { service: 'billing', project: 'shop', externalSecret: 'API_KEY' }, { service: 'search', project: 'catalog', hpa: '2:4' }),
  };

  test('type-checks against this library with its own tsconfig.json, and so does its test', () => {
    // GIVEN every variant's files
    const asFiles = (files: Map<string, string>) => [...files].map(([path, content]) => ({ path, content }));
    const projects = Object.fromEntries(Object.entries(variants).map(([name, files]) => [name, asFiles(files)]));

    // WHEN they are type-checked together
    const errors = typeErrors(projects);

    // THEN there is nothing to report
    expect(errors).toEqual([]);
  }, 120_000);

  test.each(Object.entries(variants))('%s: builds an app that renders and passes the rules', (_, files) => {
    // GIVEN the generated main.ts
    const { buildApp } = load(files, 'main.ts');

    // WHEN it renders, as cdk8s synth would (without writing)
    const rendered = (buildApp() as library.GitOpsApp).renderFiles();

    // THEN each service's Application deploys the folder its workloads are in, from this repository's root
    const services = [...files.keys()].filter((p) => /^services\/[a-z0-9-]+\.ts$/.test(p) && !['services/index.ts', 'services/service.ts'].includes(p));
    for (const file of services) {
      const name = file.slice('services/'.length, -'.ts'.length);
      const application = rendered.find((f) => f.path.endsWith(`/Application.${name}.k8s.yaml`))!;
      expect(application.content).toContain(`path: dist/workloads/${name}\n`);
      expect(rendered.some((f) => f.path.startsWith(`workloads/${name}/`))).toBe(true);
    }
  });

  test('three services of two teams: one AppProject per team, allowing the namespaces of its services only', () => {
    // GIVEN the app with orders and billing (shop) and search (catalog), rendered
    const rendered = new Map((load(variants['three-services'], 'main.ts').buildApp() as library.GitOpsApp).renderFiles().map((f) => [f.path, f.content]));

    // THEN
    expect([...rendered.keys()].filter((p) => p.includes('/AppProject.')))
      .toEqual(['applications/catalog/AppProject.catalog.k8s.yaml', 'applications/shop/AppProject.shop.k8s.yaml']);
    const shop = rendered.get('applications/shop/AppProject.shop.k8s.yaml')!;
    expect(shop.match(/- namespace: (\S+)/g)).toEqual(['- namespace: orders', '- namespace: billing']);
  });

  // The generated main.test.ts, run here against the generated main.ts and this repository's src.
  for (const [name, files] of Object.entries(variants)) {
    describe(`${name}: its main.test.ts`, () => {
      load(files, 'main.test.ts');
    });
  }
});
