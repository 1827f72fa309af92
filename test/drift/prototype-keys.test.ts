import { application, RESPECTING, simulatorPerFile } from './support';

// Input is data: keys named like Object.prototype's own properties are ordinary keys of the resource.

const sim = simulatorPerFile();

/** Object.prototype's own property names and descriptors, to compare before and after. */
function prototypeShape(): string {
  const names = Object.getOwnPropertyNames(Object.prototype).sort();
  return JSON.stringify(names.map((n) => [n, typeof Object.getOwnPropertyDescriptor(Object.prototype, n)!.value]));
}

/**
 * A custom resource whose spec holds `__proto__` and `constructor` keys, as JSON text (which keeps them as
 * keys); with `value` undefined, a spec without them.
 */
function widget(value: number | undefined, managedFields?: unknown): string {
  const spec = value === undefined ? '{"size": 1}'
    : `{"__proto__": {"hasOwnProperty": ${value}, "toString": ${value}}, "constructor": {"prototype": {"polluted": ${value}}}, "size": 1}`;
  return `{"apiVersion": "acme.internal/v1", "kind": "Widget", "metadata": {"name": "w", "namespace": "team"${managedFields ? `, "managedFields": ${JSON.stringify(managedFields)}` : ''}},
    "spec": ${spec}}`;
}

const OWNS_PROTO = [{
  manager: 'widget-controller',
  operation: 'Update',
  fieldsType: 'FieldsV1',
  fieldsV1: { 'f:spec': { 'f:__proto__': { 'f:hasOwnProperty': {}, 'f:toString': {} }, 'f:constructor': { 'f:prototype': { 'f:polluted': {} } } } },
}];

describe('simulate treats __proto__, constructor and prototype as plain keys', () => {
  const app = JSON.stringify(application({
    ignoreDifferences: [{ group: 'acme.internal', kind: 'Widget', managedFieldsManagers: ['widget-controller'] }],
  }, RESPECTING));

  test('managedFields owning f:__proto__ fields: Object.prototype is untouched, the owned fields are ignored and kept', () => {
    // GIVEN live differs from Git only in fields under __proto__ and constructor, owned by a trusted manager
    const before = prototypeShape();

    // WHEN it is simulated
    const report = sim().simulateDrift({ application: app, desired: widget(1), live: widget(2, OWNS_PROTO) });

    // THEN nothing outside the objects changed, the trusted manager's values are not drift and are kept by a sync
    expect(prototypeShape()).toBe(before);
    expect(typeof ({} as { hasOwnProperty?: unknown }).hasOwnProperty).toBe('function');
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(report.outOfSync).toBe(false);
    expect(JSON.parse(report.liveAfterApply).spec).toEqual(JSON.parse(widget(2)).spec);
  });

  test('Git has __proto__ fields that live lacks while managedFields name them: Object.prototype is untouched, and it is drift', () => {
    // GIVEN Git declares spec.__proto__ and spec.constructor, live has neither but its managedFields claim them
    const before = prototypeShape();

    // WHEN it is simulated
    const report = sim().simulateDrift({ application: app, desired: widget(1), live: widget(undefined, OWNS_PROTO) });

    // THEN hasOwnProperty and toString are still Object.prototype's, and the missing fields are drift a sync adds
    expect(prototypeShape()).toBe(before);
    expect(typeof ({} as { hasOwnProperty?: unknown }).hasOwnProperty).toBe('function');
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual(['/spec/__proto__/hasOwnProperty', '/spec/__proto__/toString', '/spec/constructor/prototype/polluted']);
    expect(JSON.parse(report.liveAfterApply).spec).toEqual(JSON.parse(widget(1)).spec);
  });

  test('a difference under __proto__ nobody trusted owns is drift, not "Synced"', () => {
    // GIVEN live differs from Git in spec.__proto__ and spec.constructor, with no managedFields
    const before = prototypeShape();

    // WHEN it is simulated
    const report = sim().simulateDrift({ application: app, desired: widget(1), live: widget(2) });

    // THEN both are differences, self-heal reverts them, and Object.prototype is untouched
    expect(prototypeShape()).toBe(before);
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual(['/spec/__proto__/hasOwnProperty', '/spec/__proto__/toString', '/spec/constructor/prototype/polluted']);
    expect(JSON.parse(report.liveAfterApply).spec).toEqual(JSON.parse(widget(1)).spec);
  });
});
