import { applicationYaml, configMapYaml } from './support';
import { auditFiles } from '../../src/audit/audit';
import { excludeMatcher } from '../../src/audit/exclude';
import { FULL_REPORT_HINT, formatMarkdown, MARKDOWN_LIMIT } from '../../src/audit/report/markdown';
import { formatSarif } from '../../src/audit/report/sarif';
import { testDataHint, undeployedHint } from '../../src/audit/report/test-data';
import { formatText } from '../../src/audit/report/text';
import { AuditResult } from '../../src/audit/types';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { ALL_RULES } from '../../src/rules/registry';

/** Application `web` with SA001 (error) and SA006 (warning), SA006 suppressed by config with `reason`. */
function result(reason: string): AuditResult {
  const files = {
    'apps/web.yaml': applicationYaml('web', { syncPolicy: { automated: { prune: true, selfHeal: false }, retry: undefined } }),
    'workloads/web/configmap.yaml': configMapYaml('settings', 'web'),
  };
  return auditFiles(Object.entries(files).map(([path, text]) => ({ path, content: Buffer.from(text) })), {
    argoCdVersion: ArgoCdVersion.LATEST,
    suppressions: [{ ruleId: 'SA006', reason, paths: [], applications: [] }],
  });
}

describe('audit reports', () => {
  test('text is coloured by severity only when asked', () => {
    // GIVEN a result with an error
    const audit = result('retries are done by the pipeline');

    // WHEN it is formatted with and without colour
    const coloured = formatText(audit, true);
    const plain = formatText(audit, false);

    // THEN only the coloured one has escape codes, around the severity
    expect(coloured).toContain('\u001b[31merror  \u001b[0m');
    expect(plain).not.toContain('\u001b[');
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(plain);
  });

  test('text prints a rule\'s fix under its first finding in each file, not under every one', () => {
    // GIVEN two Applications in one file and one in another, each without selfHeal (SA001 on all three)
    const halfEnforced = (name: string) => applicationYaml(name, { syncPolicy: { automated: { prune: true, selfHeal: false } } });
    const files = { 'apps/two.yaml': `${halfEnforced('a')}---\n${halfEnforced('b')}`, 'apps/one.yaml': halfEnforced('c') };
    const audit = auditFiles(Object.entries(files).map(([path, text]) => ({ path, content: Buffer.from(text) })),
      { argoCdVersion: ArgoCdVersion.LATEST });
    const sa001 = ALL_RULES.find((r) => r.id === 'SA001')!;
    expect(audit.findings.filter((f) => f.ruleId === 'SA001').map((f) => f.location.file)).toEqual(['apps/one.yaml', 'apps/two.yaml', 'apps/two.yaml']);

    // WHEN it is formatted as text
    const text = formatText(audit, false);

    // THEN SA001's fix is printed once per file, right under that file's first SA001 finding
    const groups = text.split('\n\n').filter((g) => g.startsWith('apps/'));
    expect(groups.map((g) => g.split(`    fix: ${sa001.fix}`).length - 1)).toEqual([1, 1]);
    const two = groups[1].split('\n');
    const firstSa001 = two.findIndex((l) => l.includes('SA001'));
    expect(two[firstSa001 + 2]).toBe(`    fix: ${sa001.fix}`);
  });

  test('Markdown escapes pipes so that a reason cannot break the table', () => {
    // GIVEN a suppression reason with a pipe and a newline
    const audit = result('retries | are done\nby the pipeline');

    // WHEN it is formatted as Markdown
    const row = formatMarkdown(audit).split('\n').find((l) => l.startsWith('| SA006 |'))!;

    // THEN the row keeps four cells
    expect(row).toBe('| SA006 | Application argocd/web | `apps/web.yaml:15` | retries \\| are done by the pipeline (config) |');
    expect(row.split(/(?<!\\)\|/).slice(1, -1)).toHaveLength(4);
  });
});

