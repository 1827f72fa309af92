import * as fs from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';
import { appsInRepository, enclosingApp, gitRemoteUrl, readExistingApp } from './apps';
import { CliIo, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, MAX_FILE_SIZE, MAX_OBJECTS_PER_FILE_FLAG, maxBytes, maxObjects, usageError } from './common';
import { auditedPaths, collectFiles, findRepoRoot, sameFile } from './files';
import { badFlag, errorLine, hasCode, knownError, messageOf, parseArgsError, unexpectedError } from './messages';
import type * as Simulate from './simulate';
import { COMMANDS, isCommand, OVERVIEW, usageOf } from './usage';
import { atLeast, auditFiles, rulesFor } from '../audit/audit';
import { applyBaseline, BaselineEntry, BaselineScope, inBaselineScope, parseBaseline, renderBaseline } from '../audit/baseline';
import { AuditConfig, CONFIG_FILE, CONFIG_KEYS_TEXT, parseAuditConfig } from '../audit/config';
import { excludeMatcher, excludeProblem } from '../audit/exclude';
import { formatJson } from '../audit/report/json';
import { formatMarkdown } from '../audit/report/markdown';
import { formatSarif } from '../audit/report/sarif';
import { formatText } from '../audit/report/text';
import { RenderedManifests } from '../audit/types';
import { ArgoCdVersion } from '../core/argocd-version';
import { ErrorCode } from '../core/errors';
import { isGitRepoUrl } from '../core/names';
import { compareStrings } from '../core/order';
import { gitRoot } from '../private/repository';
import { findRule } from '../rules/registry';
import { Severity } from '../rules/severity';
import { addServiceToApp, LIBRARY, nextCommands, renderServiceProject, SERVICES_INDEX } from '../scaffold/new-service';


export { CliIo, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE } from './common';

const HELP_FLAGS = ['--help', '-h'];
const DEBUG_FLAG = '--debug';

/** The arguments in which flags are looked for: those before `--` (after it, everything is a positional). */
function flagPart(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--');
  return end === -1 ? args : args.slice(0, end);
}

/** Whether `--debug` is among the flags of `args`, anywhere before `--`. */
export function hasDebugFlag(args: readonly string[]): boolean {
  return flagPart(args).includes(DEBUG_FLAG);
}

/** `args` without the global flags (`--debug`), which every command accepts and none parses itself. */
function withoutGlobalFlags(args: readonly string[]): string[] {
  const flags = flagPart(args);
  return [...flags.filter((a) => a !== DEBUG_FLAG), ...args.slice(flags.length)];
}

/** Runs the CLI: parses arguments, reads files, prints, and returns the exit code. */
export async function main(args: readonly string[], io: CliIo): Promise<number> {
  const debug = Boolean(io.debug) || hasDebugFlag(args);
  const [command, ...rest] = withoutGlobalFlags(args);
  if (command === undefined) {
    io.stderr(OVERVIEW);
    return EXIT_USAGE;
  }
  // Options without a command.
  if (command === '--version') {
    io.stdout(`${packageVersion()}\n`);
    return EXIT_OK;
  }
  if (command === 'help' || HELP_FLAGS.includes(command)) {
    return help(rest[0], io);
  }
  if (!isCommand(command)) {
    const what = command.startsWith('-') ? `${command} is not an option of safe-argocd` : `${JSON.stringify(command)} is not a command`;
    io.stderr(errorLine(undefined, ErrorCode.USAGE, what, `use ${COMMANDS.join(', ')}`) + OVERVIEW);
    return EXIT_USAGE;
  }
  // A help flag wins over every other argument, right or wrong.
  if (flagPart(rest).some((a) => HELP_FLAGS.includes(a))) {
    io.stdout(usageOf(command));
    return EXIT_OK;
  }
  try {
    switch (command) {
      case 'audit': return await auditCommand(rest, io);
      // Loaded only for simulate: the drift model is most of the CLI's code, and audit and new do not need it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      case 'simulate': return await (require('./simulate') as typeof Simulate).simulateCommand(rest, io, debug);
      default: return newCommand(rest, io);
    }
  } catch (e) {
    io.stderr(unexpectedError(command, e, debug));
    return EXIT_USAGE;
  }
}

