import * as fc from 'fast-check';
import { loadJq } from 'jq-wasm';
import { compileJq } from '../../src/private/jq';
import { JqPath } from '../../src/values/jq-path';

/** Keys and values that trip naive escaping: quotes, backslashes, brackets, "$", unicode, spaces, pipes. */
const TRICKY = [
  'acme.internal/x', 'app.kubernetes.io/name', 'with-dash', '0starts-with-digit', '123', 'has space', ' ', '"',
  '\\', '\\"', '"]', '["a"]', '$', '$__loc__', '\\(.a)', 'a|b', ')', '(', '#not-a-comment', 'tab\there',
  'new\nline', 'é', '☃', '😀', '\u0000', '\u001f', '\u007f', '\u2028', 'ünïcödé/ключ', '~0~1', '.', '..', '[]',
];

/** Mostly tricky characters, sometimes any code point; all well-formed UTF-16, as Kubernetes keys are. */
const trickyString = fc.oneof(
  fc.string({ unit: fc.constantFrom('"', '\\', '$', '[', ']', '(', ')', ' ', '/', '-', '.', '|', '#', '~', 'a', '0', '_', 'é', '😀', '\n'), minLength: 1, maxLength: 10 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }),
);

describe('JqPath.field', () => {
  test('joins identifier keys with dots', () => {
    // GIVEN keys that are plain identifiers
    // WHEN a field path is made
    const path = JqPath.field(['spec', 'replicas']);
    // THEN it is the usual dotted path
    expect(path.expression).toBe('.spec.replicas');
  });

  test('uses bracket syntax for keys with "/", "-" or a leading digit, with one leading dot', () => {
    // GIVEN keys that are not jq identifiers
    // WHEN field paths are made
    // THEN they use ["..."] and only the first key gets a dot
    expect(JqPath.field(['metadata', 'annotations', 'acme.internal/x']).expression).toBe('.metadata.annotations["acme.internal/x"]');
    expect(JqPath.field(['metadata', 'labels', 'app-name']).expression).toBe('.metadata.labels["app-name"]');
    expect(JqPath.field(['data', '0key']).expression).toBe('.data["0key"]');
    expect(JqPath.field(['a-b', 'c']).expression).toBe('.["a-b"].c');
    expect(JqPath.field(['a/b', 'c/d']).expression).toBe('.["a/b"]["c/d"]');
    expect(JqPath.field(['_private', 'x_1']).expression).toBe('._private.x_1');
  });

  test('JSON-escapes quotes and backslashes in keys', () => {
    // GIVEN a key with a quote and a backslash
    // WHEN a field path is made
    const path = JqPath.field(['data', 'a"b\\c']);
    // THEN both are escaped inside the string literal
    expect(path.expression).toBe('.data["a\\"b\\\\c"]');
  });

  test.each([
    ['no keys', []],
    ['an empty key', ['spec', '']],
  ])('fails when given %s', (_why, keys) => {
    // GIVEN an empty key list or an empty key
    // WHEN a field path is made
    const make = () => JqPath.field(keys);
    // THEN it is refused with the jq code
    expect(make).toThrow(/\[SAFE-009\]/);
    expect(make).toThrow(/JqPath\.field: keys/);
  });
});

