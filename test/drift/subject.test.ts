import { describeManifest } from '../../src/drift/subject';

describe('describeManifest', () => {
  test.each([
    [{ kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' } }, 'Deployment shop/web'],
    [{ kind: 'ClusterRole', metadata: { name: 'reader' } }, 'ClusterRole reader'],
    [{ kind: 'Job', metadata: { generateName: 'migrate-', namespace: 'shop' } }, 'Job shop/migrate-'],
    [{ kind: 'Job', metadata: { name: 7, namespace: 3 } }, 'Job ?'],
    [{ metadata: 'not a map' }, '? ?'],
    [['not', 'an', 'object'], '? ?'],
  ])('%j is headed %j', (manifest, heading) => {
    expect(describeManifest(manifest)).toBe(heading);
  });
});
