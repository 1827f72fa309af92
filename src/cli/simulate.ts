import * as fs from 'fs';
import * as path from 'path';
import { parseArgs } from 'util';
import { CliIo, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, MAX_FILE_SIZE, maxBytes, usageError } from './common';
import { collectFiles } from './files';
import { badFlag, errorLine, hasCode, messageOf, parseArgsError, thrownError } from './messages';
import { ErrorCode } from '../core/errors';
import { parseManifests } from '../core/parse-manifests';
import { ManifestSource } from '../drift/application-drift-report';
import { DriftSimulator } from '../drift/drift-simulator';
import { formatApplicationDriftJson, formatApplicationDriftText, formatDriftJson, formatDriftText } from '../drift/format';
import { checkDriftInputs } from '../drift/input-roles';
import { Json } from '../drift/json';
import { readOneManifest } from '../drift/read-manifest';
import { describeManifest } from '../drift/subject';

/** `safe-argocd simulate`: loaded only when it runs, since the drift model is most of the CLI's code. */
export async function simulateCommand(args: readonly string[], io: CliIo, debug: boolean): Promise<number> {
  let values: { 'app'?: string; 'desired'?: string; 'live'?: string; 'format'?: string; 'max-file-size'?: string };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        'app': { type: 'string' },
        'desired': { type: 'string' },
        'live': { type: 'string' },
        'format': { type: 'string', default: 'text' },
        'max-file-size': { type: 'string', default: '5' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    const { what, fix } = parseArgsError('simulate', e);
    return usageError(io, 'simulate', what, fix);
  }
  if (!values.app) {
    return usageError(io, 'simulate', badFlag('--app', undefined, 'must name the file of the Argo CD Application'), 'add --app <application.yaml>');
  }
  if (!values.desired) {
    return usageError(io, 'simulate', badFlag('--desired', undefined, 'must name the file of the resource'), 'add --desired <resource.yaml>');
  }
  if (values.format !== 'text' && values.format !== 'json') {
    return usageError(io, 'simulate', badFlag('--format', values.format, 'must be text or json'), 'use one of them, e.g. --format json');
  }
  const limit = maxBytes(values['max-file-size']);
  if (limit === undefined) {
    return usageError(io, 'simulate', badFlag(MAX_FILE_SIZE[0], values['max-file-size'], MAX_FILE_SIZE[1]), MAX_FILE_SIZE[2]);
  }
  const sources = readSimulateSources(io, values.desired, values.live, limit);
  if (typeof sources === 'string') {
    io.stderr(sources);
    return EXIT_USAGE;
  }
  if (sources.wholeApplication) {
    return simulateWholeApplication(io, values.app, sources, limit, values.format, debug);
  }
  // Each input is read and checked on its own, so that an unreadable one is named by its flag and file.
  const texts: { application?: string; desired?: string; live?: string } = {};
  const manifests: { application?: Json; desired?: Json; live?: Json } = {};
  for (const [key, flag, file] of [['application', 'app', values.app], ['desired', 'desired', values.desired], ['live', 'live', values.live]] as const) {
    if (file === undefined) {
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = io.readBytes(file, limit);
    } catch (e) {
      const tooLarge = / limit/.test(messageOf(e));
      io.stderr(errorLine('simulate', ErrorCode.UNREADABLE_INPUT, `cannot read --${flag} ${file}: ${messageOf(e)}`,
        tooLarge ? `raise --max-file-size if --${flag} really is one manifest` : `give --${flag} a readable regular file`));
      return EXIT_USAGE;
    }
    try {
      manifests[key] = readOneManifest(`--${flag} ${file}`, bytes);
    } catch (e) {
      io.stderr(thrownError('simulate', e, debug, `give --${flag} a file that holds one Kubernetes object`));
      return EXIT_USAGE;
    }
    // Valid UTF-8 by now: the reader refuses anything else.
    const text = Buffer.from(bytes).toString('utf8');
    texts[key] = text;
  }
  // Swapped inputs would still give a confident answer; refuse them first.
  const named = (flag: string, file: string, manifest: Json) => ({ name: `--${flag}`, source: file, manifest });
  try {
    checkDriftInputs({
      application: named('app', values.app, manifests.application!),
      desired: named('desired', values.desired, manifests.desired!),
      live: values.live === undefined ? undefined : named('live', values.live, manifests.live!),
    });
  } catch (e) {
    io.stderr(thrownError('simulate', e, debug, 'check --app, --desired and --live'));
    return EXIT_USAGE;
  }
  try {
    const simulator = await DriftSimulator.create();
    const report = simulator.simulateDrift({ application: texts.application!, desired: texts.desired!, live: texts.live });
    const subject = describeManifest(manifests.desired!);
    io.stdout(values.format === 'json' ? formatDriftJson(subject, report) : formatDriftText(subject, report));
    return report.outOfSync ? EXIT_FINDINGS : EXIT_OK;
  } catch (e) {
    io.stderr(thrownError('simulate', e, debug, 'correct the input the message names'));
    return EXIT_USAGE;
  }
}

/** The desired and live inputs of `simulate`, and whether they make a whole-Application simulation. */
interface SimulateSources {
  readonly desired: ManifestSource[];
  readonly live: ManifestSource[];
  /** A folder, standard input, or a file of several objects: one verdict per resource. */
  readonly wholeApplication: boolean;
}

