import { mkdirSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { stringify } from 'yaml';
import { auditFiles, AuditOptions } from '../../src/audit/audit';
import { AuditFile, AuditResult } from '../../src/audit/types';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { runCli as runInProcess } from '../cli/support';
import { tempDir } from '../support/app';

/** Audits files given as path to text, for the newest Argo CD release unless `options` say otherwise. */
export function auditInMemory(files: Record<string, string>, options: Partial<AuditOptions> = {}): AuditResult {
  const list: AuditFile[] = Object.entries(files).map(([path, text]) => ({ path, content: Buffer.from(text, 'utf8') }));
  return auditFiles(list, { argoCdVersion: ArgoCdVersion.LATEST, ...options });
}

/** The GitOps repository in which every known failure mode appears once. */
export const FAILURE_MODES = join(__dirname, '..', 'fixtures', 'failure-modes');

/** What one in-process run of the CLI printed, wrote and returned. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Files written with --output, path to text. */
  readonly written: Map<string, string>;
  readonly millis: number;
}

/** Runs `safe-argocd` in-process with a fake io, the way the bin entry does, and times it. */
export async function runCli(args: readonly string[]): Promise<CliRun> {
  const started = Date.now();
  const run = await runInProcess(args);
  return { ...run, millis: Date.now() - started };
}

/** Runs `safe-argocd audit <root> --repo-root <root> --format json ...` and parses the report. */
export async function auditJson(root: string, ...args: string[]): Promise<{ run: CliRun; report: JsonReport }> {
  const run = await runCli(['audit', root, '--repo-root', root, '--format', 'json', ...args]);
  return { run, report: JSON.parse(run.stdout) as JsonReport };
}

/** The parts of the JSON report the tests read. */
export interface JsonReport {
  readonly findings: JsonFinding[];
  readonly suppressed: JsonFinding[];
  readonly problems: { file: string; message: string }[];
  readonly notes: string[];
  readonly stats: {
    files: number;
    manifests: number;
    applications: number;
    skippedDocuments: number;
    skippedTemplates: number;
    excludedFiles: number;
    applicationSets?: { expanded: number; literal: number; generated: number };
  };
}

export interface JsonFinding {
  readonly ruleId: string;
  readonly severity: string;
  readonly message: string;
  readonly pointer: string;
  readonly object: string;
  readonly location: { file: string; line: number; column: number };
  readonly application?: string;
  readonly suppression?: { reason: string; source: string };
}

/** `ruleId file application` of each finding, sorted: a multiset that ignores order. */
export function keysOf(findings: readonly { ruleId: string; location: { file: string }; application?: string }[]): string[] {
  return findings.map((f) => key(f.ruleId, f.location.file, f.application)).sort();
}

/** One finding as `keysOf` spells it. */
export function key(ruleId: string, file: string, application?: string): string {
  return `${ruleId} ${file} ${application ?? '-'}`;
}

/** Writes files (text or bytes) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** Options of `applicationYaml`. */
export interface ApplicationOptions {
  readonly path?: string;
  /** Merged into `spec.syncPolicy` after the compliant defaults. */
  readonly syncPolicy?: Record<string, unknown>;
  /** Merged into `spec` after the compliant defaults. */
  readonly spec?: Record<string, unknown>;
  readonly annotations?: Record<string, string>;
}

/** An Application every rule accepts (project, retry, branch, selfHeal and prune), as YAML. */
export function applicationYaml(name: string, options: ApplicationOptions = {}): string {
  return stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace: 'argocd', ...(options.annotations ? { annotations: options.annotations } : {}) },
    spec: {
      project: 'payments',
      destination: { server: 'https://kubernetes.default.svc', namespace: name },
      source: { repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'main', path: options.path ?? `workloads/${name}` },
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } },
        ...options.syncPolicy,
      },
      ...options.spec,
    },
  });
}

/** A Deployment, with `replicas` when given. */
export function deploymentYaml(name: string, namespace: string, replicas?: number): string {
  return stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      ...(replicas !== undefined ? { replicas } : {}),
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'registry.acme.internal/web:1.0.0' }] } },
    },
  });
}

/** An HPA scaling the Deployment of the same name. */
export function hpaYaml(name: string, namespace: string): string {
  return stringify({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, namespace },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, minReplicas: 2, maxReplicas: 5 },
  });
}

/** A ConfigMap, which no rule is about. */
export function configMapYaml(name: string, namespace: string): string {
  return stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { mode: 'production' } });
}

/**
 * A small repository with one finding: Application `half` (apps/half.yaml) has selfHeal off (SA001).
 * Hostile and exit-code tests put their bad files next to it and check it was still audited.
 */
export function writeGoodRepo(root: string): void {
  writeTree(root, {
    'apps/half.yaml': applicationYaml('half', { syncPolicy: { automated: { prune: true, selfHeal: false } } }),
    'workloads/half/configmap.yaml': configMapYaml('settings', 'half'),
  });
}

/** The finding `writeGoodRepo` always produces. */
export const GOOD_REPO_FINDING = key('SA001', 'apps/half.yaml', 'half');

/** A repository with nothing to report: one Application and the ConfigMap it deploys. */
export function cleanRepo(): string {
  const root = tempDir();
  writeTree(root, {
    'apps/clean.yaml': applicationYaml('clean'),
    'workloads/clean/configmap.yaml': configMapYaml('settings', 'clean'),
  });
  return root;
}

/**
 * A Kustomize base with an HPA-scaled Deployment (no replicas) and a prod overlay whose patch sets replicas, with
 * Application web deploying the overlay: what only the overlay's rendering shows as SA101 and SA102.
 */
export function kustomizeOverlayTree(): Record<string, string> {
  return {
    'apps/web.yaml': applicationYaml('web', { path: 'workloads/web/overlays/prod' }),
    'workloads/web/base/kustomization.yaml': stringify({ resources: ['deployment.yaml', 'hpa.yaml'] }),
    'workloads/web/base/deployment.yaml': deploymentYaml('web', 'web'),
    'workloads/web/base/hpa.yaml': hpaYaml('web', 'web'),
    'workloads/web/overlays/prod/kustomization.yaml': stringify({ resources: ['../../base'], patches: [{ path: 'replicas.yaml' }] }),
    'workloads/web/overlays/prod/replicas.yaml': stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'web' }, spec: { replicas: 3 } }),
  };
}