describe('Markdown of hostile values', () => {
  const HOSTILE = 'https://github.com/x/</details><img src=https://evil.example/t.png>[click](https://evil.example) *b* _i_ ~~s~~ `c` &lt;';

  test('HTML and Markdown from the audited files render as literal text: no tag closes the report, no image or link', () => {
    // GIVEN an Application whose repoURL (quoted in a note) holds HTML, an image, a link and emphasis
    const app = applicationYaml('a', { spec: { source: { repoURL: HOSTILE, path: 'kz', targetRevision: 'HEAD' } } });
    const audit = auditFiles([{ path: 'apps/a.yaml', content: Buffer.from(app) }], { argoCdVersion: ArgoCdVersion.LATEST });
    expect(audit.notes.join()).toContain('<img src=');

    // WHEN it is formatted as Markdown
    const markdown = formatMarkdown(audit);

    // THEN the value's tags are entities, its link, image, emphasis and code are escaped, and only the report's own tags remain
    expect(markdown).toContain('&lt;/details&gt;&lt;img src=https://evil.example/t.png&gt;\\[click\\](https://evil.example) \\*b\\* \\_i\\_ \\~\\~s\\~\\~ \\`c\\` &amp;lt;');
    expect(markdown).not.toMatch(/<img|(?<!\\)\]\(|<\/details><img/);
    expect(markdown.match(/<details>/g)).toHaveLength(markdown.match(/<\/details>/g)!.length);
  });

  test.each([
    ['- a list item', '\\- a list item'],
    ['12. an ordered one', '12\\. an ordered one'],
    ['# a heading', '\\# a heading'],
  ])('a note starting %p does not start a list or a heading in its item', (note, shown) => {
    // GIVEN a note / WHEN formatted / THEN its item holds it as text
    const markdown = formatMarkdown({ ...result('r'), notes: [note] });
    expect(markdown).toContain(`\n- ${shown}\n`);
  });
});

describe('audit reports of ApplicationSets', () => {
  const appSet = (name: string, generators: unknown[]) => JSON.stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'ApplicationSet',
    metadata: { name, namespace: 'argocd' },
    spec: { generators, template: { metadata: { name: '{{env}}-web' }, spec: { project: 'default', destination: { name: '{{env}}', namespace: 'web' } } } },
  });

  test('text and Markdown count the sets expanded, the Applications they gave and the sets audited literally; without sets, nothing', () => {
    // GIVEN one set of two list elements and one of a plugin generator
    const files = {
      'apps/a.json': appSet('a', [{ list: { elements: [{ env: 'dev' }, { env: 'prod' }] } }]),
      'apps/b.json': appSet('b', [{ plugin: { configMapRef: { name: 'p' } } }]),
    };
    const list = Object.entries(files).map(([path, text]) => ({ path, content: Buffer.from(text) }));
    const audit = auditFiles(list, { argoCdVersion: ArgoCdVersion.LATEST });

    // WHEN formatted
    // THEN the summaries say so, and a result without ApplicationSets does not
    const line = '2 ApplicationSet(s): 1 expanded into 2 Application(s), 1 audited as their literal template';
    expect(formatText(audit, false)).toContain(`; ${line}\n`);
    expect(formatMarkdown(audit)).toContain(`; ${line}.`);
    expect(formatText(result('r'), false)).not.toContain('ApplicationSet(s):');
  });
});

