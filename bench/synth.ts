/*
 * Benchmark: synthesizing a fleet with the library against the plain-cdk8s floor, in the same run.
 *
 * For each N, N services (each a SafeApplication with an autoscaled workload and its Service, a MigrationHook and an
 * ExternalSecret; the workloads are Deployments, StatefulSets and Argo Rollouts, scaled by an HPA or a KEDA
 * ScaledObject; 20 services a team, each team with its AppProject and app-of-apps root):
 * - library: build the fleet (examples/fleet) and call renderFiles(): validation, rules and YAML, no disk writes;
 * - plain: the same manifests, taken from the library's output as plain JSON, created as ApiObjects in one cdk8s
 *   App with no validation and rendered with cdk8s's Yaml.stringify per object (as `cdk8s synth` writes), no disk writes.
 * Each case runs in child processes of its own (a warm-up, then RUNS timed runs with a GC before each), so its
 * peak RSS is its own; ROUNDS pairs of children alternate, so that a busy moment of the machine hits both
 * sides. Time is the median of all timed runs of a side. The plain case must produce the library's manifests
 * exactly (the same YAML data; the library quotes a few more strings).
 */
import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { isDeepStrictEqual } from 'util';
import { ApiObject, App, Chart, JsonPatch, Yaml } from 'cdk8s';
import { parse } from 'yaml';
import { buildFleet } from '../examples/fleet/app';
import { ServiceSpec, WorkloadKind } from '../examples/fleet/services';

const SIZES = [100, 400, 2000];
const ROUNDS = 3;
const RUNS = 3;
const SERVICES_PER_TEAM = 20;
const OUTDIR = 'dist-bench';

/** What runs the pods of service i: three in five a Deployment, then a StatefulSet, then an Argo Rollout. */
const WORKLOADS: WorkloadKind[] = ['Deployment', 'Deployment', 'Deployment', 'StatefulSet', 'Rollout'];

/**
 * N services of N/20 teams, every one autoscaled (by KEDA one in three, by an HPA otherwise), with a migration and a
 * secret; the workloads mix Deployments, StatefulSets and Rollouts.
 */
function fleetTable(n: number): ServiceSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `svc-${String(i).padStart(4, '0')}`,
    team: `team-${String(Math.floor(i / SERVICES_PER_TEAM)).padStart(3, '0')}`,
    version: `1.${i % 50}.0`,
    port: 8080,
    hpa: { min: 2, max: 10, keda: i % 3 === 2 },
    workload: WORKLOADS[i % WORKLOADS.length],
    migration: true,
    secrets: ['db-password'],
  }));
}

/** One manifest of the library's output: its file, its object as plain JSON, and the bytes the library wrote. */
interface PlainManifest {
  readonly path: string;
  readonly manifest: Record<string, any>;
  readonly content: string;
}

function libraryRun(table: ServiceSpec[]): number {
  return buildFleet(table, { outdir: OUTDIR }).renderFiles().length;
}

