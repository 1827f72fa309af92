import { readdirSync, readFileSync, statSync } from 'fs';
import { join } from 'path';
import { parseAllDocuments } from 'yaml';
import { escapeToken } from '../../src/core/json-pointer';
import { LocatedManifest } from '../../src/core/manifest';
import { hasTemplateExpressions } from '../../src/core/manifest-values';
import { parseManifests } from '../../src/core/parse-manifests';

/** Every pointer into `value` (the whole value too), and `/not-there` under each mapping. */
function pointersOf(value: unknown, prefix: string = ''): string[] {
  const found = [prefix];
  if (Array.isArray(value)) {
    value.forEach((v, i) => found.push(...pointersOf(v, `${prefix}/${i}`)));
    found.push(`${prefix}/${value.length}`);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      found.push(...pointersOf(v, `${prefix}/${escapeToken(k)}`));
    }
    found.push(`${prefix}/not-there/deeper`);
  }
  return found;
}

/** The YAML and JSON files under `dir`. */
function manifestFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? manifestFiles(full) : /\.(ya?ml|json)$/.test(name) ? [full] : [];
  });
}

function parse(text: string, file = 'repo/file.yaml') {
  return parseManifests(file, Buffer.from(text, 'utf8'));
}

/** `Kind name@line:column` of each object. */
function placed(text: string, file?: string): string[] {
  const parsed = parse(text, file);
  expect(parsed.problem).toBeUndefined();
  return parsed.objects.map((o) => `${String(o.manifest.kind)} ${String((o.manifest.metadata as { name?: string })?.name)}@${o.location.line}:${o.location.column}`);
}

