import { writeFileSync } from 'fs';
import { join } from 'path';
import { runBin, runCli } from './support';
import { thrownError } from '../../src/cli/messages';
import { debugFor, nodeIo } from '../../src/cli/node-io';
import { cleanRepo } from '../audit/support';
import { tempDir } from '../support/app';
import { writeCheckoutInputs } from '../support/hostile';

/** A line of a Node.js stack trace. */
const STACK_LINE = /^ {4}at /m;

/** stdout that fails as a closed pipe does. */
const brokenStdout = () => { throw new Error('EPIPE: broken pipe, write'); };

describe('safe-argocd errors: one block, a stack trace only with --debug', () => {
  test('an unexpected error: its message, the code, and how to see the stack; no stack trace; exit 2', async () => {
    // GIVEN a clean repository and a stdout that fails
    const root = cleanRepo();

    // WHEN the report is printed
    const run = await runCli(['audit', root, '--repo-root', root], { stdout: brokenStdout });

    // THEN the error is one block without a stack trace, which says how to get one
    expect(run.code).toBe(2);
    expect(run.stderr).toBe([
      'safe-argocd audit: [SAFE-105] unexpected error: EPIPE: broken pipe, write. Fix: if the message does not point at your input or '
        + 'environment, report it with the stack trace.',
      '  for the stack trace, run again with --debug (or SAFE_ARGOCD_DEBUG=1)',
      '',
    ].join('\n'));
  });

  test.each([
    ['--debug after the command', (root: string) => ['audit', root, '--repo-root', root, '--debug'], {}],
    ['--debug before the command', (root: string) => ['--debug', 'audit', root, '--repo-root', root], {}],
    ['SAFE_ARGOCD_DEBUG, as the io reports it', (root: string) => ['audit', root, '--repo-root', root], { debug: true }],
  ])('an unexpected error with %s: the message and the stack trace', async (_name, args, io) => {
    const root = cleanRepo();
    const run = await runCli(args(root), { stdout: brokenStdout, ...io });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^safe-argocd audit: \[SAFE-105\] unexpected error: EPIPE: broken pipe, write\. Fix: /);
    expect(run.stderr).toMatch(STACK_LINE);
    expect(run.stderr).not.toContain('run again with --debug');
  });

  test('--debug is accepted by every command and changes nothing else', async () => {
    // GIVEN a clean repository and the checkout example's inputs
    const root = cleanRepo();
    const { app, desired } = writeCheckoutInputs(tempDir());

    // WHEN each command runs with --debug
    const audit = await runCli(['audit', root, '--repo-root', root, '--debug']);
    const simulate = await runCli(['simulate', '--debug', '--app', app, '--desired', desired]);
    const scaffold = await runCli(['new', 'orders', '--debug', '--dir', join(root, 'orders')]);

    // THEN each does its work as without it
    expect([audit.code, audit.stderr]).toEqual([0, '']);
    expect([simulate.code, simulate.stderr]).toEqual([1, '']);
    expect([scaffold.code, scaffold.stderr]).toEqual([0, '']);
    expect(scaffold.written.size).toBeGreaterThan(0);
  });

  test('a known error is one line without --debug, and has its stack trace with it', async () => {
    // GIVEN a desired file that is not YAML
    const { app } = writeCheckoutInputs(tempDir());
    const bad = join(tempDir(), 'bad.yaml');
    writeFileSync(bad, 'kind: [unclosed\n  : :');

    // WHEN it is simulated without and with --debug
    const plain = await runCli(['simulate', '--app', app, '--desired', bad]);
    const debug = await runCli(['simulate', '--app', app, '--desired', bad, '--debug']);

    // THEN the reason is the same, and only --debug adds the stack trace
    const reason = `safe-argocd simulate: [SAFE-102] --desired ${bad}: YAML error at line 2`;
    expect(plain.code).toBe(2);
    expect(plain.stderr.startsWith(reason)).toBe(true);
    expect(plain.stderr).toMatch(/\. Fix: give --desired a file that holds one Kubernetes object\.\n$/);
    expect(plain.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(debug.code).toBe(2);
    expect(debug.stderr.startsWith(reason)).toBe(true);
    expect(debug.stderr).toMatch(STACK_LINE);
  });

  test('every usage error names the command and a code, and says how to fix it', async () => {
    const { app, desired } = writeCheckoutInputs(tempDir());
    for (const args of [
      ['simulate', '--desired', desired],
      ['simulate', '--app', app],
      ['simulate', '--app', app, '--desired', desired, '--format', 'xml'],
      ['simulate', '--app', app, '--desired', desired, 'extra'],
      ['audit', '--format'],
      ['audit', '--rule', 'SA999'],
      ['audit', '--argocd-version', '9.9'],
      ['new', 'orders', '--migration=yes'],
    ]) {
      const run = await runCli(args);
      const first = run.stderr.split('\n')[0];
      expect(run.code).toBe(2);
      expect(first).toMatch(new RegExp(`^safe-argocd ${args[0]}: \\[SAFE-\\d{3}\\] .+\\. Fix: .+\\.$`));
      expect(run.stderr).toContain(`usage: safe-argocd ${args[0]} `);
    }
  });

  test('every other error is one line with the command, a code and a fix, without the usage', async () => {
    // GIVEN a clean repository, a config the audit cannot use, and a path that is not there
    const root = cleanRepo();
    const badConfig = join(root, 'bad.yaml');
    writeFileSync(badConfig, 'failOn: fatal\n');
    const missing = join(root, 'missing.yaml');
    const { desired } = writeCheckoutInputs(tempDir());
    const cases: [string[], Partial<Parameters<typeof runCli>[1]>, string][] = [
      [['simulate', '--app', missing, '--desired', desired], {}, `safe-argocd simulate: [SAFE-102] cannot read --app ${missing}: ENOENT`],
      [['audit', root, '--repo-root', root, '--config', missing], {}, `safe-argocd audit: [SAFE-103] cannot read the config ${missing}: ENOENT`],
      [['audit', root, '--repo-root', root, '--config', badConfig], {}, `safe-argocd audit: [SAFE-103] ${badConfig}: failOn is "fatal"`],
      [['audit', root, '--repo-root', root, '--output', join(root, 'out.txt')], { writeFile: () => { throw new Error('EACCES: permission denied'); } },
        `safe-argocd audit: [SAFE-101] cannot write --output ${join(root, 'out.txt')}: EACCES: permission denied`],
    ];
    for (const [args, io, start] of cases) {
      // WHEN the command runs into it
      const run = await runCli(args, io);

      // THEN exit 2 and one line that starts with the reason and ends with the fix
      expect(run.code).toBe(2);
      expect(run.stderr.slice(0, start.length)).toBe(start);
      expect(run.stderr).toMatch(/\. Fix: [^\n]+\.\n$/);
      expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    }
  });

  test('the fix of a config error names every key of the config', async () => {
    // GIVEN a config with a bad value
    const root = cleanRepo();
    const config = join(root, 'bad.yaml');
    writeFileSync(config, 'failOn: fatal\n');

    // WHEN it is used / THEN the fix lists all its keys, exclude and failOnUnreadable too
    const run = await runCli(['audit', root, '--repo-root', root, '--config', config]);
    expect(run.stderr).toContain(`Fix: correct ${config}: its keys are suppressions, failOn, argocdVersion, exclude, failOnUnreadable and newGitFileGlobbing (see the README).`);
  });

  test('a library error without a code is an unexpected error; with a code it is the library\'s message', () => {
    expect(thrownError('simulate', new TypeError('x is undefined'), false, 'f'))
      .toMatch(/^safe-argocd simulate: \[SAFE-105\] unexpected error: x is undefined\. Fix: .*\n {2}for the stack trace, run again with --debug/);
    expect(thrownError('simulate', new Error('[SAFE-009] jq: bad. Fix: quote it.'), false, 'f')).toBe('safe-argocd simulate: [SAFE-009] jq: bad. Fix: quote it.\n');
    expect(thrownError('simulate', new Error('[SAFE-102] --live x: bad.'), false, 'give --live one object')).toBe('safe-argocd simulate: [SAFE-102] --live x: bad. Fix: give --live one object.\n');
    expect(thrownError('simulate', 'a string', true, 'f')).toBe('safe-argocd simulate: [SAFE-105] unexpected error: a string. Fix: if the message does not point at '
      + 'your input or environment, report it with the stack trace.\na string\n');
  });
});

