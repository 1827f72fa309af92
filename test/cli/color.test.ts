import { join } from 'path';
import { runBin, runCli } from './support';
import { colorFor, nodeIo } from '../../src/cli/node-io';
import { FAILURE_MODES } from '../audit/support';

const ESC = '\u001b[';
/** The failure-modes fixture has error findings, which the text report colours. */
const AUDIT = ['audit', FAILURE_MODES, '--repo-root', FAILURE_MODES];

describe('colorFor: whether text output is coloured', () => {
  test.each([
    ['a terminal', {}, true, true],
    ['a pipe or file', {}, false, false],
    ['NO_COLOR=1 on a terminal', { NO_COLOR: '1' }, true, false],
    ['NO_COLOR of any value on a terminal', { NO_COLOR: 'false' }, true, false],
    ['an empty NO_COLOR, which counts as unset', { NO_COLOR: '' }, true, true],
    ['FORCE_COLOR=1 without a terminal', { FORCE_COLOR: '1' }, false, true],
    ['FORCE_COLOR=3 without a terminal', { FORCE_COLOR: '3' }, false, true],
    ['FORCE_COLOR=true without a terminal', { FORCE_COLOR: 'true' }, false, true],
    ['FORCE_COLOR=1 with NO_COLOR=1: FORCE_COLOR wins, as in Node.js', { FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
    ['FORCE_COLOR=0 on a terminal', { FORCE_COLOR: '0' }, true, false],
    ['FORCE_COLOR=false on a terminal', { FORCE_COLOR: 'false' }, true, false],
    ['an empty FORCE_COLOR, which counts as unset, without a terminal', { FORCE_COLOR: '' }, false, false],
    ['an empty FORCE_COLOR, which counts as unset, with NO_COLOR=1', { FORCE_COLOR: '', NO_COLOR: '1' }, true, false],
    ['TERM=dumb on a terminal', { TERM: 'dumb' }, true, false],
    ['TERM=dumb with FORCE_COLOR=1', { TERM: 'dumb', FORCE_COLOR: '1' }, true, true],
  ])('%s', (_name, env, isTTY, expected) => {
    expect(colorFor(env, isTTY)).toBe(expected);
  });
});

describe('nodeIo reads the colour setting from the environment', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of ['FORCE_COLOR', 'NO_COLOR']) {
      if (saved[key] === undefined) {
        delete process.env[key];
      } else {
        process.env[key] = saved[key];
      }
    }
  });

  test('FORCE_COLOR=1 turns colour on, FORCE_COLOR=0 off, whatever stdout is', () => {
    process.env.FORCE_COLOR = '1';
    expect(nodeIo().color).toBe(true);
    process.env.FORCE_COLOR = '0';
    expect(nodeIo().color).toBe(false);
  });
});

describe('safe-argocd audit colours its text report only when asked', () => {
  test('with colour, the severities on stdout are coloured', async () => {
    const run = await runCli(AUDIT, { color: true });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${ESC}31merror`);
  });

  test('without colour, stdout is plain text', async () => {
    const run = await runCli(AUDIT, { color: false });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('error');
    expect(run.stdout).not.toContain(ESC);
  });

  test('--output is never coloured, even when stdout would be', async () => {
    const output = join('out', 'report.txt');
    const run = await runCli([...AUDIT, '--output', output], { color: true });
    expect(run.written.get(output)).toContain('error');
    expect(run.written.get(output)).not.toContain(ESC);
  });

  test('JSON is never coloured', async () => {
    const run = await runCli([...AUDIT, '--format', 'json'], { color: true });
    expect(run.stdout).not.toContain(ESC);
  });

  test('the bin entry: FORCE_COLOR=1 colours a pipe, even with NO_COLOR=1; NO_COLOR=1 alone does not', () => {
    // GIVEN the program's stdout is a pipe, not a terminal
    // WHEN it runs with FORCE_COLOR and NO_COLOR, and with NO_COLOR alone
    const forced = runBin(AUDIT, { FORCE_COLOR: '1', NO_COLOR: '1' });
    const plain = runBin(AUDIT, { FORCE_COLOR: undefined, NO_COLOR: '1' });

    // THEN only the first is coloured
    expect(forced.status).toBe(1);
    expect(forced.stdout).toContain(`${ESC}31merror`);
    expect(plain.status).toBe(1);
    expect(plain.stdout).toContain('error');
    expect(plain.stdout).not.toContain(ESC);
  }, 30_000);
});