describe('JqPath.listItem', () => {
  test('selects list items by key', () => {
    // GIVEN a list, a match key and value
    // WHEN a list item path is made
    const path = JqPath.listItem(['spec', 'ports'], 'name', 'http');
    // THEN it iterates the list and selects by equality
    expect(path.expression).toBe('.spec.ports[]? | select(.name == "http")');
  });

  test('narrows to keys inside the item', () => {
    // GIVEN item keys that need brackets
    // WHEN a list item path is made
    const path = JqPath.listItem(['spec', 'template', 'spec', 'containers'], 'name', 'app', ['resources', 'limits', 'nvidia.com/gpu']);
    // THEN the item keys are appended as their own path, the first with a leading dot
    expect(path.expression).toBe('.spec.template.spec.containers[]? | select(.name == "app") | .resources.limits["nvidia.com/gpu"]');
  });

  test('treats an empty itemKeys list as the whole item', () => {
    // GIVEN itemKeys that are empty
    // WHEN a list item path is made
    const path = JqPath.listItem(['spec', 'volumes'], 'name', 'istio-envoy', []);
    // THEN nothing is appended
    expect(path.expression).toBe('.spec.volumes[]? | select(.name == "istio-envoy")');
  });

  test('uses bracket syntax for a match key that is not an identifier', () => {
    // GIVEN a match key with a dash
    // WHEN a list item path is made
    const path = JqPath.listItem(['items'], 'mount-path', '/data');
    // THEN the match key is bracketed, and the value is a JSON string
    expect(path.expression).toBe('.items[]? | select(.["mount-path"] == "/data")');
  });

  test('JSON-escapes quotes and backslashes in the match value', () => {
    // GIVEN a value that would close the string literal and inject a filter
    // WHEN a list item path is made
    const path = JqPath.listItem(['spec', 'containers'], 'name', 'x") | .a | ("\\');
    // THEN it stays one string literal
    expect(path.expression).toBe('.spec.containers[]? | select(.name == "x\\") | .a | (\\"\\\\")');
  });

  test.each([
    ['listKeys is empty', () => JqPath.listItem([], 'name', 'x'), /listKeys/],
    ['matchKey is empty', () => JqPath.listItem(['spec', 'containers'], '', 'x'), /matchKey/],
    ['itemKeys has an empty key', () => JqPath.listItem(['spec', 'containers'], 'name', 'x', ['image', '']), /itemKeys/],
  ])('fails when %s', (_why, make, prop) => {
    // GIVEN a missing part of the path
    // WHEN the list item path is made
    // THEN it is refused with the jq code, naming the prop
    expect(make).toThrow(/\[SAFE-009\]/);
    expect(make).toThrow(prop);
  });
});

describe('JqPath.podTemplateContainer / podTemplateInitContainer', () => {
  test('selects a container of the pod template by name', () => {
    // GIVEN / WHEN the istio-proxy container is selected
    // THEN the expression walks the pod template's containers
    expect(JqPath.podTemplateContainer('istio-proxy').expression)
      .toBe('.spec.template.spec.containers[]? | select(.name == "istio-proxy")');
    expect(JqPath.podTemplateContainer('istio-proxy', ['image']).expression)
      .toBe('.spec.template.spec.containers[]? | select(.name == "istio-proxy") | .image');
  });

  test('selects an init container of the pod template by name', () => {
    // GIVEN / WHEN the istio-init init container is selected
    // THEN the expression walks the pod template's initContainers
    expect(JqPath.podTemplateInitContainer('istio-init').expression)
      .toBe('.spec.template.spec.initContainers[]? | select(.name == "istio-init")');
    expect(JqPath.podTemplateInitContainer('istio-init', ['resources', 'limits']).expression)
      .toBe('.spec.template.spec.initContainers[]? | select(.name == "istio-init") | .resources.limits');
  });

  test('fails when itemKeys has an empty key', () => {
    // GIVEN an empty key inside the container
    // WHEN the path is made
    const make = () => JqPath.podTemplateContainer('istio-proxy', ['']);
    // THEN it is refused with the jq code
    expect(make).toThrow(/\[SAFE-009\]/);
  });
});

