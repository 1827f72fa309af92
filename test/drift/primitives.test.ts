import { applyDeletionDefaults, applyDeletionDefaultsForAbsent } from '../../src/drift/defaults';
import { ignoreEntriesOf, resourceKeyOf } from '../../src/drift/ignore-entries';
import { clone, deepEqual, Json, removeAt, setAt, valueAt } from '../../src/drift/json';
import { JqRunner, normalizeIgnored, remarshal } from '../../src/drift/normalize';
import { differingPointers } from '../../src/drift/pointers';
import { readOneManifest } from '../../src/drift/read-manifest';

describe('JSON helpers of the drift model', () => {
  test('deepEqual compares lists item by item, maps key by key', () => {
    expect(deepEqual([1, 2], [1, 2])).toBe(true);
    expect(deepEqual([1, 2], [1, 3])).toBe(false);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual([1], [1, 1])).toBe(false);
    expect(deepEqual([1], { 0: 1 })).toBe(false);
    expect(deepEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(deepEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(deepEqual(1, '1')).toBe(false);
  });

  test('clone copies deeply and leaves undefined alone', () => {
    const value = { a: [{ b: 1 }] };
    const copy = clone(value);
    expect(copy).toEqual(value);
    expect(copy.a[0]).not.toBe(value.a[0]);
    expect(clone(undefined)).toBeUndefined();
    expect(clone(null)).toBeNull();
  });

  test('valueAt reads list items only by whole decimal indexes', () => {
    const value: Json = { list: ['a', 'b'], map: { '1x': 'y' } };
    expect(valueAt(value, ['list', '1'])).toBe('b');
    expect(valueAt(value, ['list', '1x'])).toBeUndefined();
    expect(valueAt(value, ['list', 'x1'])).toBeUndefined();
    expect(valueAt(value, ['list', '10'])).toBeUndefined();
    expect(valueAt(value, ['map', '1x'])).toBe('y');
    expect(valueAt(value, ['list', '0', 'deeper'])).toBeUndefined();
    expect(valueAt(value, ['map', 'toString'])).toBeUndefined();
    expect(valueAt(value, [])).toBe(value);
    const eleven: Json = { list: Array.from({ length: 11 }, (_, i) => i) };
    expect(valueAt(eleven, ['list', '10'])).toBe(10);
  });

  test('removeAt removes map keys and list items in place, and reports whether it did', () => {
    const value: Json = { list: ['a', 'b', 'c'], map: { k: 1 } };
    expect(removeAt(value, [])).toBe(false);
    const odd: Json = { undefined: 1 };
    expect(removeAt(odd, [])).toBe(false);
    expect(odd).toEqual({ undefined: 1 });
    expect(removeAt(value, ['list', '3'])).toBe(false);
    expect(removeAt(value, ['list', '1x'])).toBe(false);
    expect(removeAt(value, ['list', '1'])).toBe(true);
    expect(removeAt(value, ['map', 'missing'])).toBe(false);
    expect(removeAt(value, ['map', 'k'])).toBe(true);
    expect(removeAt(value, ['nowhere', 'k'])).toBe(false);
    expect(value).toEqual({ list: ['a', 'c'], map: {} });
    const eleven: Json = { list: Array.from({ length: 11 }, (_, i) => i) };
    expect(removeAt(eleven, ['list', '10'])).toBe(true);
    expect(eleven).toEqual({ list: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] });
  });

  test('setAt creates maps on the way and indexes into existing lists', () => {
    const value: { [k: string]: Json } = { list: [{ name: 'web' }, 'scalar'] };
    setAt(value, ['a', 'b'], 1);
    setAt(value, ['list', '0', 'image'], 'web:2');
    setAt(value, ['list', '1', 'x'], true);
    setAt(value, ['list', '2'], 'appended');
    setAt(value, ['list', '1x'], 'key on a list');
    expect(value.a).toEqual({ b: 1 });
    expect([...(value.list as Json[])]).toEqual([{ name: 'web', image: 'web:2' }, { x: true }, 'appended']);
    expect((value.list as unknown as Record<string, Json>)['1x']).toBe('key on a list');
  });
});

