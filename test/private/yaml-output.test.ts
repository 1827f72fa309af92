import { Yaml } from 'cdk8s';
import * as fc from 'fast-check';
import { load } from 'js-yaml';
import { parse } from 'yaml';
import { manifestYaml } from '../../src/private/yaml-output';

/** How Go's sigs.k8s.io/yaml (go-yaml v2) reads a plain integer: strconv.ParseInt(base 0) once `_` is removed. */
function goReadsAsInteger(plain: string): boolean {
  return /^[-+]?(?:0[bB][01]+|0[oO]?[0-7]+|0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)$/.test(plain.replace(/_/g, ''));
}

/** The value of `k` in `text` as YAML 1.1, YAML 1.2 (core) and js-yaml readers see it, and the raw scalar text. */
function readBack(text: string): { v11: unknown; v12: unknown; jsYaml: unknown; raw: string } {
  return {
    v11: parse(text, { version: '1.1' }).k,
    v12: parse(text, { version: '1.2' }).k,
    jsYaml: (load(text) as { k: unknown }).k,
    raw: text.slice(text.indexOf(':') + 1).trim(),
  };
}

const TRICKY = [
  '0o17', '0O17', '+0o1', '0o1_7', '0x1f', '0X1F', '0b1', '0B1', '010', '1_000', '1e3', '12e3', '1234e56', 'e0', '.e5', '.5', '1.',
  '-1', '+1', '8080', '1:20', '-1:30', '.inf', '-.Inf', '.NaN', '~', 'null', 'Null', 'NULL', '', 'y', 'Y', 'n', 'N', 'yes', 'No',
  'on', 'OFF', 'true', 'False', '=', '<<', '2001-12-14', '2001-12-14T21:59:43.10-05:00',
];

describe('manifestYaml', () => {
  test.each(TRICKY)('%j stays a string for YAML 1.1, YAML 1.2, js-yaml and Go readers', (value) => {
    // WHEN a string that looks like something else is written
    const text = manifestYaml({ k: value });
    // THEN every reader gets the string back, and Go finds no plain integer
    const { v11, v12, jsYaml, raw } = readBack(text);
    expect([v11, v12, jsYaml]).toEqual([value, value, value]);
    expect(raw.startsWith('"')).toBe(true);
    expect(goReadsAsInteger(raw)).toBe(false);
  });

  test.each(['1.2.0', 'v1', 'nginx:1.25', 'a-b', 'e', 'ON-CALL', 'yes please'])('%j is written plain: nothing quotes what no reader misreads', (value) => {
    expect(manifestYaml({ k: value })).toBe(`k: ${value}\n`);
  });

  test('keys are quoted by the same rule as values', () => {
    expect(manifestYaml({ on: 'x', a: { '15': 1, '0o17': 2 } })).toBe('"on": x\na:\n  "15": 1\n  "0o17": 2\n');
  });

  test('a manifest is written in block style, in key order, without folding, anchors or a document marker', () => {
    const shared = { app: 'web' };
    const long = 'x'.repeat(300);
    const text = manifestYaml({ kind: 'Deployment', metadata: { labels: shared, annotations: { long } }, spec: { selector: { matchLabels: shared }, list: [1, 'a'], empty: {}, none: [] } });
    expect(text).toBe([
      'kind: Deployment',
      'metadata:',
      '  labels:',
      '    app: web',
      '  annotations:',
      `    long: ${long}`,
      'spec:',
      '  selector:',
      '    matchLabels:',
      '      app: web',
      '  list:',
      '    - 1',
      '    - a',
      '  empty: {}',
      '  none: []',
      '',
    ].join('\n'));
  });

  test('multi-line strings are block literals that read back exactly', () => {
    for (const value of ['line 1\nline 2\n', 'line 1\nline 2', '  indented\nnext\n\n', 'tab\there\n']) {
      expect(readBack(manifestYaml({ k: value })).v11).toBe(value);
    }
  });

  test('for any JSON value, YAML 1.1, YAML 1.2 and js-yaml readers read back the same value, and the bytes do not vary', () => {
    const json = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    fc.assert(fc.property(fc.dictionary(fc.string(), json), (manifest) => {
      const text = manifestYaml(manifest);
      expect(parse(text, { version: '1.1' })).toEqual(manifest);
      expect(parse(text, { version: '1.2' })).toEqual(manifest);
      expect(load(text)).toEqual(manifest);
      expect(manifestYaml(JSON.parse(JSON.stringify(manifest)))).toBe(text);
    }), { numRuns: 1000, seed: 2026 });
  });

  test('reads back as the same data as cdk8s\'s own writer for an ordinary manifest', () => {
    const manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', annotations: { 'argocd.argoproj.io/sync-wave': '-1' } }, data: { port: '8080', flag: 'false', args: '--verbose' } };
    expect(parse(manifestYaml(manifest), { version: '1.1' })).toEqual(parse(Yaml.stringify(manifest), { version: '1.1' }));
  });
});
