import { spawnSync } from 'child_process';
import fs, { existsSync, symlinkSync, writeFileSync } from 'fs';
import { join } from 'path';
import { auditJson, CliRun, GOOD_REPO_FINDING, JsonReport, keysOf, runCli, writeGoodRepo, writeTree } from './support';
import { tempDir } from '../support/app';
import {
  durationBomb, excludeBomb, GLOB_BOMB_VALUE, globDestinationBomb, globIgnoreBomb, globSourceRepoBomb, hugeListBomb, manyKeysBomb, pairingBomb,
  projectBomb, slashBomb,
} from '../support/bombs';
import { BILLION_LAUGHS, writeDeepBlock } from '../support/hostile';

/** Hostile input must never take long; this bounds the whole run, it does not measure speed. */
const BOUND_MS = 20_000;
jest.setTimeout(60_000);

interface HostileCase {
  readonly name: string;
  /** Writes the hostile file(s) into the repository at `root`; `outside` is another temporary folder. */
  readonly write: (root: string, outside: string) => void;
  /** Each reported file and what its message must say. */
  readonly problems: [string, RegExp][];
  readonly args?: string[];
}

const CASES: HostileCase[] = [
  {
    name: 'malformed YAML',
    write: (root) => writeTree(root, { 'workloads/half/broken.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n  labels: {a: b\n' }),
    problems: [['workloads/half/broken.yaml', /^YAML error at line \d+, column \d+: /]],
  },
  {
    name: 'malformed JSON',
    write: (root) => writeTree(root, { 'workloads/half/broken.json': '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": ' }),
    problems: [['workloads/half/broken.json', /^YAML error at line 1, column \d+: /]],
  },
  {
    name: 'a billion-laughs alias bomb',
    write: (root) => writeTree(root, { 'workloads/half/lol.yaml': BILLION_LAUGHS }),
    problems: [['workloads/half/lol.yaml', /^cannot be read: Excessive alias count/]],
  },
  {
    name: '10,000 nested flow sequences',
    write: (root) => writeTree(root, { 'workloads/half/deep-flow.json': `${'['.repeat(10_000)}${']'.repeat(10_000)}` }),
    problems: [['workloads/half/deep-flow.json', /^nests deeper than 200 levels \(10000\)/]],
  },
  {
    name: '10,000 nested block mappings (50 MB, allowed by --max-file-size 64)',
    write: (root) => writeDeepBlock(join(root, 'workloads/half/deep-block.yaml'), 10_000),
    problems: [['workloads/half/deep-block.yaml', /^nests deeper than 200 levels/]],
    args: ['--max-file-size', '64'],
  },
  {
    name: 'invalid UTF-8',
    write: (root) => writeTree(root, { 'workloads/half/latin1.yaml': Buffer.concat([Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: caf'), Buffer.from([0xe9]), Buffer.from('}\n')]) }),
    problems: [['workloads/half/latin1.yaml', /^not valid UTF-8$/]],
  },
  {
    name: 'a binary file with NUL bytes',
    write: (root) => writeTree(root, { 'workloads/half/logo.yaml': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]) }),
    problems: [['workloads/half/logo.yaml', /^binary file \(contains NUL bytes\)/]],
  },
  {
    name: 'a symbolic link loop',
    write: (root) => {
      symlinkSync('loop-b.yaml', join(root, 'workloads/half/loop-a.yaml'));
      symlinkSync('loop-a.yaml', join(root, 'workloads/half/loop-b.yaml'));
    },
    problems: [
      ['workloads/half/loop-a.yaml', /^symbolic link that cannot be resolved \(broken, or a loop\); skipped$/],
      ['workloads/half/loop-b.yaml', /^symbolic link that cannot be resolved \(broken, or a loop\); skipped$/],
    ],
  },
  {
    name: 'a symbolic link out of the tree',
    write: (root, outside) => {
      writeTree(outside, { 'secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata: {name: leaked}\n' });
      symlinkSync(join(outside, 'secret.yaml'), join(root, 'workloads/half/escape.yaml'));
    },
    problems: [['workloads/half/escape.yaml', /^symbolic link to .*secret\.yaml, outside the audited paths; skipped$/]],
  },
  {
    name: 'duplicate keys in a mapping',
    write: (root) => writeTree(root, { 'workloads/half/dup.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n' }),
    problems: [['workloads/half/dup.yaml', /^YAML error at line 5, column 3: Map keys must be unique$/]],
  },
  {
    name: 'a Helm template outside a chart',
    write: (root) => writeTree(root, { 'workloads/half/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: {{ .Values.replicas }}\n' }),
    problems: [['workloads/half/deployment.yaml', /^contains template expressions \(\{\{ \}\}\).*rendered output/]],
  },
];

/** Unreadable files fail the run only when asked; these runs ask, so that exit 2 shows each was reported as one. */
const STRICT = '--fail-on-unreadable';

/** Asserts what every hostile run must show: bounded, exit 2, the problems, and the good files still audited. */
function expectSurvived(run: CliRun, report: JsonReport, problems: [string, RegExp][]): void {
  expect(run.millis).toBeLessThan(BOUND_MS);
  expect(run.code).toBe(2);
  expect(report.problems.map((p) => p.file)).toEqual(problems.map(([file]) => file));
  for (const [file, message] of problems) {
    expect(report.problems.find((p) => p.file === file)!.message).toMatch(message);
  }
  expect(keysOf(report.findings)).toContain(GOOD_REPO_FINDING);
}

describe('safe-argocd audit of hostile input', () => {
  test.each(CASES.map((c) => [c.name, c] as const))('fails when a file is %s: a per-file problem, exit 2, the good files still audited', async (_name, c) => {
    // GIVEN a small repository with one known finding, and the hostile file next to it
    const root = tempDir();
    writeGoodRepo(root);
    c.write(root, tempDir());

    // WHEN it is audited
    const { run, report } = await auditJson(root, STRICT, ...(c.args ?? []));

    // THEN the run ends in bounded time with the problem named, exit 2, and the good Application's finding
    expectSurvived(run, report, c.problems);
  });

  test('fails when a file is 100 MB: skipped by size, read no further than its first 64 KiB, quickly', async () => {
    // GIVEN a sparse 100 MB file next to the good repository (all NUL bytes: if it were read, it would be called binary)
    const root = tempDir();
    writeGoodRepo(root);
    const huge = join(root, 'workloads/half/huge.yaml');
    writeFileSync(huge, '');
    fs.truncateSync(huge, 100 * 1048576);
    const opens = jest.spyOn(fs, 'openSync');
    const reads = jest.spyOn(fs, 'readSync');

    // WHEN it is audited with the default 5 MB limit
    let result: Awaited<ReturnType<typeof auditJson>>;
    try {
      result = await auditJson(root, STRICT);
      // What was read from each file opened: the reads of its descriptor until the next open (descriptors are reused).
      const bytesRead = (name: string) => opens.mock.calls.flatMap(([p], i) => {
        if (!String(p).endsWith(name)) {
          return [];
        }
        const [from, to] = [opens.mock.invocationCallOrder[i], opens.mock.invocationCallOrder[i + 1] ?? Infinity];
        return reads.mock.calls.flatMap(([fd], j) => fd === opens.mock.results[i].value
          && reads.mock.invocationCallOrder[j] > from && reads.mock.invocationCallOrder[j] < to ? [reads.mock.results[j].value as number] : []);
      });
      expect(bytesRead(join('apps', 'half.yaml')).length).toBeGreaterThan(0);
      // One read of the first 64 KiB, which a file of that size fills; then its size is asked, and nothing more read.
      expect(bytesRead('huge.yaml')).toEqual([65536]);
    } finally {
      opens.mockRestore();
      reads.mockRestore();
    }

    // THEN the size is the reason, no more than its first 64 KiB was read, and the rest was audited
    expectSurvived(result.run, result.report, [['workloads/half/huge.yaml', /^is 100\.0 MB, over the 5 MB limit; skipped/]]);
    expect(result.run.millis).toBeLessThan(5_000);
  });

  test('fails when nesting is 10,000 compact block sequences: refused by the depth limit before the parser recurses', async () => {
    // GIVEN a file of `- - - - … x`: block nesting without indentation at the start of the line or brackets
    const root = tempDir();
    writeGoodRepo(root);
    writeTree(root, { 'workloads/half/deep-seq.yaml': `${'- '.repeat(10_000)}x\n` });

    // WHEN it is audited
    const { run, report } = await auditJson(root, STRICT);

    // THEN the depth guard refuses it, as it does flow and indented nesting, instead of exhausting the stack
    expectSurvived(run, report, [['workloads/half/deep-seq.yaml', /^nests deeper than 200 levels/]]);
  });

  test('a symbolic link loop between folders neither hangs nor audits a file twice', async () => {
    // GIVEN the good repository with a folder link back to its parent
    const root = tempDir();
    writeGoodRepo(root);
    symlinkSync('..', join(root, 'workloads/half/again'));

    // WHEN it is audited
    const { run, report } = await auditJson(root);

    // THEN each file is audited once and the loop is no problem
    expect(run.millis).toBeLessThan(BOUND_MS);
    expect(report.problems).toEqual([]);
    expect(report.stats.files).toBe(2);
    expect(keysOf(report.findings)).toEqual([GOOD_REPO_FINDING]);
    expect(run.code).toBe(1);
  });

  test('YAML tags like !!js/function are never executed: the values stay plain strings', async () => {
    // GIVEN a ConfigMap whose values carry code-execution tags known from other YAML loaders
    const root = tempDir();
    writeGoodRepo(root);
    const marker = join(root, 'pwned');
    const code = `function () { globalThis.safeArgocdPwned = true; require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); }`;
    writeTree(root, {
      'workloads/half/tagged.yaml': [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: {name: tagged, namespace: half}',
        'data:',
        `  fn: !!js/function ${JSON.stringify(code)}`,
        `  py: !!python/object/apply:os.system ["touch ${marker}"]`,
        '  undef: !!js/undefined ""',
        '---',
        `!!js/function ${JSON.stringify(`(${code})()`)}`,
        '',
      ].join('\n'),
    });

    // WHEN it is audited
    const { run, report } = await auditJson(root);

    // THEN nothing ran, nothing crashed, the ConfigMap was read like any other and the tagged scalar document skipped
    expect(existsSync(marker)).toBe(false);
    expect((globalThis as { safeArgocdPwned?: boolean }).safeArgocdPwned).toBeUndefined();
    expect(report.problems).toEqual([]);
    expect(report.stats.manifests).toBe(3);
    expect(report.stats.skippedDocuments).toBe(1);
    expect(keysOf(report.findings)).toEqual([GOOD_REPO_FINDING]);
    expect(run.code).toBe(1);
  });

  /**
   * Deep nesting the depth limit does not see reaches the YAML parser's recursion. V8 does not always turn stack
   * exhaustion into a catchable error: a second such file can abort the process in the RegExp compiler. Run the CLI
   * as a program, so that an abort fails this test instead of killing the test runner.
   */
  test.each([
    ['10,000 explicit keys deep (? ? ? …)', `${'? '.repeat(10_000)}x\n`],
    ['5,000 entries of - ? deep (- ? - ? …)', `${'- ? '.repeat(5_000)}x\n`],
    ['10,000 tab-separated compact sequences deep (-\\t-\\t…)', `${'-\t'.repeat(10_000)}x\n`],
  ])('fails when two files nest %s: exit 2 with both reported, no abort', (_name, text) => {
    // GIVEN the good repository and two files of hidden deep nesting
    const root = tempDir();
    writeGoodRepo(root);
    writeTree(root, { 'workloads/half/deep-1.yaml': text, 'workloads/half/deep-2.yaml': text });

    // WHEN the CLI runs as a program
    const started = Date.now();
    const child = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', join(__dirname, '..', '..', 'src', 'cli', 'bin.ts'),
      'audit', root, '--repo-root', root, '--format', 'json', STRICT], {
      encoding: 'utf8',
      timeout: 50_000,
      env: { ...process.env, TS_NODE_PROJECT: join(__dirname, '..', 'tsconfig.json') },
    });

    // THEN it exits 2 by itself (no signal, no abort), reporting both files and the good finding
    expect(Date.now() - started).toBeLessThan(50_000);
    expect({ signal: child.signal, status: child.status, fatal: /FATAL ERROR.*/.exec(child.stderr)?.[0] }).toEqual({ signal: null, status: 2, fatal: undefined });
    const report = JSON.parse(child.stdout) as JsonReport;
    expect(report.problems.map((p) => p.file)).toEqual(['workloads/half/deep-1.yaml', 'workloads/half/deep-2.yaml']);
    expect(keysOf(report.findings)).toContain(GOOD_REPO_FINDING);
  });
});

