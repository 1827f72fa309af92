/*
 * Measures `safe-argocd audit` on checked-out GitOps repositories, for docs/real-world.md.
 *
 *   npx projen compile
 *   npx ts-node --transpile-only --project test/tsconfig.json bench/real-world.ts [--runs N] [--json] <folder>...
 *
 * For each folder: the built CLI (lib/cli/bin.js) is run as a user runs it, a new node process each time, and
 * timed from spawn to exit (median of --runs, default 3), twice a round: with its output sent to the null device, as
 * benchmark tools time a command, and with its JSON report read through a pipe, which gives the counts and the
 * findings per rule (and costs this process the time to drain several MB). In this process the same files are then
 * read and parsed with js-yaml, the floor any YAML tool pays, and audited by the library without the CLI around it;
 * on a busy machine their ratio holds better than wall times.
 * The CLI's own yardstick is a plain js-yaml parse as a process of its own, timed the same way: a new node process
 * that walks the folder for YAML and JSON files (`.git` and `node_modules` left out), reads each and parses every
 * document, so start-up, loading and a cold parser are on both sides. An empty `node -e 0` is timed too, so start-up
 * can be told apart from work. Nothing here runs in the tests.
 */
import { spawnSync } from 'child_process';
import { existsSync, readFileSync } from 'fs';
import { basename, join, resolve } from 'path';
import { loadAll } from 'js-yaml';
import { auditFiles } from '../src/audit/audit';
import { collectFiles } from '../src/cli/files';
import { ArgoCdVersion } from '../src/core/argocd-version';

const CLI = resolve(__dirname, '..', 'lib', 'cli', 'bin.js');
const MAX_BYTES = 5 * 1048576;

interface Report {
  readonly findings: readonly { readonly ruleId: string }[];
  readonly suppressed: readonly unknown[];
  readonly problems: readonly { readonly file: string; readonly message: string }[];
  readonly notes: readonly string[];
  readonly stats: {
    readonly files: number;
    readonly manifests: number;
    readonly applications: number;
    readonly skippedDocuments: number;
    readonly skippedTemplates: number;
    readonly applicationSets?: { readonly expanded: number; readonly literal: number; readonly generated: number };
  };
}

interface Row {
  readonly repo: string;
  readonly report: Report;
  readonly cliMs: number;
  readonly parseMs: number;
  readonly auditMs: number;
  readonly parsedDocs: number;
  readonly parseErrors: number;
  /** The plain parse process, spawn to exit. */
  readonly parseProcessMs: number;
  /** The median of the CLI's time over the parse process's, run by run: steadier than the ratio of the medians. */
  readonly cliRatio: number;
  /** The CLI with its report read through a pipe, spawn to exit, and its ratio to the parse process, run by run. */
  readonly capturedMs: number;
  readonly capturedRatio: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Runs node with `args`, timed from spawn to exit; with `discard`, its standard output goes to the null device unread. */
function timedSpawn(args: string[], cwd?: string, discard: boolean = false): { ms: number; stdout: string; status: number | null } {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, discard
    ? { encoding: 'utf8', cwd, stdio: ['ignore', 'ignore', 'pipe'] }
    : { encoding: 'utf8', maxBuffer: 256 * 1048576, cwd });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.error) {
    throw r.error;
  }
  return { ms, stdout: r.stdout, status: r.status };
}

/** Reads and parses every file the audit would read, with js-yaml; returns documents and files that failed. */
function parseAll(folder: string): { docs: number; errors: number } {
  const { files } = collectFiles([folder], folder, MAX_BYTES);
  let docs = 0;
  let errors = 0;
  for (const f of files) {
    try {
      for (const doc of loadAll(readFileSync(join(folder, f.path), 'utf8'))) {
        if (doc !== null && doc !== undefined) {
          docs++;
        }
      }
    } catch {
      errors++;
    }
  }
  return { docs, errors };
}

/**
 * The plain parse process: walks the folder given, reads every YAML and JSON file and parses all its documents with
 * js-yaml, then prints how many documents it found. Run from this repository, so that it finds js-yaml.
 */
const PARSE_PROCESS = `
const fs = require('fs');
const path = require('path');
const { loadAll } = require('js-yaml');
let docs = 0;
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== '.git' && e.name !== 'node_modules') walk(full);
    } else if (e.isFile() && /\\.(ya?ml|json)$/i.test(e.name)) {
      try {
        for (const doc of loadAll(fs.readFileSync(full, 'utf8'))) {
          if (doc !== null && doc !== undefined) docs++;
        }
      } catch {}
    }
  }
};
walk(process.argv[1]);
process.stdout.write(String(docs));
`;

/** The library's audit of the same files, in this process: no start-up, no report writing. */
function auditInProcess(folder: string): number {
  const { files } = collectFiles([folder], folder, MAX_BYTES);
  return auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST }).findings.length;
}