describe('parseManifests', () => {
  test('reads every document of a multi-document file, each located where its content starts', () => {
    // GIVEN three documents with comments, blank lines and separators
    const text = [
      '# the first document', //          1
      'apiVersion: v1', //                2
      'kind: ConfigMap', //               3
      'metadata: {name: first}', //       4
      '---', //                           5
      '# a comment before the second', // 6
      '', //                              7
      'apiVersion: v1', //                8
      'kind: ConfigMap', //               9
      'metadata:', //                    10
      '  name: second # trailing comment', // 11
      '--- {apiVersion: v1, kind: Secret, metadata: {name: third}}', // 12
      '',
    ].join('\n');

    // WHEN it is parsed
    // THEN each object carries the line and column of its first key
    expect(placed(text)).toEqual(['ConfigMap first@2:1', 'ConfigMap second@8:1', 'Secret third@12:5']);
  });

  test('a FreeMarker template that YAML cannot read is called a template, with where YAML gave up', () => {
    // GIVEN an Application template with <#if> directives between its keys, as FreeMarker renders them
    const text = [
      'apiVersion: argoproj.io/v1alpha1',
      'kind: Application',
      'metadata:',
      '  name: argocd',
      '  annotations:',
      '<#if config.mail.active>',
      '    notifications.argoproj.io/subscribe.on-sync-failed.email: ${config.mail.to}',
      '</#if>',
      '',
    ].join('\n');

    // WHEN it is parsed
    const parsed = parse(text, 'apps/argocd.ftl.yaml');

    // THEN the problem says what the file is and how to audit it
    expect(parsed.objects).toEqual([]);
    expect(parsed.problem).toMatch(/^contains FreeMarker directives \(<#if>, <#list>, \.\.\.\): this is a template, not a manifest \(YAML error at line \d+, column \d+: .*\); audit its rendered output$/);
  });

  test('a FreeMarker template kept as text in a block scalar is an ordinary ConfigMap', () => {
    // GIVEN a ConfigMap holding a FreeMarker template
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mail\ndata:\n  body.ftl: |\n    <#if user??>\n    Hello ${user}\n    </#if>\n';

    // WHEN it is parsed / THEN it is read
    const parsed = parse(text, 'apps/mail.yaml');
    expect(parsed.problem).toBeUndefined();
    expect(parsed.objects).toHaveLength(1);
  });

  test('every object carries the file it came from', () => {
    // GIVEN two documents
    const parsed = parse('apiVersion: v1\nkind: A\n---\napiVersion: v1\nkind: B\n', 'apps/x.yaml');

    // WHEN their locations are read
    // THEN both name the file
    expect(parsed.objects.map((o) => o.location.file)).toEqual(['apps/x.yaml', 'apps/x.yaml']);
  });

  test('resolves anchors and aliases', () => {
    // GIVEN a Deployment that reuses its labels through an alias
    const text = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: web',
      '  labels: &labels {app: web, tier: front}',
      'spec:',
      '  selector: {matchLabels: *labels}',
      '  template: {metadata: {labels: *labels}}',
    ].join('\n');

    // WHEN it is parsed
    const deployment = parse(text).objects.find((o) => o.manifest.kind === 'Deployment')!;

    // THEN the aliases hold the anchored values
    expect(deployment.manifest.spec).toEqual({
      selector: { matchLabels: { app: 'web', tier: 'front' } },
      template: { metadata: { labels: { app: 'web', tier: 'front' } } },
    });
  });

  test('expands << merge keys as Kubernetes tooling does', () => {
    // GIVEN a Deployment whose selector merges the anchored pod labels, which kubectl and Argo CD (go-yaml) expand
    const text = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web}',
      'spec:',
      '  template:',
      '    metadata:',
      '      labels: &labels {app: web}',
      '  selector:',
      '    matchLabels:',
      '      <<: *labels',
      '      tier: front',
    ].join('\n');

    // WHEN it is parsed
    const deployment = parse(text).objects.find((o) => o.manifest.kind === 'Deployment')!;

    // THEN the merged keys are part of the mapping, as in the object Argo CD applies
    expect((deployment.manifest.spec as { selector: unknown }).selector).toEqual({ matchLabels: { app: 'web', tier: 'front' } });
  });

  test('expands a << merge key written with its mapping in place, without an anchor, as go-yaml does', () => {
    // GIVEN objects whose apiVersion and kind, and whose replicas, come from << keys that name no alias
    const text = [
      '<<: {apiVersion: v1, kind: ConfigMap}',
      'metadata: {name: settings}',
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web}',
      'spec:',
      '  <<: {replicas: 3}',
      '  paused: false',
    ].join('\n');

    // WHEN it is parsed
    const { objects, skipped } = parse(text);

    // THEN both are objects, merged: the ConfigMap is no skipped document, and the Deployment declares 3 replicas
    expect(skipped).toBe(0);
    expect(objects.map((o) => [o.manifest.kind, o.location.line])).toEqual([['ConfigMap', 1], ['Deployment', 4]]);
    expect(objects[1].manifest.spec).toEqual({ replicas: 3, paused: false });
  });

  test('reads JSON files, locating the object at its opening brace', () => {
    // GIVEN a JSON manifest after a blank line, indented
    const text = '\n  {\n    "apiVersion": "v1",\n    "kind": "ConfigMap",\n    "metadata": {"name": "settings"}\n  }\n';

    // WHEN it is parsed
    // THEN it is one object at line 2, column 3
    expect(placed(text, 'repo/settings.json')).toEqual(['ConfigMap settings@2:3']);
  });

  test('expands kind: List into its items and counts items that are not objects as skipped', () => {
    // GIVEN a List with two ConfigMaps and one entry that is not a Kubernetes object
    const text = [
      'apiVersion: v1',
      'kind: List',
      'items:',
      '  - apiVersion: v1',
      '    kind: ConfigMap',
      '    metadata: {name: a}',
      '  - {just: data}',
      '  - apiVersion: v1',
      '    kind: ConfigMap',
      '    metadata: {name: b}',
    ].join('\n');

    // WHEN it is parsed
    const parsed = parse(text);

    // THEN the items are the objects and the List itself is not one
    expect(parsed.objects.map((o) => (o.manifest.metadata as { name: string }).name)).toEqual(['a', 'b']);
    expect(parsed.objects.some((o) => o.manifest.kind === 'List')).toBe(false);
    expect(parsed.skipped).toBe(1);
  });

  test('locates each item of a kind: List where the item starts', () => {
    // GIVEN a List whose items start on lines 4 and 7
    const text = [
      'apiVersion: v1', //             1
      'kind: List', //                 2
      'items:', //                     3
      '  - apiVersion: v1', //         4
      '    kind: ConfigMap', //        5
      '    metadata: {name: a}', //    6
      '  - apiVersion: v1', //         7
      '    kind: ConfigMap', //        8
      '    metadata: {name: b}', //    9
    ].join('\n');

    // WHEN it is parsed
    // THEN each item carries its own line, so a finding on item b points at line 7
    expect(placed(text)).toEqual(['ConfigMap a@4:5', 'ConfigMap b@7:5']);
  });

  test('skips documents that are not Kubernetes objects quietly and counts them; empty documents are not counted', () => {
    // GIVEN Helm-style values, a list, a scalar, an object without kind, an empty document and one ConfigMap
    const text = [
      'replicaCount: 3',
      '---',
      '- a',
      '- b',
      '---',
      'just a string',
      '---',
      'apiVersion: v1',
      'metadata: {name: no-kind}',
      '---',
      '# only a comment',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: kept}',
      '---',
      '',
    ].join('\n');

    // WHEN it is parsed
    const parsed = parse(text);

    // THEN the ConfigMap is kept, four documents are skipped, and there is no problem
    expect(parsed.problem).toBeUndefined();
    expect(parsed.objects.map((o) => o.manifest.kind)).toEqual(['ConfigMap']);
    expect(parsed.skipped).toBe(4);
  });

  test('an object whose kind is not a string is not a Kubernetes object', () => {
    // GIVEN a document whose kind is a number
    const parsed = parse('apiVersion: v1\nkind: 3\n');

    // WHEN it is parsed
    // THEN it is skipped, not returned
    expect(parsed.objects).toEqual([]);
    expect(parsed.skipped).toBe(1);
  });

  test('{{ }} inside a comment does not make the file a template', () => {
    // GIVEN a manifest with a commented-out template expression
    const text = '# replicas: {{ .Values.replicas }}\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n';

    // WHEN it is parsed
    // THEN it is read normally
    expect(hasTemplateExpressions(text)).toBe(false);
    expect(placed(text)).toEqual(['ConfigMap a@2:1']);
  });

  test('fails when the file is a Helm template: a problem that says to audit the rendered output', () => {
    // GIVEN a Helm template
    const parsed = parse('apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: {{ .Values.replicas }}\n');

    // WHEN it is parsed
    // THEN it is refused with a hint
    expect(parsed.objects).toEqual([]);
    expect(parsed.problem).toMatch(/template expressions.*rendered output/);
  });

  test('fails when the YAML is malformed: the problem names line and column', () => {
    // GIVEN a good document followed by a broken one
    const parsed = parse('apiVersion: v1\nkind: ConfigMap\n---\nmetadata:\n  name: [unclosed\n  other: x\n');

    // WHEN it is parsed
    // THEN nothing is returned from the file and the problem is located
    expect(parsed.objects).toEqual([]);
    expect(parsed.problem).toMatch(/^YAML error at line \d+, column \d+: /);
  });

  test('fails when a mapping has duplicate keys: a problem at the second key', () => {
    // GIVEN a ConfigMap with two names
    const parsed = parse('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n');

    // WHEN it is parsed
    // THEN the duplicate is refused, located at line 5
    expect(parsed.problem).toBe('YAML error at line 5, column 3: Map keys must be unique');
  });

  // Each text is refused by js-yaml with the reason given, and by the careful parser too: the premise on which a file
  // failing with that reason is refused at once, at js-yaml's position, without being read a second time.
  test.each([
    ['a missing comma', 'metadata:\n  labels: {app: web tier: front}\n', 2, 25, 'missed comma between flow collection entries'],
    ['a key indented less than its siblings', 'metadata:\n  name: web\n  annotations:\n    a: "1"\n   b: "2"\n', 5, 4, 'bad indentation of a mapping entry'],
    ['a placeholder line where a key belongs', 'metadata:\n  name: web\n  <PLACEHOLDER>\n  labels: {}\n', 4, 9, 'can not read a block mapping entry; a multiline key may not be an implicit key'],
    ['two scalars without a colon', 'spec:\n  template: x\n  "a" "b"\n', 3, 7, 'can not read an implicit mapping pair; a colon is missed'],
    ['a sequence after a mapping', 'a: 1\n- b\n', 2, 1, 'end of the stream or a document separator is expected'],
  ])('fails at js-yaml\'s position when the text is not YAML to any parser: %s', (_name, text, line, column, reason) => {
    // GIVEN text that both parsers refuse
    const careful = parseAllDocuments(text, { uniqueKeys: true, merge: true });
    expect((Array.isArray(careful) ? careful : [careful]).some((d) => d.errors.length > 0)).toBe(true);

    // WHEN it is parsed
    const parsed = parse(text);

    // THEN the problem is js-yaml's, at its line and column
    expect(parsed.objects).toEqual([]);
    expect(parsed.problem).toBe(`YAML error at line ${line}, column ${column}: ${reason}`);
  });

  test.each([
    ['a NUL byte', Buffer.from('apiVersion: v1\n\0kind: x\n'), 'binary file (contains NUL bytes), not YAML or JSON'],
    ['invalid UTF-8', Buffer.concat([Buffer.from('apiVersion: v1\nkind: '), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('\n')]), 'not valid UTF-8'],
    ['10,000 nested flow sequences', Buffer.from(`${'['.repeat(10000)}${']'.repeat(10000)}`), 'nests deeper than 200 levels (10000); no Kubernetes object does'],
  ])('fails when the file has %s: a problem, no objects, no throw', (_name, content, problem) => {
    // GIVEN bytes that are not a manifest
    // WHEN they are parsed
    const parsed = parseManifests('bad.yaml', content);

    // THEN the file is refused with a clear reason
    expect(parsed).toEqual({ objects: [], skipped: 0, problem });
  });
});