describe('differingPointers', () => {
  test('names the differing leaves, a map on one side by its leaves, a list of another length as a whole', () => {
    expect(differingPointers({ a: { b: 1, c: 2 } }, { a: { b: 1, c: 3 } })).toEqual(['/a/c']);
    expect(differingPointers({ a: { b: 1 } }, {})).toEqual(['/a/b']);
    expect(differingPointers(undefined, { x: { y: 'z' } })).toEqual(['/x/y']);
    expect(differingPointers({ l: [1, 2] }, { l: [1, 3] })).toEqual(['/l/1']);
    expect(differingPointers({ l: [1, 2] }, { l: [1] })).toEqual(['/l']);
    expect(differingPointers({ l: [1] }, { l: { 0: 1 } })).toEqual(['/l']);
    expect(differingPointers({ s: 'a' }, { s: { t: 'a' } })).toEqual(['/s']);
    expect(differingPointers({ 'a/b': 1, '~': 1 }, { 'a/b': 2, '~': 2 })).toEqual(['/a~1b', '/~0']);
    expect(differingPointers(1, 2)).toEqual(['']);
    expect(differingPointers({ x: 1 }, [1])).toEqual(['']);
    expect(differingPointers([1], 'x')).toEqual(['']);
    expect(differingPointers(undefined, undefined)).toEqual([]);
  });

  test('a map that differs only by an undefined-valued key is named as a whole', () => {
    expect(differingPointers({ a: {} } as Json, { a: { b: undefined } } as unknown as Json)).toEqual(['/a']);
  });
});

describe('remarshal', () => {
  test('drops empty lists, empty map-typed fields and zero omitempty scalars; keeps pointer fields and other empties', () => {
    expect(remarshal({
      metadata: { labels: {}, annotations: { a: 'b' } },
      spec: { replicas: 0, paused: false, minReadySeconds: 0, hostNetwork: true, template: { spec: { volumes: [], containers: [{ name: 'w', args: [] }] } } },
      emptyDir: {},
      list: [[], 1],
    })).toStrictEqual({
      metadata: { annotations: { a: 'b' } },
      spec: { replicas: 0, hostNetwork: true, template: { spec: { containers: [{ name: 'w' }] } } },
      emptyDir: {},
      list: [[], 1],
    });
  });

  test('a scalar stays itself; an empty list as a whole becomes an empty object', () => {
    expect(remarshal('x')).toBe('x');
    expect(remarshal([])).toEqual({});
  });
});

describe('normalizeIgnored', () => {
  const failing = (exitCode: number): JqRunner => ({
    del: () => { throw Object.assign(new Error('jq: error\nsecond line'), { exitCode }); },
  });
  const entry = { group: '', kind: '', name: '', namespace: '', jsonPointers: [], jqPathExpressions: ['.spec.x'], managedFieldsManagers: [] };

  test('a jq expression that does not compile is a ComparisonError for the whole app, with the first line of the message', () => {
    const warnings: string[] = [];
    normalizeIgnored({ kind: 'Deployment', metadata: { name: 'web' } }, [entry], failing(3), warnings);
    expect(warnings).toEqual(['jqPathExpression ".spec.x" does not compile; Argo CD reports a ComparisonError for the whole app: jq: error']);
  });

  test('a jq expression that fails at run time names the object, by generateName when it has no name', () => {
    const warnings: string[] = [];
    const obj = { kind: 'Job', metadata: { generateName: 'migrate-' }, status: { active: 1 } };
    const result = normalizeIgnored(obj, [entry], failing(5), warnings);
    expect(warnings).toEqual(['jqPathExpression ".spec.x" failed on Job migrate-: jq: error']);
    expect(result).toEqual({ kind: 'Job', metadata: { generateName: 'migrate-' } });
    expect(obj.status).toEqual({ active: 1 });
  });

  test('a failure on something that is not an object calls it the object; a thrown string is its own message', () => {
    const warnings: string[] = [];
    normalizeIgnored(['not', 'a', 'map'], [entry], { del: () => { throw 'plain failure'; } }, warnings);
    expect(warnings).toEqual(['jqPathExpression ".spec.x" failed on the object: plain failure']);
    expect(normalizeIgnored('scalar', [], failing(5), [])).toBe('scalar');
    const nothing: string[] = [];
    normalizeIgnored({ kind: 'ConfigMap', metadata: { name: 'c' } }, [entry], { del: () => { throw null; } }, nothing);
    expect(nothing).toEqual(['jqPathExpression ".spec.x" failed on ConfigMap c: null']);
    const unnamed: string[] = [];
    normalizeIgnored({ kind: 'Job', metadata: {} }, [entry], failing(5), unnamed);
    expect(unnamed).toEqual(['jqPathExpression ".spec.x" failed on Job: jq: error']);
  });
});

