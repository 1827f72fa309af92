import { fieldChainsOf, isTemplated, parametersOf, renderGoTemplate, renderSimple, RenderBudget, sanitizeName, Symbolic } from '../../src/core/go-template';

const PARAMS = {
  path: { path: 'apps/guestbook', basename: 'guestbook', segments: ['apps', 'guestbook'] },
  cluster: 'eu-West_1',
  replicas: 3,
  labels: { env: 'prod' },
};

const text = (t: string, data: unknown = PARAMS, missingKey?: 'error' | 'zero') => renderGoTemplate(t, data, missingKey ? { missingKey } : {});

describe('renderGoTemplate: what the ApplicationSet controller prints', () => {
  test.each([
    ['{{.path.basename}}', 'guestbook'],
    ['{{ .path.path }}/overlays', 'apps/guestbook/overlays'],
    ['{{ index .path.segments 1 }}', 'guestbook'],
    ['{{ index .labels "env" }}', 'prod'],
    ['{{ $.cluster | lower }}', 'eu-west_1'],
    ['{{ .cluster | normalize }}', 'eu-west-1'],
    ['{{ .replicas }}', '3'],
    ['{{ printf "%s-%s" .path.basename .labels.env }}', 'guestbook-prod'],
    ['{{ .missing | default "main" }}', 'main'],
    ['{{ replace "_" "-" .cluster | lower }}', 'eu-west-1'],
    ['{{ trimPrefix "apps/" .path.path }}', 'guestbook'],
    ['{{ trunc 2 .path.basename }}', 'gu'],
    ['{{ if eq .labels.env "prod" }}main{{ else }}HEAD{{ end }}', 'main'],
    ['{{ if eq .labels.env "dev" }}dev{{ else if eq .labels.env "prod" }}prod{{ else }}x{{ end }}', 'prod'],
    ['{{ with .labels }}{{ .env }}{{ end }}', 'prod'],
    ['a  {{- .labels.env -}}  b', 'aprodb'],
    ['{{/* a comment */}}x', 'x'],
    ['{{ (index .path.segments 0) | upper }}', 'APPS'],
    ['{{ "}}" }}', '}}'],
    ['{{ .labels }}', 'map[env:prod]'],
  ])('%p renders as %p', (template, expected) => {
    // GIVEN parameters like a git directory generator's
    // WHEN the template is rendered
    // THEN the text is what Go's text/template prints
    expect(text(template)).toEqual({ kind: 'text', text: expected });
  });

  test('a missing key prints <no value> by default and fails with missingkey=error', () => {
    // GIVEN a template reading a key the parameters lack
    // WHEN rendered with the default options, and with missingkey=error
    // THEN the first prints Go's <no value>, the second is an error like the controller's
    expect(text('{{ .nope }}')).toEqual({ kind: 'text', text: '<no value>' });
    expect(text('{{ .nope }}', PARAMS, 'error')).toEqual({ kind: 'error', reason: 'map has no entry for key "nope"' });
  });

  test.each([
    ['{{ .nope.deeper }}', 'nil pointer'],
    ['{{ .cluster.name }}', 'can\'t evaluate field name'],
    ['{{ .cluster', 'unclosed action'],
    ['{{ if .cluster }}x', 'no {{end}}'],
    ['{{ end }}', 'unexpected {{end}}'],
    ['{{ lower .replicas }}', 'expected string'],
    ['{{ index .path.segments 7 }}', 'out of range'],
  ])('fails when %p cannot execute (%s)', (template, reason) => {
    expect(text(template)).toEqual({ kind: 'error', reason: expect.stringContaining(reason) });
  });

  test.each([
    ['{{ range .path.segments }}{{ . }}{{ end }}'],
    ['{{ $x := .cluster }}{{ $x }}'],
    ['{{ .cluster | sha256sum }}'],
    ['{{ printf "%05d" .replicas }}'],
    ['{{ if eq .missing "prod" }}x{{ end }}'],
  ])('%p is unknown: only the controller can tell', (template) => {
    expect(text(template).kind).toBe('unknown');
  });

  test.each([
    ['{{ hasKey .labels "env" }}', 'true'],
    ['{{ if hasKey .labels "team" }}x{{ else }}y{{ end }}', 'y'],
    ['{{ omit .labels "env" | toJson }}', '{}'],
    ['{{ omit .path "segments" "path" | toJson }}', '{"basename":"guestbook"}'],
    ['{{ .path | toJson }}', '{"basename":"guestbook","path":"apps/guestbook","segments":["apps","guestbook"]}'],
    ['{{ toJson .replicas }}', '3'],
    ['{{ "a<b & c>d" | toJson }}', '"a\\u003cb \\u0026 c\\u003ed"'],
    ['{{ .nope | toJson }}', 'null'],
  ])('sprig\'s %p renders as %p (keys sorted, HTML characters escaped, as encoding/json)', (template, expected) => {
    // GIVEN the dict functions templatePatches use to pass a git file's fields through
    // WHEN rendered
    // THEN the text is what sprig prints
    expect(text(template)).toEqual({ kind: 'text', text: expected });
  });

  test('toJson of a map holding a value known only to Argo CD is unknown; hasKey of a list is left to the controller', () => {
    expect(renderGoTemplate('{{ .values | toJson }}', { values: { name: new Symbolic('the cluster name') } }).kind).toBe('unknown');
    expect(text('{{ hasKey .path.segments "x" }}').kind).toBe('unknown');
  });

  test('toYaml, indent and nindent print what sprig prints: keys sorted, block style, every line padded', () => {
    const params = { kustomize: { namePrefix: 'x-', images: ['web:1.2', 'api:2'], patches: [{ target: { kind: 'Deployment' }, patch: 'a' }] } };
    expect(renderGoTemplate('{{ .kustomize | toYaml }}', params)).toEqual({
      kind: 'text',
      text: 'images:\n- web:1.2\n- api:2\nnamePrefix: x-\npatches:\n- patch: a\n  target:\n    kind: Deployment',
    });
    expect(renderGoTemplate('k:{{ .kustomize.images | toYaml | nindent 2 }}', params)).toEqual({ kind: 'text', text: 'k:\n  - web:1.2\n  - api:2' });
    expect(renderGoTemplate('{{ "a\\nb" | indent 3 }}', {})).toEqual({ kind: 'text', text: '   a\n   b' });
    expect(renderGoTemplate('{{ .values | toYaml }}', { values: { name: new Symbolic('the cluster name') } }).kind).toBe('unknown');
    expect(renderGoTemplate('{{ indent "2" "a" }}', {}).kind).toBe('error');
  });

  test('a symbolic value leaves the string unknown, in a pipeline and in a condition', () => {
    // GIVEN a cluster generator's name, known only to Argo CD
    const data = { name: new Symbolic('the cluster name'), env: 'prod' };
    // WHEN templates print it, pipe it or test it
    // THEN they are unknown, while one that does not read it renders
    expect(renderGoTemplate('{{ .name }}', data).kind).toBe('unknown');
    expect(renderGoTemplate('{{ .name | upper }}', data).kind).toBe('unknown');
    expect(renderGoTemplate('{{ if eq .name "a" }}x{{ end }}', data).kind).toBe('unknown');
    expect(renderGoTemplate('{{ .env }}', data)).toEqual({ kind: 'text', text: 'prod' });
  });

  test('the budget stops a render that prints too much', () => {
    // GIVEN a budget of 10 characters and a value of 8, printed twice
    const budget: RenderBudget = { chars: 10 };
    // WHEN rendered
    // THEN it is too large, not truncated
    expect(renderGoTemplate('{{ .v }}{{ .v }}', { v: 'abcdefgh' }, { budget })).toEqual({ kind: 'tooLarge' });
  });

  test('the budget is charged for what functions return, not only for what is printed', () => {
    // GIVEN four nested replaces that make 100,000 characters of 10, of which only the length is printed
    const template = `{{ .s${' | replace "a" "aaaaaaaaaa"'.repeat(4)} | len }}`;

    // WHEN rendered with a budget of 1,000 characters, and without a budget
    // THEN the budget stops it, although it would print 6 characters
    expect(renderGoTemplate(template, { s: 'a'.repeat(10) }, { budget: { chars: 1000 } })).toEqual({ kind: 'tooLarge' });
    expect(renderGoTemplate(template, { s: 'a'.repeat(10) })).toEqual({ kind: 'text', text: '100000' });
  });

  test('replace and join too large for the budget stop before they build their string', () => {
    // GIVEN a replace that would give 10^12 characters, and a join of 10,000 items with a 1,000-character separator
    const huge = `{{ .s${' | replace "a" "aaaaaaaaaa"'.repeat(12)} | len }}`;
    const joined = '{{ join .sep .items | len }}';
    const data = { s: 'a', sep: 'x'.repeat(1000), items: Array.from({ length: 10_000 }, () => 'a') };

    // WHEN rendered with a budget of 1,000,000 characters
    // THEN both are too large; no string of that size is built (it could not be: the engine would throw)
    expect(renderGoTemplate(huge, data, { budget: { chars: 1_000_000 } })).toEqual({ kind: 'tooLarge' });
    expect(renderGoTemplate(joined, data, { budget: { chars: 1_000_000 } })).toEqual({ kind: 'tooLarge' });
  });

  test('a key of Object.prototype is not a parameter', () => {
    expect(text('{{ .constructor }}')).toEqual({ kind: 'text', text: '<no value>' });
    expect(text('{{ .__proto__ }}', PARAMS, 'error').kind).toBe('error');
  });
});

