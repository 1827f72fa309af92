import { Release } from '../../src/core/argocd-features';
import { readHook } from '../../src/core/hooks';

const ARGO = 'argocd.argoproj.io/hook';
const HELM = 'helm.sh/hook';

// Expected readings follow gitops-engine pkg/sync/hook (IsHook, Skip, Types), hook/helm (IsHook, Types) and
// Argo CD's controller/hook.go (PreDelete and PostDelete read from either annotation).
describe('readHook', () => {
  test.each<[string, Record<string, unknown> | undefined, boolean, boolean, string[]]>([
    ['no annotations', undefined, false, false, []],
    ['unrelated annotations', { team: 'payments' }, false, false, []],
    ['one Argo CD type', { [ARGO]: 'PreSync' }, true, false, ['PreSync']],
    ['types trimmed, empty and repeated ones dropped', { [ARGO]: ' PostSync , ,PreSync,PostSync ' }, true, false, ['PostSync', 'PreSync']],
    ['Skip alone', { [ARGO]: 'Skip' }, false, true, []],
    ['Skip repeated is still Skip alone', { [ARGO]: 'Skip, Skip' }, false, true, []],
    ['Skip with an unknown type', { [ARGO]: 'Skip,Later' }, false, true, []],
    ['Skip with a sync type runs as that hook', { [ARGO]: 'Skip,PreSync' }, true, false, ['PreSync']],
    ['an empty Argo CD annotation makes a hook that runs in no phase', { [ARGO]: '' }, true, false, []],
    ['an unknown Argo CD type makes a hook that runs in no phase', { [ARGO]: 'Later' }, true, false, []],
    ['Argo CD types win over Helm ones', { [ARGO]: 'Sync', [HELM]: 'pre-install' }, true, false, ['Sync']],
    ['with no known Argo CD type, Helm types are read', { [ARGO]: ' ', [HELM]: 'pre-install' }, true, false, ['PreSync']],
    ['Helm install and upgrade types map to PreSync and PostSync, once each', { [HELM]: 'pre-install,pre-upgrade,post-upgrade,post-install' },
      true, false, ['PreSync', 'PostSync']],
    ['crd-install alone is not a hook', { [HELM]: 'crd-install' }, false, false, []],
    ['crd-install with another Helm type is a hook', { [HELM]: 'crd-install,pre-upgrade' }, true, false, ['PreSync']],
    ['a Helm type Argo CD does not run is still a hook', { [HELM]: 'test' }, true, false, []],
    ['PreDelete from Argo CD', { [ARGO]: 'PreDelete' }, true, false, ['PreDelete']],
    ['post-delete from Helm', { [HELM]: 'post-delete' }, true, false, ['PostDelete']],
    ['Skip with PostDelete: skipped in a sync, run at deletion', { [ARGO]: 'Skip,PostDelete' }, true, true, ['PostDelete']],
    ['sync and deletion phases together', { [ARGO]: 'PostDelete,PreSync' }, true, false, ['PreSync', 'PostDelete']],
    ['a value that is not a string hides every annotation', { [ARGO]: 'PreSync', replicas: 3 }, false, false, []],
  ])('%s', (_name, annotations, hook, skipped, types) => {
    // WHEN the annotations are read
    const reading = readHook(annotations);

    // THEN the object is (or is not) a hook, skipped, and runs in exactly these phases
    expect(reading).toEqual({ hook, skipped, types });
  });
});

// Argo CD 3.2 and older (controller/hook.go at v3.2.12): PostDelete only, and only from an annotation whose whole value
// is the type; 3.3 added PreDelete and read both from comma-separated values (argo-cd #22288).
describe('readHook before and from Argo CD 3.3', () => {
  const V3_2: Release = { major: 3, minor: 2 };
  const V3_3: Release = { major: 3, minor: 3 };
  const V2_14: Release = { major: 2, minor: 14 };

  test.each<[string, Record<string, string>, Release, boolean, boolean, string[]]>([
    ['PreDelete for 3.3: a deletion hook', { [ARGO]: 'PreDelete' }, V3_3, true, false, ['PreDelete']],
    ['PreDelete for 3.2: a hook of no phase, never run', { [ARGO]: 'PreDelete' }, V3_2, true, false, []],
    ['Helm pre-delete for 3.2: a hook of no phase', { [HELM]: 'pre-delete' }, V3_2, true, false, []],
    ['Helm pre-delete for 3.3: PreDelete', { [HELM]: 'pre-delete' }, V3_3, true, false, ['PreDelete']],
    ['PostDelete alone for 2.14: a deletion hook', { [ARGO]: 'PostDelete' }, V2_14, true, false, ['PostDelete']],
    ['Helm post-delete alone for 3.2', { [HELM]: 'post-delete' }, V3_2, true, false, ['PostDelete']],
    ['PostDelete in a list for 3.2: not found', { [ARGO]: 'PostDelete,PreSync' }, V3_2, true, false, ['PreSync']],
    ['PostDelete in a list for 3.3: found', { [ARGO]: 'PostDelete,PreSync' }, V3_3, true, false, ['PreSync', 'PostDelete']],
    ['PostDelete with spaces for 3.2: not the exact value', { [ARGO]: ' PostDelete' }, V3_2, true, false, []],
    ['Skip with PostDelete for 3.2: skipped, and no deletion hook', { [ARGO]: 'Skip,PostDelete' }, V3_2, false, true, []],
    ['Skip with PostDelete for 3.3: skipped in a sync, run at deletion', { [ARGO]: 'Skip,PostDelete' }, V3_3, true, true, ['PostDelete']],
  ])('%s', (_name, annotations, release, hook, skipped, types) => {
    expect(readHook(annotations, release)).toEqual({ hook, skipped, types });
  });

  test('without a release, the newest known one reads the annotations', () => {
    expect(readHook({ [ARGO]: 'PreDelete,PostDelete' })).toEqual({ hook: true, skipped: false, types: ['PreDelete', 'PostDelete'] });
  });
});