describe('ignore entries', () => {
  test('an entry keeps only string list items; an Application without entries has none', () => {
    expect(ignoreEntriesOf({ spec: { ignoreDifferences: [{ kind: 'Deployment', jsonPointers: ['/spec/replicas', 7, null], jqPathExpressions: 'x' }, 'junk'] } })).toEqual([
      { group: '', kind: 'Deployment', name: '', namespace: '', jsonPointers: ['/spec/replicas'], jqPathExpressions: [], managedFieldsManagers: [] },
    ]);
    expect(ignoreEntriesOf({ spec: {} })).toEqual([]);
    expect(ignoreEntriesOf({ spec: { ignoreDifferences: {} } })).toEqual([]);
  });

  test('a cluster-scoped object has no namespace, whatever it says', () => {
    expect(resourceKeyOf({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r', namespace: 'x' } }, 'shop'))
      .toEqual({ group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r', namespace: '' });
    expect(resourceKeyOf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, 'shop')).toEqual({ group: '', kind: 'ConfigMap', name: 'c', namespace: 'shop' });
  });
});

describe('deletion defaults', () => {
  test('only maps get defaults; unmodelled kinds and present fields are left alone', () => {
    expect(applyDeletionDefaults('x', [['spec', 'replicas']])).toBe('x');
    expect(applyDeletionDefaults(null, [['spec', 'replicas']])).toBeNull();
    expect(applyDeletionDefaultsForAbsent(null)).toBeNull();
    expect(applyDeletionDefaults({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 4 } }, [['spec', 'replicas']])).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 4 } });
    expect(applyDeletionDefaults({ apiVersion: 'apps/v1', kind: 'Deployment', spec: {} }, [['spec', 'replicas']])).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 1 } });
    expect(applyDeletionDefaults({ apiVersion: 'v1', kind: 'ConfigMap', data: {} }, [['data', 'x']])).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', data: {} });
    expect(applyDeletionDefaultsForAbsent({ apiVersion: 'v1', kind: 'Service', spec: {} })).toEqual({ apiVersion: 'v1', kind: 'Service', spec: { type: 'ClusterIP', sessionAffinity: 'None' } });
    expect(applyDeletionDefaultsForAbsent({ kind: 'Service', spec: {} })).toEqual({ kind: 'Service', spec: { type: 'ClusterIP', sessionAffinity: 'None' } });
  });
});

describe('readOneManifest', () => {
  const SERVICE = 'apiVersion: v1\nkind: Service\nmetadata: {name: a}\n';

  test('reads text and bytes alike', () => {
    expect(readOneManifest('x', SERVICE)).toEqual({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' } });
    expect(readOneManifest('x', Buffer.from(SERVICE))).toEqual({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' } });
  });

  test('one object next to another document is refused, and the message counts both', () => {
    expect(() => readOneManifest('--live live.yaml', `${SERVICE}---\njust a string\n`)).toThrow(
      '[SAFE-102] --live live.yaml: expected exactly one Kubernetes object (with apiVersion and kind), found 1 Kubernetes object(s) and 1 other document(s). '
      + 'Fix: pass one manifest per file, e.g. kubectl get deployment web -o yaml > live.yaml.');
    expect(() => readOneManifest('x', 'just a string\n')).toThrow('found 0 Kubernetes object(s) and 1 other document(s)');
  });
});
