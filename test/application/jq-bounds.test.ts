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
