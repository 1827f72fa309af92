import * as fs from 'fs';
import * as path from 'path';
import { badValue, ErrorCode } from '../private/errors';
import { isDns1123Label } from '../private/names';
import { compareStrings } from '../private/order';

/** What `safe-argocd new` was asked for. */
export interface ServiceProjectOptions {
  /** The service: its Application, namespace, Deployment and Service are named after it. */
  readonly service: string;
  /**
   * The AppProject the Application belongs to.
   *
   * @default - the service's name
   */
  readonly project?: string;
  /**
   * `MIN:MAX` replicas of an HPA that owns the replica count.
   *
   * @default - a Deployment with 2 replicas and no HPA
   */
  readonly hpa?: string;
  /**
   * Whether a PreSync migration Job runs before every sync.
   *
   * @default false
   */
  readonly migration?: boolean;
  /**
   * A key of the service's Secret, read from the secret store by an ExternalSecret and given to the
   * containers as the environment variable of the same name.
   *
   * @default - no ExternalSecret
   */
  readonly externalSecret?: string;
}

/** The parts of a package.json the generated project's versions are taken from. */
export interface PackageVersions {
  readonly version: string;
  readonly peerDependencies: { readonly [name: string]: string };
  readonly devDependencies: { readonly [name: string]: string };
}

/** One file of the generated project, relative to its folder, `/`-separated. */
export interface ProjectFile {
  readonly path: string;
  readonly content: string;
}

const WHERE = 'safe-argocd new';
const LIBRARY = 'cdk8s-safe-argocd';
const PEERS = ['cdk8s', 'cdk8s-plus-28', 'constructs'];
const DEV_TOOLS = ['@types/jest', '@types/node', 'cdk8s-cli', 'jest', 'ts-jest', 'ts-node', 'typescript'];
/** Where the synth writes, relative to the generated folder, which is the root of the repository Argo CD reads. */
const OUTDIR = 'dist';
/** The HPA's bounds, as `Autoscaler.hpa` accepts them. */
const MAX_REPLICAS = 10000;
/** Portable environment variable names; also valid Secret keys. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The files of a cdk8s app for one service, built with this library: `npm install`, then
 * `npm run synth` writes the GitOps tree to `dist/` and `npm run audit` checks it.
 *
 * The folder is meant to be the root of the repository Argo CD reads, so every `source.path` starts
 * with `dist/`. The service gets its own namespace, named after it, and the project allows that
 * namespace only.
 *
 * @param versions the package.json whose versions the generated package.json uses
 * @throws [SAFE-001] or [SAFE-002] for a bad service or project name, [SAFE-033] for a bad option
 */
export function renderServiceProject(options: ServiceProjectOptions, versions: PackageVersions = thisPackage()): ProjectFile[] {
  const service = checkService(options.service);
  const project = checkProject(options.project ?? service);
  const hpa = options.hpa === undefined ? undefined : parseHpa(options.hpa);
  const secretKey = options.externalSecret === undefined ? undefined : checkSecretKey(options.externalSecret);
  const spec: Spec = { service, project, hpa, migration: options.migration === true, secretKey };
  return [
    { path: 'README.md', content: readme(spec) },
    { path: '.gitignore', content: ['node_modules/', `/${OUTDIR}.safe-argocd-tmp/`, `/${OUTDIR}.safe-argocd-old/`, ''].join('\n') },
    { path: 'package.json', content: packageJson(spec, versions) },
    { path: 'cdk8s.yaml', content: ['language: typescript', 'app: npx ts-node main.ts', `output: ${OUTDIR}`, ''].join('\n') },
    { path: 'tsconfig.json', content: tsconfig() },
    { path: 'main.ts', content: mainTs(spec) },
    { path: 'main.test.ts', content: mainTestTs(spec) },
  ];
}

/**
 * The two commands to run after the project was written to `dir`: install, then synthesize and audit.
 */
export function nextCommands(dir: string): string[] {
  return [`cd ${shellWord(dir)} && npm install`, 'npm run synth && npm run audit'];
}