/**
 * Reads `--desired` and `--live`: a file, a folder of YAML and JSON files (read as the audit reads them), or `-`
 * for standard input (live only). Returns the error line for anything that cannot be read: a simulation of part
 * of the input would be a verdict on something else.
 */
function readSimulateSources(io: CliIo, desired: string, live: string | undefined, limit: number): SimulateSources | string {
  /** A folder's or standard input's sources; a file's bytes, read once (undefined when unreadable: the one-resource path says why). */
  type Read = { readonly sources: ManifestSource[]; readonly folder: true }
    | { readonly file: string; readonly bytes?: Uint8Array; readonly folder: false };
  const read = (flag: string, given: string): Read | string => {
    if (given === '-') {
      if (flag !== 'live' || io.readStdin === undefined) {
        return errorLine('simulate', ErrorCode.USAGE, `--${flag} - (standard input) is not supported here`,
          flag === 'live' ? 'give --live a file or folder' : 'give --desired a file or folder; only --live reads standard input');
      }
      try {
        return { sources: [{ name: '-', text: utf8Text(io.readStdin(limit)) }], folder: true };
      } catch (e) {
        return errorLine('simulate', ErrorCode.UNREADABLE_INPUT, `cannot read --live - (standard input): ${messageOf(e)}`, 'pipe a YAML or JSON stream of objects');
      }
    }
    if (!fs.existsSync(given) || !fs.statSync(given).isDirectory()) {
      try {
        return { file: given, bytes: io.readBytes(given, limit), folder: false };
      } catch {
        return { file: given, folder: false };
      }
    }
    const collected = collectFiles([given], given, limit);
    if (collected.problems.length > 0) {
      const first = collected.problems[0];
      return errorLine('simulate', ErrorCode.UNREADABLE_INPUT, `cannot read --${flag} ${given}: ${first.file} ${first.message}`
        + (collected.problems.length > 1 ? ` (and ${collected.problems.length - 1} more)` : ''), `give --${flag} a folder whose every YAML or JSON file can be read`);
    }
    const sources: ManifestSource[] = [];
    for (const file of collected.files) {
      try {
        sources.push({ name: path.join(given, file.path), text: utf8Text(file.content) });
      } catch (e) {
        return errorLine('simulate', ErrorCode.UNREADABLE_INPUT, `cannot read --${flag} ${path.join(given, file.path)}: ${messageOf(e)}`,
          `give --${flag} a folder whose every YAML or JSON file can be read`);
      }
    }
    return { sources, folder: true };
  };
  const reads: [string, Read][] = [];
  for (const [flag, given] of [['desired', desired], ['live', live]] as const) {
    if (given !== undefined) {
      const r = read(flag, given);
      if (typeof r === 'string') {
        return r;
      }
      reads.push([flag, r]);
    }
  }
  // A single file is one resource unless it holds several objects (a List counts as its items).
  const many = (r: Read) => {
    try {
      return r.folder || (r.bytes !== undefined && parseManifests(r.file, r.bytes).objects.length > 1);
    } catch {
      return false;
    }
  };
  if (!reads.some(([, r]) => many(r))) {
    return { desired: [], live: [], wholeApplication: false };
  }
  const sources: Record<string, ManifestSource[]> = { desired: [], live: [] };
  for (const [flag, r] of reads) {
    if (r.folder) {
      sources[flag] = r.sources;
      continue;
    }
    try {
      sources[flag] = [{ name: r.file, text: utf8Text(r.bytes ?? io.readBytes(r.file, limit)) }];
    } catch (e) {
      return errorLine('simulate', ErrorCode.UNREADABLE_INPUT, `cannot read --${flag} ${r.file}: ${messageOf(e)}`, `give --${flag} a readable file or folder`);
    }
  }
  return { desired: sources.desired, live: sources.live, wholeApplication: true };
}

/** Bytes as text, or an error saying why they are not a manifest file (binary, not UTF-8), as the audit would. */
function utf8Text(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error(parseManifests('', bytes).problem ?? 'not valid UTF-8');
  }
}

async function simulateWholeApplication(
  io: CliIo, app: string, sources: SimulateSources, limit: number, format: string | undefined, debug: boolean,
): Promise<number> {
  let application: string;
  try {
    const bytes = io.readBytes(app, limit);
    readOneManifest(`--app ${app}`, bytes);
    application = utf8Text(bytes);
  } catch (e) {
    io.stderr(hasCode(messageOf(e)) ? thrownError('simulate', e, debug, 'give --app one Argo CD Application')
      : errorLine('simulate', ErrorCode.UNREADABLE_INPUT, `cannot read --app ${app}: ${messageOf(e)}`, 'give --app a readable regular file'));
    return EXIT_USAGE;
  }
  try {
    const simulator = await DriftSimulator.create();
    const report = simulator.simulateApplication({ application, desired: sources.desired, live: sources.live });
    io.stdout(format === 'json' ? formatApplicationDriftJson(report) : formatApplicationDriftText(report));
    return report.outOfSync ? EXIT_FINDINGS : EXIT_OK;
  } catch (e) {
    io.stderr(thrownError('simulate', e, debug, 'correct the input the message names'));
    return EXIT_USAGE;
  }
}