describe('debugFor: whether SAFE_ARGOCD_DEBUG asks for stack traces', () => {
  test.each([
    [undefined, false],
    ['', false],
    ['0', false],
    ['false', false],
    ['1', true],
  ])('SAFE_ARGOCD_DEBUG=%j: %s', (value, expected) => {
    expect(debugFor(value === undefined ? {} : { SAFE_ARGOCD_DEBUG: value })).toBe(expected);
  });
});

test('nodeIo: SAFE_ARGOCD_DEBUG=1 turns debug on', () => {
  const saved = process.env.SAFE_ARGOCD_DEBUG;
  try {
    process.env.SAFE_ARGOCD_DEBUG = '1';
    expect(nodeIo().debug).toBe(true);
    delete process.env.SAFE_ARGOCD_DEBUG;
    expect(nodeIo().debug).toBe(false);
  } finally {
    if (saved !== undefined) {
      process.env.SAFE_ARGOCD_DEBUG = saved;
    }
  }
});

describe('the bin entry, as a program', () => {
  // A stdout that fails makes even `--help`, which main answers before any command runs, fail: the error
  // reaches the bin entry's own handler.
  const preload = join(tempDir(), 'broken-stdout.js');
  writeFileSync(preload, "process.stdout.write = () => { throw new Error('EPIPE: broken pipe, write'); };\n");

  test('an error that escapes main: the message and how to see the stack, no stack trace, exit 2', () => {
    const run = runBin(['--help'], { SAFE_ARGOCD_DEBUG: undefined }, [preload]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe([
      'safe-argocd: [SAFE-105] unexpected error: EPIPE: broken pipe, write. Fix: if the message does not point at your input or '
        + 'environment, report it with the stack trace.',
      '  for the stack trace, run again with --debug (or SAFE_ARGOCD_DEBUG=1)',
      '',
    ].join('\n'));
  }, 30_000);

  test.each([
    ['--debug', ['--help', '--debug'], {}],
    ['SAFE_ARGOCD_DEBUG=1', ['--help'], { SAFE_ARGOCD_DEBUG: '1' }],
  ])('with %s, the stack trace', (_name, args, env) => {
    const run = runBin(args, env, [preload]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^safe-argocd: \[SAFE-105\] unexpected error: EPIPE: broken pipe, write\. Fix: /);
    expect(run.stderr).toMatch(STACK_LINE);
  }, 30_000);
});
