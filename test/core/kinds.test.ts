import { groupOf, isClusterScoped } from '../../src/core/kinds';

describe('groupOf', () => {
  test.each([
    ['apps/v1', 'apps'],
    ['v1', ''],
    ['admissionregistration.k8s.io/v1', 'admissionregistration.k8s.io'],
    ['argoproj.io/v1alpha1', 'argoproj.io'],
  ])('takes the group of %p', (apiVersion, group) => {
    // GIVEN / WHEN / THEN the part before "/" is the group; no "/" is the core group
    expect(groupOf(apiVersion)).toBe(group);
  });
});

describe('isClusterScoped', () => {
  test.each([
    ['', 'Namespace'],
    ['', 'PersistentVolume'],
    ['rbac.authorization.k8s.io', 'ClusterRole'],
    ['admissionregistration.k8s.io', 'MutatingWebhookConfiguration'],
    ['apiextensions.k8s.io', 'CustomResourceDefinition'],
    ['cert-manager.io', 'ClusterIssuer'],
  ])('knows %s/%s is cluster-scoped', (group, kind) => {
    // GIVEN / WHEN / THEN a known cluster-scoped kind is recognized
    expect(isClusterScoped(group, kind)).toBe(true);
  });

  test.each([
    ['apps', 'Deployment'],
    ['', 'Service'],
    ['rbac.authorization.k8s.io', 'Role'],
    ['', 'ClusterRole'],
    ['acme.internal', 'Widget'],
  ])('treats %s/%s as namespaced', (group, kind) => {
    // GIVEN / WHEN / THEN namespaced, wrongly grouped and unknown kinds count as namespaced
    expect(isClusterScoped(group, kind)).toBe(false);
  });
});