describe('audit reports of hostile file names', () => {
  /** Application `web` (SA001) in a file named `name`, and a problem for a second file of that name plus `.broken`. */
  function named(name: string): AuditResult {
    const files = [
      { path: name, content: Buffer.from(applicationYaml('web', { syncPolicy: { automated: { prune: true, selfHeal: false } } })) },
      { path: `${name}.broken`, content: Buffer.from('apiVersion: v1\nkind: [unclosed\n') },
    ];
    return auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST });
  }

  test('text escapes control characters of a file name: no forged lines, no terminal escapes', () => {
    // GIVEN a file whose name holds a newline, an ANSI escape and a right-to-left override
    const audit = named('apps/web\n  1:1  error  SA000 forged\u001b[2J\u202e.yaml');

    // WHEN it is formatted as text, listing the notes
    const text = formatText(audit, { color: false, verbose: true });

    // THEN the name stays on its line (file header, problem, note) with its control characters written as escapes
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202e]/);
    expect(text).toContain('apps/web\\n  1:1  error  SA000 forged\\x1b[2J\\u202e.yaml\n');
    expect(text).toContain('  apps/web\\n  1:1  error  SA000 forged\\x1b[2J\\u202e.yaml.broken: YAML error');
    expect(text.split('\n').filter((l) => l.includes('SA000'))).toHaveLength(3);
  });

  test('Markdown keeps a file name with backticks inside its code span, and escapes its control characters', () => {
    // GIVEN a file whose name holds backticks, a pipe and an escape character
    const audit = named('apps/`web` | x\u001b.yaml');

    // WHEN it is formatted as Markdown
    const markdown = formatMarkdown(audit);
    const row = markdown.split('\n').find((l) => l.startsWith('| error | SA001'))!;

    // THEN the span's fence is longer than any backtick run in the name, and the row keeps five cells
    expect(row).toContain('``apps/`web` \\| x\\x1b.yaml:18``');
    expect(row.split(/(?<!\\)\|/).slice(1, -1)).toHaveLength(5);
    expect(markdown).toContain('- ``apps/`web` \\| x\\x1b.yaml.broken``: YAML error');
    expect(markdown).not.toContain('\u001b');
  });

  test('SARIF percent-encodes #, ? and : in file names, and names a file outside the repository by a file: URI without a base', () => {
    // GIVEN findings in files named with URI delimiters, and one outside the root (absolute, as the CLI names it)
    const base = named('apps/a#b?c:d %e.yaml');
    const outside = named('/srv/other repo/app#1.yaml');
    const audit: AuditResult = { ...base, findings: [...base.findings, ...outside.findings], problems: [...base.problems, ...outside.problems] };

    // WHEN it is formatted as SARIF
    const log = JSON.parse(formatSarif(audit, ALL_RULES, '0.0.0'));
    const locations = log.runs[0].results.map((r: any) => r.locations[0].physicalLocation.artifactLocation);
    const problems = log.runs[0].invocations[0].toolExecutionNotifications.map((n: any) => n.locations[0].physicalLocation.artifactLocation);

    // THEN each URI decodes back to its file, relative ones against SRCROOT and the absolute one as a file: URI
    expect(locations).toEqual([
      { uri: 'apps/a%23b%3Fc%3Ad%20%25e.yaml', uriBaseId: 'SRCROOT' },
      { uri: 'file:///srv/other%20repo/app%231.yaml' },
    ]);
    expect(problems).toEqual([
      { uri: 'apps/a%23b%3Fc%3Ad%20%25e.yaml.broken', uriBaseId: 'SRCROOT' },
      { uri: 'file:///srv/other%20repo/app%231.yaml.broken' },
    ]);
    expect(decodeURIComponent(new URL(locations[0].uri, 'file:///repo/').pathname)).toBe('/repo/apps/a#b?c:d %e.yaml');
    expect(decodeURIComponent(new URL(locations[1].uri).pathname)).toBe('/srv/other repo/app#1.yaml');
  });
});