describe('generated expressions are valid jq', () => {
  test('every documented shape compiles as del(<expression>)', () => {
    // GIVEN the expressions the examples above produce, and ones with jq keywords as keys
    const expressions = [
      JqPath.field(['spec', 'replicas']),
      JqPath.field(['metadata', 'annotations', 'acme.internal/x']),
      JqPath.field(['data', '0key']),
      JqPath.field(['spec', 'if']),
      JqPath.field(['end', 'and', 'or', 'not', 'reduce', 'def', '__loc__']),
      JqPath.field(['data', 'a"b\\c']),
      JqPath.listItem(['spec', 'ports'], 'name', 'http'),
      JqPath.listItem(['items'], 'mount-path', '/data'),
      JqPath.listItem(['spec', 'containers'], 'name', 'x") | .a | ("\\'),
      JqPath.listItem(['spec', 'template', 'spec', 'containers'], 'name', 'app', ['resources', 'limits', 'nvidia.com/gpu']),
      JqPath.podTemplateContainer('istio-proxy'),
      JqPath.podTemplateContainer('istio-proxy', ['image']),
      JqPath.podTemplateInitContainer('istio-init', ['resources', 'limits']),
    ].map((p) => p.expression);
    // WHEN they are compiled by the real engine
    const errors = compileJq(expressions);
    // THEN none has a compile error
    expect(errors).toEqual(expressions.map(() => null));
  });

  test('hand-picked tricky keys and values compile', () => {
    // GIVEN every tricky string as a key at each position and as a match value
    const expressions = TRICKY.flatMap((t) => [
      JqPath.field([t]).expression,
      JqPath.field(['metadata', 'annotations', t]).expression,
      JqPath.field([t, t, 'x']).expression,
      JqPath.listItem(['spec', t], t, t, [t]).expression,
      JqPath.podTemplateContainer(t, ['env', t]).expression,
    ]);
    // WHEN they are compiled together
    const errors = compileJq(expressions);
    // THEN each compiles
    const failed = expressions.filter((_, i) => errors[i] !== null);
    expect(failed).toEqual([]);
  });

  test('generated keys and values compile (property, 200 runs)', () => {
    // GIVEN 200 generated paths of tricky keys and values (fixed seed: the test is deterministic)
    const cases = fc.sample(
      fc.record({
        keys: fc.array(trickyString, { minLength: 1, maxLength: 4 }),
        matchKey: trickyString,
        matchValue: fc.oneof(trickyString, fc.constant('')),
        itemKeys: fc.array(trickyString, { maxLength: 3 }),
      }),
      { numRuns: 200, seed: 6901 },
    );
    const expressions = cases.flatMap((c) => [
      JqPath.field(c.keys).expression,
      JqPath.listItem(c.keys, c.matchKey, c.matchValue, c.itemKeys).expression,
    ]);
    // WHEN all of them are compiled in one call
    const errors = compileJq(expressions);
    // THEN every one compiles
    const failed = expressions.map((e, i) => (errors[i] === null ? null : `${e} => ${errors[i]}`)).filter((f) => f !== null);
    expect(failed).toEqual([]);
    expect(expressions).toHaveLength(400);
  });

  test('escaped paths delete exactly the named field and item (semantics, not only syntax)', async () => {
    // GIVEN a jq engine, and documents holding the tricky keys and values next to a sibling that must stay
    const jq = await loadJq();
    const keys = [...TRICKY, ...fc.sample(trickyString, { numRuns: 100, seed: 1123 })];
    for (const k of keys) {
      const doc = { spec: { [k]: 'ignored', 'sibling-kept': 1 }, items: [{ [k]: k, image: 'a' }, { [k]: `${k}-other`, image: 'b' }] };
      // WHEN del(<expression>) runs on it
      const afterField = jq.json(doc, `del(${JqPath.field(['spec', k]).expression})`, ['-c']);
      const afterItem = jq.json(doc, `del(${JqPath.listItem(['items'], k, k, ['image']).expression})`, ['-c']);
      // THEN only the named field, and only the matching item's image, are gone
      expect(afterField).toEqual([{ ...doc, spec: { 'sibling-kept': 1 } }]);
      expect(afterItem).toEqual([{ ...doc, items: [{ [k]: k }, { [k]: `${k}-other`, image: 'b' }] }]);
    }
  });
});