/** The floor: the same objects as plain ApiObjects, one chart per folder, no validation, Yaml.stringify each. */
function plainRun(manifests: PlainManifest[]): { path: string; content: string }[] {
  const app = new App({ outdir: OUTDIR });
  const charts = new Map<string, Chart>();
  const objects: [string, ApiObject][] = [];
  manifests.forEach((m, i) => {
    const folder = m.path.slice(0, m.path.lastIndexOf('/'));
    let chart = charts.get(folder);
    if (!chart) {
      chart = new Chart(app, folder.replace(/\//g, '-'));
      charts.set(folder, chart);
    }
    const obj = new ApiObject(chart, `o${i}`, m.manifest as any);
    if (m.manifest.metadata?.name === undefined) {
      // cdk8s gives every object a name; a hook with generateName has none (the library patches it out the same way).
      obj.addJsonPatch(JsonPatch.remove('/metadata/name'));
    }
    objects.push([m.path, obj]);
  });
  return objects.map(([path, obj]) => ({ path, content: Yaml.stringify(obj.toJson()) }));
}

/** Wall time and CPU time (user and system, all threads, so GC helpers count) of one call, in ms. */
function time(fn: () => unknown): { wall: number; cpu: number } {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  fn();
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

interface CaseResult {
  /** Median wall time. */
  readonly ms: number;
  /** Median CPU time: less disturbed than wall time when other processes share the machine. */
  readonly cpuMs: number;
  readonly runs: number[];
  readonly cpuRuns: number[];
  readonly peakMiB: number;
}

/** In a child: run one case, print its times and peak RSS as JSON. */
function child(kind: string, n: number, input: string | undefined): void {
  const gc = (global as any).gc as () => void;
  let run: () => unknown;
  if (kind === 'library') {
    const table = fleetTable(n);
    run = () => libraryRun(table);
    run(); // warm-up
  } else {
    let manifests = JSON.parse(readFileSync(input!, 'utf8')) as PlainManifest[];
    // The warm-up also checks that the floor writes the very manifests the library wrote (the bytes may
    // differ where the library quotes a string that cdk8s's writer leaves plain, e.g. `--to-latest`).
    const out = plainRun(manifests);
    const differ = out.filter((o, i) => !isDeepStrictEqual(parse(o.content), parse(manifests[i].content)));
    if (differ.length > 0) {
      throw new Error(`plain cdk8s renders ${differ.length} manifest(s) differently from the library, e.g. ${differ[0].path}`);
    }
    // The library's bytes are not part of the floor's input: drop them, so they do not weigh on its heap.
    manifests = manifests.map((m) => ({ path: m.path, manifest: m.manifest, content: '' }));
    run = () => plainRun(manifests);
  }
  const runs: number[] = [];
  const cpuRuns: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    gc();
    const { wall, cpu } = time(run);
    runs.push(wall);
    cpuRuns.push(cpu);
  }
  const result: CaseResult = { ms: median(runs), cpuMs: median(cpuRuns), runs, cpuRuns, peakMiB: process.resourceUsage().maxRSS / 1024 };
  process.stdout.write(JSON.stringify(result));
}

/** In a child: render the library's fleet once and write its manifests as plain JSON for the floor. */
function prepare(n: number, output: string): void {
  const files = buildFleet(fleetTable(n), { outdir: OUTDIR }).renderFiles();
  const manifests: PlainManifest[] = files
    .filter((f) => f.path.endsWith('.yaml'))
    .map((f) => ({ path: f.path, manifest: parse(f.content), content: f.content }));
  writeFileSync(output, JSON.stringify(manifests));
  process.stdout.write(JSON.stringify({ files: files.length, manifests: manifests.length }));
}

/** All timed runs of one side's children: the median run, and the highest peak RSS. */
function combine(rounds: CaseResult[]): CaseResult {
  const runs = rounds.flatMap((r) => r.runs);
  const cpuRuns = rounds.flatMap((r) => r.cpuRuns);
  return { ms: median(runs), cpuMs: median(cpuRuns), runs, cpuRuns, peakMiB: Math.max(...rounds.map((r) => r.peakMiB)) };
}

function spawn(args: string[]): any {
  const stdout = execFileSync(process.execPath, ['--expose-gc', '-r', 'ts-node/register/transpile-only', __filename, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TS_NODE_PROJECT: join(__dirname, '..', 'test', 'tsconfig.json') },
    maxBuffer: 16 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(stdout);
}

function main(sizes: number[]): void {
  const dir = mkdtempSync(join(tmpdir(), 'safe-argocd-bench-synth-'));
  const rows: { n: number; files: number; manifests: number; library: CaseResult; plain: CaseResult }[] = [];
  try {
    for (const n of sizes) {
      const input = join(dir, `fleet-${n}.json`);
      const { files, manifests } = spawn(['--prepare', String(n), input]);
      const libraryRounds: CaseResult[] = [];
      const plainRounds: CaseResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        libraryRounds.push(spawn(['--child', 'library', String(n)]));
        plainRounds.push(spawn(['--child', 'plain', String(n), input]));
      }
      const library = combine(libraryRounds);
      const plain = combine(plainRounds);
      rows.push({ n, files, manifests, library, plain });
      console.log(`N=${n}: library ${library.runs.map((x) => x.toFixed(0)).join('/')} ms, plain ${plain.runs.map((x) => x.toFixed(0)).join('/')} ms (wall)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  console.log(`synth benchmark (median of ${ROUNDS} x ${RUNS} runs, each case in processes of its own with a warm-up, node ${process.version})`);
  console.log('services  manifests  library ms  plain ms  ratio  library CPU ms  plain CPU ms  CPU ratio  library peak MiB  plain peak MiB');
  for (const r of rows) {
    console.log([
      String(r.n).padStart(8), String(r.manifests).padStart(9),
      r.library.ms.toFixed(0).padStart(10), r.plain.ms.toFixed(0).padStart(8), (r.library.ms / r.plain.ms).toFixed(2).padStart(5),
      r.library.cpuMs.toFixed(0).padStart(13), r.plain.cpuMs.toFixed(0).padStart(12), (r.library.cpuMs / r.plain.cpuMs).toFixed(2).padStart(9),
      r.library.peakMiB.toFixed(0).padStart(16), r.plain.peakMiB.toFixed(0).padStart(14),
    ].join('  '));
  }
  const at = (n: number) => rows.find((r) => r.n === n);
  const verdict = (ok: boolean) => (ok ? 'holds' : 'FAILS');
  const [r400, r2000] = [at(400), at(2000)];
  if (r400) {
    const ratio = r400.library.ms / r400.plain.ms;
    console.log(`target: at N=400 at most 1.3x plain cdk8s: ${ratio.toFixed(2)}x, ${verdict(ratio <= 1.3)}`);
  }
  if (r400 && r2000) {
    const growth = r2000.library.ms / r400.library.ms;
    console.log(`target: linear growth, N=2000 at most 5.5x N=400: ${growth.toFixed(2)}x, ${verdict(growth <= 5.5)} `
      + `(plain cdk8s: ${(r2000.plain.ms / r400.plain.ms).toFixed(2)}x)`);
  }
  if (r2000) {
    console.log(`target: peak memory at N=2000 under 1 GiB: ${r2000.library.peakMiB.toFixed(0)} MiB, ${verdict(r2000.library.peakMiB < 1024)}`);
  }
}

const [mode, ...args] = process.argv.slice(2);
if (mode === '--child') {
  child(args[0], Number(args[1]), args[2]);
} else if (mode === '--prepare') {
  prepare(Number(args[0]), args[1]);
} else {
  // Sizes can be given to try one quickly, e.g. `bench/synth.ts 400`; the defaults are the ones the targets name.
  main(mode === undefined ? SIZES : [mode, ...args].map(Number));
}
