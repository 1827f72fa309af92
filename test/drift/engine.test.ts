import { application, deployment, edited, jqPerFile, RESPECTING, withLastApplied } from './support';
import { simulate } from '../../src/drift/engine';
import { JsonMap } from '../../src/drift/json';

// Sources: gitops-engine/pkg/diff/diff.go (Diff: three-way with the last-applied annotation, else
// TwoWayDiff = ThreeWayDiff(config, config, live); handleResourceCreateOrDeleteDiff for a missing
// resource), util/argo/diff/diff.go (preDiffNormalize: managedFieldsManagers only when live and target
// exist), controller/sync.go (normalizeTargetResources under RespectIgnoreDifferences=true; the original
// target when live is nil), docs/user-guide/auto_sync.md (self-heal syncs an OutOfSync app).

const jq = jqPerFile();

const IGNORE_REPLICAS = [{ group: 'apps', kind: 'Deployment', name: 'web', jsonPointers: ['/spec/replicas'] }];
const IMAGE = '/spec/template/spec/containers/0/image';

function withImage(obj: JsonMap, image: string): JsonMap {
  return edited(obj, (d) => { d.spec.template.spec.containers[0].image = image; });
}

describe('two-way diff: live without the last-applied annotation', () => {
  test('a field only live has (replicas set by an HPA, none in Git) is not drift', () => {
    // GIVEN Git without replicas and a live Deployment, never applied with kubectl, at 8 replicas
    const result = simulate(jq(), application(), deployment(), deployment(8));

    // THEN it is Synced and nothing would change
    expect(result.outOfSync).toBe(false);
    expect(result.differences).toEqual([]);
    expect(result.applyReverts).toEqual([]);
  });

  test('a value Git declares and live changed is drift, and the apply sets Git\'s value back', () => {
    const result = simulate(jq(), application(), deployment(3), deployment(8));
    expect(result.outOfSync).toBe(true);
    expect(result.differences).toEqual(['/spec/replicas']);
    expect(result.applyReverts).toEqual(['/spec/replicas']);
    expect((result.liveAfterApply as any).spec.replicas).toBe(3);
  });

  test('without last-applied nothing is deleted: a label that only live has stays', () => {
    const live = edited(deployment(3), (d) => { d.metadata.labels.team = 'payments'; });
    const result = simulate(jq(), application(), deployment(3), live);
    expect(result.outOfSync).toBe(false);
    expect((result.liveAfterApply as any).metadata.labels).toEqual({ app: 'web', team: 'payments' });
  });

  test('an unparsable last-applied annotation falls back to the two-way diff, with a warning', () => {
    // GIVEN a last-applied annotation that is not JSON
    const live = edited(deployment(8), (d) => { d.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': '{not json' }; });

    // WHEN compared with Git without replicas
    const result = simulate(jq(), application(), deployment(), live);

    // THEN replicas is not deleted (two-way) and the fallback is reported
    expect(result.outOfSync).toBe(false);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain('last-applied-configuration');
  });
});

describe('three-way diff: live with the last-applied annotation', () => {
  test('a field in last-applied that has left Git is drift, and the apply deletes it: replicas falls back to 1', () => {
    // GIVEN replicas: 3 was applied, Git no longer declares it, an HPA scaled live to 8
    const live = withLastApplied(deployment(8), deployment(3));

    // WHEN compared with Git without replicas
    const result = simulate(jq(), application(), deployment(), live);

    // THEN it is OutOfSync on replicas, and the sync scales the Deployment to 1
    expect(result.outOfSync).toBe(true);
    expect(result.differences).toEqual(['/spec/replicas']);
    expect(result.applyReverts).toEqual(['/spec/replicas']);
    expect((result.liveAfterApply as any).spec.replicas).toBe(1);
  });

  test('a field only live has that was never applied is still not drift', () => {
    const live = withLastApplied(deployment(8), deployment());
    const result = simulate(jq(), application(), deployment(), live);
    expect(result.outOfSync).toBe(false);
    expect((result.liveAfterApply as any).spec.replicas).toBe(8);
  });

  test('the apply writes Git\'s object as the new last-applied annotation, which is not reported as a revert', () => {
    // GIVEN live applied from an older image
    const live = withLastApplied(withImage(deployment(3), 'registry.acme.internal/web:0.9.0'), withImage(deployment(3), 'registry.acme.internal/web:0.9.0'));

    // WHEN Git has the new image
    const result = simulate(jq(), application(), deployment(3), live);

    // THEN the image is the only revert, and the annotation holds Git's object
    expect(result.applyReverts).toEqual([IMAGE]);
    const annotation = (result.liveAfterApply as any).metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'];
    expect(JSON.parse(annotation)).toEqual(deployment(3));
  });
});

describe('RespectIgnoreDifferences=true', () => {
  test('copies the ignored live value into the applied object: Synced, replicas kept, not in applyReverts', () => {
    // GIVEN Git declares 3 replicas, the HPA scaled live to 8, /spec/replicas is ignored and respected
    const app = application({ ignoreDifferences: IGNORE_REPLICAS }, RESPECTING);
    const live = withLastApplied(deployment(8), deployment(3));

    // WHEN Argo CD compares and syncs
    const result = simulate(jq(), app, deployment(3), live);

    // THEN it is Synced and the apply keeps 8
    expect(result.outOfSync).toBe(false);
    expect(result.respectIgnoreDifferences).toBe(true);
    expect(result.applyReverts).toEqual([]);
    expect(result.keptIgnored).toEqual(['/spec/replicas']);
    expect((result.liveAfterApply as any).spec.replicas).toBe(8);
  });

  test('a change to a field that is not ignored is still reverted next to the kept one', () => {
    // GIVEN live also runs a hand-set image
    const app = application({ ignoreDifferences: IGNORE_REPLICAS }, RESPECTING);
    const live = withLastApplied(withImage(deployment(8), 'registry.acme.internal/web:hotfix'), deployment(3));

    // WHEN Argo CD compares and syncs
    const result = simulate(jq(), app, deployment(3), live);

    // THEN only the image is drift and reverted; replicas stays 8
    expect(result.differences).toEqual([IMAGE]);
    expect(result.applyReverts).toEqual([IMAGE]);
    expect(result.selfHealReverts).toEqual([IMAGE]);
    expect((result.liveAfterApply as any).spec.replicas).toBe(8);
  });

  test('has no effect when the resource does not exist yet: OutOfSync, and Git\'s object is created as it is', () => {
    // GIVEN no live object
    const app = application({ ignoreDifferences: IGNORE_REPLICAS }, RESPECTING);

    // WHEN Argo CD compares and syncs
    const result = simulate(jq(), app, deployment(3), undefined);

    // THEN the whole object is missing and the created object equals Git's, ignored field included
    expect(result.outOfSync).toBe(true);
    expect(result.differences).toEqual(['']);
    expect(result.applyReverts).toEqual(['']);
    expect(result.selfHealReverts).toEqual(['']);
    expect(result.keptIgnored).toEqual([]);
    expect(result.liveAfterApply).toEqual(deployment(3));
  });
});

describe('without RespectIgnoreDifferences (#6520, #7820)', () => {
  test('an ignored field is not drift, but a sync re-applies the value Git declares', () => {
    // GIVEN /spec/replicas ignored without RespectIgnoreDifferences, Git declares 3, live runs 8
    const app = application({ ignoreDifferences: IGNORE_REPLICAS });
    const live = withLastApplied(deployment(8), deployment(3));

    // WHEN Argo CD compares and syncs
    const result = simulate(jq(), app, deployment(3), live);

    // THEN it is Synced, yet any sync of the Deployment puts 3 back
    expect(result.outOfSync).toBe(false);
    expect(result.respectIgnoreDifferences).toBe(false);
    expect(result.applyReverts).toEqual(['/spec/replicas']);
    expect(result.keptIgnored).toEqual([]);
    expect((result.liveAfterApply as any).spec.replicas).toBe(3);
  });

  test('an ignored field that Git does not declare and never applied is kept by the apply', () => {
    const app = application({ ignoreDifferences: IGNORE_REPLICAS });
    const live = withLastApplied(deployment(8), deployment());
    const result = simulate(jq(), app, deployment(), live);
    expect(result.outOfSync).toBe(false);
    expect(result.applyReverts).toEqual([]);
    expect(result.keptIgnored).toEqual(['/spec/replicas']);
  });
});

describe('self-heal', () => {
  const driftedLive = () => withLastApplied(withImage(deployment(3), 'registry.acme.internal/web:hotfix'), deployment(3));

  test('when OutOfSync and self-healing, selfHealReverts are the apply\'s reverts', () => {
    const result = simulate(jq(), application(), deployment(3), driftedLive());
    expect(result.selfHeal).toBe(true);
    expect(result.selfHealReverts).toEqual([IMAGE]);
  });

  test('selfHealReverts is empty when selfHeal is false, though the app is OutOfSync', () => {
    const result = simulate(jq(), application({}, { automated: { prune: true } }), deployment(3), driftedLive());
    expect(result.outOfSync).toBe(true);
    expect(result.selfHeal).toBe(false);
    expect(result.selfHealReverts).toEqual([]);
    expect(result.applyReverts).toEqual([IMAGE]);
  });

  test('selfHealReverts is empty when automated sync is disabled with enabled: false (v3.1+)', () => {
    const result = simulate(jq(), application({}, { automated: { enabled: false, prune: true, selfHeal: true } }), deployment(3), driftedLive());
    expect(result.selfHeal).toBe(false);
    expect(result.selfHealReverts).toEqual([]);
  });

  test('selfHealReverts is empty when the app is Synced, even if a sync would change an ignored field', () => {
    // GIVEN the replica drift is ignored without RespectIgnoreDifferences
    const app = application({ ignoreDifferences: IGNORE_REPLICAS });
    const result = simulate(jq(), app, deployment(3), withLastApplied(deployment(8), deployment(3)));

    // THEN self-heal has nothing to do, although a sync would put 3 back
    expect(result.outOfSync).toBe(false);
    expect(result.selfHealReverts).toEqual([]);
    expect(result.applyReverts).toEqual(['/spec/replicas']);
  });
});

describe('status', () => {
  test('a status in live and another in Git is never drift, and the apply does not change it', () => {
    const desired = edited(deployment(3), (d) => { d.status = { replicas: 0 }; });
    const live = edited(withLastApplied(deployment(3), deployment(3)), (d) => { d.status = { replicas: 3, readyReplicas: 3 }; });
    const result = simulate(jq(), application(), desired, live);
    expect(result.outOfSync).toBe(false);
    expect(result.applyReverts).toEqual([]);
  });
});

describe('managedFieldsManagers', () => {
  const hpaOwned = (obj: JsonMap): JsonMap => edited(obj, (d) => {
    d.metadata.managedFields = [
      { manager: 'argocd-controller', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
      { manager: 'kube-controller-manager', operation: 'Update', subresource: 'scale', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
    ];
  });
  const trustHpa = [{ group: 'apps', kind: 'Deployment', name: 'web', managedFieldsManagers: ['kube-controller-manager'] }];

  test('a differing field owned by a trusted manager is not drift, and RespectIgnoreDifferences keeps it', () => {
    // GIVEN Git declares 3, the HPA (kube-controller-manager) scaled to 8 and owns spec.replicas
    const app = application({ ignoreDifferences: trustHpa }, RESPECTING);
    const live = hpaOwned(withLastApplied(deployment(8), deployment(3)));

    // WHEN Argo CD compares and syncs
    const result = simulate(jq(), app, deployment(3), live);

    // THEN it is Synced and 8 is kept
    expect(result.outOfSync).toBe(false);
    expect(result.applyReverts).toEqual([]);
    expect((result.liveAfterApply as any).spec.replicas).toBe(8);
  });

  test('the same field is drift when the owner is not trusted', () => {
    const app = application({ ignoreDifferences: [{ group: 'apps', kind: 'Deployment', name: 'web', managedFieldsManagers: ['kubectl'] }] }, RESPECTING);
    const result = simulate(jq(), app, deployment(3), hpaOwned(withLastApplied(deployment(8), deployment(3))));
    expect(result.outOfSync).toBe(true);
    expect(result.differences).toEqual(['/spec/replicas']);
  });

  test('has nothing to compare when the resource does not exist yet (preDiffNormalize needs live and target)', () => {
    const app = application({ ignoreDifferences: trustHpa }, RESPECTING);
    const result = simulate(jq(), app, deployment(3), undefined);
    expect(result.outOfSync).toBe(true);
    expect(result.liveAfterApply).toEqual(deployment(3));
  });

  // managed_fields.go with the static schema of built-in kinds (see managed-fields.test.ts): a trusted
  // manager's field inside a keyed list item is removed from live and config when it differs.
  test('a container image changed by a trusted manager (kubectl-set, k:{"name":"web"}/f:image) is not drift', () => {
    // GIVEN kubectl-set changed the web container's image and owns it; kubectl-set is trusted
    const app = application({ ignoreDifferences: [{ group: 'apps', kind: 'Deployment', name: 'web', managedFieldsManagers: ['kubectl-set'] }] }, RESPECTING);
    const live = edited(withLastApplied(withImage(deployment(3), 'registry.acme.internal/web:hotfix'), deployment(3)), (d) => {
      d.metadata.managedFields = [{
        manager: 'kubectl-set',
        operation: 'Update',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { 'f:image': {} } } } } } },
      }];
    });

    // WHEN Argo CD compares and syncs
    const result = simulate(jq(), app, deployment(3), live);

    // THEN it is Synced and the hand-set image is kept
    expect(result.outOfSync).toBe(false);
    expect((result.liveAfterApply as any).spec.template.spec.containers[0].image).toBe('registry.acme.internal/web:hotfix');
  });
});
