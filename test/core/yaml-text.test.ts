import { parseAllDocuments, parseDocument } from 'yaml';
import { parseYamlDocument, parseYamlDocuments, parseYamlValue } from '../../src/core/yaml-text';

/** The errors of every document, as code and offset. */
function errorsOf(docs: unknown): string[] {
  const list = (Array.isArray(docs) ? docs : []) as Array<{ errors: Array<{ code: string; pos: [number, number] }> }>;
  return list.flatMap((d) => d.errors.map((e) => `${e.code}@${e.pos[0]}`));
}

// Texts with and without repeated keys, in every form the package's own check knows.
const TEXTS: Array<[string, string]> = [
  ['no repeat', 'a: 1\nb: 2\n'],
  ['a repeat in a block mapping', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n'],
  ['a repeat in a flow mapping', 'metadata: {name: a, name: b}\n'],
  ['a repeat in a mapping inside a list', 'items:\n  - a: 1\n    a: 2\n  - [x: 1, {y: 1, y: 2}]\n'],
  ['three of one key', 'k: 1\nk: 2\nk: 3\n'],
  ['a number and a string that read alike', '1: a\n"1": b\n'],
  ['two nulls', '~: a\nnull: b\n'],
  ['complex keys', '? [a]\n: 1\n? [a]\n: 2\n'],
  ['NaN keys', '.nan: 1\n.nan: 2\n'],
  ['a repeated merge key', 'base: &b {x: 1}\nm:\n  <<: *b\n  <<: *b\n'],
  ['repeats in two documents', 'a: 1\na: 2\n---\nb: 1\nb: 2\n'],
  ['a syntax error before a repeat', 'a: [1\nb: 1\nb: 2\n'],
  ['a repeat inside an anchored mapping', 'x: &m {a: 1, a: 2}\ny: *m\n'],
];

describe('parseYamlDocuments: repeated keys found in one pass', () => {
  test.each(TEXTS)('reports what the yaml package reports: %s', (_name, text) => {
    for (const merge of [false, true]) {
      // GIVEN the package's own verdict, comparing each key with every one before it
      const expected = errorsOf(parseAllDocuments(text, { uniqueKeys: true, merge }));

      // WHEN the same text is parsed with the one-pass check
      const actual = errorsOf(parseYamlDocuments(text, { uniqueKeys: true, merge }));

      // THEN the errors are the same, in the same order, at the same places
      expect(actual).toEqual(expected);
    }
  });

  test('finds the one repeat among 60,000 keys, at the repeated key', () => {
    // GIVEN a mapping of 60,000 keys whose last repeats the first
    const lines = Array.from({ length: 60_000 }, (_, i) => `k${i}: ${i}`);
    lines.push('k0: again');
    const text = `${lines.join('\n')}\n`;

    // WHEN it is parsed
    const [doc] = parseYamlDocuments(text) as ReturnType<typeof parseDocument>[];

    // THEN one error, on the last line
    expect(doc.errors.map((e) => [e.code, e.message])).toEqual([['DUPLICATE_KEY', 'Map keys must be unique']]);
    expect(doc.errors[0].pos[0]).toBe(text.lastIndexOf('k0: again'));
  });

  test('finds two empty keys repeated (placed at the empty key, which the package places after its line break)', () => {
    const text = '? \n: a\n? \n: b\n';
    expect(errorsOf(parseYamlDocuments(text)).map((e) => e.split('@')[0])).toEqual(errorsOf(parseAllDocuments(text, { uniqueKeys: true })).map((e) => e.split('@')[0]));
    expect(errorsOf(parseYamlDocuments(text))).toEqual(['DUPLICATE_KEY@9']);
  });

  test('checks nothing when uniqueKeys is false, as the package does', () => {
    expect(errorsOf(parseYamlDocuments('a: 1\na: 2\n', { uniqueKeys: false }))).toEqual([]);
  });
});

describe('parseYamlDocument and parseYamlValue', () => {
  test('parseYamlDocument reports a repeated key as the package does', () => {
    const text = 'x:\n  y: 1\n  y: 2\n';
    expect(parseYamlDocument(text).errors.map((e) => `${e.code}@${e.pos[0]}`))
      .toEqual(parseDocument(text, { uniqueKeys: true }).errors.map((e) => `${e.code}@${e.pos[0]}`));
  });

  test('parseYamlValue gives the value, null for an empty text, and throws the first error', () => {
    expect(parseYamlValue('a: [1, 2]\n')).toEqual({ a: [1, 2] });
    expect(parseYamlValue('')).toBeNull();
    expect(() => parseYamlValue('a: 1\na: 2\n')).toThrow('Map keys must be unique');
    expect(() => parseYamlValue('a: [1\n')).toThrow();
  });

  test('parseYamlValue prints no warning: a key that is a map (a `{{ .Token }}: x` of a template) is stringified quietly', () => {
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      expect(Object.values(parseYamlValue('{{ .Token }}: x\n') as object)).toEqual(['x']);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
