/**
 * Built-in and common cluster-scoped kinds, keyed `group/Kind` (core group empty). Argo CD matches an
 * ignoreDifferences namespace against the live object's namespace, which is empty for these, so a rule
 * scoped to one of them must not carry a namespace.
 */
const CLUSTER_SCOPED = new Set([
  '/Namespace', '/Node', '/PersistentVolume', '/ComponentStatus',
  'rbac.authorization.k8s.io/ClusterRole', 'rbac.authorization.k8s.io/ClusterRoleBinding',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
  'apiextensions.k8s.io/CustomResourceDefinition',
  'apiregistration.k8s.io/APIService',
  'storage.k8s.io/StorageClass', 'storage.k8s.io/CSIDriver', 'storage.k8s.io/CSINode', 'storage.k8s.io/VolumeAttachment',
  'scheduling.k8s.io/PriorityClass',
  'node.k8s.io/RuntimeClass',
  'networking.k8s.io/IngressClass',
  'policy/PodSecurityPolicy',
  'certificates.k8s.io/CertificateSigningRequest',
  'flowcontrol.apiserver.k8s.io/FlowSchema', 'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration',
  'cert-manager.io/ClusterIssuer',
  'external-secrets.io/ClusterSecretStore', 'external-secrets.io/ClusterExternalSecret',
  'argoproj.io/ClusterWorkflowTemplate',
]);

/** The groups of each cluster-scoped kind above, by kind: asked for every object, without building a key for each. */
const CLUSTER_SCOPED_GROUPS = new Map<string, string[]>();
for (const key of CLUSTER_SCOPED) {
  const slash = key.lastIndexOf('/');
  const groups = CLUSTER_SCOPED_GROUPS.get(key.slice(slash + 1)) ?? [];
  groups.push(key.slice(0, slash));
  CLUSTER_SCOPED_GROUPS.set(key.slice(slash + 1), groups);
}

/** Whether a kind is known to be cluster-scoped. Unknown kinds count as namespaced. */
export function isClusterScoped(group: string, kind: string): boolean {
  return CLUSTER_SCOPED_GROUPS.get(kind)?.includes(group) ?? false;
}

/** The API group of an apiVersion: `apps/v1` is `apps`, `v1` is the core group, `''`. */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash === -1 ? '' : apiVersion.slice(0, slash);
}

/**
 * The API group meant by a group written where Argo CD compares it with an object's group as the API server names it
 * (an ignoreDifferences entry): `core` or `v1` mean the core group, `""`; an apiVersion (`apps/v1`) means its group; a
 * group in capitals its lower case. Undefined when the group is written as meant (or is a glob, which may match).
 */
export function apiGroupMeant(group: string): string | undefined {
  if (group === '' || /[*?[\\{]/.test(group)) {
    return undefined;
  }
  const named = group.includes('/') ? group.slice(0, group.indexOf('/')) : group;
  const lower = named.toLowerCase();
  const meant = lower === 'core' || lower === 'v1' ? '' : lower;
  return meant === group ? undefined : meant;
}
