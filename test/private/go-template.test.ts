import { parametersOf, parseTemplate, renderSimple, simpleParameter } from '../../src/private/go-template';

describe('parseTemplate', () => {
  test('splits literal text from actions and keeps the shape of the rendered value', () => {
    // GIVEN a name with two actions, one with trim markers
    // WHEN parsed
    const parsed = parseTemplate('{{.name}}-{{- .region -}}-app');
    // THEN the actions are bare and the skeleton stands in for them
    expect(parsed).toEqual({ actions: ['.name', '.region'], skeleton: 'x-x-app' });
  });

  test('a string without actions is all literal', () => {
    expect(parseTemplate('deploy/checkout')).toEqual({ actions: [], skeleton: 'deploy/checkout' });
  });

  test.each([
    ['{{.name', 'never closed'],
    ['a-{{ }}', 'empty'],
    ['{{ {{.name}} }}', 'contains another'],
  ])('fails when %p is malformed', (value, problem) => {
    expect(parseTemplate(value)).toEqual(expect.stringContaining(problem));
  });
});

describe('parametersOf', () => {
  test.each([
    ['.name', ['name']],
    ['$.name', ['name']],
    ['.name | upper', ['name']],
    ['.metadata.labels.env', ['metadata']],
    ['index .metadata.labels "acme.internal/env"', ['metadata']],
    ['printf "%s-%s" .name .region', ['name', 'region']],
    ['printf ".notAParameter" .name', ['name']],
    ['$x.name', []],
    ['(index . "name").inner', []],
    ['/* .hidden */ .name', ['name']],
    ['.name .name', ['name']],
  ])('reads the top-level parameters of %p', (action, parameters) => {
    expect(parametersOf(action)).toEqual(parameters);
  });
});

describe('simpleParameter and renderSimple', () => {
  test('only a bare parameter is simple', () => {
    expect(simpleParameter('.name')).toBe('name');
    expect(simpleParameter('$.name')).toBe('name');
    expect(simpleParameter('.name | upper')).toBeUndefined();
    expect(simpleParameter('.metadata.labels.env')).toBeUndefined();
  });

  test('renders bare parameters, honouring trim markers', () => {
    expect(renderSimple('{{.name}}-checkout', { name: 'eu' })).toBe('eu-checkout');
    expect(renderSimple('a  {{- .name -}}  b', { name: 'eu' })).toBe('aeub');
  });

  test('gives up when only the controller can tell', () => {
    expect(renderSimple('{{.name | upper}}', { name: 'eu' })).toBeUndefined();
    expect(renderSimple('{{.missing}}', { name: 'eu' })).toBeUndefined();
  });
});