/** `safe-argocd help [command]`: the overview, or one command's usage, on stdout. */
function help(topic: string | undefined, io: CliIo): number {
  if (topic === undefined || topic === 'help' || HELP_FLAGS.includes(topic)) {
    io.stdout(OVERVIEW);
    return EXIT_OK;
  }
  if (!isCommand(topic)) {
    io.stderr(errorLine('help', ErrorCode.USAGE, `${JSON.stringify(topic)} is not a command`, `use ${COMMANDS.join(', ')}`) + OVERVIEW);
    return EXIT_USAGE;
  }
  io.stdout(usageOf(topic));
  return EXIT_OK;
}

/** The largest `.safe-argocd.yaml` (or `--config`) read: a config holds suppressions, not manifests. */
const CONFIG_MAX_BYTES = 1048576;
/** A baseline of 100,000 findings is about 20 MB. */
const BASELINE_MAX_BYTES = 64 * 1048576;

const SEVERITIES = Object.values(Severity) as string[];
/** The names of standard output as a file to write. */
const STDOUT = ['-', '/dev/stdout'];

async function auditCommand(args: readonly string[], io: CliIo): Promise<number> {
  let values: Record<string, string | string[] | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        'format': { type: 'string', default: 'text' },
        'output': { type: 'string' },
        'fail-on': { type: 'string' },
        'rule': { type: 'string', multiple: true },
        'severity': { type: 'string' },
        'argocd-version': { type: 'string' },
        'repo-root': { type: 'string' },
        'repo-url': { type: 'string', multiple: true },
        'rendered': { type: 'string', multiple: true },
        'config': { type: 'string' },
        'max-file-size': { type: 'string', default: '5' },
        'max-objects-per-file': { type: 'string' },
        'exclude': { type: 'string', multiple: true },
        'baseline': { type: 'string' },
        'write-baseline': { type: 'string' },
        'fail-on-unreadable': { type: 'boolean' },
        'verbose': { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (e) {
    const { what, fix } = parseArgsError('audit', e);
    return usageError(io, 'audit', what, fix);
  }
  const usage = (what: string, fix: string) => usageError(io, 'audit', what, fix);
  const format = String(values.format);
  if (!['text', 'json', 'sarif', 'markdown'].includes(format)) {
    return usage(badFlag('--format', format, 'must be text, json, sarif or markdown'), 'use one of them, e.g. --format sarif');
  }
  // `-` is standard output, as `--rendered app=-` is standard input; so is /dev/stdout, which is no regular file.
  const output = values.output === undefined || STDOUT.includes(String(values.output)) ? undefined : String(values.output);
  const writeBaseline = values['write-baseline'] as string | undefined;
  if (writeBaseline !== undefined && STDOUT.includes(writeBaseline)) {
    return usage(badFlag('--write-baseline', writeBaseline, 'must be a file: standard output carries the report'), 'give a file, e.g. --write-baseline .safe-argocd-baseline.json');
  }
  if (writeBaseline !== undefined && output !== undefined && sameFile(writeBaseline, output)) {
    return usage(`--write-baseline ${writeBaseline} and --output ${output} name the same file: the report would overwrite the baseline`,
      'give them different files, e.g. --write-baseline .safe-argocd-baseline.json --output report.txt');
  }
  for (const key of ['fail-on', 'severity']) {
    if (values[key] !== undefined && !SEVERITIES.includes(String(values[key]))) {
      return usage(badFlag(`--${key}`, values[key], 'must be error, warning or note'), `use one of them, e.g. --${key} error`);
    }
  }
  const ruleIds = ((values.rule as string[] | undefined) ?? []).flatMap((r) => r.split(',')).map((r) => r.trim()).filter((r) => r);
  const unknown = ruleIds.filter((r) => !findRule(r));
  if (unknown.length > 0) {
    return usage(`--rule names unknown rule id(s) ${unknown.join(', ')}`, 'use the ids of RULES.md, e.g. --rule SA001');
  }
  const limit = maxBytes(values['max-file-size'] as string | undefined);
  if (limit === undefined) {
    return usage(badFlag(MAX_FILE_SIZE[0], values['max-file-size'], MAX_FILE_SIZE[1]), MAX_FILE_SIZE[2]);
  }
  const objectsFlag = values['max-objects-per-file'] as string | undefined;
  const maxObjectsPerFile = objectsFlag === undefined ? undefined : maxObjects(objectsFlag);
  if (objectsFlag !== undefined && maxObjectsPerFile === undefined) {
    return usage(badFlag(MAX_OBJECTS_PER_FILE_FLAG[0], objectsFlag, MAX_OBJECTS_PER_FILE_FLAG[1]), MAX_OBJECTS_PER_FILE_FLAG[2]);
  }
  const excludeFlags = (values.exclude as string[] | undefined) ?? [];
  for (const pattern of excludeFlags) {
    const problem = excludeProblem(pattern);
    if (problem !== undefined) {
      return usage(`--exclude ${JSON.stringify(pattern)} ${problem}`, 'give a glob relative to the repository root, e.g. --exclude \'dashboards/**\'');
    }
  }
  const paths = positionals.length > 0 ? positionals : ['.'];
  const root = values['repo-root'] !== undefined ? String(values['repo-root']) : findRepoRoot(paths[0]);
  const repoUrls = (values['repo-url'] as string[] | undefined) ?? [];
  for (const url of repoUrls) {
    if (!isGitRepoUrl(url)) {
      return usage(badFlag('--repo-url', url, 'is not a Git repository URL'), 'give the URL Argo CD reads the repository by, e.g. --repo-url https://git.acme.internal/platform/gitops.git');
    }
  }
  // The remote of the folder holding .git names what is audited; a folder inside another repository has none of its own.
  const remote = repoUrls.length === 0 && fs.existsSync(path.join(root, '.git')) ? gitRemoteUrl(root) : undefined;
  const rendered: RenderedManifests[] = [];
  for (const given of (values.rendered as string[] | undefined) ?? []) {
    const split = given.indexOf('=');
    const [application, file] = [given.slice(0, split).trim(), given.slice(split + 1)];
    if (split < 0 || application === '' || file === '') {
      return usage(badFlag('--rendered', given, 'must be <application>=<file>'), 'name the Application and the file of what Argo CD renders for it, e.g. --rendered payments=rendered/payments.yaml (- for standard input)');
    }
    if (file === '-' && (io.readStdin === undefined || rendered.some((r) => r.file.path === '<stdin>'))) {
      return usage(badFlag('--rendered', given, 'reads standard input, which only one --rendered can'), 'write the other renderings to files');
    }
    try {
      const content = file === '-' ? io.readStdin!(limit) : io.readBytes(file, limit);
      rendered.push({ application, file: { path: file === '-' ? '<stdin>' : file, content } });
    } catch (e) {
      io.stderr(errorLine('audit', ErrorCode.USAGE, `cannot read --rendered ${given}: ${messageOf(e)}`,
        'give --rendered a readable regular file under --max-file-size, e.g. the output of kustomize build or helm template'));
      return EXIT_USAGE;
    }
  }

  let config: AuditConfig = { suppressions: [] };
  const configPath = values.config !== undefined ? String(values.config) : path.join(root, CONFIG_FILE);
  if (values.config !== undefined || fs.existsSync(configPath)) {
    let text: string;
    try {
      // A regular file only (a FIFO or a device would block or never end), and a small one.
      text = Buffer.from(io.readBytes(configPath, CONFIG_MAX_BYTES)).toString('utf8');
    } catch (e) {
      const tooLarge = / limit/.test(messageOf(e));
      io.stderr(errorLine('audit', ErrorCode.USAGE, `cannot read the config ${configPath}: ${messageOf(e).replace(' limit;', ' limit for a config file;')}`,
        tooLarge ? `a config holds only ${CONFIG_KEYS_TEXT}; check that ${configPath} is the right file and keep it under 1 MB`
          : values.config !== undefined ? 'give --config a readable regular file' : `make ${configPath} a readable regular file, or remove it`));
      return EXIT_USAGE;
    }
    try {
      config = parseAuditConfig(text, configPath);
    } catch (e) {
      io.stderr(knownError('audit', e, ErrorCode.USAGE, `correct ${configPath}: its keys are ${CONFIG_KEYS_TEXT} (see the README)`));
      return EXIT_USAGE;
    }
  }
  let argoCdVersion = config.argoCdVersion ?? ArgoCdVersion.LATEST;
  if (values['argocd-version'] !== undefined) {
    try {
      argoCdVersion = ArgoCdVersion.of(String(values['argocd-version']));
    } catch (e) {
      io.stderr(knownError('audit', e, ErrorCode.USAGE, 'give a supported release, e.g. --argocd-version 3.1') + usageOf('audit'));
      return EXIT_USAGE;
    }
  }
  const failOn = (values['fail-on'] as Severity | undefined) ?? config.failOn ?? Severity.WARNING;
  // Unreadable files are reported, and fail the run only when asked: see docs/audit-in-ci.md.
  const failOnUnreadable = (values['fail-on-unreadable'] as boolean | undefined) ?? config.failOnUnreadable ?? false;
  const exclude = [...config.exclude ?? [], ...excludeFlags];
  const today = new Date().toISOString().slice(0, 10);
  const minSeverity = values.severity as Severity | undefined;
  const { suppressions, newGitFileGlobbing } = config;
  const options = { argoCdVersion, ruleIds, minSeverity, suppressions, today, exclude, rendered, maxObjectsPerFile, newGitFileGlobbing };

  let baseline: BaselineEntry[] = [];
  if (values.baseline !== undefined) {
    const file = String(values.baseline);
    try {
      baseline = parseBaseline(Buffer.from(io.readBytes(file, BASELINE_MAX_BYTES)).toString('utf8'), file);
    } catch (e) {
      io.stderr(errorLine('audit', ErrorCode.USAGE, `cannot use --baseline ${file}: ${messageOf(e)}`,
        'give --baseline a file written by --write-baseline, or write one with --write-baseline'));
      return EXIT_USAGE;
    }
  }

  const collected = collectFiles(paths, root, limit);
  const urls = repoUrls.length > 0 ? repoUrls : isGitRepoUrl(remote) ? [remote] : [];
  const repository = { urls, otherFiles: collected.otherFiles, folderLinks: collected.folderLinks, auditedPaths: auditedPaths(paths, root) };
  const audited = auditFiles(collected.files, { ...options, repository });
  // A path given on the command line that is not there, or not a file or folder, is a mistake, never a file to skip;
  // so is a rendering that no Application takes.
  const unusable = [...paths.filter((p) => !isFileOrFolder(p)), ...audited.problems.filter((p) => p.rendered)];
  const excluded = excludeMatcher(exclude);
  const problems = [...collected.problems.filter((p) => !excluded(p.file)), ...audited.problems]
    .sort((a, b) => compareStrings(a.file, b.file));
  // A narrowed run (--rule, --severity, a sub-path) neither counts as stale nor drops the entries it could not match.
  const scope: BaselineScope = { ruleIds, minSeverity: options.minSeverity, paths: auditedPaths(paths, root), excluded };
  let result = applyBaseline({ ...audited, problems }, baseline, scope);
  if (writeBaseline !== undefined) {
    const file = writeBaseline;
    const text = renderBaseline(result, baseline.filter((e) => !inBaselineScope(e, scope)));
    try {
      io.writeFile(file, text);
    } catch (e) {
      io.stderr(errorLine('audit', ErrorCode.WRITE_FAILED, `cannot write --write-baseline ${file}: ${messageOf(e)}`,
        'give --write-baseline a regular file, or a new one, in a folder you can write to'));
      return EXIT_USAGE;
    }
    // What was just written is the baseline of this run.
    result = applyBaseline({ ...result, findings: [...result.findings, ...result.baselined], baselined: [] }, parseBaseline(text, file), scope);
  }

  let report: string;
  switch (format) {
    case 'json': report = formatJson(result); break;
    case 'sarif': report = formatSarif(result, rulesFor(options), packageVersion(), rulesDocUri()); break;
    case 'markdown': report = formatMarkdown(result); break;
    // A file is never coloured, whatever stdout is.
    default: report = formatText(result, { color: io.color && output === undefined, verbose: values.verbose === true });
  }
  if (output !== undefined) {
    try {
      io.writeFile(output, report);
    } catch (e) {
      io.stderr(errorLine('audit', ErrorCode.WRITE_FAILED, `cannot write --output ${output}: ${messageOf(e)}`,
        'give --output a regular file, or a new one, in a folder you can write to, or - for standard output'));
      return EXIT_USAGE;
    }
  } else {
    io.stdout(report);
  }
  if (unusable.length > 0 || (failOnUnreadable && result.problems.length > 0)) {
    return EXIT_USAGE;
  }
  return result.findings.some((f) => atLeast(f.severity, failOn)) ? EXIT_FINDINGS : EXIT_OK;
}

/** Whether `p` is a regular file or a folder (a symbolic link followed). */
function isFileOrFolder(p: string): boolean {
  try {
    const stat = fs.statSync(p);
    return stat.isFile() || stat.isDirectory();
  } catch {
    return false;
  }
}

function newCommand(args: readonly string[], io: CliIo): number {
  let values: {
    'project'?: string;
    'hpa'?: string;
    'migration'?: boolean;
    'external-secret'?: string;
    'dir'?: string;
    'repo-url'?: string;
    'image'?: string;
    'library'?: string;
  };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        'project': { type: 'string' },
        'hpa': { type: 'string' },
        'migration': { type: 'boolean', default: false },
        'external-secret': { type: 'string' },
        'dir': { type: 'string' },
        'repo-url': { type: 'string' },
        'image': { type: 'string' },
        'library': { type: 'string' },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (e) {
    const { what, fix } = parseArgsError('new', e);
    return usageError(io, 'new', what, fix);
  }
  if (positionals.length !== 1) {
    return usageError(io, 'new', `give exactly one service name${positionals.length > 1 ? `, not ${positionals.join(' ')}` : ''}`, 'e.g. safe-argocd new orders');
  }
  const service = positionals[0];
  if (values.library !== undefined && isMissingPath(values.library)) {
    return usageError(io, 'new', `--library ${values.library} is a path, but nothing is there (npm would look for it from the new app's folder)`,
      'give a packed tarball (npm pack) that exists, relative to this folder, or a version range, e.g. --library ^1.0.0');
  }
  if (values.dir !== undefined) {
    const refusal = unusableDir(values.dir);
    if (refusal !== undefined) {
      return usageError(io, 'new', refusal.what, refusal.fix);
    }
  }
  const refuse = (what: string, fix: string) => {
    io.stderr(errorLine('new', ErrorCode.SCAFFOLD_TARGET_EXISTS, what, fix));
    return EXIT_USAGE;
  };
  // The scaffolder's messages name `safe-argocd new` as where the value was given.
  const refused = (e: unknown) => {
    io.stderr(hasCode(messageOf(e)) ? `${messageOf(e)}\n` : unexpectedError('new', e, Boolean(io.debug)));
    return EXIT_USAGE;
  };

  // Where the service goes: into the app of this library that the folder lies in, or that the repository holds,
  // else into a new app. A second app in one repository would render a second AppProject of the same name.
  const start = path.resolve(values.dir ?? '.');
  const repo = gitRoot(start);
  let appDir = enclosingApp(start, repo);
  if (appDir === undefined && repo !== undefined) {
    const apps = appsInRepository(repo);
    const shown = apps.map((a) => path.relative(process.cwd(), a) || '.').join(', ');
    if (apps.length === 1 && values.dir === undefined) {
      appDir = apps[0];
    } else if (apps.length > 0) {
      return refuse(`this repository already has ${apps.length === 1 ? 'an app' : 'apps'} of ${LIBRARY} (${shown}); `
        + 'another would render its own AppProject and install its own node_modules; nothing was written',
      `add the service to ${apps.length === 1 ? 'it' : 'one of them'} with \`safe-argocd new ${service} --dir ${apps.length === 1 ? shown : '<app>'}\`, `
        + 'or run the command in that folder');
    }
  }

  let files;
  let dir: string;
  try {
    const options = {
      service,
      project: values.project,
      hpa: values.hpa,
      migration: values.migration,
      externalSecret: values['external-secret'],
      image: values.image,
    };
    if (appDir !== undefined) {
      dir = path.relative(process.cwd(), appDir) || '.';
      files = addServiceToApp(options, readExistingApp(appDir));
      for (const flag of ['repo-url', 'library'] as const) {
        if (values[flag] !== undefined) {
          io.stderr(`safe-argocd new: --${flag} is for a new app; the app in ${dir} keeps its own\n`);
        }
      }
    } else {
      dir = values.dir ?? `.${path.sep}${service}`;
      const target = path.resolve(dir);
      const remote = repo === undefined ? undefined : gitRemoteUrl(repo);
      files = renderServiceProject({
        ...options,
        // A remote Argo CD could not read (a local path) leaves the placeholder.
        repoUrl: values['repo-url'] ?? (isGitRepoUrl(remote) ? remote : undefined),
        library: values.library === undefined ? undefined : librarySpec(values.library, target),
        repoRoot: repo === undefined ? '.' : path.relative(target, repo).split(path.sep).join('/') || '.',
      });
    }
  } catch (e) {
    return refused(e);
  }

  const targets = files.map((f) => ({ file: path.join(dir, ...f.path.split('/')), content: f.content, replaces: f.path === SERVICES_INDEX && appDir !== undefined }));
  let existing: string[];
  try {
    existing = targets.filter((t) => !t.replaces && io.exists(t.file)).map((t) => t.file);
  } catch (e) {
    return refuse(`cannot use ${dir}: ${messageOf(e)}`, 'give a --dir this user can write to');
  }
  if (existing.length > 0) {
    return refuse(`${existing.join(', ')} already exist${existing.length === 1 ? 's' : ''}; nothing was written`,
      'choose another --dir, or move those files away');
  }
  try {
    for (const t of targets) {
      io.mkdir(path.dirname(t.file));
      io.writeFile(t.file, t.content);
      io.stdout(`${t.replaces ? 'updated' : 'wrote'} ${t.file}\n`);
    }
  } catch (e) {
    io.stderr(errorLine('new', ErrorCode.WRITE_FAILED, `writing ${dir} failed: ${messageOf(e)}`, 'check the folder and run again; the files listed above were written'));
    return EXIT_USAGE;
  }
  if (appDir !== undefined) {
    io.stdout(`added ${service} to the app in ${dir}\nnext:\n  cd ${dir} && npm run synth && npm run audit\n`);
  } else {
    io.stdout(`next:\n${nextCommands(dir).map((c) => `  ${c}\n`).join('')}`);
  }
  return EXIT_OK;
}

const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev'];

/**
 * Why `new --dir` cannot be used, or undefined: it is empty (that would be the working directory), it lies under
 * /proc, /sys or /dev (pseudo file systems, where a write can block or reach the kernel), or its nearest existing
 * folder is not a folder.
 */
function unusableDir(dir: string): { what: string; fix: string } | undefined {
  if (dir.trim() === '') {
    return { what: badFlag('--dir', dir, 'must name a folder'), fix: 'give a folder for the new app, e.g. --dir deploy, or leave --dir out' };
  }
  let existing = path.resolve(dir);
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) {
    existing = path.dirname(existing);
  }
  let real: string;
  try {
    real = fs.realpathSync(existing);
  } catch (e) {
    return { what: `--dir ${dir} cannot be used: ${messageOf(e)}`, fix: 'give a folder this user can write to' };
  }
  const system = SYSTEM_FOLDERS.find((s) => real === s || real.startsWith(`${s}/`));
  if (system !== undefined) {
    return { what: `--dir ${dir} lies under ${system}, a system folder of the kernel, not of files`, fix: 'give a folder of your repository, e.g. --dir deploy' };
  }
  if (!fs.statSync(real).isDirectory()) {
    return { what: `--dir ${dir} cannot be made: ${existing} is not a folder`, fix: 'give a path whose existing part is a folder' };
  }
  return undefined;
}

/** `--library`: a path that exists is a `file:` dependency, relative to the new app; anything else a version range. */
function librarySpec(value: string, appDir: string): string {
  if (value.length > 0 && fs.existsSync(value)) {
    return `file:${path.relative(appDir, path.resolve(value)).split(path.sep).join('/')}`;
  }
  return value;
}

/** Whether a `--library` value is a path (`./x.tgz`, `/x`, `x.tgz`; not a version range or a `file:` spec) that does not exist. */
function isMissingPath(value: string): boolean {
  return /^(\.{1,2}[\\/]|[\\/])|\.(tgz|tar|tar\.gz)$/.test(value) && !fs.existsSync(value);
}

/**
 * Where RULES.md of this release is read: the package's repository at the release tag (`v` and the version), or
 * undefined when the package names no https repository.
 */
function rulesDocUri(): string | undefined {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
    const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    if (typeof url !== 'string' || !/^https:\/\/[^\s#?]+$/.test(url)) {
      return undefined;
    }
    return `${url.replace(/\.git$/, '')}/blob/v${pkg.version ?? '0.0.0'}/RULES.md`;
  } catch {
    return undefined;
  }
}

function packageVersion(): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
