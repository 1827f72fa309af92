import { existsSync } from 'fs';
import { join } from 'path';
import { FAILURE_MODES, JsonReport, key, keysOf, runCli } from '../audit/support';

/** Every failure mode of the fixture, once: rule id, file, Application. */
const EXPECTED = [
  key('SA001', 'apps/half-enforced.yaml', 'half-enforced'),
  key('SA002', 'apps/ignore-without-respect.yaml', 'ignore-without-respect'),
  key('SA003', 'apps/wildcard-ignore.yaml', 'wildcard-ignore'),
  key('SA101', 'workloads/autoscaled/deployment.yaml', 'autoscaled'),
  key('SA102', 'workloads/autoscaled/deployment.yaml', 'autoscaled'),
  key('SA103', 'workloads/migration-in-wave/job.yaml', 'migration-in-wave'),
].sort();

/** Only on a target without `automated.enabled`. */
const OLD_TARGET = key('SA004', 'apps/old-target.yaml', 'old-target');

/** Findings of the text report: a file header line, then `  line:col  severity  SAxxx name  object (Application app)`. */
function parseText(text: string): string[] {
  const found: string[] = [];
  let file = '';
  for (const line of text.split('\n')) {
    if (line.startsWith('suppressed (')) {
      break;
    }
    const header = /^(\S+\.(?:ya?ml|json))$/.exec(line);
    if (header) {
      file = header[1];
      continue;
    }
    const finding = /^ {2}\d+:\d+ {2}(error|warning|note)\s+(SA\d{3}) \S+ {2}.*?(?: \(Application ([^)]+)\))?$/.exec(line);
    if (finding) {
      found.push(key(finding[2], file, finding[3]));
    }
  }
  return found.sort();
}

/** Findings of the JSON report. */
function parseJson(text: string): string[] {
  return keysOf((JSON.parse(text) as JsonReport).findings);
}

/** Results of the SARIF log: the Application is named in the message. */
function parseSarif(text: string): string[] {
  type Result = { ruleId: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] };
  const results = JSON.parse(text).runs[0].results as Result[];
  return results.map((r) => key(
    r.ruleId,
    decodeURI(r.locations[0].physicalLocation.artifactLocation.uri),
    /\(Application ([^)]+)\)/.exec(r.message.text)?.[1],
  )).sort();
}

/** Rows of the Markdown findings table: `| severity | SAxxx name | object (app) | `file:line` `pointer` | ... |`. */
function parseMarkdown(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    if (!/^\| (error|warning|note) \|/.test(line)) {
      continue;
    }
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    const ruleId = cells[1].split(' ')[0];
    const application = /\(([^)]+)\)$/.exec(cells[2])?.[1];
    const file = /^`([^`]+):\d+`/.exec(cells[3])![1];
    found.push(key(ruleId, file, application));
  }
  return found.sort();
}

const PARSERS: [string, (text: string) => string[]][] = [
  ['text', parseText],
  ['json', parseJson],
  ['sarif', parseSarif],
  ['markdown', parseMarkdown],
];

describe('safe-argocd audit of the failure-modes repository', () => {
  test('the fixture has no .safe-argocd.yaml, so nothing is suppressed by config', () => {
    // GIVEN the fixture repository
    // WHEN looking for a config file at its root
    // THEN there is none: the runs below are config-free
    expect(existsSync(join(FAILURE_MODES, '.safe-argocd.yaml'))).toBe(false);
  });

  test.each(PARSERS)('--format %s reports exactly one finding per failure mode, with file and Application', async (format, parse) => {
    // GIVEN the fixture, audited for the newest Argo CD
    // WHEN the report is printed in this format
    const run = await runCli(['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES, '--format', format]);

    // THEN the multiset of (rule, file, Application) is exactly the expected one, and the exit code says "findings"
    expect(parse(run.stdout)).toEqual(EXPECTED);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
  });

  test.each(PARSERS)('--format %s with --argocd-version 3.0 adds exactly SA004 for the old target', async (format, parse) => {
    // GIVEN the fixture, whose old-target Application sets automated.enabled
    // WHEN it is audited for Argo CD 3.0
    const run = await runCli(['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES, '--format', format, '--argocd-version', '3.0']);

    // THEN SA004 appears on top of the other failure modes, and nothing else changes
    expect(parse(run.stdout)).toEqual([...EXPECTED, OLD_TARGET].sort());
    expect(run.code).toBe(1);
  });

  test('every Application and every workload file is audited, with no problem or note', async () => {
    // GIVEN the fixture: six Applications and eight workload files
    // WHEN it is audited as JSON
    const run = await runCli(['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES, '--format', 'json']);
    const report = JSON.parse(run.stdout) as JsonReport;

    // THEN all of them were read and every Application found its workloads
    expect(report.stats).toEqual({ files: 14, manifests: 14, applications: 6, skippedDocuments: 0, skippedTemplates: 0, excludedFiles: 0 });
    expect(report.problems).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.suppressed).toEqual([]);
  });

  test('the text report ends with a summary line that counts the findings', async () => {
    // GIVEN the fixture
    // WHEN it is audited as text
    const run = await runCli(['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES]);

    // THEN the last line counts five errors, one warning (SA003) and fourteen files, and no colour codes are printed off a terminal
    const last = run.stdout.trimEnd().split('\n').pop();
    expect(last).toBe('5 error(s), 1 warning(s), 0 note(s); 0 suppressed; 6 Application(s), 14 manifest(s) in 14 file(s); '
      + '0 non-Kubernetes document(s) and 0 Helm chart file(s) skipped; 0 unreadable file(s)');
    expect(run.stdout).not.toContain('\u001b[');
  });

  test('the Markdown report starts with a summary for a pull-request comment', async () => {
    // GIVEN the fixture
    // WHEN it is audited as Markdown
    const run = await runCli(['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES, '--format', 'markdown']);

    // THEN the heading and the counts come first
    expect(run.stdout.split('\n').slice(0, 3)).toEqual([
      '## safe-argocd audit',
      '',
      '**5 error(s), 1 warning(s), 0 note(s)**; 0 suppressed; 6 Application(s) and 14 manifest(s) in 14 file(s).',
    ]);
  });

  test('--output writes the report to the file instead of stdout', async () => {
    // GIVEN the fixture
    // WHEN the JSON report is sent to a file
    const out = join(FAILURE_MODES, 'never-written.json');
    const run = await runCli(['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES, '--format', 'json', '--output', out]);

    // THEN stdout stays empty and the file holds the same findings
    expect(run.stdout).toBe('');
    expect(parseJson(run.written.get(out)!)).toEqual(EXPECTED);
    expect(run.code).toBe(1);
  });

  test('the same audit twice gives byte-identical reports', async () => {
    // GIVEN the fixture
    // WHEN it is audited twice in every format
    for (const [format] of PARSERS) {
      const first = await runCli(['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES, '--format', format]);
      const second = await runCli(['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES, '--format', format]);

      // THEN the output is deterministic
      expect(second.stdout).toBe(first.stdout);
    }
  });
});
