import { execFileSync } from 'child_process';
import { compileJq } from '../../src/private/jq';

// Count the jq child processes, while still running them for real.
jest.mock('child_process', () => {
  const actual = jest.requireActual('child_process');
  return { ...actual, execFileSync: jest.fn(actual.execFileSync) };
});

describe('compileJq', () => {
  test('returns null for expressions that compile as del(<expression>)', () => {
    // GIVEN path expressions of the shapes used in ignoreDifferences
    const expressions = [
      '.spec.replicas',
      '.metadata.annotations["acme.internal/x"]',
      '.spec.template.spec.containers[] | select(.name == "istio-proxy") | .image',
      '.spec.template.spec.volumes[] | select(.name | startswith("istio-"))',
      '.webhooks[]?.clientConfig.caBundle',
      '.spec.metrics[0]',
    ];
    // WHEN they are compiled
    const result = compileJq(expressions);
    // THEN each is null, in input order
    expect(result).toEqual([null, null, null, null, null, null]);
  });

  test('returns the compile error for a syntax error', () => {
    // GIVEN an expression with a dangling pipe
    // WHEN it is compiled
    const [error] = compileJq(['.spec |']);
    // THEN jq's own message comes back
    expect(error).toMatch(/syntax error/);
  });

  test('returns the compile error for an unknown function', () => {
    // GIVEN an expression calling a function jq does not have
    // WHEN it is compiled
    const [error] = compileJq(['.spec | nosuchfunction']);
    // THEN the message names it
    expect(error).toMatch(/nosuchfunction\/0 is not defined/);
  });

  test('refuses an expression that would escape the del(...) wrapper', () => {
    // GIVEN an expression that compiles once wrapped, but then runs outside del(...), one that hides the
    // escape inside a string interpolation, and one that never closes
    // WHEN they are compiled
    const [escaping, interpolated, unclosed] = compileJq(['.a) | (.b', '"\\("(")" | .a) | (.b | "\\(")")"', '(.a']);
    // THEN all are refused
    expect(escaping).toMatch(/escape the del/);
    expect(interpolated).toMatch(/escape the del/);
    expect(unclosed).toMatch(/syntax error/);
  });

  test('accepts parentheses inside string interpolation', () => {
    expect(compileJq(['.items[] | select(.name == "\\(")")")'])).toEqual([null]);
  });

  test('does not count parentheses inside string literals', () => {
    // GIVEN parentheses and escaped quotes inside strings
    // WHEN they are compiled
    const result = compileJq(['.items[] | select(.name == ")")', '.items[] | select(.name == "a\\")(")']);
    // THEN they compile
    expect(result).toEqual([null, null]);
  });

  test('answers a mix of good and bad expressions in input order, with duplicates', () => {
    // GIVEN good and bad expressions interleaved, one repeated
    const expressions = ['.a', '.b |', '.a', '.c) | (.d', '.e'];
    // WHEN they are compiled in one call
    const result = compileJq(expressions);
    // THEN each answer is at its expression's index
    expect(result[0]).toBeNull();
    expect(result[1]).toMatch(/syntax error/);
    expect(result[2]).toBeNull();
    expect(result[3]).toMatch(/escape the del/);
    expect(result[4]).toBeNull();
  });

  test('returns an empty list for no expressions', () => {
    // GIVEN / WHEN nothing is compiled
    // THEN nothing comes back
    expect(compileJq([])).toEqual([]);
  });

  test('caches answers: the same input gives the same result', () => {
    // GIVEN an expression compiled once
    const input = ['.spec.cachedField | nosuchcachedfn', '.spec.cachedOk'];
    const first = compileJq(input);
    // WHEN it is compiled again
    const second = compileJq(input);
    // THEN the answers are equal
    expect(second).toEqual(first);
    expect(first[0]).toMatch(/nosuchcachedfn/);
    expect(first[1]).toBeNull();
  });

  test('compiles each new expression once', () => {
    // GIVEN expressions this process has not compiled before (call counts are cleared between tests)
    // WHEN a new expression is compiled twice
    const first = compileJq(['.spec.countedField']);
    const second = compileJq(['.spec.countedField']);
    // THEN jq ran only for the first call, and the answers are the same
    expect(execFileSync).toHaveBeenCalledTimes(1);
    expect(first).toEqual([null]);
    expect(second).toEqual(first);
  });

  test.each([['until(false; .)'], ['def f: f; f'], ['[repeat(.)] | length']])('%p compiles and is only compiled: the check answers at once instead of running it forever', (expression) => {
    // GIVEN an expression that compiles but never ends when run
    const started = Date.now();
    // WHEN it is checked at synth
    const result = compileJq([expression, '.spec.afterLoop']);
    // THEN it compiles (Argo CD compiles it too) and the check did not run it
    expect(result).toEqual([null, null]);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test('when the check itself fails (time or memory), each expression is checked alone and the answer says why', () => {
    // GIVEN a child that times out on the batch and on the first expression, and aborts on the second
    const timeout = Object.assign(new Error('spawnSync /usr/bin/node ETIMEDOUT'), { code: 'ETIMEDOUT' });
    const aborted = Object.assign(new Error('Command failed'), { status: 1, stderr: 'Aborted(). Build with -sASSERTIONS for more info.\n' });
    jest.mocked(execFileSync)
      .mockImplementationOnce(() => { throw timeout; })
      .mockImplementationOnce(() => { throw timeout; })
      .mockImplementationOnce(() => { throw aborted; });

    // WHEN two new expressions are checked
    const [slow, hungry, fine] = compileJq(['.spec.slowToCheck', '.spec.hungryToCheck', '.spec.fineToCheck']);

    // THEN the answers name the bound, not "spawnSync ETIMEDOUT" or "Aborted()", and the third was checked for real
    expect(slow).toBe('could not be checked: jq did not finish compiling it within 30 s');
    expect(hungry).toBe('could not be checked: jq ran out of memory compiling it');
    expect(fine).toBeNull();
  });
});
