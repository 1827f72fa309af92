import { existsSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'fs';
import { join } from 'path';
import { runBin } from './support';
import { main } from '../../src/cli/main';
import { nodeIo } from '../../src/cli/node-io';
import { tempDir } from '../support/app';
import { GLOB_BOMB, GLOB_BOMB_VALUE } from '../support/bombs';
import { BILLION_LAUGHS, writeCheckoutInputs, writeDeepBlock } from '../support/hostile';

/** Hostile input must never take long; this bounds each run, it does not measure speed. */
const BOUND_MS = 20_000;
jest.setTimeout(60_000);

/** Runs `safe-argocd simulate` in-process with the bin entry's file access, capturing what it prints. */
async function simulate(args: string[]) {
  let stdout = '';
  let stderr = '';
  const started = Date.now();
  const code = await main(['simulate', ...args], {
    ...nodeIo(),
    stdout: (t) => { stdout += t; },
    stderr: (t) => { stderr += t; },
    writeFile: () => { throw new Error('simulate writes nothing'); },
    color: false,
  });
  return { code, stdout, stderr, millis: Date.now() - started };
}

/** A hostile file, written into `dir` under `name`; `reason` is what the error must say about it. */
interface HostileInput {
  readonly name: string;
  readonly write: (path: string, dir: string) => void;
  readonly reason: RegExp;
  /** The inputs it is hostile as; a folder or several objects are a whole Application as --desired or --live. */
  readonly flags?: readonly ('app' | 'desired' | 'live')[];
}

const INPUTS: HostileInput[] = [
  { name: 'malformed YAML', write: (p) => writeFileSync(p, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: [unclosed\n'), reason: /YAML error at line \d+, column \d+: / },
  { name: 'malformed JSON', write: (p) => writeFileSync(p, '{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": '), reason: /YAML error at line 1, column \d+: / },
  { name: 'a billion-laughs alias bomb', write: (p) => writeFileSync(p, BILLION_LAUGHS), reason: /cannot be read: Excessive alias count/ },
  { name: '10,000 nested flow sequences', write: (p) => writeFileSync(p, `${'['.repeat(10_000)}${']'.repeat(10_000)}`), reason: /nests deeper than 200 levels \(10000\)/ },
  { name: '10,000 compact block sequences', write: (p) => writeFileSync(p, `${'- '.repeat(10_000)}x\n`), reason: /nests deeper than 200 levels/ },
  { name: '2,000 nested block mappings', write: (p) => writeDeepBlock(p, 2_000), reason: /nests deeper than 200 levels/ },
  {
    name: 'invalid UTF-8',
    write: (p) => writeFileSync(p, Buffer.concat([Buffer.from('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: caf'), Buffer.from([0xe9]), Buffer.from('}\n')])),
    reason: /not valid UTF-8/,
  },
  { name: 'a binary file with NUL bytes', write: (p) => writeFileSync(p, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d])), reason: /binary file \(contains NUL bytes\)/ },
  { name: 'duplicate keys', write: (p) => writeFileSync(p, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  name: b\n'), reason: /YAML error at line 5, column 3: Map keys must be unique/ },
  {
    name: 'a Helm template',
    write: (p) => writeFileSync(p, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: {{ .Values.replicas }}\n'),
    reason: /contains template expressions \(\{\{ \}\}\)/,
  },
  {
    name: 'a symbolic link loop',
    write: (p, dir) => {
      symlinkSync(join(dir, 'loop-b.yaml'), p);
      symlinkSync(p, join(dir, 'loop-b.yaml'));
    },
    reason: /ELOOP/,
  },
  { name: 'a folder', write: (p) => mkdirSync(p), reason: /EISDIR|is not a regular file/, flags: ['app'] },
  { name: 'empty', write: (p) => writeFileSync(p, ''), reason: /expected exactly one Kubernetes object \(with apiVersion and kind\), found nothing/ },
  { name: 'a YAML list of two objects', write: (p) => writeFileSync(p, 'apiVersion: v1\nkind: List\nitems:\n  - {apiVersion: v1, kind: Service, metadata: {name: a}}\n  - {apiVersion: v1, kind: Service, metadata: {name: b}}\n'), reason: /found 2 Kubernetes object\(s\)/, flags: ['app'] },
];

describe('safe-argocd simulate of hostile input', () => {
  // GIVEN the checkout example's Application and Deployment as good inputs
  const { app, desired } = writeCheckoutInputs(tempDir());

  describe.each(['app', 'desired', 'live'] as const)('as --%s', (flag) => {
    test.each(INPUTS.filter((i) => (i.flags ?? [flag]).includes(flag)).map((i) => [i.name, i] as const))('%s: exit 2 naming the flag, the file and the reason, in bounded time', async (_name, input) => {
      // GIVEN the hostile file in the place of one input
      const caseDir = tempDir();
      const hostile = join(caseDir, `hostile-${flag}.yaml`);
      input.write(hostile, caseDir);
      const args = { app, desired, live: undefined as string | undefined, [flag]: hostile };

      // WHEN simulate reads it
      const run = await simulate(['--app', args.app, '--desired', args.desired, ...(args.live ? ['--live', args.live] : [])]);

      // THEN it stops with exit 2, names the flag and file and says why, prints no report and does not hang
      expect(run.millis).toBeLessThan(BOUND_MS);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`--${flag} ${hostile}`);
      expect(run.stderr).toMatch(input.reason);
      expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    });
  });

  test('a 100 MB file is refused by size before it is read, quickly', async () => {
    // GIVEN a sparse 100 MB live file (all NUL bytes: if it were read, it would be called binary)
    const huge = join(tempDir(), 'huge.yaml');
    writeFileSync(huge, '');
    truncateSync(huge, 100 * 1048576);
    const before = process.memoryUsage().rss;

    // WHEN it is given as the live object with the default 5 MB limit
    const run = await simulate(['--app', app, '--desired', desired, '--live', huge]);

    // THEN the size is the reason, and the process did not grow by the file's size
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`cannot read --live ${huge}: is 100.0 MB, over the 5 MB limit; not read`);
    expect(run.millis).toBeLessThan(5_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1048576);
  });

  test('--max-file-size must be a size in MB', async () => {
    const run = await simulate(['--app', app, '--desired', desired, '--max-file-size', 'lots']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--max-file-size is "lots"; it must be a size in MB');
  });

  test('YAML tags like !!js/function are never executed: the values stay plain strings and the simulation runs', async () => {
    // GIVEN a live Deployment whose annotations carry code-execution tags known from other YAML loaders
    const marker = join(tempDir(), 'pwned');
    const code = `function () { globalThis.safeArgocdPwned = true; require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); }`;
    const live = join(tempDir(), 'live.yaml');
    writeFileSync(live, readFileSync(desired, 'utf8').replace('metadata:\n', [
      'metadata:',
      '  annotations:',
      `    fn: !!js/function ${JSON.stringify(code)}`,
      `    py: !!python/object/apply:os.system ["touch ${marker}"]`,
      '',
    ].join('\n')));

    // WHEN it is simulated
    const run = await simulate(['--app', app, '--desired', desired, '--live', live, '--format', 'json']);

    // THEN nothing ran, and the report is an ordinary one
    expect(existsSync(marker)).toBe(false);
    expect((globalThis as { safeArgocdPwned?: boolean }).safeArgocdPwned).toBeUndefined();
    expect(run.stderr).toBe('');
    expect([0, 1]).toContain(run.code);
    expect(JSON.parse(run.stdout)).toHaveProperty('outOfSync');
  });
});

/**
 * Bombs for simulate: a backtracking glob in an ignore rule, a jqPathExpression that never ends, and
 * `__proto__` keys in the resource and its managedFields. Each must be answered, with the right report.
 */
describe('safe-argocd simulate of bombs', () => {
  const BOMB_TIMEOUT = 60_000;
  const write = (dir: string, name: string, value: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
    return file;
  };
  const applicationWith = (ignoreDifferences: unknown[]) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'bombs', namespace: 'argocd' },
    spec: {
      project: 'bombs',
      destination: { server: 'https://kubernetes.default.svc', namespace: 'team' },
      source: { repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'main', path: 'workloads/bombs' },
      ignoreDifferences,
      syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions: ['RespectIgnoreDifferences=true'] },
    },
  });
  const widget = (size: number, extra: string = '') => `{"apiVersion": "${GLOB_BOMB_VALUE}.io/v1", "kind": "${GLOB_BOMB_VALUE}", `
    + `"metadata": {"name": "w", "namespace": "team"${extra}}, "spec": {"size": ${size}, "__proto__": {"toString": ${size}}}}`;

  test('an ignore rule whose group and kind globs backtrack: answered, the rule does not match, the drift is reported', async () => {
    // GIVEN an ignore rule for /spec/size whose group and kind are backtracking bombs that do not match the resource
    const dir = tempDir();
    const app = write(dir, 'app.json', applicationWith([{ group: GLOB_BOMB, kind: GLOB_BOMB, jsonPointers: ['/spec/size'] }]));

    // WHEN a resource of a 63-character kind and group is simulated
    const run = await simulate(['--app', app, '--desired', write(dir, 'desired.json', widget(1)), '--live', write(dir, 'live.json', widget(2)), '--format', 'json']);

    // THEN the size is drift (the rule does not apply)
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout).differences).toEqual(['/spec/size', '/spec/__proto__/toString']);
  }, BOMB_TIMEOUT);

  test('a jqPathExpression that never ends: answered with a warning naming it and the Application', async () => {
    // GIVEN an ignore rule whose jq loops forever
    const dir = tempDir();
    const app = write(dir, 'app.json', applicationWith([{ group: '*', kind: '*', jqPathExpressions: ['until(false; .)'] }]));

    // WHEN it is simulated
    const run = await simulate(['--app', app, '--desired', write(dir, 'desired.json', widget(1)), '--live', write(dir, 'live.json', widget(2)), '--format', 'json']);

    // THEN the report says the expression did not finish, for which resource and Application, and nothing was ignored
    const report = JSON.parse(run.stdout);
    expect(report.warnings).toContainEqual(expect.stringMatching(/^jqPathExpression "until\(false; \.\)" did not finish within 1 s .*\[a{63} w, Application bombs\]$/));
    expect(report.differences).toEqual(['/spec/size', '/spec/__proto__/toString']);
  }, BOMB_TIMEOUT);

  test('a jqPathExpression that outgrows jq\'s memory: one plain warning naming it, and nothing of the engine\'s on stderr', () => {
    // GIVEN an ignore rule whose jq builds a string of a billion characters
    const dir = tempDir();
    const app = write(dir, 'app.json', applicationWith([{ group: '*', kind: '*', jqPathExpressions: ['"x" * 1e9'] }]));

    // WHEN the command simulates it, as a program
    const run = runBin(['simulate', '--app', app, '--desired', write(dir, 'desired.json', widget(1)), '--live', write(dir, 'live.json', widget(2)), '--format', 'json']);

    // THEN the memory bound is named once, in plain words, and jq-wasm's "Aborted()" reaches no one
    const report = JSON.parse(run.stdout);
    const warnings = (report.warnings as string[]).filter((w) => w.includes('1e9'));
    expect(warnings).toEqual([expect.stringMatching(/^jqPathExpression "\\"x\\" \* 1e9" ran out of memory in jq; it recurses or builds without end: simplify it or remove it \[a{63} w, Application bombs\]$/)]);
    expect(run.stderr).toBe('');
    expect(report.differences).toEqual(['/spec/size', '/spec/__proto__/toString']);
  }, BOMB_TIMEOUT);

  test('a jqPathExpression that works: the program ends as soon as it has answered, the jq engine does not keep it alive', () => {
    // GIVEN an ignore rule whose jq removes the drifting field
    const dir = tempDir();
    const app = write(dir, 'app.json', applicationWith([{ group: '*', kind: '*', jqPathExpressions: ['.spec.size'] }]));

    // WHEN the command simulates it, as a program, given 30 s
    const run = runBin(['simulate', '--app', app, '--desired', write(dir, 'desired.json', widget(1)), '--live', write(dir, 'live.json', widget(2)), '--format', 'json'],
      {}, [], 30_000);

    // THEN it exited by itself, with the field ignored (exit 1: the __proto__ field still drifts)
    expect(run.signal).toBeUndefined();
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout).differences).toEqual(['/spec/__proto__/toString']);
  }, BOMB_TIMEOUT);

  test('__proto__ keys in the resource and f:__proto__ in live managedFields: Object.prototype untouched, the drift reported', async () => {
    // GIVEN live lacks Git's spec.__proto__ while its managedFields claim it for a trusted manager
    const dir = tempDir();
    const app = write(dir, 'app.json', applicationWith([{ group: '*', kind: '*', managedFieldsManagers: ['widget-controller'] }]));
    const managedFields = ', "managedFields": [{"manager": "widget-controller", "operation": "Update", "fieldsType": "FieldsV1", '
      + '"fieldsV1": {"f:spec": {"f:__proto__": {"f:toString": {}, "f:hasOwnProperty": {}}}}}]';
    const live = write(dir, 'live.json', widget(1, managedFields).replace(', "__proto__": {"toString": 1}', ''));
    const toString = Object.prototype.toString;

    // WHEN it is simulated, as text
    const run = await simulate(['--app', app, '--desired', write(dir, 'desired.json', widget(1)), '--live', live]);

    // THEN Object.prototype still has its methods, and the missing field is drift, not "Synced"
    expect(Object.prototype.toString).toBe(toString);
    expect(typeof Object.prototype.hasOwnProperty).toBe('function');
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('/spec/__proto__/toString');
    expect(run.stdout).not.toMatch(/\bSynced\b/);
  }, BOMB_TIMEOUT);
});
