import { effectiveNamespace, hookTypesOf, isApplied, isJobOrPod, isTargetOf, ScaleTarget, ownerLabel, scaleTargets, waveOf } from '../../src/rules/workloads';

const APP = { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'web' }, spec: { destination: { namespace: 'shop' } } };

describe('effectiveNamespace', () => {
  test('its own, else the destination namespace, else empty', () => {
    expect(effectiveNamespace({ metadata: { namespace: 'own' } }, APP)).toBe('own');
    expect(effectiveNamespace({ metadata: {} }, APP)).toBe('shop');
    expect(effectiveNamespace({ metadata: {} }, undefined)).toBe('');
  });
});

describe('scaleTargets', () => {
  test('HPAs of any autoscaling version and KEDA ScaledObjects, with their defaults', () => {
    const resources = [
      {
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'h' },
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
      },
      { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'bare', namespace: 'other' }, spec: { scaleTargetRef: { name: 'x' } } },
      { apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'k' }, spec: { scaleTargetRef: { name: 'worker' } } },
      {
        apiVersion: 'keda.sh/v1alpha1',
        kind: 'ScaledObject',
        metadata: { name: 'k2' },
        spec: { scaleTargetRef: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'r' } },
      },
    ];
    expect(scaleTargets(resources, undefined).map(({ owner, ...t }) => ({ owner: owner.metadata, ...t }))).toEqual([
      { owner: { name: 'h' }, group: 'apps', kind: 'Deployment', name: 'web', namespace: '' },
      { owner: { name: 'bare', namespace: 'other' }, group: '', kind: '', name: 'x', namespace: 'other' },
      { owner: { name: 'k' }, group: 'apps', kind: 'Deployment', name: 'worker', namespace: '' },
      { owner: { name: 'k2' }, group: 'argoproj.io', kind: 'Rollout', name: 'r', namespace: '' },
    ]);
  });

  test('anything else, or a target without a name, scales nothing', () => {
    const resources = [
      { apiVersion: 'acme.internal/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'fake' }, spec: { scaleTargetRef: { name: 'a' } } },
      { apiVersion: 'autoscaling/v2', kind: 'ScaledObject', metadata: { name: 'fake2' }, spec: { scaleTargetRef: { name: 'a' } } },
      { kind: 'HorizontalPodAutoscaler', metadata: { name: 'no-api-version' }, spec: { scaleTargetRef: { name: 'a' } } },
      { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'no-ref' }, spec: {} },
      { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'ref-list' }, spec: { scaleTargetRef: [] } },
      { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'no-name' }, spec: { scaleTargetRef: { kind: 'Deployment' } } },
    ];
    expect(scaleTargets(resources, APP)).toEqual([]);
  });
});

describe('isTargetOf and ownerLabel', () => {
  // Read in beforeAll, not in the describe body, so that a scaleTargets that throws fails these tests.
  let target: ScaleTarget;
  beforeAll(() => {
    [target] = scaleTargets([{
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: {},
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
    }], APP);
  });

  test('kind, group, name and effective namespace must all match', () => {
    const web = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } };
    expect(isTargetOf(web, target, APP)).toBe(true);
    expect(isTargetOf({ ...web, kind: 'StatefulSet' }, target, APP)).toBe(false);
    expect(isTargetOf({ ...web, apiVersion: 'v1' }, target, APP)).toBe(false);
    expect(isTargetOf({ kind: 'Deployment', metadata: { name: 'web' } }, target, APP)).toBe(false);
    expect(isTargetOf({ ...web, metadata: { name: 'api' } }, target, APP)).toBe(false);
    expect(isTargetOf({ ...web, metadata: { name: 'web', namespace: 'other' } }, target, APP)).toBe(false);
    expect(isTargetOf({ ...web, metadata: { name: 'web', namespace: 'shop' } }, target, APP)).toBe(true);
  });

  test('an autoscaler without a name is labelled so', () => {
    expect(ownerLabel(target)).toBe('HorizontalPodAutoscaler <no name>');
  });
});

describe('hooks, Skip and waves', () => {
  const annotated = (annotations: Record<string, string>) => ({ kind: 'Job', metadata: { name: 'j', annotations } });

  test.each([
    [{ 'argocd.argoproj.io/hook': 'PreSync' }, ['PreSync'], false],
    [{ 'argocd.argoproj.io/hook': ' PreSync , ,PostSync ' }, ['PreSync', 'PostSync'], false],
    [{ 'argocd.argoproj.io/hook': 'Skip' }, [], false],
    [{ 'argocd.argoproj.io/hook': 'Skip,PreSync' }, ['PreSync'], false],
    [{ 'argocd.argoproj.io/hook': '' }, [], false],
    [{ 'argocd.argoproj.io/hook': 'Sync', 'helm.sh/hook': 'pre-install' }, ['Sync'], false],
    [{ 'argocd.argoproj.io/hook': ' ', 'helm.sh/hook': 'pre-install' }, ['PreSync'], false],
    [{ 'helm.sh/hook': 'crd-install,pre-upgrade' }, ['PreSync'], false],
    [{ 'helm.sh/hook': 'post-delete' }, ['PostDelete'], false],
    [{ 'helm.sh/hook': 'crd-install' }, [], true],
    [{}, [], true],
  ])('%j: runs in %j, applied with the other resources %j', (annotations, types, applied) => {
    expect(hookTypesOf(annotated(annotations))).toEqual(types);
    expect(isApplied(annotated(annotations))).toBe(applied);
  });

  test('annotations that are not a map are none', () => {
    expect(isApplied({ kind: 'Job', metadata: { annotations: 'argocd.argoproj.io/hook: PreSync' } })).toBe(true);
    expect(hookTypesOf({ kind: 'Job' })).toEqual([]);
  });

  test('the wave: Argo CD\'s annotation, else Helm\'s hook weight, else none', () => {
    expect(waveOf(annotated({ 'argocd.argoproj.io/sync-wave': '2', 'helm.sh/hook-weight': '5' }))).toEqual({ wave: '2', annotation: 'argocd.argoproj.io/sync-wave' });
    expect(waveOf(annotated({ 'helm.sh/hook-weight': '5' }))).toEqual({ wave: '5', annotation: 'helm.sh/hook-weight' });
    expect(waveOf(annotated({}))).toBeUndefined();
  });

  test('Jobs of batch and core Pods only', () => {
    expect(isJobOrPod({ apiVersion: 'batch/v1', kind: 'Job' })).toBe(true);
    expect(isJobOrPod({ apiVersion: 'v1', kind: 'Pod' })).toBe(true);
    expect(isJobOrPod({ apiVersion: 'acme.internal/v1', kind: 'Job' })).toBe(false);
    expect(isJobOrPod({ apiVersion: 'acme.internal/v1', kind: 'Pod' })).toBe(false);
    expect(isJobOrPod({ kind: 'Job' })).toBe(false);
    expect(isJobOrPod({ kind: 'Pod' })).toBe(true);
    expect(isJobOrPod({ apiVersion: 'batch/v1', kind: 'CronJob' })).toBe(false);
  });
});
