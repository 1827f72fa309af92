import { IgnoreRule, IgnoreRuleKind } from '../../src/values/ignore-rule';
import { IgnoreTarget } from '../../src/values/ignore-target';
import { JqPath } from '../../src/values/jq-path';

const web = IgnoreTarget.resource({ group: 'apps', kind: 'Deployment', name: 'web', namespace: 'payments' });
const REASON = 'replicas are owned by HPA web';

describe('IgnoreRule.jsonPointer', () => {
  test.each([
    '/spec/replicas',
    '/metadata/annotations/a~1b',
    '/metadata/annotations/a~0b',
    '/spec/template/spec/containers/0/image',
    '/',
  ])('accepts the RFC 6901 pointer %p', (pointer) => {
    // GIVEN a well-formed pointer
    // WHEN a rule is made
    const rule = IgnoreRule.jsonPointer(web, pointer, REASON);
    // THEN it keeps the pointer unchanged, as a JSON pointer rule on the target
    expect(rule.value).toBe(pointer);
    expect(rule.kind).toBe(IgnoreRuleKind.JSON_POINTER);
    expect(rule.target).toBe(web);
    expect(rule.needsJqCompile).toBe(false);
  });

  test.each([
    ['has no leading slash', 'spec/replicas'],
    ['is empty (the whole document)', ''],
    ['has "~" followed by a digit other than 0 or 1', '/a~2b'],
    ['ends with a bare "~"', '/a~'],
    ['has "~" followed by a letter', '/metadata/annotations/a~b'],
  ])('fails when the pointer %s', (_why, pointer) => {
    // GIVEN a malformed pointer
    // WHEN a rule is made
    const make = () => IgnoreRule.jsonPointer(web, pointer, REASON);
    // THEN it is refused with the pointer code, naming the prop and the value
    expect(make).toThrow(/\[SAFE-007\]/);
    expect(make).toThrow(`IgnoreRule.jsonPointer: pointer is ${JSON.stringify(pointer)}`);
  });
});

describe('IgnoreRule.jsonPointerFromKeys', () => {
  test('escapes "~" before "/" in each key', () => {
    // GIVEN keys where one holds both "/" and "~"
    const keys = ['metadata', 'annotations', 'acme.internal/a~b'];
    // WHEN a rule is made from the keys
    const rule = IgnoreRule.jsonPointerFromKeys(web, keys, REASON);
    // THEN "/" became "~1" and "~" became "~0", never "~01"
    expect(rule.value).toBe('/metadata/annotations/acme.internal~1a~0b');
    expect(rule.kind).toBe(IgnoreRuleKind.JSON_POINTER);
  });

  test('keeps a key that is literally "~1" distinct from "/"', () => {
    // GIVEN a key that already looks escaped
    // WHEN a rule is made from it
    const rule = IgnoreRule.jsonPointerFromKeys(web, ['metadata', 'labels', '~1'], REASON);
    // THEN its "~" is escaped, so Argo CD reads the key back as "~1"
    expect(rule.value).toBe('/metadata/labels/~01');
  });

  test('fails when there are no keys', () => {
    // GIVEN an empty key list (which would mean the whole document)
    // WHEN a rule is made
    const make = () => IgnoreRule.jsonPointerFromKeys(web, [], REASON);
    // THEN it is refused with the pointer code
    expect(make).toThrow(/\[SAFE-007\]/);
    expect(make).toThrow(/keys/);
  });
});

