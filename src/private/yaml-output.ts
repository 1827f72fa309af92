import { DEFAULT_SCHEMA, dump, Type } from 'js-yaml';
import { Document } from 'yaml';

/**
 * One pattern of every way YAML 1.1 and YAML 1.2 (core) readers take a plain scalar for a null, boolean,
 * number, timestamp or merge key, as the `yaml` library implements them (its 1.1 schema also reads `e0` as a
 * float); and Go's integers as Argo CD and kubectl read them (sigs.k8s.io/yaml: strconv.ParseInt with base 0
 * once `_` is removed), which YAML 1.1 does not cover: `0o17`, `0O17`, `0X1F`, `0B1`, `+0o1`, `0o1_7`; and
 * YAML 1.1's value key `=`.
 */
const READ_AS_OTHER_THAN_STRING = new RegExp([
  '^(?:=|[-+]?0[oObBxX][0-9a-fA-F_]+)$',
  ...(['1.1', '1.2'] as const).flatMap((version) => new Document(null, { version }).schema.tags
    .filter((tag) => tag.default === true && tag.test instanceof RegExp && tag.test.flags === '')
    .map((tag) => (tag.test as RegExp).source)),
].map((source) => `(?:${source})`).join('|'));

/**
 * js-yaml quotes every string that an implicit type of its schema would resolve (YAML 1.2 core values, YAML 1.1
 * booleans, sexagesimal numbers, timestamps); this type resolves (never constructs or represents) the
 * strings above as well, so that they are quoted too. Quoting needlessly is harmless; leaving a string
 * plain that Go reads as a number changes the manifest Argo CD applies.
 */
const AMBIGUOUS = new Type('tag:cdk8s-safe-argocd,2026:ambiguous-plain-scalar', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && READ_AS_OTHER_THAN_STRING.test(data),
});
const SCHEMA = DEFAULT_SCHEMA.extend({ implicit: [AMBIGUOUS] });

/**
 * One manifest as YAML: keys in the order the object holds them, block style, two-space indentation, no line
 * folding, no anchors, strings double-quoted only when YAML 1.1, YAML 1.2 or Go would read them as something
 * else. js-yaml writes the same YAML as cdk8s's writer for almost every manifest, four times as fast.
 */
export function manifestYaml(manifest: unknown): string {
  return dump(manifest, { schema: SCHEMA, noRefs: true, lineWidth: -1, quotingType: '"' });
}
