import { BoundedJq } from '../../src/core/bounded-jq';
import { application, deployment, RESPECTING, simulatorPerFile } from '../drift/support';

// jqPathExpressions come from the audited Application: one that never ends must cost at most Argo CD's 1 s.

describe('BoundedJq', () => {
  const jq = new BoundedJq(1000);
  afterAll(() => jq.stop());

  test('runs del(<expression>) like jq, and reports jq errors with their exit code', () => {
    // GIVEN / WHEN / THEN an ordinary expression removes its path, a broken one fails with jq's compile exit code
    expect(jq.del({ a: 1, b: { c: 2 } }, '.b.c')).toEqual({ a: 1, b: {} });
    expect(() => jq.del({}, '.[')).toThrow(expect.objectContaining({ exitCode: 3, bounded: false }));
  });

  test.each([
    ['def f: f; f'],
    ['until(false; .)'],
    ['[limit(infinite; repeat(1))]'],
  ])('%p: stopped after the limit with a message naming the expression, and the next run works', (expression) => {
    // GIVEN an expression that never returns
    const started = Date.now();

    // WHEN it is run
    // THEN it fails as bounded, naming the expression and what to do
    expect(() => jq.del({ a: 1 }, expression)).toThrow(new RegExp(`^jqPathExpression ${JSON.stringify(expression).replace(/[()[\]]/g, '\\$&')} (did not finish within 1 s|ran out of memory)`));
    expect(Date.now() - started).toBeLessThan(20_000);
    // AND a second run of it fails at once, and other expressions still run (a fresh worker)
    const again = Date.now();
    expect(() => jq.del({ a: 1 }, expression)).toThrow(/^jqPathExpression /);
    expect(Date.now() - again).toBeLessThan(100);
    expect(jq.del({ a: 1, b: 2 }, '.a')).toEqual({ b: 2 });
  }, 60_000);

  test('an expression that builds a string of a gigabyte: stopped by jq\'s memory bound, named as such, and the next run works', () => {
    // GIVEN an expression that asks for more memory than jq has, at once
    const expression = '"x" * 1e9';

    // WHEN it is run / THEN it fails as bounded by memory (not by time, not as a jq error), naming the expression
    expect(() => jq.del({ a: 1 }, expression)).toThrow(expect.objectContaining({
      bounded: true,
      message: expect.stringMatching(/^jqPathExpression "\\"x\\" \* 1e9" ran out of memory in jq; it recurses or builds without end/),
    }));
    // AND other expressions still run (a fresh worker)
    expect(jq.del({ a: 1, b: 2 }, '.a')).toEqual({ b: 2 });
  }, 60_000);
});

describe('simulate with a jqPathExpression that never ends', () => {
  const sim = simulatorPerFile();

  test('answers: the expression is reported by name with the Application, and the resource is compared unnormalized', () => {
    // GIVEN an Application whose ignore rule loops forever
    const app = JSON.stringify(application({ ignoreDifferences: [{ group: 'apps', kind: 'Deployment', jqPathExpressions: ['def f: f; f'] }] }, RESPECTING));

    // WHEN it is simulated
    const report = sim().simulateDrift({ application: app, desired: JSON.stringify(deployment(3)), live: JSON.stringify(deployment(5)) });

    // THEN it is OutOfSync (nothing was ignored), with a warning naming the expression, the resource and the Application
    expect(report.outOfSync).toBe(true);
    expect(report.warnings.some((w) => /^jqPathExpression "def f: f; f" (did not finish within 1 s|ran out of memory).*\[Deployment web, Application \S+\]$/.test(w))).toBe(true);
  }, 60_000);
});
