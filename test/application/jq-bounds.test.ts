import { IgnoreRule, IgnoreTarget } from '../../src';
import { newApp } from '../support/app';

// When the synth-time jq check itself cannot finish (time or memory), the error names the Application, the
// expression and the bound, not "spawnSync ETIMEDOUT" or "Aborted()".
jest.mock('../../src/private/jq', () => {
  const actual = jest.requireActual('../../src/private/jq');
  return {
    ...actual,
    compileJq: (expressions: string[]) => expressions.map((e) => (e.includes('slow') ? `${actual.JQ_UNCHECKED} jq did not finish compiling it within 30 s` : null)),
  };
});

describe('SafeApplication with a jq expression the check cannot finish', () => {
  test('fails naming the expression, the resource, the Application and the bound', () => {
    // GIVEN a raw jq rule whose check does not finish
    const { app, config } = newApp();
    app.addIgnoreRule(IgnoreRule.rawJq(IgnoreTarget.fromApiObject(config), '.data.slow', 'written by the settings operator'));

    // WHEN validated
    // THEN the message says which Application and expression, and what to do
    expect(app.node.validate()).toEqual([
      `[SAFE-009] the jq expression ".data.slow" for ConfigMap settings in Application ${app.applicationName} could not be checked: `
      + 'jq did not finish compiling it within 30 s. Fix: simplify the expression (jq must be able to compile it quickly), '
      + 'or build it with IgnoreRule.jq and a typed JqPath.',
    ]);
  });
});

describe('SafeApplication with a jq expression that compiles but never finishes on the object it targets', () => {
  jest.setTimeout(60_000);

  test.each([
    ['until(false; .)', 'does not finish within 1 s'],
    ['def f: f; f', 'does not finish within 1 s'],
  ])('fails for %p naming the expression, the object and why Argo CD would compare the field after all', (expression, bound) => {
    // GIVEN a raw jq rule that compiles but loops forever on any input
    const { app, config } = newApp();
    app.addIgnoreRule(IgnoreRule.rawJq(IgnoreTarget.fromApiObject(config), expression, 'written by the settings operator'));

    // WHEN validated
    const started = Date.now();
    const errors = app.node.validate();

    // THEN one error names the expression, the ConfigMap it runs on and the bound, and the check stopped at that bound
    expect(errors).toEqual([
      `[SAFE-009] the jq expression ${JSON.stringify(expression)} for ConfigMap settings in Application ${app.applicationName} ${bound} `
      + 'on ConfigMap payments/settings: Argo CD skips it there, so the field is compared after all. '
      + 'Fix: simplify the expression, or build it with IgnoreRule.jq and a typed JqPath.',
    ]);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  test('an expression that finishes on the object it targets passes', () => {
    const { app, config } = newApp();
    app.addIgnoreRule(IgnoreRule.rawJq(IgnoreTarget.fromApiObject(config), '.data | with_entries(select(.key | startswith("x")))', 'x-keys are generated'));
    expect(app.node.validate()).toEqual([]);
  });
});