describe('hasTemplateExpressions', () => {
  test.each([
    ['a value that is an action', 'spec:\n  replicas: {{ .Values.replicas }}\n'],
    ['an action on its own line', '{{- if .Values.enabled }}\napiVersion: v1\n{{- end }}\n'],
    ['an action as a list item', 'args:\n  - {{ .Values.arg }}\n'],
    ['an action inside a flow sequence', 'args: [{{ .Values.arg }}]\n'],
    ['an action after a quoted value on the same line', 'a: "x"\nb: {{ .Values.b }}\n'],
  ])('is true for %s', (_name, text) => {
    // GIVEN Helm template text
    // WHEN it is checked
    // THEN it is a template
    expect(hasTemplateExpressions(text)).toBe(true);
  });

  test.each([
    ['a double-quoted action', 'summary: "{{ $labels.instance }} is down"\n'],
    ['a single-quoted action', "name: '{{path.basename}}'\n"],
    ['an action in the middle of a plain scalar', 'name: web-{{cluster}}\n'],
    ['an action in a block scalar', 'data:\n  alert.tmpl: |\n    {{ define "x" }}\n    {{ end }}\nkind: ConfigMap\n'],
    ['an action in a comment', '# {{ .Values.x }}\napiVersion: v1\n'],
    ['an action in a trailing comment', 'apiVersion: v1 # {{ .Values.x }}\n'],
    ['an action in a block scalar whose header has a comment', 'data:\n  alert.tmpl: | # a template\n    {{ define "x" }}\n'],
    ['an action in a block scalar whose header has trailing white space', 'data:\n  alert.tmpl: |- \t\r\n    {{ define "x" }}\n'],
    ['an action in a folded block scalar with an indentation indicator', 'data:\n  alert.tmpl: >2\n    {{ define "x" }}\n'],
    ['an action in a block scalar that is a list item', 'args:\n  - |+\n    {{ define "x" }}\n'],
  ])('is false for %s', (_name, text) => {
    // GIVEN YAML in which {{ }} is ordinary string content
    // WHEN it is checked
    // THEN it is not a template
    expect(hasTemplateExpressions(text)).toBe(false);
  });
});

