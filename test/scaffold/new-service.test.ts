import { readFileSync } from 'fs';
import { dirname, join, normalize } from 'path';
import * as kplus from 'cdk8s-plus-28';
import * as ts from 'typescript';
import * as library from '../../src';
import { nextCommands, PackageVersions, ProjectFile, renderServiceProject, ServiceProjectOptions } from '../../src/scaffold/new-service';

const REPO = join(__dirname, '..', '..');
const OWN = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));

/** The generated project as path -> content. */
function render(options: ServiceProjectOptions, versions?: PackageVersions): Map<string, string> {
  return new Map(renderServiceProject(options, versions).map((f) => [f.path, f.content]));
}

/**
 * Runs a generated TypeScript module in this process. It may import `cdk8s-safe-argocd` (this repository's
 * src), `cdk8s-plus-28` and the given modules, and nothing else.
 */
function load(source: string, modules: { [id: string]: unknown } = {}): any {
  const options = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
  const js = ts.transpileModule(source, { compilerOptions: options }).outputText;
  const known: { [id: string]: unknown } = { 'cdk8s-safe-argocd': library, 'cdk8s-plus-28': kplus, ...modules };
  const resolve = (id: string) => {
    if (!(id in known)) {
      throw new Error(`the generated module imports ${id}, which the generated package.json does not provide here`);
    }
    return known[id];
  };
  const mod = { exports: {} as any };
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

describe('renderServiceProject', () => {
  test('writes a cdk8s app: main program, test, cdk8s config, TypeScript config, package.json, README and .gitignore', () => {
    // WHEN only the service is named
    const files = renderServiceProject({ service: 'orders' });

    // THEN these files, in this order
    expect(files.map((f) => f.path)).toEqual(['README.md', '.gitignore', 'package.json', 'cdk8s.yaml', 'tsconfig.json', 'main.ts', 'main.test.ts']);
  });

  test('package.json: the library, its peers at this package\'s ranges, the tools at the versions this package uses', () => {
    // WHEN the project is rendered with this package's own package.json
    const pkg = JSON.parse(render({ service: 'orders' }).get('package.json')!);

    // THEN it is named after the service, depends on this library and its peers, and builds with the same tools
    expect(pkg.name).toBe('orders');
    expect(pkg.private).toBe(true);
    expect(pkg.dependencies).toEqual({
      'cdk8s': OWN.peerDependencies.cdk8s,
      'cdk8s-plus-28': OWN.peerDependencies['cdk8s-plus-28'],
      'cdk8s-safe-argocd': OWN.version === '0.0.0' ? '*' : `^${OWN.version}`,
      'constructs': OWN.peerDependencies.constructs,
    });
    for (const tool of ['@types/jest', '@types/node', 'cdk8s-cli', 'jest', 'ts-jest', 'ts-node', 'typescript']) {
      expect(pkg.devDependencies[tool]).toBe(OWN.devDependencies[tool]);
    }
    expect(Object.keys(pkg.devDependencies)).toHaveLength(7);
    expect(pkg.scripts).toEqual({ synth: 'cdk8s synth --no-check-upgrade', test: 'jest', audit: 'safe-argocd audit dist --repo-root .' });
  });

  test('package.json: a released version is a caret range, the unreleased 0.0.0 any version', () => {
    // GIVEN this package's ranges at two versions
    const at = (version: string) => ({ ...OWN, version } as PackageVersions);

    // WHEN rendered
    const released = JSON.parse(render({ service: 'orders' }, at('1.4.2')).get('package.json')!);
    const unreleased = JSON.parse(render({ service: 'orders' }, at('0.0.0')).get('package.json')!);

    // THEN
    expect(released.dependencies['cdk8s-safe-argocd']).toBe('^1.4.2');
    expect(unreleased.dependencies['cdk8s-safe-argocd']).toBe('*');
  });

  test('cdk8s.yaml runs main.ts with ts-node and writes to dist/, where main.ts says dist/ lies in the repository', () => {
    // WHEN rendered
    const files = render({ service: 'orders' });

    // THEN cdk8s synth writes dist/, and every source.path starts with dist/ whatever CDK8S_OUTDIR is
    expect(files.get('cdk8s.yaml')).toBe('language: typescript\napp: npx ts-node main.ts\noutput: dist\n');
    expect(files.get('main.ts')).toContain('new GitOpsApp({ outdirFromRepoRoot: \'dist\', ...props })');
    expect(files.get('.gitignore')).toBe('node_modules/\n/dist.safe-argocd-tmp/\n/dist.safe-argocd-old/\n');
  });

  test('the project defaults to the service name; --project names it', () => {
    // WHEN rendered without and with a project
    const own = render({ service: 'orders' }).get('main.ts')!;
    const shop = render({ service: 'orders', project: 'shop' }).get('main.ts')!;

    // THEN the AppProject is named accordingly, and the namespace is the service's either way
    expect(own).toContain('new SafeProject(app, \'project\', {\n    name: \'orders\',');
    expect(shop).toContain('new SafeProject(app, \'project\', {\n    name: \'shop\',');
    expect(shop).toContain('destinations: [{ namespace: \'orders\' }]');
    expect(shop).toContain('destinationNamespace: \'orders\'');
  });

  test('without --hpa: a Deployment with 2 replicas; with --hpa MIN:MAX an HpaManagedDeployment with those bounds', () => {
    // WHEN rendered without and with --hpa
    const fixed = render({ service: 'orders' }).get('main.ts')!;
    const scaled = render({ service: 'orders', hpa: '3:12' }).get('main.ts')!;

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
    const plain = render({ service: 'orders' }).get('main.ts')!;
    const full = render(FULL).get('main.ts')!;

    // THEN
    expect(plain).not.toContain('MigrationHook');
    expect(plain).not.toContain('ExternalSecret');
    expect(full).toContain('new MigrationHook(application, \'migrate\'');
    expect(full).toContain('data: [{ secretKey: \'DATABASE_URL\', remoteKey: \'shop/orders\', remoteProperty: \'DATABASE_URL\' }]');
    expect(full.match(/envVariables: env,/g)).toHaveLength(2);
  });

  test('the README gives the commands to run', () => {
    expect(render({ service: 'orders' }).get('README.md')).toContain('npm install\nnpm run synth && npm run audit');
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
    expect(render({ service: 'orders', hpa: '1:1' }).get('main.ts')).toContain('minReplicas: 1, maxReplicas: 1,');
    expect(render({ service: 'orders', hpa: '1:10000' }).get('main.ts')).toContain('minReplicas: 1, maxReplicas: 10000,');
  });

  test.each([['db/password'], ['1PASSWORD'], ['DB-URL'], ['']])('fails when --external-secret is %j: [SAFE-033] naming --external-secret', (key) => {
    expect(() => renderServiceProject({ service: 'orders', externalSecret: key })).toThrow(/^\[SAFE-033\] safe-argocd new: --external-secret /);
  });
});

describe('the generated program', () => {
  const variants: { [name: string]: ServiceProjectOptions } = {
    'minimal': { service: 'orders' },
    'full': FULL,
    'hpa-only': { service: 'billing-api', project: 'payments', hpa: '1:3' },
    'secret-no-hpa': { service: 'search', migration: true, externalSecret: 'API_TOKEN' },
  };

  test('type-checks against this library with its own tsconfig.json, and so does its test', () => {
    // GIVEN every variant's files
    const projects = Object.fromEntries(Object.entries(variants).map(([name, options]) => [name, renderServiceProject(options)]));

    // WHEN they are type-checked together
    const errors = typeErrors(projects);

    // THEN there is nothing to report
    expect(errors).toEqual([]);
  }, 120_000);

  test.each(Object.entries(variants))('%s: builds an app that renders and passes the rules', (_, options) => {
    // GIVEN the generated main.ts
    const files = render(options);
    const { buildApp } = load(files.get('main.ts')!);

    // WHEN it renders, as cdk8s synth would (without writing)
    const rendered = (buildApp() as library.GitOpsApp).renderFiles();

    // THEN the Application deploys the folder its workloads are in, relative to the generated folder
    const application = rendered.find((f) => f.path.endsWith(`/Application.${options.service}.k8s.yaml`))!;
    expect(application.content).toContain(`path: dist/workloads/${options.service}\n`);
    expect(rendered.filter((f) => f.path.startsWith('workloads/')).every((f) => f.path.startsWith(`workloads/${options.service}/`))).toBe(true);
  });

  // The generated main.test.ts, run here against the generated main.ts and this repository's src.
  for (const [name, options] of Object.entries(variants)) {
    describe(`${name}: its main.test.ts`, () => {
      const files = render(options);
      load(files.get('main.test.ts')!, { './main': load(files.get('main.ts')!) });
    });
  }
});