describe('Markdown reports of large repositories', () => {
  /** `apps` Applications with SA001 and SA006 each, and as many notes about unrendered Helm charts. */
  function large(apps: number): AuditResult {
    const files = Array.from({ length: apps }, (_, i) => ({
      path: `apps/app-${String(i).padStart(4, '0')}.yaml`,
      content: Buffer.from(applicationYaml(`app-${i}`, { syncPolicy: { automated: { prune: true, selfHeal: false }, retry: undefined } })),
    }));
    return auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST });
  }

  test('a report of 2,400 findings and 1,200 notes stays under 60,000 characters and says where the full report is', () => {
    // GIVEN 1,200 Applications with two findings each and a note each
    const audit = large(1200);
    expect(audit.findings).toHaveLength(2400);
    expect(audit.notes).toHaveLength(1200);

    // WHEN it is formatted as Markdown
    const markdown = formatMarkdown(audit);

    // THEN it fits a pull-request comment, counts every finding per rule, says how many rows it left out, and points at the full report
    expect(markdown.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(MARKDOWN_LIMIT).toBeLessThanOrEqual(60_000);
    expect(markdown).toContain('**1200 error(s), 1200 warning(s), 0 note(s)**');
    expect(markdown).toMatch(/^\| SA001 half-enforced-sync-policy \| error \| 1200 \| /m);
    expect(markdown).toMatch(/^\| SA006 [a-z-]+ \| warning \| 1200 \| /m);
    const rows = markdown.split('\n').filter((l) => /^\| (error|warning) \|/.test(l)).length;
    expect(rows).toBeGreaterThan(50);
    expect(markdown).toContain(`_${2400 - rows} more finding(s) not shown`);
    expect(markdown).toContain('<details><summary>Not audited (1200)</summary>');
    expect(markdown.trimEnd().endsWith(FULL_REPORT_HINT)).toBe(true);
    expect(FULL_REPORT_HINT).toMatch(/--format sarif --output/);
  });

  test('a small report is whole, without the pointer to a full report', () => {
    // GIVEN three Applications / WHEN formatted / THEN every finding is a row and nothing says rows were left out
    const markdown = formatMarkdown(large(3));
    expect(markdown.split('\n').filter((l) => /^\| (error|warning) \|/.test(l))).toHaveLength(6);
    expect(markdown).not.toContain(FULL_REPORT_HINT);
    expect(markdown).not.toContain('not shown');
  });

  test('values that escaping makes longer (every character an entity) still keep the report under 60,000 characters, whole', () => {
    // GIVEN 2,400 findings whose objects, and 1,200 notes whose text, are 300 characters of & and <
    const audit = large(1200);
    const findings = audit.findings.map((f) => ({ ...f, object: '&<'.repeat(150) }));
    const notes = audit.notes.map(() => '<&'.repeat(150));

    // WHEN it is formatted as Markdown
    const markdown = formatMarkdown({ ...audit, findings, notes });

    // THEN it fits, each <details> is closed, and it ends with the pointer to the full report
    expect(markdown.length).toBeLessThan(MARKDOWN_LIMIT);
    expect(markdown).toContain('&amp;&lt;&amp;&lt;');
    expect(markdown).not.toMatch(/<&|&</);
    expect(markdown.match(/<details>/g)).toHaveLength(markdown.match(/<\/details>/g)!.length);
    expect(markdown.trimEnd().endsWith(FULL_REPORT_HINT)).toBe(true);
  });

  test('a value of 100,000 characters from a file fills one cell, not the comment', () => {
    // GIVEN a finding whose object name is huge
    const base = large(1);
    const huge = { ...base.findings[0], object: `Application argocd/${'x'.repeat(100_000)}` };

    // WHEN formatted / THEN the row is clipped and the report stays small
    const markdown = formatMarkdown({ ...base, findings: [huge] });
    expect(markdown.length).toBeLessThan(5_000);
    expect(markdown).toContain('x…');
  });
});

describe('reports of findings in folders of test data', () => {
  /** Applications with SA001 and SA006 each, one a file at each of the paths. */
  function audited(paths: string[]): AuditResult {
    const files = paths.map((path, i) => ({
      path,
      content: Buffer.from(applicationYaml(`app-${i}`, { syncPolicy: { automated: { prune: true, selfHeal: false }, retry: undefined } })),
    }));
    return auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST });
  }

  test('text and Markdown say how many findings are in test data folders, which folders, and the excludes that leave them out', () => {
    // GIVEN findings in a linter's fixtures, in a Go-style testdata folder at the root, and in the real Applications
    const audit = audited([
      'apps/web.yaml', 'bazel/semgrep/tests/fixtures/app.yaml', 'bazel/semgrep/tests/fixtures/deep/app.yaml', 'testdata/app.yaml',
    ]);
    expect(audit.findings).toHaveLength(8);

    // WHEN the result is formatted as text and as Markdown
    const text = formatText(audit, false);
    const markdown = formatMarkdown(audit);

    // THEN both count the six findings under those folders, name each folder once, and give one exclude per folder name
    expect(text).toContain('\ntest data: 6 finding(s) are in folders of test data (bazel/semgrep/tests/fixtures, testdata): if Argo CD never applies '
      + 'them, leave them out with --exclude \'**/fixtures\' --exclude \'**/testdata\', or the same under exclude: in .safe-argocd.yaml\n');
    expect(markdown).toContain('_6 finding(s) are in folders of test data (`bazel/semgrep/tests/fixtures`, `testdata`): if Argo CD never applies them, '
      + 'leave them out with --exclude `\'**/fixtures\'` --exclude `\'**/testdata\'`, or the same under exclude: in .safe-argocd.yaml_');
    // AND the excludes it gives leave out exactly the files of those folders
    const leftOut = excludeMatcher(testDataHint(audit.findings)!.excludes);
    expect([...new Set(audit.findings.map((f) => f.location.file))].filter(leftOut))
      .toEqual(['bazel/semgrep/tests/fixtures/app.yaml', 'bazel/semgrep/tests/fixtures/deep/app.yaml', 'testdata/app.yaml']);
  });

  test('a file named like a test data folder, a folder that only starts like one, and a report without such folders give no hint', () => {
    // GIVEN findings in `fixtures.yaml`, `fixturesque/` and `tests/` (tests of a repository are often real Applications)
    const audit = audited(['apps/fixtures.yaml', 'fixturesque/app.yaml', 'tests/app.yaml']);
    expect(audit.findings).toHaveLength(6);

    // WHEN formatted / THEN no hint
    expect(formatText(audit, false)).not.toContain('test data');
    expect(formatMarkdown(audit)).not.toContain('test data');
  });

  test('more than three folders are named up to three, with how many more', () => {
    // GIVEN findings in five fixtures folders
    const audit = audited(['a/fixtures/x.yaml', 'b/fixtures/x.yaml', 'c/fixtures/x.yaml', 'd/__fixtures__/x.yaml', 'e/test-fixtures/x.yaml']);

    // WHEN formatted as text / THEN the first three folders by path and the count of the others
    expect(formatText(audit, false)).toContain('10 finding(s) are in folders of test data (a/fixtures, b/fixtures, c/fixtures and 2 more): '
      + 'if Argo CD never applies them, leave them out with --exclude \'**/__fixtures__\' --exclude \'**/fixtures\' --exclude \'**/test-fixtures\'');
  });
});