function timed(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function measure(folder: string, runs: number): Row {
  // The CLI and the plain parse process take turns, so that a machine that slows down or speeds up meanwhile weighs on both.
  const cliTimes: number[] = [];
  const capturedTimes: number[] = [];
  const parseProcessTimes: number[] = [];
  let report: Report | undefined;
  let parsedByProcess = -1;
  const args = [CLI, 'audit', folder, '--repo-root', folder, '--format', 'json'];
  // The audit exits 0 without findings and 1 with them; anything else is a failed run, not a time.
  const audited = <T extends { status: number | null }>(run: T): T => {
    if (run.status !== 0 && run.status !== 1) {
      throw new Error(`audit of ${folder} exited ${run.status}`);
    }
    return run;
  };
  for (let r = 0; r < runs; r++) {
    // As a benchmark tool times a command: its output sent to the null device, so that what is timed is the command,
    // not how fast this process drains a pipe of several MB (about 40 ms for 2.7 MB on this machine).
    cliTimes.push(audited(timedSpawn(args, undefined, true)).ms);
    // The same command with its report read through a pipe, as a CI log reads it: timed too, and the report kept.
    const captured = audited(timedSpawn(args));
    report = JSON.parse(captured.stdout) as Report;
    capturedTimes.push(captured.ms);
    const parse = timedSpawn(['-e', PARSE_PROCESS, folder], resolve(__dirname, '..'));
    if (parse.status !== 0) {
      throw new Error(`the parse process on ${folder} exited ${parse.status}`);
    }
    parseProcessTimes.push(parse.ms);
    parsedByProcess = Number(parse.stdout);
  }
  // Warm the file cache, the parser and the audit's code before timing either.
  let parsed = parseAll(folder);
  auditInProcess(folder);
  const parseTimes: number[] = [];
  const auditTimes: number[] = [];
  for (let r = 0; r < runs; r++) {
    parseTimes.push(timed(() => {
      parsed = parseAll(folder);
    }));
    auditTimes.push(timed(() => auditInProcess(folder)));
  }
  if (parsedByProcess !== parsed.docs) {
    throw new Error(`the parse process found ${parsedByProcess} documents in ${folder}, this process ${parsed.docs}: not the same files`);
  }
  return {
    repo: basename(folder),
    report: report!,
    cliMs: median(cliTimes),
    parseMs: median(parseTimes),
    auditMs: median(auditTimes),
    parsedDocs: parsed.docs,
    parseErrors: parsed.errors,
    parseProcessMs: median(parseProcessTimes),
    cliRatio: median(cliTimes.map((ms, r) => ms / parseProcessTimes[r])),
    capturedMs: median(capturedTimes),
    capturedRatio: median(capturedTimes.map((ms, r) => ms / parseProcessTimes[r])),
  };
}

function byRule(report: Report): string {
  const counts = new Map<string, number>();
  for (const f of report.findings) {
    counts.set(f.ruleId, (counts.get(f.ruleId) ?? 0) + 1);
  }
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, n]) => `${id} ${n}`).join(', ') || '-';
}

function main(argv: string[]): void {
  let runs = 3;
  let json = false;
  const folders: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') {
      runs = Number(argv[++i]);
    } else if (argv[i] === '--json') {
      json = true;
    } else {
      folders.push(resolve(argv[i]));
    }
  }
  if (folders.length === 0 || !(runs >= 1)) {
    throw new Error('usage: bench/real-world.ts [--runs N] [--json] <repository folder>...');
  }
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} is missing: run "npx projen compile" first`);
  }
  const startup = median(Array.from({ length: runs }, () => timedSpawn(['-e', '0']).ms));
  const rows = folders.map((f) => measure(f, runs));
  if (json) {
    console.log(JSON.stringify({ node: process.version, runs, startupMs: startup, rows }, undefined, 2));
    return;
  }
  console.log(`median of ${runs} runs, node ${process.version}; an empty node process takes ${startup.toFixed(0)} ms`);
  console.log('| repository | files | manifests | Applications | ApplicationSets (expanded/literal, generated) | skipped templates '
    + '| non-Kubernetes docs | unreadable | not audited | findings | suppressed | CLI ms (output discarded) | js-yaml parse process ms | CLI/parse process (median of run-by-run ratios) | CLI ms, report read through a pipe | its ratio | audit ms in process '
    + '| js-yaml parse ms in process | audit/parse | findings per rule |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const s = r.report.stats;
    const sets = s.applicationSets ? `${s.applicationSets.expanded}/${s.applicationSets.literal}, ${s.applicationSets.generated}` : '-';
    console.log(`| ${r.repo} | ${s.files} | ${s.manifests} | ${s.applications} | ${sets} | ${s.skippedTemplates} | ${s.skippedDocuments} | `
      + `${r.report.problems.length} | ${r.report.notes.length} | ${r.report.findings.length} | ${r.report.suppressed.length} | ${r.cliMs.toFixed(0)} | ${r.parseProcessMs.toFixed(0)} | `
      + `${r.cliRatio.toFixed(2)} | ${r.capturedMs.toFixed(0)} | ${r.capturedRatio.toFixed(2)} | ${r.auditMs.toFixed(0)} | `
      + `${r.parseMs.toFixed(0)} | ${(r.auditMs / r.parseMs).toFixed(1)} | ${byRule(r.report)} |`);
  }
}

main(process.argv.slice(2));
