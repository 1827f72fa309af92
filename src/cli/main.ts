import { parseArgs } from 'util';
import { DriftSimulator } from '../drift/drift-simulator';
import { formatDriftJson, formatDriftText } from '../drift/format';
import { describeManifestText } from '../drift/subject';

/** What the CLI may touch: output streams and files. Injected so that tests run it in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readFile(path: string): string;
}

export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

const USAGE = `usage:
  safe-argocd simulate --app <application.yaml> --desired <resource.yaml> [--live <live.yaml>] [--format text|json]

  simulate  predicts Argo CD's diff and self-heal for one resource.
            exit 0 when Synced, 1 when OutOfSync, 2 for usage or unreadable input.
`;

/** Runs the CLI: parses arguments, reads files, prints, and returns the exit code. */
export async function main(args: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(USAGE);
    return command === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (command === 'simulate') {
    return simulateCommand(rest, io);
  }
  io.stderr(`safe-argocd: unknown command ${JSON.stringify(command)}\n${USAGE}`);
  return EXIT_USAGE;
}

async function simulateCommand(args: readonly string[], io: CliIo): Promise<number> {
  let values: { app?: string; desired?: string; live?: string; format?: string };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { app: { type: 'string' }, desired: { type: 'string' }, live: { type: 'string' }, format: { type: 'string', default: 'text' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    io.stderr(`safe-argocd simulate: ${(e as Error).message}\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (!values.app || !values.desired || (values.format !== 'text' && values.format !== 'json')) {
    io.stderr(`safe-argocd simulate: --app and --desired are required, and --format is text or json\n${USAGE}`);
    return EXIT_USAGE;
  }
  const texts: { application?: string; desired?: string; live?: string } = {};
  for (const [key, path] of [['application', values.app], ['desired', values.desired], ['live', values.live]] as const) {
    if (path === undefined) {
      continue;
    }
    try {
      texts[key] = io.readFile(path);
    } catch (e) {
      io.stderr(`safe-argocd simulate: cannot read ${path}: ${(e as Error).message}\n`);
      return EXIT_USAGE;
    }
  }
  try {
    const simulator = await DriftSimulator.create();
    const report = simulator.simulateDrift({ application: texts.application!, desired: texts.desired!, live: texts.live });
    const subject = describeManifestText(texts.desired!);
    io.stdout(values.format === 'json' ? formatDriftJson(subject, report) : formatDriftText(subject, report));
    return report.outOfSync ? EXIT_FINDINGS : EXIT_OK;
  } catch (e) {
    io.stderr(`safe-argocd simulate: ${(e as Error).message}\n`);
    return EXIT_USAGE;
  }
}
