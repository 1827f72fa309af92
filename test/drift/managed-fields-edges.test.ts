import { deployment, edited } from './support';
import { Json, JsonMap } from '../../src/drift/json';
import { fieldsV1Members, modifiedPaths, normalizeManagedFields, PathElement } from '../../src/drift/managed-fields';
import { mergeContextFor } from '../../src/drift/merge';

// Edge cases of the managedFieldsManagers model that managed-fields.test.ts leaves open. Sources as
// there: util/argo/managedfields/managed_fields.go and the typed comparison of util/argo/diff/diff.go
// (Comparison.Modified: fields on both sides with different values; associative lists item by item).

const DEPLOYMENT_CTX = () => mergeContextFor({ apiVersion: 'apps/v1', kind: 'Deployment' });

const f = (...names: string[]): PathElement[] => names.map((field) => ({ field }));
const WEB_CONTAINER: PathElement[] = [...f('spec', 'template', 'spec', 'containers'), { key: { name: 'web' } }];

/** A Deployment whose web container has the given extra fields. */
function webWith(fields: JsonMap): JsonMap {
  return edited(deployment(3), (d) => { Object.assign(d.spec.template.spec.containers[0], fields); });
}

describe('fieldsV1Members reads i: only as a whole non-negative number', () => {
  test('i:12 is index 12; i:1x, i:x1 and i:-1 are skipped', () => {
    expect(fieldsV1Members({ 'f:items': { 'i:1x': {}, 'i:x1': {}, 'i:-1': {}, 'i:12': {} } })).toEqual([[{ field: 'items' }, { index: 12 }]]);
  });
});

describe('modifiedPaths, item by item', () => {
  test('container ports inside a keyed container are compared by containerPort', () => {
    // GIVEN Git renames port 8080; live also has a port an injector added
    const live = webWith({ ports: [{ containerPort: 8080, name: 'http' }, { containerPort: 15090, name: 'http-envoy-prom' }] });
    const git = webWith({ ports: [{ containerPort: 8080, name: 'web' }] });

    // THEN only the name of port 8080 is modified, not the list
    expect(modifiedPaths(live, git, DEPLOYMENT_CTX())).toEqual([[...WEB_CONTAINER, { field: 'ports' }, { key: { containerPort: 8080 } }, { field: 'name' }]]);
  });

  test('Service ports are compared by port', () => {
    const service = (ports: JsonMap[]): JsonMap => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { ports } });
    const live = service([{ port: 80, targetPort: 8080 }, { port: 15021, targetPort: 15021 }]);
    const git = service([{ port: 80, targetPort: 9090 }]);
    expect(modifiedPaths(live, git, mergeContextFor(git))).toEqual([[...f('spec', 'ports'), { key: { port: 80 } }, { field: 'targetPort' }]]);
  });

  test('an item only Git has, an item without its merge key and an empty (null) item are not modified', () => {
    // GIVEN env where MODE differs, NEW is only in Git, and both sides have a nameless entry and a null entry
    const live = webWith({ env: [{ name: 'MODE', value: 'debug' }, { value: 'orphan-live' }, null] });
    const git = webWith({ env: [{ name: 'MODE', value: 'prod' }, { name: 'NEW', value: '1' }, { value: 'orphan-git' }, null] });

    // THEN only MODE's value is modified
    expect(modifiedPaths(live, git, DEPLOYMENT_CTX())).toEqual([[...WEB_CONTAINER, { field: 'env' }, { key: { name: 'MODE' } }, { field: 'value' }]]);
  });

  test('a map on one side and null or a string on the other is modified as a whole', () => {
    // GIVEN Git's empty `annotations:` (null) and a label map that live holds as a string
    const live = { metadata: { annotations: { 'acme.internal/a': '1' }, labels: 'app=web' } };
    const git = { metadata: { annotations: null, labels: { app: 'web' } } };
    expect(modifiedPaths(live, git, DEPLOYMENT_CTX())).toEqual([f('metadata', 'annotations'), f('metadata', 'labels')]);
  });
});