/**
 * Bombs: input that is small or ordinary in form but made to take a naive audit minutes (backtracking globs,
 * a quadratic trailing-slash strip, quadratic autoscaler pairing) or to overflow its stack (a huge List). Each
 * must be answered with the right findings; bench/bombs.ts times them.
 */
describe('safe-argocd audit of bombs', () => {
  // Generous: the bombs take well under a second each (bench/bombs.ts), the naive code took minutes.
  const BOMB_TIMEOUT = 60_000;

  test('an AppProject destination glob that backtracks: SA202 still answers, at once', async () => {
    // GIVEN an Application beside its AppProject, whose namespace pattern is a backtracking bomb
    const root = tempDir();
    writeGoodRepo(root);
    writeTree(root, globDestinationBomb());

    // WHEN it is audited
    const { run, report } = await auditJson(root);

    // THEN the destination is refused (the pattern does not match), and the good file is still audited
    expect(report.problems).toEqual([]);
    expect(report.findings.filter((f) => f.ruleId === 'SA202').map((f) => f.message)).toEqual([
      `project bombs does not allow namespace "${GLOB_BOMB_VALUE}" on https://kubernetes.default.svc`,
    ]);
    expect(keysOf(report.findings)).toContain(GOOD_REPO_FINDING);
    expect(run.code).toBe(1);
  }, BOMB_TIMEOUT);

  test('a sourceRepos glob that backtracks: SA202 still answers, at once', async () => {
    // GIVEN an Application whose repoURL its project's sourceRepos bomb does not match
    const root = tempDir();
    writeTree(root, globSourceRepoBomb());

    // WHEN it is audited
    const { report } = await auditJson(root);

    // THEN the repository is refused
    expect(report.findings.filter((f) => f.ruleId === 'SA202').map((f) => f.message)).toEqual([
      `project bombs does not allow repository "https://git.acme.internal/${GLOB_BOMB_VALUE}"`,
    ]);
  }, BOMB_TIMEOUT);

  test('ignoreDifferences group and kind globs that backtrack: SA102 still answers, at once', async () => {
    // GIVEN an autoscaled custom workload and an ignore entry whose group and kind are bombs that do not match it
    const root = tempDir();
    writeTree(root, globIgnoreBomb());

    // WHEN it is audited
    const { report } = await auditJson(root);

    // THEN the entry does not cover the workload's replicas
    expect(keysOf(report.findings.filter((f) => f.ruleId === 'SA102'))).toEqual(['SA102 workloads/ignore/workload.json ignore']);
  }, BOMB_TIMEOUT);

  test('a repoURL and source path with a run of 300,000 slashes: SA202 still answers, at once', async () => {
    // GIVEN an Application whose repoURL and path hold a long run of slashes before their last character
    const root = tempDir();
    writeTree(root, slashBomb(300_000));

    // WHEN it is audited
    const { report } = await auditJson(root);

    // THEN the repository is refused, the way a short run of slashes is
    const messages = report.findings.filter((f) => f.ruleId === 'SA202').map((f) => f.message);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^project bombs does not allow repository "https:\/\/git\.acme\.internal\/x\/{300000}y"$/);
  }, BOMB_TIMEOUT);

  test('a sync window duration of 300,000 digits and no unit: read in one pass, and the window still blocks manual syncs (SA208)', async () => {
    // GIVEN an AppProject whose allow window's duration is a long run of digits without a unit
    const root = tempDir();
    writeTree(root, durationBomb(300_000));

    // WHEN it is audited
    const { run, report } = await auditJson(root);

    // THEN it is answered (a reader that tries every split of the digits took a minute), and the duration does not
    // parse, so the window is not taken to be open around the clock
    expect(run.millis).toBeLessThan(BOUND_MS);
    expect(report.findings.filter((f) => f.ruleId === 'SA208').map((f) => f.message)).toEqual([
      'the allow window "* * * * *" blocks manual syncs outside it, so a break-glass fix cannot be synced until it opens',
    ]);
  }, BOMB_TIMEOUT);

  test('a mapping of 60,000 keys the careful parser reads: read in one pass, not compared key by key', async () => {
    // GIVEN a ConfigMap of 60,000 data keys with a custom tag, which sends it to the careful parser
    const root = tempDir();
    writeTree(root, manyKeysBomb(60_000));

    // WHEN it is audited
    const { report } = await auditJson(root);

    // THEN it is read (one manifest, no problem)
    expect(report.problems).toEqual([]);
    expect(report.stats.manifests).toBe(1);
  }, BOMB_TIMEOUT);

  test('7,500 AppProjects of one name and 7,500 Applications naming it: each Application is checked against one, not all', async () => {
    // GIVEN the AppProjects in one file and the Applications in another, each deploying where the last project does not allow
    const root = tempDir();
    writeTree(root, projectBomb(7_500));

    // WHEN it is audited (each file holds more objects than the default budget)
    const { report } = await auditJson(root, '--max-objects-per-file', '250000');

    // THEN each Application has its SA202 finding, against the project of that name (the last, which Argo CD holds)
    const messages = report.findings.filter((f) => f.ruleId === 'SA202').map((f) => f.message);
    expect(messages).toHaveLength(7_500);
    expect(messages[0]).toBe('project bombs does not allow namespace "app-0" on https://kubernetes.default.svc');
    expect(report.problems).toEqual([]);
  }, BOMB_TIMEOUT);

  test('34,000 autoscaled Deployments in one 10 MB file: every pair is found, without quadratic pairing', async () => {
    // GIVEN one Application deploying a file of Deployments with replicas and the HPAs that scale them
    const root = tempDir();
    writeTree(root, pairingBomb(34_000));

    // WHEN it is audited (the file is just over the default size limit, and holds more objects than the default budget)
    const { report } = await auditJson(root, '--max-file-size', '64', '--max-objects-per-file', '250000');

    // THEN each Deployment has its SA101 and SA102 finding
    expect(report.problems).toEqual([]);
    expect(report.findings.filter((f) => f.ruleId === 'SA101')).toHaveLength(34_000);
    expect(report.findings.filter((f) => f.ruleId === 'SA102')).toHaveLength(34_000);
  }, BOMB_TIMEOUT);

  test('a 4.9 MB file of 32,000 objects under the default budget: refused as too large, the rest audited', async () => {
    // GIVEN the good repository and 16,000 autoscaled Deployments with their HPAs in one file under the size limit
    const root = tempDir();
    writeGoodRepo(root);
    writeTree(root, pairingBomb(16_000));

    // WHEN it is audited with the default budget of objects a file
    const { run, report } = await auditJson(root, STRICT);

    // THEN the file is a problem that says what to do, and the good file's finding is there
    expectSurvived(run, report, [['workloads/pairs/all.yaml',
      /^holds 32000 Kubernetes objects, over the audit's budget of 5000 a file; skipped: split it into smaller files, or raise the budget \(--max-objects-per-file\)$/]]);
  }, BOMB_TIMEOUT);

  test.each([['0'], ['0x10'], ['1e4'], [' 5'], ['5.5'], ['1000000000']])('--max-objects-per-file %j is refused as a usage error naming the flag', async (value) => {
    // GIVEN a repository
    const root = tempDir();
    writeGoodRepo(root);

    // WHEN it is audited with a budget that is not a plain whole number of at least one
    const run = await runCli(['audit', root, '--max-objects-per-file', value]);

    // THEN the run is refused with exit 2, naming the flag, its value and the fix
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--max-objects-per-file is ${JSON.stringify(value)}; it must be a whole number of objects`);
    expect(run.stdout).toBe('');
  });

  test('a kind: List of 175,000 items (5 MB): every item is audited, the stack does not overflow', async () => {
    // GIVEN the good repository and a huge List beside it
    const root = tempDir();
    writeGoodRepo(root);
    writeTree(root, hugeListBomb(175_000));

    // WHEN it is audited (the file is just over the default size limit, and holds more objects than the default budget)
    const { run, report } = await auditJson(root, '--max-file-size', '64', '--max-objects-per-file', '250000');

    // THEN the items are counted, no problem and no crash, and the good file's finding is there
    expect(run.stderr).toBe('');
    expect(report.problems).toEqual([]);
    expect(report.stats.manifests).toBe(175_002);
    expect(keysOf(report.findings)).toContain(GOOD_REPO_FINDING);
  }, BOMB_TIMEOUT);

  test('5,000 exclude patterns in the config over 200 folders: only the folder one of them names is left out', async () => {
    // GIVEN 200 ConfigMaps and a config of 5,000 exclude globs, backtracking ones among them, the last naming dir7
    const root = tempDir();
    writeTree(root, excludeBomb(5_000, 200));

    // WHEN it is audited
    const { run, report } = await auditJson(root);

    // THEN dir7's file alone is left out, unread; the other 199 are audited
    expect(run.code).toBe(0);
    expect(report.problems).toEqual([]);
    expect(report.stats.excludedFiles).toBe(1);
    expect(report.stats.manifests).toBe(199);
  }, BOMB_TIMEOUT);
});