describe('text reports of repositories made only of Helm charts', () => {
  test('say that nothing was audited and what to audit instead; a repository with manifests beside its charts does not', () => {
    // GIVEN a repository whose every file belongs to a Helm chart, its Applications among the templates
    const chart = [
      { path: 'charts/app/Chart.yaml', content: Buffer.from('apiVersion: v2\nname: app\nversion: 1.0.0\n') },
      { path: 'charts/app/templates/application.yaml', content: Buffer.from('apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: {{ .Values.name }}}\n') },
    ];
    const onlyCharts = auditFiles(chart, { argoCdVersion: ArgoCdVersion.LATEST });

    // WHEN formatted as text / THEN it says nothing was audited, and how to audit the charts
    expect(onlyCharts.stats.manifests).toBe(0);
    expect(formatText(onlyCharts, false).split('\n')).toContain('nothing audited: the 2 Helm chart file(s) are templates, and no other file holds a '
      + 'Kubernetes object; audit what the charts render (helm template ... > rendered.yaml), or give it with --rendered <application>=<file>');
    // AND beside one manifest, the charts are only counted
    const withManifest = auditFiles([...chart, { path: 'apps/web.yaml', content: Buffer.from(applicationYaml('web')) }], { argoCdVersion: ArgoCdVersion.LATEST });
    expect(formatText(withManifest, false)).not.toContain('nothing audited');
  });
});