/** This package's version and the versions of the tools it is built and tested with. */
export function thisPackage(): PackageVersions {
  // Two levels up from src/scaffold and from lib/scaffold alike.
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
  return { version: pkg.version, peerDependencies: pkg.peerDependencies ?? {}, devDependencies: pkg.devDependencies ?? {} };
}

interface Spec {
  readonly service: string;
  readonly project: string;
  readonly hpa?: { readonly min: number; readonly max: number };
  readonly migration: boolean;
  readonly secretKey?: string;
}

function checkService(service: string): string {
  // It also names the Service, whose name Kubernetes checks as a DNS-1035 label: it must start with a letter.
  if (typeof service !== 'string' || !isDns1123Label(service) || !/^[a-z]/.test(service)) {
    throw badValue({
      code: ErrorCode.INVALID_NAME,
      where: WHERE,
      prop: 'service',
      value: service,
      allowed: 'must be a DNS-1123 label that starts with a letter (lowercase letters, digits and "-", at most 63 characters): '
        + 'it names the Application, the namespace, the Deployment and the Service',
      fix: `use e.g. ${JSON.stringify(suggestName(service))}`,
    });
  }
  if (service === 'default' || service.startsWith('kube-')) {
    throw badValue({
      code: ErrorCode.INVALID_NAME,
      where: WHERE,
      prop: 'service',
      value: service,
      allowed: 'must not name a shared or reserved namespace ("default", "kube-..."): the service gets a namespace of its own',
      fix: 'name the namespace after the service, e.g. "orders"',
    });
  }
  return service;
}

function checkProject(project: string): string {
  if (typeof project !== 'string' || !isDns1123Label(project) || project === 'default') {
    throw badValue({
      code: project === 'default' ? ErrorCode.DEFAULT_PROJECT : ErrorCode.INVALID_NAME,
      where: WHERE,
      prop: '--project',
      value: project,
      allowed: 'must be a DNS-1123 label other than "default" (which allows every repository, destination and kind)',
      fix: `name the project after the team, e.g. ${JSON.stringify(project === 'default' ? 'payments' : suggestName(project))}`,
    });
  }
  return project;
}

function parseHpa(text: string): { min: number; max: number } {
  const match = typeof text === 'string' ? /^(\d{1,5}):(\d{1,5})$/.exec(text) : null;
  const min = match ? Number(match[1]) : NaN;
  const max = match ? Number(match[2]) : NaN;
  if (!match || min < 1 || max < min || max > MAX_REPLICAS) {
    throw badValue({
      code: ErrorCode.INVALID_SCAFFOLD_OPTION,
      where: WHERE,
      prop: '--hpa',
      value: text,
      allowed: `must be MIN:MAX, whole numbers with 1 <= MIN <= MAX <= ${MAX_REPLICAS}`,
      fix: 'use e.g. --hpa 2:10',
    });
  }
  return { min, max };
}

function checkSecretKey(key: string): string {
  if (typeof key !== 'string' || key.length > 253 || !ENV_NAME.test(key)) {
    throw badValue({
      code: ErrorCode.INVALID_SCAFFOLD_OPTION,
      where: WHERE,
      prop: '--external-secret',
      value: key,
      allowed: 'must be the name of the Secret key and environment variable: letters, digits and "_", not starting with a digit',
      fix: 'use e.g. --external-secret DATABASE_URL; the secret store path is set in main.ts',
    });
  }
  return key;
}

function suggestName(value: unknown): string {
  const cleaned = String(value ?? '').toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^[^a-z]+|-+$/g, '').slice(0, 63).replace(/-+$/, '');
  return cleaned.length > 0 ? cleaned : 'my-service';
}

