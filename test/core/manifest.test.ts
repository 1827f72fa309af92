import { ArgoCdVersion } from '../../src/core/argocd-version';
import { at, describeObject, isAppProject, isAutoSync, isObject, listAt, objectsWhere, readSourcesOf, sourcesOf, stringAt, syncOptionsOf } from '../../src/core/manifest';

describe('reading manifests', () => {
  const obj = { spec: { list: [1, 'a'], text: 'x', nested: { n: 1 } } };

  test('at walks objects only', () => {
    expect(at(obj, 'spec', 'nested', 'n')).toBe(1);
    expect(at(obj, 'spec', 'list', '0')).toBeUndefined();
    expect(at(obj, 'spec', 'missing', 'n')).toBeUndefined();
    expect(at(obj)).toBe(obj);
  });

  test('listAt gives an empty list for anything but a list; stringAt undefined for anything but a string', () => {
    expect(listAt(obj, 'spec', 'list')).toEqual([1, 'a']);
    expect(listAt(obj, 'spec', 'text')).toEqual([]);
    expect(stringAt(obj, 'spec', 'text')).toBe('x');
    expect(stringAt(obj, 'spec', 'nested', 'n')).toBeUndefined();
  });

  test('isObject: plain objects only', () => {
    expect([{}, [], null, 'x', 1].map(isObject)).toEqual([true, false, false, false, false]);
  });

  test('objectsWhere: the Application first when it passes, then the passing resources in their order', () => {
    // GIVEN an AppProject given as the Application, and resources of which two are AppProjects
    const project = (name: string) => ({ apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata: { name } });
    const resources = [project('a'), { apiVersion: 'v1', kind: 'ConfigMap' }, project('b')];

    // WHEN the AppProjects among them are asked for, with and without that Application
    const withApplication = objectsWhere(project('root'), resources, isAppProject);
    const without = objectsWhere(undefined, resources, isAppProject);

    // THEN the Application comes first, the resources follow in order, and nothing else
    expect(withApplication.map((p) => stringAt(p, 'metadata', 'name'))).toEqual(['root', 'a', 'b']);
    expect(without).toEqual([resources[0], resources[2]]);
    expect(objectsWhere({ kind: 'Application' }, resources, isAppProject)).toHaveLength(2);
  });
});

describe('describeObject', () => {
  test.each([
    [{ kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' } }, 'Deployment shop/web'],
    [{ kind: 'Deployment', metadata: { name: 'web' } }, 'Deployment web'],
    [{ kind: 'Job', metadata: { generateName: 'migrate-' } }, 'Job migrate-*'],
    [{ kind: 'Job', metadata: { generateName: '' } }, 'Job <no name>'],
    [{ metadata: {} }, '<no kind> <no name>'],
    [{ kind: 'Job', metadata: { name: 'x', namespace: '' } }, 'Job x'],
  ])('%j is %j', (manifest, expected) => {
    expect(describeObject(manifest)).toBe(expected);
  });
});

describe('sourcesOf', () => {
  test('spec.source, then every object of spec.sources, with pointers', () => {
    const application = { spec: { source: { repoURL: 'a' }, sources: [{ repoURL: 'b' }, 'junk', { repoURL: 'c' }] } };
    expect(sourcesOf(application)).toEqual([
      { source: { repoURL: 'a' }, path: '/spec/source' },
      { source: { repoURL: 'b' }, path: '/spec/sources/0' },
      { source: { repoURL: 'c' }, path: '/spec/sources/2' },
    ]);
  });

  test('a source that is not an object is none', () => {
    expect(sourcesOf({ spec: { source: 'a' } })).toEqual([]);
  });
});

describe('readSourcesOf', () => {
  test('spec.sources alone when it holds anything, even what is not an object; else spec.source', () => {
    const both = { spec: { source: { repoURL: 'a' }, sources: [{ repoURL: 'b' }, 'junk', { repoURL: 'c' }] } };
    expect(readSourcesOf(both)).toEqual([{ source: { repoURL: 'b' }, path: '/spec/sources/0' }, { source: { repoURL: 'c' }, path: '/spec/sources/2' }]);
    expect(readSourcesOf({ spec: { source: { repoURL: 'a' }, sources: ['junk'] } })).toEqual([]);
    expect(readSourcesOf({ spec: { source: { repoURL: 'a' }, sources: [] } })).toEqual([{ source: { repoURL: 'a' }, path: '/spec/source' }]);
  });
});

describe('isAutoSync and syncOptionsOf', () => {
  const app = (automated: unknown) => ({ spec: { syncPolicy: { automated, syncOptions: ['A=true', 3, 'B=false'] } } });

  test('automated is on unless enabled is false on a release that reads it', () => {
    expect(isAutoSync(app({}), ArgoCdVersion.LATEST)).toBe(true);
    expect(isAutoSync(app({ enabled: false }), ArgoCdVersion.LATEST)).toBe(false);
    expect(isAutoSync(app({ enabled: false }), ArgoCdVersion.V2_14)).toBe(true);
    expect(isAutoSync(app(null), ArgoCdVersion.LATEST)).toBe(false);
    expect(isAutoSync({}, ArgoCdVersion.LATEST)).toBe(false);
  });

  test('sync options are the strings only', () => {
    expect(syncOptionsOf(app({}))).toEqual(['A=true', 'B=false']);
  });
});