describe('normalizeManagedFields passes over a null managedFields entry', () => {
  test('a null entry is skipped and the trusted entry after it still applies', () => {
    // GIVEN managedFields with a null entry before the HPA's
    const hpa: Json = { manager: 'kube-controller-manager', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } };
    const live = edited(deployment(8), (d) => { d.metadata.managedFields = [null, hpa]; });
    const git = deployment(3);

    // WHEN normalized with the controller manager trusted
    normalizeManagedFields(live, git, ['kube-controller-manager'], DEPLOYMENT_CTX());

    // THEN replicas left both objects; nothing else changed
    expect(git).toEqual(edited(deployment(3), (d) => { delete d.spec.replicas; }));
    expect(live).toEqual(edited(deployment(8), (d) => { delete d.spec.replicas; d.metadata.managedFields = [null, hpa]; }));
  });
});

describe('normalizeManagedFields matches items the API server keys by two fields', () => {
  const service = (targetPort: number, extra: JsonMap = {}): JsonMap => ({
    apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', ...extra }, spec: { ports: [{ port: 80, protocol: 'TCP', targetPort }] },
  });

  test('a Service port owned as k:{"port":80,"protocol":"TCP"}: the trusted manager\'s targetPort is removed from both', () => {
    // GIVEN a mesh controller that owns targetPort of the port keyed by port and protocol, as the API server writes it
    const live = service(15080, {
      managedFields: [{
        manager: 'mesh-controller',
        operation: 'Update',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:ports': { 'k:{"port":80,"protocol":"TCP"}': { 'f:targetPort': {} } } } },
      }],
    });
    const git = service(8080);

    // WHEN normalized with that manager trusted
    normalizeManagedFields(live, git, ['mesh-controller'], mergeContextFor(git));

    // THEN the owned field is gone from both sides, and the rest of the item stays
    expect((git.spec as JsonMap).ports).toEqual([{ port: 80, protocol: 'TCP' }]);
    expect((live.spec as JsonMap).ports).toEqual([{ port: 80, protocol: 'TCP' }]);
  });

  test('a key that matches no live item is left as written, and removes nothing', () => {
    const live = service(15080, {
      managedFields: [{ manager: 'mesh-controller', fieldsV1: { 'f:spec': { 'f:ports': { 'k:{"port":81,"protocol":"TCP"}': { 'f:targetPort': {} } } } } }],
    });
    const git = service(8080);
    normalizeManagedFields(live, git, ['mesh-controller'], mergeContextFor(git));
    expect((git.spec as JsonMap).ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 8080 }]);
    expect((live.spec as JsonMap).ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 15080 }]);
  });
});

describe('normalizeManagedFields follows two-field keys inside keyed items', () => {
  test('a container port owned as k:{"containerPort":8080,"protocol":"TCP"} inside the web container', () => {
    // GIVEN an injector that owns the name of port 8080 of the web container, keyed as the API server keys it
    const live = webWith({ ports: [{ containerPort: 8080, protocol: 'TCP', name: 'http-mesh' }] });
    (live.metadata as JsonMap).managedFields = [{
      manager: 'mesh-injector',
      fieldsV1: {
        'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { 'f:ports': { 'k:{"containerPort":8080,"protocol":"TCP"}': { 'f:name': {} } } } } } } },
      },
    }];
    const git = webWith({ ports: [{ containerPort: 8080, name: 'http' }] });

    // WHEN normalized with the injector trusted
    normalizeManagedFields(live, git, ['mesh-injector'], DEPLOYMENT_CTX());

    // THEN the port's name is gone from both
    expect(((git.spec as any).template.spec.containers[0]).ports).toEqual([{ containerPort: 8080 }]);
    expect(((live.spec as any).template.spec.containers[0]).ports).toEqual([{ containerPort: 8080, protocol: 'TCP' }]);
  });

  test('a key into a list live does not have removes nothing', () => {
    const live = webWith({});
    (live.metadata as JsonMap).managedFields = [{
      manager: 'mesh-injector',
      fieldsV1: { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { 'f:ports': { 'k:{"containerPort":8080}': { 'f:name': {} } } } } } } } },
    }];
    const git = webWith({ ports: [{ containerPort: 8080, name: 'http' }] });
    normalizeManagedFields(live, git, ['mesh-injector'], DEPLOYMENT_CTX());
    expect(((git.spec as any).template.spec.containers[0]).ports).toEqual([{ containerPort: 8080, name: 'http' }]);
  });
});