describe('sanitizeName', () => {
  test.each([
    ['Guest_Book', 'guest-book'],
    ['-a.b-', 'a.b'],
    ['x'.repeat(300), 'x'.repeat(253)],
  ])('%p is %p', (name, expected) => {
    expect(sanitizeName(name)).toBe(expected);
  });
});

describe('renderGoTemplate: hostile templates', () => {
  const PIECES = ['{{', '}}', '{{-', '-}}', ' ', '.', '.a', '.a.b', '$', '$x', '(', ')', '|', '"', '`', '\'', '/*', '*/', 'if', 'else', 'end',
    'with', 'range', 'index', 'printf', '"%s"', 'lower', 'eq', '1', '-', ':=', 'x', '\n', '\\'];

  test('10,000 random templates render, or stop with a reason, quickly and without throwing', () => {
    // GIVEN templates made of random pieces of the syntax (a fixed seed: the run is the same every time)
    let seed = 42;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    const started = Date.now();
    for (let n = 0; n < 10_000; n++) {
      const template = Array.from({ length: next() % 24 }, () => PIECES[next() % PIECES.length]).join('');
      // WHEN each is rendered
      const result = renderGoTemplate(template, { a: { b: 'c' } }, { budget: { chars: 1000 } });
      // THEN the result is one of the four kinds
      expect(['text', 'unknown', 'error', 'tooLarge']).toContain(result.kind);
    }
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('deep nesting of if and parentheses is unknown, not a stack overflow', () => {
    expect(renderGoTemplate(`${'{{ if true }}'.repeat(10_000)}x${'{{ end }}'.repeat(10_000)}`, {}).kind).toBe('unknown');
    expect(renderGoTemplate(`{{ ${'('.repeat(10_000)}1${')'.repeat(10_000)} }}`, {}).kind).toBe('unknown');
  });
});

describe('isTemplated: whether Argo CD renders a string without goTemplate', () => {
  test.each([
    ['{{name}}', true],
    ['{{}}', true],
    ['{{{}}', true],
    ['a {{ x }} b', true],
    ['{{ x }', false],
    ['{ {x}}', false],
    ['}} {{', false],
    ['{{\n}}', false],
    ['{{\r}}', false],
    ['{{\u2028}}', false],
    ['{{\u2029}}', false],
    ['{{\n{{x}}', true],
    ['{{x\n}}{{y}}', true],
    ['{{{', false],
    ['', false],
  ])('%p: %p, as the regex \\{\\{.*\\}\\} finds', (value, expected) => {
    // GIVEN a string / WHEN asked / THEN the answer of Argo CD's regex
    expect(/\{\{.*\}\}/.test(value)).toBe(expected);
    expect(isTemplated(value)).toBe(expected);
  });

  test('a line of 100,000 "{{" and no "}}" is not templated; a "}}" on the next line does not close it', () => {
    // GIVEN many opening braces, then a closing pair after a line break
    const opens = '{{'.repeat(100_000);

    // WHEN asked / THEN neither is templated, and one "}}" on the same line is
    expect(isTemplated(opens)).toBe(false);
    expect(isTemplated(`${opens}\n}}`)).toBe(false);
    expect(isTemplated(`${opens}}}`)).toBe(true);
  });
});

describe('trim markers remove spaces, tabs and line breaks only, as Go does', () => {
  test('a left marker after 100,000 spaces and a letter keeps them all', () => {
    // GIVEN a long run of spaces that does not end the text before the marker
    const spaces = ' '.repeat(100_000);

    // WHEN rendered both ways / THEN nothing is trimmed but what ends the text
    expect(renderGoTemplate(`${spaces}x{{- .name }}`, { name: 'a' })).toEqual({ kind: 'text', text: `${spaces}xa` });
    expect(renderSimple(`${spaces}x{{- .name }}`, { name: 'a' })).toBe(`${spaces}xa`);
  });

  test('a no-break space is not trimmed; space, tab, CR and LF are', () => {
    // GIVEN whitespace of both kinds on both sides of the markers
    const template = 'a\u00a0 \t\r\n{{- .name -}} \t\r\n\u00a0b';

    // WHEN rendered both ways / THEN only the no-break spaces stay
    expect(renderGoTemplate(template, { name: 'x' })).toEqual({ kind: 'text', text: 'a\u00a0x\u00a0b' });
    expect(renderSimple(template, { name: 'x' })).toBe('a\u00a0x\u00a0b');
  });
});

describe('replace with an empty string to replace, as Go\'s strings.Replace', () => {
  test.each([
    ['a', 'xax'],
    ['', 'x'],
    ['ab', 'xaxbx'],
    ['é😀', 'xéx😀x'],
  ])('replace "" "x" of %p is %p', (value, expected) => {
    // GIVEN a value / WHEN replace is called with an empty old string / THEN x is put before each character and at the end
    expect(renderGoTemplate('{{ replace "" "x" .v }}', { v: value })).toEqual({ kind: 'text', text: expected });
  });
});

describe('and and or stop at the first argument that decides, as Go does since 1.18', () => {
  const data = { name: 'a', list: [1] };

  test.each([
    ['{{ if and (eq .name "zzz") (index .list 5) }}y{{ else }}n{{ end }}', 'n'],
    ['{{ if or (eq .name "a") (index .list 5) }}y{{ else }}n{{ end }}', 'y'],
    ['{{ and 0 (index .list 5) }}', '0'],
    ['{{ or "" "b" (index .list 5) }}', 'b'],
    ['{{ and 1 "b" }}', 'b'],
    ['{{ or 0 "" }}', ''],
    ['{{ "b" | and 0 }}', '0'],
    ['{{ "b" | or 0 }}', 'b'],
  ])('%p renders as %p', (template, expected) => {
    // GIVEN an argument that fails after the one that decides / WHEN rendered / THEN it is not evaluated
    expect(renderGoTemplate(template, data)).toEqual({ kind: 'text', text: expected });
  });

  test('an argument that decides nothing lets the next fail, and no argument at all fails', () => {
    // GIVEN a true first argument to and, and an and without arguments
    // WHEN rendered / THEN both fail as in Go
    expect(renderGoTemplate('{{ and (eq .name "a") (index .list 5) }}', data)).toEqual({ kind: 'error', reason: 'error calling index: index out of range: 5' });
    expect(renderGoTemplate('{{ and }}', data)).toEqual({ kind: 'error', reason: 'wrong number of args for and: want at least 1 got 0' });
  });

  test('a value known only to Argo CD decides nothing: the result is unknown', () => {
    // GIVEN a symbolic first argument / WHEN rendered / THEN unknown, not a guess
    expect(renderGoTemplate('{{ and .cluster (index .list 5) }}', { cluster: new Symbolic('the cluster\'s name'), list: [] }).kind).toBe('unknown');
  });
});

describe('parametersOf and fieldChainsOf skip string literals in one pass', () => {
  /** What they read before: the literals emptied by regexes. */
  const reference = (action: string) => {
    const code = action.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/`[^`]*`/g, '""');
    return parametersOf(code.replace(/"/g, ' ').replace(/`/g, ' '));
  };

  test('20,000 random actions of quotes, escapes, line breaks and fields read what the regexes read', () => {
    // GIVEN actions made of random pieces (a fixed seed: the run is the same every time)
    const pieces = ['"', '\\', '\n', '\u2028', '`', ' ', '.a', '$.b', '.c.d', '/*', '*/', 'x', '(', ')'];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let n = 0; n < 20_000; n++) {
      const action = Array.from({ length: next() % 16 }, () => pieces[next() % pieces.length]).join('');
      // WHEN its parameters are read / THEN they are those of the regexes
      expect([action, parametersOf(action)]).toEqual([action, reference(action)]);
    }
  });

  test('an unclosed string of 100,000 escaped quotes hides the field before none', () => {
    // GIVEN a field, then a string never closed whose every character is an escaped quote, then a field
    const action = `.a "${'\\"'.repeat(100_000)} .b`;

    // WHEN read / THEN both fields count: an unclosed string is no string
    expect(parametersOf(action)).toEqual(['a', 'b']);
    expect(fieldChainsOf(action)).toEqual([['a'], ['b']]);
  });
});
