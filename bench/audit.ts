/*
 * Benchmark: `safe-argocd audit` against plain YAML parsing of the same files, in the same run.
 *
 *   npx projen compile && npm run bench:audit
 *
 * The audit timed is the library as it ships, lib/ as the compiler writes it: the TypeScript sources as ts-node runs them
 * took the audit about a fifth longer (125 against 105 ms at 400 Applications, both warm), which is no user's figure.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { loadAll } from 'js-yaml';

const LIB = resolve(__dirname, '..', 'lib');
if (!existsSync(join(LIB, 'audit', 'audit.js'))) {
  throw new Error('lib/ is not built: run npx projen compile first');
}
/* eslint-disable @typescript-eslint/no-require-imports */
const { ArgoCdVersion } = require(join(LIB, 'core', 'argocd-version')) as typeof import('../src/core/argocd-version');
const { auditFiles } = require(join(LIB, 'audit', 'audit')) as typeof import('../src/audit/audit');
const { collectFiles } = require(join(LIB, 'cli', 'files')) as typeof import('../src/cli/files');
/* eslint-enable @typescript-eslint/no-require-imports */

function application(name: string): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ${name}
  namespace: argocd
spec:
  project: team-${name.length % 7}
  source:
    repoURL: https://git.example.com/platform/gitops.git
    targetRevision: main
    path: workloads/${name}
  destination:
    server: https://kubernetes.default.svc
    namespace: ${name}
  ignoreDifferences:
    - group: apps
      kind: Deployment
      name: ${name}-web
      namespace: ${name}
      jsonPointers: [/spec/replicas]
  syncPolicy:
    automated: { enabled: true, prune: true, selfHeal: true, allowEmpty: false }
    syncOptions: [CreateNamespace=true, PruneLast=true, ApplyOutOfSyncOnly=true, RespectIgnoreDifferences=true]
    retry: { limit: 5, backoff: { duration: 5s, factor: 2, maxDuration: 3m } }
`;
}

function workloads(name: string): Record<string, string> {
  return {
    'Deployment.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name}-web, namespace: ${name}, labels: { app: ${name} } }
spec:
  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec:
      containers:
        - name: web
          image: registry.example.com/${name}:1.0.0
          ports: [{ containerPort: 8080 }]
          resources: { requests: { cpu: 100m, memory: 128Mi }, limits: { memory: 256Mi } }
`,
    'HorizontalPodAutoscaler.yaml': `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: { name: ${name}-web, namespace: ${name} }
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: ${name}-web }
  minReplicas: 2
  maxReplicas: 10
  metrics:
    - type: Resource
      resource: { name: cpu, target: { type: Utilization, averageUtilization: 70 } }
`,
    'Service.yaml': `apiVersion: v1
kind: Service
metadata: { name: ${name}, namespace: ${name} }
spec:
  selector: { app: ${name} }
  ports: [{ port: 80, targetPort: 8080 }]
`,
    'Job.yaml': `apiVersion: batch/v1
kind: Job
metadata:
  generateName: ${name}-migrate-
  namespace: ${name}
  annotations: { argocd.argoproj.io/hook: PreSync, argocd.argoproj.io/hook-delete-policy: HookSucceeded }
spec:
  activeDeadlineSeconds: 600
  backoffLimit: 1
  template:
    spec:
      restartPolicy: Never
      containers: [{ name: migrate, image: registry.example.com/${name}:1.0.0, command: [./migrate] }]
`,
    'ConfigMap.yaml': `apiVersion: v1
kind: ConfigMap
metadata: { name: ${name}-settings, namespace: ${name} }
data: { LOG_LEVEL: info, FEATURE_FLAGS: "a,b,c" }
`,
  };
}

function generate(dir: string, apps: number): number {
  let manifests = 0;
  mkdirSync(join(dir, 'applications'), { recursive: true });
  for (let i = 0; i < apps; i++) {
    const name = `svc-${String(i).padStart(4, '0')}`;
    writeFileSync(join(dir, 'applications', `${name}.yaml`), application(name));
    mkdirSync(join(dir, 'workloads', name), { recursive: true });
    for (const [file, text] of Object.entries(workloads(name))) {
      writeFileSync(join(dir, 'workloads', name, file), text);
    }
    manifests += 6;
  }
  return manifests;
}

function time(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// Parse and audit take turns, and the ratio is the median of each run's own: a machine that slows down meanwhile weighs on both.
const RUNS = 9;
// Rounds of both before any is timed. A new process compiles the audit's code over its first ten or so runs (at 400
// Applications its audit took 282, 258, 160, 150, 124 ... ms and settled near 105 from the tenth), the parse's over its
// first three: timed from the second round, the median was the audit's compilation as much as its work. What a run that
// starts cold costs, start-up and compilation included, is what bench/real-world.ts times, on the command line.
const WARM_UP = 10;
const rows: { apps: number; manifests: number; parseMs: number; auditMs: number; ratio: number; findings: number }[] = [];
for (const apps of [400, 2000]) {
  const dir = mkdtempSync(join(tmpdir(), 'safe-argocd-bench-'));
  const manifests = generate(dir, apps);
  let findings = -1;
  const parse = () => {
    // The floor: find the same files, read them and parse every document with the YAML parser the audit uses.
    const { files } = collectFiles([dir], dir, 5 * 1048576);
    let n = 0;
    for (const f of files) {
      for (const doc of loadAll(readFileSync(join(dir, f.path), 'utf8'))) {
        if (doc) n++;
      }
    }
    return n;
  };
  const audit = () => {
    const { files } = collectFiles([dir], dir, 5 * 1048576);
    const result = auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST });
    findings = result.findings.length;
    if (result.stats.manifests !== manifests) {
      throw new Error(`audited ${result.stats.manifests} manifests, expected ${manifests}`);
    }
  };
  for (let r = 0; r < WARM_UP; r++) {
    parse();
    audit();
  }
  const parseTimes: number[] = [];
  const auditTimes: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    parseTimes.push(time(parse));
    auditTimes.push(time(audit));
  }
  rows.push({ apps, manifests, parseMs: median(parseTimes), auditMs: median(auditTimes), ratio: median(auditTimes.map((ms, r) => ms / parseTimes[r])), findings });
  rmSync(dir, { recursive: true, force: true });
}

console.log(`audit benchmark (median of ${RUNS} runs after ${WARM_UP} rounds of warm-up, node ${process.version})`);
console.log('apps  manifests  parse ms  audit ms  audit/parse (median of run-by-run ratios)  manifests/s  findings');
for (const r of rows) {
  console.log(`${String(r.apps).padStart(4)}  ${String(r.manifests).padStart(9)}  ${r.parseMs.toFixed(0).padStart(8)}  ${r.auditMs.toFixed(0).padStart(8)}  `
    + `${r.ratio.toFixed(2).padStart(11)}  ${Math.round(r.manifests / (r.auditMs / 1000)).toString().padStart(11)}  ${String(r.findings).padStart(8)}`);
}
const [small, large] = rows;
console.log(`growth 400 -> 2000 apps: ${(large.auditMs / small.auditMs).toFixed(2)}x time for 5x files`);
