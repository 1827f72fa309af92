/*
 * Benchmark: simulating a whole Application of 500 resources against its live objects, against parsing the same
 * input alone, in the same run.
 *
 * The Application deploys 500 resources: copies of the checkout example's workloads (Deployment, Service, HPA,
 * RoleBinding...), renamed; live is each object as a 1.29 API server returns it after Argo CD applied it (tracking annotation,
 * last-applied, defaults, canonical quantities, managedFields, status), as one `kubectl get -o yaml` List.
 * - parse: reading the desired and live texts into objects (what the simulation itself starts with);
 * - simulate: DriftSimulator.simulateApplication on the same texts: reading, pairing, normalizing, diffing.
 * Each side runs RUNS times after a warm-up, alternating; the median is reported, and the ratio simulate/parse.
 */
import { performance } from 'perf_hooks';
import { parse, stringify } from 'yaml';
import { buildCheckoutApp } from '../examples/checkout/app';
import { DriftSimulator, TrackingMethod } from '../src';
import { parseManifests } from '../src/core/parse-manifests';
import { asServed } from '../test/drift/as-served';

const RESOURCES = 500;
const RUNS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const files = buildCheckoutApp({ outdir: 'dist' }).renderFiles().filter((f) => f.path.endsWith('.yaml'));
  const application = files.find((f) => f.path === 'applications/payments/Application.checkout.k8s.yaml')!.content;
  const templates = files.filter((f) => f.path.startsWith('workloads/checkout/')).map((f) => parse(f.content))
    .filter((o) => !o.metadata.annotations?.['argocd.argoproj.io/hook']);
  const desired: any[] = [];
  for (let i = 0; desired.length < RESOURCES; i++) {
    for (const t of templates.slice(0, RESOURCES - desired.length)) {
      const copy = JSON.parse(JSON.stringify(t));
      copy.metadata.name = `${copy.metadata.name}-${String(i).padStart(3, '0')}`;
      desired.push(copy);
    }
  }
  const desiredText = desired.map((o) => stringify(o)).join('---\n');
  const liveText = stringify({ apiVersion: 'v1', kind: 'List', items: desired.map((o) => asServed(o, 'checkout', 'payments')) });
  const input = {
    application,
    desired: [{ name: 'desired.yaml', text: desiredText }],
    live: [{ name: '-', text: liveText }],
    trackingMethod: TrackingMethod.ANNOTATION,
  };
  const simulator = await DriftSimulator.create();

  const parseOnce = () => {
    parseManifests('desired.yaml', Buffer.from(desiredText, 'utf8'));
    parseManifests('-', Buffer.from(liveText, 'utf8'));
  };
  const simulateOnce = () => simulator.simulateApplication(input);

  const check = simulateOnce();
  const outOfSync = check.resources.filter((r) => r.status !== 'Synced');
  if (check.resources.length !== desired.length || check.outOfSync || outOfSync.length > 0) {
    throw new Error(`the benchmark's Application should be Synced with ${desired.length} resources; `
      + `got ${check.resources.length}, ${outOfSync.length} not Synced`);
  }
  const times = { parse: [] as number[], simulate: [] as number[] };
  for (let run = 0; run <= RUNS; run++) {
    for (const [side, fn] of [['parse', parseOnce], ['simulate', simulateOnce]] as const) {
      const start = performance.now();
      fn();
      if (run > 0) {
        times[side].push(performance.now() - start);
      }
    }
  }
  const parseMs = median(times.parse);
  const simulateMs = median(times.simulate);
  console.log(`resources  input MB  parse ms  simulate ms  simulate/parse  resources/s`);
  console.log([
    String(desired.length).padStart(9),
    ((desiredText.length + liveText.length) / 1048576).toFixed(2).padStart(8),
    parseMs.toFixed(0).padStart(8),
    simulateMs.toFixed(0).padStart(11),
    `${(simulateMs / parseMs).toFixed(2)}x`.padStart(14),
    String(Math.round(desired.length / (simulateMs / 1000))).padStart(11),
  ].join('  '));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