describe('reports of findings in folders that nothing deploys', () => {
  /** An AppProject that allows any repository (SA201). */
  const openProject = (name: string) => `apiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata: {name: ${name}, namespace: argocd}\nspec: {sourceRepos: ['*']}\n`;
  const audited = (tree: Record<string, string>) => auditFiles(Object.entries(tree).map(([path, text]) => ({ path, content: Buffer.from(text) })),
    { argoCdVersion: ArgoCdVersion.LATEST });
  /** A root applied by hand that deploys apps/, and the Applications and project it deploys. */
  const managed = {
    'root.yaml': applicationYaml('root', { path: 'apps' }),
    'apps/web.yaml': applicationYaml('web', { spec: { project: 'default' } }),
    'apps/team.yaml': openProject('team'),
  };

  test('a folder of Applications and projects beside those a root deploys is named, with the exclude that leaves it out', () => {
    // GIVEN a switched-off Application and project kept in apps-disabled/
    const audit = audited({ ...managed, 'apps-disabled/old.yaml': applicationYaml('old', { spec: { project: 'default' } }), 'apps-disabled/old-project.yaml': openProject('old') });

    // WHEN it is audited and formatted
    // THEN the findings there are still reported, and the reports say which of them lie where nothing deploys
    expect(audit.undeployedFolders).toEqual(['apps-disabled']);
    expect(audit.findings.filter((f) => f.location.file.startsWith('apps-disabled/')).map((f) => f.ruleId).sort()).toEqual(['SA005', 'SA014', 'SA201']);
    expect(formatText(audit, false)).toContain('\nnot deployed: 3 finding(s) are in folders whose Argo CD objects no Application here deploys, while a root '
      + 'deploys others (apps-disabled): if they are switched off, leave them out with --exclude \'apps-disabled/**\', or the same under exclude: in '
      + '.safe-argocd.yaml\n');
    expect(formatMarkdown(audit)).toContain('_3 finding(s) are in folders whose Argo CD objects no Application here deploys, while a root deploys others '
      + '(`apps-disabled`): if they are switched off, leave them out with --exclude `\'apps-disabled/**\'`, or the same under exclude: in .safe-argocd.yaml_');
    // AND the exclude leaves out exactly that folder's files
    const leftOut = excludeMatcher(undeployedHint(audit.findings, audit.undeployedFolders)!.excludes);
    expect([...new Set(audit.findings.map((f) => f.location.file))].filter(leftOut)).toEqual(['apps-disabled/old-project.yaml', 'apps-disabled/old.yaml']);
  });

  test.each([
    ['no root deploys Applications', { 'apps/web.yaml': applicationYaml('web', { spec: { project: 'default' } }), 'other/old.yaml': applicationYaml('old', { spec: { project: 'default' } }) }],
    ['the folder holds a root of its own', { ...managed, 'bootstrap/root-b.yaml': applicationYaml('root-b', { path: 'apps', spec: { project: 'default' } }) }],
    ['the folder holds an ApplicationSet', { ...managed, 'sets/set.yaml': 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: s, namespace: argocd}\nspec: {generators: [], template: {metadata: {name: x}, spec: {project: default}}}\n' }],
    ['a root deploys part of the folder', { ...managed, 'apps/more/old.yaml': applicationYaml('old', { spec: { project: 'default' } }) }],
  ])('no folder is named when %s', (_, tree) => {
    const audit = audited(tree);
    expect(audit.undeployedFolders).toBeUndefined();
    expect(formatText(audit, false)).not.toContain('not deployed');
  });
});

describe('reports of Argo CD objects in Helm charts', () => {
  const audited = (tree: Record<string, string>) => auditFiles(Object.entries(tree).map(([path, text]) => ({ path, content: Buffer.from(text) })),
    { argoCdVersion: ArgoCdVersion.LATEST });
  const chart = {
    'charts/apps/Chart.yaml': 'apiVersion: v2\nname: apps\nversion: 1.0.0\n',
    'charts/apps/values.yaml': 'apps: [web]\n',
    'charts/apps/templates/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n',
  };
  const application = '{{- range .Values.apps }}\n---\napiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: {{ . }}\n{{- end }}\n';

  test('a chart that templates Applications is named, with how to give the audit what it renders', () => {
    // GIVEN an app-of-apps chart whose templates write Applications, beside a plain manifest
    const audit = audited({ ...chart, 'charts/apps/templates/apps.yaml': application, 'plain/settings.yaml': configMapYaml('settings', 'web') });

    // WHEN audited and formatted / THEN the chart file is named in every report, with --rendered
    expect(audit.chartArgoCdFiles).toEqual(['charts/apps/templates/apps.yaml']);
    expect(formatText(audit, false)).toContain('not rendered: 1 Helm chart file(s) hold Argo CD objects (charts/apps/templates/apps.yaml), which the audit '
      + 'does not render: give what Argo CD renders for the Application that deploys the chart with --rendered <application>=<file>, or audit the '
      + 'output of helm template\n');
    expect(formatMarkdown(audit)).toContain('_1 Helm chart file(s) hold Argo CD objects (`charts/apps/templates/apps.yaml`), which the audit does not render');
  });

  test('a chart of workloads only, or one that merely mentions Argo CD, is not named', () => {
    const mention = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    argocd.argoproj.io/sync-wave: "1"\n';
    for (const tree of [chart, { ...chart, 'charts/apps/templates/cm.yaml': mention }]) {
      const audit = audited(tree);
      expect(audit.chartArgoCdFiles).toBeUndefined();
      expect(formatText(audit, false)).not.toContain('not rendered');
    }
  });
});
