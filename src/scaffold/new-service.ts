import * as fs from 'fs';
import * as path from 'path';
import { AppSpec, mainTestTs, mainTs, readmeMd, SERVICE_TABLE, serviceIndexEntry, serviceIndexTs, ServiceSpec, serviceTs, serviceTypeTs } from './templates';
import { badValue, ErrorCode, failure } from '../core/errors';
import { isDns1123Label, isGitRepoUrl } from '../core/names';
import { compareStrings } from '../core/order';

/** What `safe-argocd new` was asked for. */
export interface ServiceProjectOptions {
  /** The service: its Application, namespace, Deployment and Service are named after it. */
  readonly service: string;
  /**
   * The AppProject the Application belongs to: the team's. Services of one project share it.
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
  /**
   * The image the service deploys.
   *
   * @default - a placeholder under registry.example.com, to replace
   */
  readonly image?: string;
  /**
   * The repository Argo CD reads: the one the synth output is committed to. Only a new app uses it; an
   * existing app has its own.
   *
   * @default - a placeholder under git.example.com, to replace
   */
  readonly repoUrl?: string;
  /**
   * What the new app's package.json depends on for this library: a version range, or `file:<path>` of a
   * packed tarball or a folder, relative to the app.
   *
   * @default - `^` and this library's version
   */
  readonly library?: string;
  /**
   * The root of the Git repository, relative to the new app's folder, for `npm run audit`.
   *
   * @default '.'
   */
  readonly repoRoot?: string;
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

/** An app made by `safe-argocd new`, as read from its folder. */
export interface ExistingApp {
  /** The text of its `services/index.ts`, or undefined when it has none. */
  readonly servicesIndex?: string;
  /** The names of the files in its `services/` folder. */
  readonly serviceFiles: readonly string[];
}

const WHERE = 'safe-argocd new';
export const LIBRARY = 'cdk8s-safe-argocd';
const PEERS = ['cdk8s', 'cdk8s-plus-28', 'constructs'];
const DEV_TOOLS = ['@types/jest', '@types/node', 'cdk8s-cli', 'jest', 'ts-jest', 'ts-node', 'typescript'];
/** Where the synth writes, relative to the app. */
const OUTDIR = 'dist';
/** The services' table, relative to the app. */
export const SERVICES_INDEX = 'services/index.ts';
/** The HPA's bounds, as `Autoscaler.hpa` accepts them. */
const MAX_REPLICAS = 10000;
/** Portable environment variable names; also valid Secret keys. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The files of a new cdk8s app, built with this library, holding one service: `npm install`, then
 * `npm run synth` writes the GitOps tree to `dist/` and `npm run audit` checks it. More services are added
 * with {@link addServiceToApp}.
 *
 * Every `source.path` is relative to the root of the Git repository the app lies in. Each service gets its
 * own namespace, named after it, and its team's project allows the namespaces of the team's services.
 *
 * @param versions the package.json whose versions the generated package.json uses
 * @throws [SAFE-001] or [SAFE-002] for a bad service or project name, [SAFE-033] for a bad option
 */
export function renderServiceProject(options: ServiceProjectOptions, versions: PackageVersions = thisPackage()): ProjectFile[] {
  const spec = serviceSpec(options);
  const app: AppSpec = {
    repoUrl: options.repoUrl === undefined ? `https://git.example.com/${spec.project}/gitops.git` : checkRepoUrl(options.repoUrl),
    outdir: OUTDIR,
    repoRoot: options.repoRoot ?? '.',
  };
  const library = options.library === undefined ? `^${versions.version}` : checkLibrary(options.library);
  return [
    { path: 'README.md', content: readmeMd(app, spec) },
    { path: '.gitignore', content: ['node_modules/', `/${OUTDIR}.safe-argocd-*`, ''].join('\n') },
    { path: 'package.json', content: packageJson(spec, app, library, versions) },
    { path: 'cdk8s.yaml', content: ['language: typescript', 'app: npx ts-node main.ts', `output: ${OUTDIR}`, ''].join('\n') },
    { path: 'tsconfig.json', content: tsconfig() },
    { path: 'main.ts', content: mainTs(app) },
    { path: 'main.test.ts', content: mainTestTs(app) },
    { path: 'services/service.ts', content: serviceTypeTs() },
    { path: SERVICES_INDEX, content: serviceIndexTs(spec) },
    { path: `services/${spec.service}.ts`, content: serviceTs(spec) },
  ];
}

/**
 * The files that add one service to an app made by `safe-argocd new`: the service's own file, and its
 * table `services/index.ts` with the service added. The app's project of that name is reused; nothing else
 * changes.
 *
 * @throws [SAFE-034] when the service's file exists or the app has no table to add it to, and what
 * {@link renderServiceProject} throws for bad options
 */
export function addServiceToApp(options: ServiceProjectOptions, app: ExistingApp): ProjectFile[] {
  const spec = serviceSpec(options);
  const file = `services/${spec.service}.ts`;
  if (app.serviceFiles.includes(`${spec.service}.ts`)) {
    throw failure(ErrorCode.SCAFFOLD_TARGET_EXISTS, `${WHERE}: ${file} already exists; nothing was written. `
      + 'Fix: choose another service name, or edit that file.');
  }
  const index = app.servicesIndex;
  const lines = index?.split('\n') ?? [];
  const open = lines.indexOf(SERVICE_TABLE);
  const close = open < 0 ? -1 : lines.indexOf('];', open);
  const { importStatement, entry } = serviceIndexEntry(spec);
  if (index === undefined || close < 0) {
    throw failure(ErrorCode.SCAFFOLD_TARGET_EXISTS, `${WHERE}: this app's ${SERVICES_INDEX} ${index === undefined ? 'does not exist' : `has no table opened by "${SERVICE_TABLE}" and closed by "];"`}, `
      + `so there is nothing to add ${spec.service} to; nothing was written. Fix: add the service by hand, or run \`${WHERE}\` with --dir outside this app to start a new one.`);
  }
  if (hasWord(index, spec.symbol)) {
    throw failure(ErrorCode.SCAFFOLD_TARGET_EXISTS, `${WHERE}: ${SERVICES_INDEX} already has ${spec.symbol}; nothing was written. Fix: choose another service name.`);
  }
  // The new import goes after the last import, the entry at the end of the table.
  const lastImport = lines.reduce((last, line, i) => (i < open && line.startsWith('import ') ? i : last), -1);
  const updated = [...lines];
  updated.splice(close, 0, entry);
  updated.splice(lastImport + 1, 0, importStatement);
  return [
    { path: file, content: serviceTs(spec) },
    { path: SERVICES_INDEX, content: updated.join('\n') },
  ];
}

/**
 * The two commands to run after a new app was written to `dir`: install, then synthesize and audit.
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

function serviceSpec(options: ServiceProjectOptions): ServiceSpec {
  const service = checkService(options.service);
  const project = checkProject(options.project ?? service);
  return {
    service,
    symbol: service.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
    project,
    image: options.image === undefined ? `registry.example.com/${project}/${service}:0.1.0` : checkImage(options.image),
    hpa: options.hpa === undefined ? undefined : parseHpa(options.hpa),
    migration: options.migration === true,
    secretKey: options.externalSecret === undefined ? undefined : checkSecretKey(options.externalSecret),
  };
}

function checkService(service: string): string {
  // It also names the Service, whose name Kubernetes checks as a DNS-1035 label: it must start with a letter.
  if (typeof service !== 'string' || !isDns1123Label(service) || !/^[a-z]/.test(service)) {
    throw badValue(ErrorCode.INVALID_NAME, WHERE, 'service', service,
      'must be a DNS-1123 label that starts with a letter (lowercase letters, digits and "-", at most 63 characters): '
        + 'it names the Application, the namespace, the Deployment and the Service', `use e.g. ${JSON.stringify(suggestName(service))}`);
  }
  if (service === 'default' || service.startsWith('kube-')) {
    throw badValue(ErrorCode.INVALID_NAME, WHERE, 'service', service,
      'must not name a shared or reserved namespace ("default", "kube-..."): the service gets a namespace of its own', 'name the namespace after the service, e.g. "orders"');
  }
  return service;
}

function checkProject(project: string): string {
  if (typeof project !== 'string' || !isDns1123Label(project) || project === 'default') {
    throw badValue(project === 'default' ? ErrorCode.DEFAULT_PROJECT : ErrorCode.INVALID_NAME, WHERE, '--project', project,
      'must be a DNS-1123 label other than "default" (which allows every repository, destination and kind)', `name the project after the team, e.g. ${JSON.stringify(project === 'default' ? 'payments' : suggestName(project))}`);
  }
  return project;
}

function parseHpa(text: string): { min: number; max: number } {
  const match = typeof text === 'string' ? /^(\d{1,5}):(\d{1,5})$/.exec(text) : null;
  const min = match ? Number(match[1]) : NaN;
  const max = match ? Number(match[2]) : NaN;
  if (!match || min < 1 || max < min || max > MAX_REPLICAS) {
    throw badValue(ErrorCode.INVALID_SCAFFOLD_OPTION, WHERE, '--hpa', text,
      `must be MIN:MAX, whole numbers with 1 <= MIN <= MAX <= ${MAX_REPLICAS}`, 'use e.g. --hpa 2:10');
  }
  return { min, max };
}

function checkSecretKey(key: string): string {
  if (typeof key !== 'string' || key.length > 253 || !ENV_NAME.test(key)) {
    throw badValue(ErrorCode.INVALID_SCAFFOLD_OPTION, WHERE, '--external-secret', key,
      'must be the name of the Secret key and environment variable: letters, digits and "_", not starting with a digit', 'use e.g. --external-secret DATABASE_URL; the secret store path is set in main.ts');
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

function checkImage(image: string): string {
  // A reference as a container runtime reads it: no whitespace or quotes, a name before any tag or digest.
  if (typeof image !== 'string' || !/^[a-z0-9][\w.\-/:@]*$/i.test(image) || image.length > 512) {
    throw badValue(ErrorCode.INVALID_SCAFFOLD_OPTION, WHERE, '--image', image,
      'must be an image reference: registry/name:tag or name@sha256:digest, without spaces or quotes', 'use e.g. --image registry.example.com/shop/orders:1.0.0');
  }
  return image;
}

function checkRepoUrl(url: string): string {
  // A Git repository URL as SafeApplication accepts it, without quotes or backslashes.
  const ok = isGitRepoUrl(url) && !/['"\\]/.test(url);
  if (!ok) {
    throw badValue(ErrorCode.INVALID_URL, WHERE, '--repo-url', url,
      'must be a Git repository URL Argo CD can read (https://, ssh://, git:// or git@host:path)', 'give the URL of the repository the synth output is committed to, as it is registered in Argo CD');
  }
  return url;
}

function checkLibrary(spec: string): string {
  if (typeof spec !== 'string' || spec.trim() !== spec || spec.length === 0 || /["\\\n]/.test(spec)) {
    throw badValue(ErrorCode.INVALID_SCAFFOLD_OPTION, WHERE, '--library', spec,
      'must be a version range of cdk8s-safe-argocd, or the path of a packed tarball or folder', 'use e.g. --library ../cdk8s-safe-argocd-1.0.0.tgz');
  }
  return spec;
}

function packageJson(spec: ServiceSpec, app: AppSpec, library: string, versions: PackageVersions): string {
  const pick = (from: { readonly [name: string]: string }, names: string[], what: string) => Object.fromEntries(names.map((name) => {
    const range = from[name];
    if (typeof range !== 'string') {
      // This package's own package.json is broken: not a user error.
      throw new Error(`${LIBRARY}'s package.json has no ${what} ${name}`);
    }
    return [name, range];
  }));
  const pkg = {
    name: `${spec.project}-gitops`,
    version: '0.1.0',
    private: true,
    description: `The GitOps tree of the ${spec.project} services, written with ${LIBRARY}`,
    scripts: {
      // Runs the app directly: cdk8s synth would remove dist/ first, and a failed synth would leave none.
      synth: 'ts-node main.ts',
      test: 'jest',
      audit: `safe-argocd audit ${OUTDIR} --repo-root ${shellWord(app.repoRoot)}`,
    },
    // Sorted, as npm writes them back.
    dependencies: sorted({
      [LIBRARY]: library,
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
      // ts-jest compiles each file on its own with node16 modules; ts-node still type-checks the synth.
      isolatedModules: true,
      skipLibCheck: true,
      types: ['jest', 'node'],
    },
    include: ['*.ts', 'services/*.ts'],
    exclude: ['node_modules', OUTDIR],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Whether `word` occurs in `text` as a whole word (no letter, digit or `_` on either side), without a regex built from it. */
function hasWord(text: string, word: string): boolean {
  const isWordChar = (c: string | undefined) => c !== undefined && /\w/.test(c);
  for (let i = text.indexOf(word); i !== -1; i = text.indexOf(word, i + 1)) {
    if (!isWordChar(text[i - 1]) && !isWordChar(text[i + word.length])) {
      return true;
    }
  }
  return false;
}