/** A word the shell reads back as `text`. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, '\'\\\'\'')}'`;
}

function packageJson(spec: Spec, versions: PackageVersions): string {
  const pick = (from: { readonly [name: string]: string }, names: string[], what: string) => Object.fromEntries(names.map((name) => {
    const range = from[name];
    if (typeof range !== 'string') {
      // This package's own package.json is broken: not a user error.
      throw new Error(`${LIBRARY}'s package.json has no ${what} ${name}`);
    }
    return [name, range];
  }));
  const pkg = {
    name: spec.service,
    version: '0.1.0',
    private: true,
    description: `The GitOps tree of the ${spec.service} service, written with ${LIBRARY}`,
    scripts: {
      // No upgrade check: it needs the internet and prints an error without it, e.g. in CI.
      synth: 'cdk8s synth --no-check-upgrade',
      test: 'jest',
      audit: `safe-argocd audit ${OUTDIR} --repo-root .`,
    },
    // Sorted, as npm writes them back.
    dependencies: sorted({
      [LIBRARY]: versions.version === '0.0.0' ? '*' : `^${versions.version}`,
      ...pick(versions.peerDependencies, PEERS, 'peer dependency'),
    }),
    devDependencies: pick(versions.devDependencies, DEV_TOOLS, 'dev dependency'),
    jest: {
      testEnvironment: 'node',
      testMatch: ['<rootDir>/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', `/${OUTDIR}/`],
      transform: { '^.+\\.ts$': 'ts-jest' },
    },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

function sorted(record: { [name: string]: string }): { [name: string]: string } {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => compareStrings(a, b)));
}

function tsconfig(): string {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      lib: ['es2022'],
      module: 'node16',
      strict: true,
      noImplicitReturns: true,
      noUnusedLocals: true,
      noUnusedParameters: true,
      esModuleInterop: true,
      // ts-jest compiles each file on its own with node16 modules; `cdk8s synth` (ts-node) still type-checks.
      isolatedModules: true,
      skipLibCheck: true,
      types: ['jest', 'node'],
    },
    include: ['*.ts'],
    exclude: ['node_modules', OUTDIR],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

function readme(spec: Spec): string {
  const [, build] = nextCommands('.');
  return [
    `# ${spec.service}`,
    '',
    `The GitOps tree of the ${spec.service} service, written with ${LIBRARY}.`,
    '',
    '```sh',
    'npm install',
    `${build}   # writes ${OUTDIR}/ and checks it`,
    'npm test',
    '```',
    '',
    `- \`main.ts\`: the project \`${spec.project}\` and the Application \`${spec.service}\` with the workloads it deploys to the`,
    `  namespace \`${spec.service}\`. Set \`REPO\` and \`IMAGE\` to your repository and image first.`,
    `- \`${OUTDIR}/\`: what Argo CD reads. Commit it. This folder is the root of that repository, so every`,
    `  \`source.path\` starts with \`${OUTDIR}/\`; if it lives elsewhere in the repository, change \`outdirFromRepoRoot\`.`,
    `- \`${OUTDIR}/applications/${spec.project}/\`: the Application and the AppProject. Apply them once, or point an`,
    '  app-of-apps root at that folder.',
    '',
  ].join('\n');
}

function mainTs(spec: Spec): string {
  const { service, project, hpa, migration, secretKey } = spec;
  const imports = [
    ...(hpa ? ['Autoscaler'] : []),
    ...(secretKey ? ['ExternalSecret', 'ExternalSecretStore'] : []),
    'GitOpsApp', 'GitOpsAppProps',
    ...(hpa ? ['HpaManagedDeployment'] : []),
    ...(migration ? ['MigrationHook'] : []),
    'SafeApplication', 'SafeProject',
    ...(secretKey ? ['SecretStoreKind'] : []),
  ];
  // Both the service and its migration read the secret, when there is one.
  const envLine = (indent: string) => (secretKey ? [`${indent}envVariables: env,`] : []);
  const container = [
    `      name: '${service}',`,
    '      image: IMAGE,',
    '      portNumber: 8080,',
    ...envLine('      '),
    '      securityContext: { user: 10001, group: 10001 },',
  ];

  const lines: string[] = [
    // cdk8s-plus for the plain Deployment and for reading the Secret.
    ...(!hpa || secretKey ? ['import * as kplus from \'cdk8s-plus-28\';'] : []),
    importLine(imports, LIBRARY),
    '',
    '// The repository Argo CD reads (this folder is its root) and the image to deploy: replace them with yours.',
    `const REPO = 'https://git.example.com/${project}/${service}.git';`,
    `const IMAGE = 'registry.example.com/${project}/${service}:0.1.0';`,
    '',
    '/**',
    ` * The ${service} service: the ${project} project, and one SafeApplication with the workloads it deploys`,
    ` * to the namespace ${service}.`,
    ' */',
    'export function buildApp(props: GitOpsAppProps = {}): GitOpsApp {',
    `  // This folder is the repository's root: every source.path starts with ${OUTDIR}/, wherever CDK8S_OUTDIR points.`,
    `  const app = new GitOpsApp({ outdirFromRepoRoot: '${OUTDIR}', ...props });`,
    '',
    '  // What the project\'s Applications may do: this repository, this namespace, no cluster-scoped kinds.',
    '  const project = new SafeProject(app, \'project\', {',
    `    name: '${project}',`,
    '    sourceRepos: [REPO],',
    `    destinations: [{ namespace: '${service}' }],`,
    '  });',
    '',
    '  // Automated sync that always prunes and self-heals; the rules run over everything it deploys.',
    `  const application = new SafeApplication(app, '${service}', {`,
    `    name: '${service}',`,
    '    project,',
    '    repoUrl: REPO,',
    `    destinationNamespace: '${service}',`,
    '  });',
  ];
  if (secretKey) {
    lines.push(
      '',
      '  // The value comes from the secret store; no secret value is ever in Git. Set the store and the path to yours.',
      '  new ExternalSecret(application, \'secret\', {',
      `    name: '${service}',`,
      '    store: ExternalSecretStore.fromName(\'platform-secrets\', SecretStoreKind.CLUSTER_SECRET_STORE),',
      `    data: [{ secretKey: '${secretKey}', remoteKey: '${project}/${service}', remoteProperty: '${secretKey}' }],`,
      '  });',
      `  const secret = kplus.Secret.fromSecretName(application, 'secret-ref', '${service}');`,
      `  const env = { ${secretKey}: kplus.EnvValue.fromSecretValue({ secret, key: '${secretKey}' }) };`,
    );
  }
  if (migration) {
    lines.push(
      '',
      '  // Runs before anything else of the app is applied; if it fails, the sync stops and the old code keeps running.',
      '  new MigrationHook(application, \'migrate\', {',
      '    container: {',
      '      image: IMAGE,',
      '      command: [\'./migrate\'], // replace with the command that migrates your schema',
      ...envLine('      '),
      '      securityContext: { user: 10001, group: 10001 },',
      '    },',
      '  });',
    );
  }
  if (hpa) {
    lines.push(
      '',
      '  // The HPA owns the replica count: no replicas in Git, and Argo CD leaves /spec/replicas alone.',
      '  const web = new HpaManagedDeployment(application, \'web\', {',
      `    metadata: { name: '${service}' },`,
      `    autoscaler: Autoscaler.hpa({ minReplicas: ${hpa.min}, maxReplicas: ${hpa.max}, cpuUtilizationPercent: 70 }),`,
      '    containers: [{',
      ...container,
      '    }],',
      '  });',
      `  web.deployment.exposeViaService({ name: '${service}', ports: [{ port: 80, targetPort: 8080 }] });`,
    );
  } else {
    lines.push(
      '',
      '  // A fixed replica count, kept by self-heal. For an autoscaled one, use HpaManagedDeployment.',
      '  const web = new kplus.Deployment(application, \'web\', {',
      `    metadata: { name: '${service}' },`,
      '    replicas: 2,',
      '    containers: [{',
      ...container,
      '    }],',
      '  });',
      `  web.exposeViaService({ name: '${service}', ports: [{ port: 80, targetPort: 8080 }] });`,
    );
  }
  lines.push(
    '',
    '  return app;',
    '}',
    '',
    '// `npx cdk8s synth` and `npx ts-node main.ts` both run this, from this folder.',
    'if (require.main === module) {',
    '  buildApp().synth();',
    '}',
    '',
  );
  return lines.join('\n');
}

