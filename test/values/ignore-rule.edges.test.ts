import { IgnoreRule } from '../../src/values/ignore-rule';
import { IgnoreTarget } from '../../src/values/ignore-target';
import { JqPath } from '../../src/values/jq-path';

const web = IgnoreTarget.resource({ group: 'apps', kind: 'Deployment', name: 'web', namespace: 'payments' });
const REASON = 'replicas are owned by HPA web';

/** The refusal of a reason that explains nothing, as `where` reports it. */
function reasonRefusal(where: string, reason: string): string {
  return `[SAFE-018] ${where}: reason is ${JSON.stringify(reason)}; it must say why the field belongs to someone other than Git. `
    + 'Fix: give a short reason, e.g. "replicas are owned by HPA checkout-web"';
}

describe('IgnoreRule.jsonPointerFromKeys refuses keys that are not all strings', () => {
  test.each([
    ['a number among strings', ['spec', 7], '["spec",7]'],
    ['a number first', [7, 'spec'], '[7,"spec"]'],
    ['null as the only key', [null], '[null]'],
  ])('fails when the keys hold %s', (_why, keys, shown) => {
    // GIVEN keys where one is not a string (from untyped code)
    // WHEN a rule is made from them
    const make = () => IgnoreRule.jsonPointerFromKeys(web, keys as never, REASON);
    // THEN it is refused in full, naming the keys as given
    expect(make).toThrow(
      `[SAFE-007] IgnoreRule.jsonPointerFromKeys: keys is ${shown}; it must be a non-empty list of keys. `
      + 'Fix: name every key on the way to the field, e.g. ["spec", "replicas"]',
    );
  });

  test('accepts keys that are all strings, an empty one included', () => {
    // GIVEN string keys, the last one empty (a key Kubernetes allows in maps)
    // WHEN a rule is made
    const rule = IgnoreRule.jsonPointerFromKeys(web, ['metadata', 'annotations', ''], REASON);
    // THEN the pointer names the empty key
    expect(rule.value).toBe('/metadata/annotations/');
  });
});

describe('each factory names itself when it refuses a reason', () => {
  test('fails when IgnoreRule.jq gets a two-character reason, naming IgnoreRule.jq', () => {
    // GIVEN a typed path and a reason that explains nothing
    // WHEN a rule is made THEN the refusal names the jq factory
    expect(() => IgnoreRule.jq(web, JqPath.field(['spec', 'replicas']), 'ok')).toThrow(reasonRefusal('IgnoreRule.jq', 'ok'));
  });

  test('fails when IgnoreRule.rawJq gets a blank reason, naming IgnoreRule.rawJq', () => {
    // GIVEN a valid expression and a blank reason
    // WHEN a rule is made THEN the refusal names the raw jq factory
    expect(() => IgnoreRule.rawJq(web, '.spec.replicas', '   ')).toThrow(reasonRefusal('IgnoreRule.rawJq', '   '));
  });

  test('fails when IgnoreRule.jsonPointerFromKeys gets a short reason, naming IgnoreRule.jsonPointer that it delegates to', () => {
    expect(() => IgnoreRule.jsonPointerFromKeys(web, ['spec', 'replicas'], 'hp')).toThrow(reasonRefusal('IgnoreRule.jsonPointer', 'hp'));
  });
});

describe('IgnoreRule.managedFieldsManager refuses a missing manager', () => {
  test('fails when the manager is missing, with the ignore-target code rather than a TypeError', () => {
    expect(() => IgnoreRule.managedFieldsManager(web, undefined as never, REASON)).toThrow(
      '[SAFE-008] IgnoreRule.managedFieldsManager: manager is missing; it must be the exact name of one field manager. '
      + 'Fix: copy the manager name from the live object\'s metadata.managedFields',
    );
  });
});