/**
 * parseManifests reads ordinary files on a fast path and files with anchors or aliases on a careful one. Both
 * must give the same objects at the same places: an extra last document carrying an anchor forces the careful
 * path without changing the objects before it.
 */
describe('parseManifests: where a field is written', () => {
  const text = [
    '# an Application', //                1
    'apiVersion: argoproj.io/v1alpha1', // 2
    'kind: Application', //                3
    'metadata: {name: web, "namespace": argocd}', // 4
    'spec:', //                            5
    '  source:', //                        6
    '    repoURL: https://git.example.com/x.git', // 7
    '  syncPolicy:', //                    8
    '    automated:', //                   9
    '      prune: true # comment', //     10
    '    syncOptions:', //                11
    '    - CreateNamespace=true', //      12
    '    -', //                           13
    '      PruneLast=true', //            14
    '  destinations: [{server: a, namespace: b},', // 15
    '    {namespace: c}]', //             16
    '---', //                             17
    'apiVersion: v1', //                  18
    'kind: List', //                      19
    'items:', //                          20
    '  - apiVersion: v1', //              21
    '    kind: ConfigMap', //             22
    '    data: {a: "1"}', //              23
  ].join('\n');
  const cases: [string, string, string][] = [
    ['a block key', '/spec/syncPolicy/automated/prune', '10:7'],
    ['a key in a flow mapping', '/metadata/namespace', '4:23'],
    ['a sequence item on its dash line', '/spec/syncPolicy/syncOptions/0', '12:7'],
    ['a sequence item on the line after its dash', '/spec/syncPolicy/syncOptions/1', '14:7'],
    ['a key in a flow mapping on a continued line', '/spec/destinations/1/namespace', '16:6'],
    ['an absent field, at its nearest written parent', '/spec/syncPolicy/automated/selfHeal', '9:5'],
    ['an absent top-level field, at the object start', '/status/health', '2:1'],
    ['the whole object', '', '2:1'],
  ];

  test.each(cases)('places %s (%s) at its own line and column, on both paths', (_name, pointer, place) => {
    // GIVEN the file, read on the fast path and (with an anchor) on the careful one
    for (const suffix of ['', '\n--- &careful {}\n']) {
      // WHEN the field is located
      const app = parse(`${text}${suffix}`).objects.find((o) => o.manifest.kind === 'Application')!;
      const at = app.locate!(pointer);

      // THEN it is where the field is written
      expect(`${at.line}:${at.column}`).toBe(place);
      expect(at.file).toBe('repo/file.yaml');
    }
  });

  test('places a field of a file that starts with a byte order mark and holds multi-byte text where it is written, in characters', () => {
    // GIVEN JSON on one line, saved with a UTF-8 byte order mark, with Japanese and an emoji before the field
    const body = '{"metadata": {"name": "名前-🚀"}, "apiVersion": "v1", "kind": "ConfigMap", "data": {"key": "値"}}\n';
    const content = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body, 'utf8')]);

    // WHEN it is parsed and a field located
    const parsed = parseManifests('repo/bom.json', content);
    const at = parsed.objects[0].locate!('/data/key');

    // THEN the mark is no character of the line, and columns count characters (the emoji is two), as without the mark
    expect(parsed.objects[0].location).toEqual({ file: 'repo/bom.json', line: 1, column: 1 });
    expect(at).toEqual({ file: 'repo/bom.json', line: 1, column: body.indexOf('"key"') + 1 });
    expect(parse(body, 'repo/bom.json').objects[0].locate!('/data/key')).toEqual(at);
  });

  test('places a field of every item of a 20,000-item List in time linear in the List', () => {
    // GIVEN a List of 20,000 ConfigMaps, five lines each
    const items = Array.from({ length: 20_000 }, (_, i) => `  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: c${i}}\n    data:\n      a: "${i}"`);
    const list = parse(`apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`);
    const started = Date.now();

    // WHEN a field of each is located
    const lines = list.objects.map((o) => o.locate!('/data/a').line);

    // THEN each is on its own line (4 + 5i + 4), without scanning the List once per item
    expect(lines.every((line, i) => line === 4 + 5 * i + 4)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('places a field reached through an alias or a << merge where the anchored mapping writes it', () => {
    // GIVEN labels written once with an anchor and used through an alias and a merge
    const anchored = [
      'apiVersion: apps/v1', //               1
      'kind: Deployment', //                  2
      'metadata:', //                         3
      '  name: web', //                       4
      '  labels: &labels', //                 5
      '    app: web', //                      6
      'spec:', //                             7
      '  selector: {matchLabels: *labels}', // 8
      '  template:', //                       9
      '    metadata:', //                    10
      '      labels: {<<: *labels, tier: a}', // 11
    ].join('\n');

    // WHEN fields under the alias and the merge are located
    const deployment = parse(anchored).objects[0];

    // THEN the alias leads to the anchored key; a merged key too, and a key of its own stays on its line
    expect(deployment.locate!('/spec/selector/matchLabels/app')).toEqual({ file: 'repo/file.yaml', line: 6, column: 5 });
    expect(deployment.locate!('/spec/template/metadata/labels/app')).toEqual({ file: 'repo/file.yaml', line: 6, column: 5 });
    expect(deployment.locate!('/spec/template/metadata/labels/tier')).toEqual({ file: 'repo/file.yaml', line: 11, column: 29 });
  });

  test('places a field of a List item within that item', () => {
    // GIVEN the List document
    // WHEN a field of its ConfigMap is located
    const configMap = parse(text).objects.find((o) => o.manifest.kind === 'ConfigMap')!;

    // THEN it is on the item's own line
    expect(configMap.location).toEqual({ file: 'repo/file.yaml', line: 21, column: 5 });
    expect(configMap.locate!('/data/a')).toEqual({ file: 'repo/file.yaml', line: 23, column: 12 });
  });
});

describe('parseManifests: the fast and the careful path agree', () => {
  const CAREFUL = '\n--- &careful {}\n';
  const placeOf = (o: LocatedManifest) => ({ manifest: o.manifest, location: o.location });
  /** `pointer line:column` for every field of the object, and for a field that is not there under each mapping. */
  const fieldPlaces = (o: LocatedManifest) => pointersOf(o.manifest).map((p) => `${p} ${o.locate!(p).line}:${o.locate!(p).column}`);

  test.each([
    ['documents with comments and blank lines', '# c\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n\n# c\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}'],
    ['CRLF line ends', 'apiVersion: v1\r\nkind: ConfigMap\r\nmetadata: {name: a}\r\n---\r\n# c\r\napiVersion: v1\r\nkind: ConfigMap\r\nmetadata: {name: b}\r\n'],
    ['a %YAML directive', '%YAML 1.2\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}'],
    ['an indented JSON object', '\n  {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}'],
    ['a null document before an object', '--- ~\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}'],
    ['a document on the marker line after one space', '--- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}'],
    ['a document on the marker line after three spaces', '---   {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}'],
    ['a git tag that looks like a date', 'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: a}\nspec:\n  source: {targetRevision: 2024-05-01}'],
    ['a timestamp annotation', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations: {deployed-at: 2024-05-01T10:00:00Z}'],
    ['a List with indented block items, comments and nested sequences', 'apiVersion: v1\nkind: List\nitems:\n  # first\n  - apiVersion: v1\n    kind: ConfigMap\n'
      + '    metadata: {name: a}\n    data:\n      list: |\n        - not an item\n  -   {apiVersion: v1, kind: Service, metadata: {name: b}}\n  - - nested\n'
      + '  - apiVersion: v1\n    kind: Secret\n    metadata:\n      name: c\n    stringData: {k: v}\nmetadata: {resourceVersion: ""}\n'],
    ['a List with unindented items, after another document', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: z}\n---\nkind: List\napiVersion: v1\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n'
      + '- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n'],
    ['a List whose items start on the line after their dash', 'apiVersion: v1\nkind: List\nitems:\n  -\n    apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: a}\n'],
    ['a List of flow items', 'apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: ConfigMap, metadata: {name: a}},\n  {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}]\n'],
    ['keys that start with another key, quoted keys and a tagged key', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  nameSuffix: x\n  "name2": y\n'
      + '  name: a\n  namespace : b\n  \'labels\': {app: a}\ndata:\n  data_: "1"\n  "da\\x74a": "2"\n  !!str key: "3"\n  _key: "4"\n  9key: "5"\n  key2: "6"\n'],
  ])('for %s', (_name, text) => {
    // GIVEN a file, and the same file with an anchored empty document appended
    // WHEN both are parsed
    const fast = parse(text);
    const careful = parse(`${text}${CAREFUL}`);

    // THEN the objects, their values and their places are the same, and so is the place of every field
    expect(careful.problem).toBeUndefined();
    expect(fast.problem).toBeUndefined();
    expect(fast.objects.map(placeOf)).toEqual(careful.objects.map(placeOf));
    expect(fast.objects.map(fieldPlaces)).toEqual(careful.objects.map(fieldPlaces));
  });

  test.each(['test/fixtures', 'examples'].flatMap((d) => manifestFiles(join(__dirname, '..', '..', d)).filter((f) => !f.includes('node_modules'))))('for the repository file %s', (file) => {
    // GIVEN a file of the fixtures or examples
    const text = readFileSync(file, 'utf8');

    // WHEN it is parsed on both paths
    const fast = parse(text);
    const careful = parse(`${text}${CAREFUL}`);

    // THEN every field is placed alike
    expect(fast.objects.map(fieldPlaces)).toEqual(careful.objects.map(fieldPlaces));
  });

  test('the careful path reads a date-like scalar as the string Kubernetes sees', () => {
    // GIVEN an Application pinned to a tag named like a date, with an anchor
    const text = `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: a}\nspec:\n  source: {targetRevision: 2024-05-01}${CAREFUL}`;

    // WHEN it is parsed
    const app = parse(text).objects.find((o) => o.manifest.kind === 'Application')!;

    // THEN targetRevision is a string
    expect((app.manifest.spec as { source: { targetRevision: unknown } }).source.targetRevision).toBe('2024-05-01');
  });
});

describe('parseManifests: the depth limit measures structure, not brackets in text', () => {
  const configMap = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: tools, namespace: ops}\ndata:\n${data}`;

  test.each([
    ['a block scalar holding a script with 220 ANSI colour codes', `  run.sh: |\n    #!/bin/sh\n    echo "${'\\e[31m'.repeat(220)}red\\e[0m"\n    if [ -n "$X" ]; then echo {; fi\n`],
    ['a folded block scalar with brackets', `  notes: >-\n    ${'[{'.repeat(300)}\n`],
    ['a double-quoted scalar of brackets spanning lines', `  a: "${'{['.repeat(75)} \\"\n    ${'[{'.repeat(75)}"\n`],
    ['a single-quoted scalar with a quote escaped as \'\'', `  b: 'it''s ${'['.repeat(300)}'\n`],
    ['a plain scalar with brackets after its first character', `  c: x${'['.repeat(300)}\n`],
    ['a comment full of brackets', `  # ${'['.repeat(300)}\n  d: ok\n`],
    ['a flow mapping whose quoted values hold brackets', `  e: {"k": "${'['.repeat(300)}", 'l': '${'{['.repeat(150)}'}\n`],
  ])('reads %s: brackets in text are not nesting', (_name, data) => {
    // GIVEN an ordinary ConfigMap whose text holds many brackets, and the same with an anchor: only the careful path
    // it takes then runs the depth pre-check
    const plain = configMap(data);
    const anchored = plain.replace('metadata:', 'metadata: &m');

    for (const text of [plain, anchored]) {
      // WHEN it is parsed
      const parsed = parse(text);

      // THEN it is read, not refused as deep
      expect(parsed.problem).toBeUndefined();
      expect(parsed.objects.map((o) => o.manifest.kind)).toEqual(['ConfigMap']);
    }
  });

  test.each([
    ['flow', (n: number) => `  a: ${'['.repeat(n)}${']'.repeat(n)}\n`],
    ['block', (n: number) => `  a:\n${Array.from({ length: n }, (_, i) => `${'  '.repeat(i + 2)}k:\n`).join('')}${'  '.repeat(n + 2)}v\n`],
  ])('150 levels of %s nesting are read the same with and without an anchor; 300 are refused either way', (_kind, nest) => {
    // GIVEN the same deep ConfigMap without and with an anchor (which takes the other parser)
    const plain = configMap(nest(150));
    const anchored = plain.replace('metadata:', 'metadata: &m');

    // WHEN both are parsed / THEN both are read
    expect(parse(plain).problem).toBeUndefined();
    expect(parse(anchored).problem).toBeUndefined();
    expect(parse(plain).objects[0].manifest.data).toEqual(parse(anchored).objects[0].manifest.data);
    // AND deeper than the limit is refused on both paths
    for (const deep of [configMap(nest(300)), configMap(nest(300)).replace('metadata:', 'metadata: &m')]) {
      expect(parse(deep).problem).toMatch(/^nests deeper than 200 levels \(\d+\)/);
    }
  });
});