function mainTestTs(spec: Spec): string {
  const { service, project, hpa, migration, secretKey } = spec;
  const workloads = [
    `workloads/${service}/Deployment.${service}.k8s.yaml`,
    ...(secretKey ? [`workloads/${service}/ExternalSecret.${service}.k8s.yaml`] : []),
    ...(hpa ? [`workloads/${service}/HorizontalPodAutoscaler.${service}.k8s.yaml`] : []),
    ...(migration ? [`workloads/${service}/Job.${migrationPrefix(service)}.k8s.yaml`] : []),
    `workloads/${service}/Service.${service}.k8s.yaml`,
  ];
  const files = [
    `applications/${project}/AppProject.${project}.k8s.yaml`,
    `applications/${project}/Application.${service}.k8s.yaml`,
    `runbooks/${service}.md`,
    ...workloads,
  ].sort();
  const lines = [
    'import { buildApp } from \'./main\';',
    '',
    `describe('${service}', () => {`,
    '  // GIVEN the app, rendered without writing: the rules run first and throw listing every violation',
    '  const files = new Map(buildApp().renderFiles().map((f) => [f.path, f.content]));',
    `  const application = files.get('applications/${project}/Application.${service}.k8s.yaml') ?? '';`,
    `  const deployment = files.get('workloads/${service}/Deployment.${service}.k8s.yaml') ?? '';`,
    '',
    '  test(\'renders the project, the Application and its workloads\', () => {',
    '    expect([...files.keys()]).toEqual([',
    ...files.map((f) => `      '${f}',`),
    '    ]);',
    '  });',
    '',
    '  test(\'the Application deploys the folder its workloads are written to\', () => {',
    `    expect(application).toContain('path: ${OUTDIR}/workloads/${service}\\n');`,
    `    expect(application).toContain('namespace: ${service}\\n');`,
    '    expect(application).toContain(\'selfHeal: true\\n\');',
    '  });',
    '',
  ];
  if (hpa) {
    lines.push(
      '  test(\'the HPA owns the replica count: Git declares none, and Argo CD ignores it\', () => {',
      '    expect(deployment).not.toContain(\'replicas:\');',
      '    expect(application).toContain(\'- /spec/replicas\\n\');',
      '    expect(application).toContain(\'- RespectIgnoreDifferences=true\\n\');',
      '  });',
    );
  } else {
    lines.push(
      '  test(\'the Deployment declares its replica count, and Argo CD keeps it\', () => {',
      '    expect(deployment).toContain(\'replicas: 2\\n\');',
      '    expect(application).not.toContain(\'ignoreDifferences\');',
      '  });',
    );
  }
  if (migration) {
    lines.push(
      '',
      '  test(\'the migration runs before the sync, and a failure stops it\', () => {',
      `    expect(files.get('workloads/${service}/Job.${migrationPrefix(service)}.k8s.yaml')).toContain('argocd.argoproj.io/hook: PreSync\\n');`,
      '  });',
    );
  }
  if (secretKey) {
    lines.push(
      '',
      '  test(\'no secret value is in Git: the Deployment reads it from the Secret the operator writes\', () => {',
      '    expect([...files.values()].some((text) => /^kind: Secret$/m.test(text))).toBe(false);',
      `    expect(deployment).toContain('name: ${secretKey}\\n');`,
      '  });',
    );
  }
  lines.push('});', '');
  return lines.join('\n');
}

/** One import line, or one name list of at most 110 characters a line, as the examples write them. */
function importLine(names: string[], from: string): string {
  const line = `import { ${names.join(', ')} } from '${from}';`;
  if (line.length <= 120) {
    return line;
  }
  const rows: string[] = [];
  for (const name of names) {
    const last = rows.length - 1;
    if (last >= 0 && rows[last].length + name.length + 2 <= 110) {
      rows[last] += ` ${name},`;
    } else {
      rows.push(`  ${name},`);
    }
  }
  return ['import {', ...rows, `} from '${from}';`].join('\n');
}

/** The MigrationHook's default name for id `migrate`, as the synth names its file. */
function migrationPrefix(service: string): string {
  return `${service}-migrate`.slice(0, 36).replace(/-+$/, '');
}