describe('reasons', () => {
  test.each([
    ['empty', ''],
    ['only whitespace', '   \t  '],
    ['two characters', 'ok'],
    ['two characters padded with whitespace', '  ok  '],
  ])('fails when the reason is %s', (_why, reason) => {
    // GIVEN a reason that explains nothing
    // WHEN any kind of rule is made with it
    // THEN each factory refuses it with the reason code
    expect(() => IgnoreRule.jsonPointer(web, '/spec/replicas', reason)).toThrow(/\[SAFE-018\]/);
    expect(() => IgnoreRule.jsonPointerFromKeys(web, ['spec', 'replicas'], reason)).toThrow(/\[SAFE-018\]/);
    expect(() => IgnoreRule.jq(web, JqPath.field(['spec', 'replicas']), reason)).toThrow(/\[SAFE-018\]/);
    expect(() => IgnoreRule.rawJq(web, '.spec.replicas', reason)).toThrow(/\[SAFE-018\]/);
    expect(() => IgnoreRule.managedFieldsManager(web, 'kube-controller-manager', reason)).toThrow(/\[SAFE-018\]/);
  });

  test('trims the reason and collapses inner whitespace', () => {
    // GIVEN a reason with padding, a newline and repeated spaces
    // WHEN a rule is made
    const rule = IgnoreRule.jsonPointer(web, '/spec/replicas', '  owned by\n  HPA   web ');
    // THEN the recorded reason is one clean line
    expect(rule.reason).toBe('owned by HPA web');
  });

  test('accepts a three-character reason', () => {
    // GIVEN the shortest reason allowed
    // WHEN a rule is made
    const rule = IgnoreRule.jsonPointer(web, '/spec/replicas', 'HPA');
    // THEN it is kept
    expect(rule.reason).toBe('HPA');
  });
});

describe('IgnoreRule.jq', () => {
  test('uses the typed path and needs no compile step', () => {
    // GIVEN a typed jq path
    const path = JqPath.podTemplateContainer('istio-proxy');
    // WHEN a rule is made from it
    const rule = IgnoreRule.jq(web, path, 'sidecar injected by istio');
    // THEN the value is the path's expression and it is trusted as well formed
    expect(rule.kind).toBe(IgnoreRuleKind.JQ_PATH_EXPRESSION);
    expect(rule.value).toBe(path.expression);
    expect(rule.needsJqCompile).toBe(false);
  });
});

describe('IgnoreRule.rawJq', () => {
  test('keeps the trimmed expression and marks it for compilation', () => {
    // GIVEN a hand-written expression with padding
    // WHEN a rule is made
    const rule = IgnoreRule.rawJq(web, '  .spec.template.spec.volumes[] | select(.name == "istio-envoy")  ', 'volume injected by istio');
    // THEN the expression is trimmed and must be compiled before it reaches Git
    expect(rule.value).toBe('.spec.template.spec.volumes[] | select(.name == "istio-envoy")');
    expect(rule.kind).toBe(IgnoreRuleKind.JQ_PATH_EXPRESSION);
    expect(rule.needsJqCompile).toBe(true);
  });

  test.each(['', '   '])('fails when the expression is %p', (expression) => {
    // GIVEN an empty expression
    // WHEN a rule is made
    const make = () => IgnoreRule.rawJq(web, expression, REASON);
    // THEN it is refused with the jq code
    expect(make).toThrow(/\[SAFE-009\]/);
    expect(make).toThrow(/expression/);
  });
});

describe('IgnoreRule.managedFieldsManager', () => {
  test('keeps the exact manager name', () => {
    // GIVEN a field manager's name
    // WHEN a rule is made
    const rule = IgnoreRule.managedFieldsManager(web, 'kube-controller-manager', 'replicas are owned by the HPA controller');
    // THEN the rule names that manager
    expect(rule.kind).toBe(IgnoreRuleKind.MANAGED_FIELDS_MANAGER);
    expect(rule.value).toBe('kube-controller-manager');
    expect(rule.needsJqCompile).toBe(false);
  });

  test.each(['', '  ', '*', 'kube-*'])('fails when the manager is %p', (manager) => {
    // GIVEN an empty or wildcard manager name
    // WHEN a rule is made
    const make = () => IgnoreRule.managedFieldsManager(web, manager, REASON);
    // THEN it is refused with the ignore-target code
    expect(make).toThrow(/\[SAFE-008\]/);
    expect(make).toThrow(/manager/);
  });
});
