/**
 * What a destination cluster may be, for every type that names one (DestinationCluster, ApplicationSetCluster),
 * so that they accept the same values.
 */

/** The API server of the cluster Argo CD runs in. */
export const IN_CLUSTER_SERVER = 'https://kubernetes.default.svc';

/** An http(s) URL of a Kubernetes API server. */
export function isServerUrl(url: unknown): url is string {
  return typeof url === 'string' && /^https?:\/\/[^\s]+$/.test(url);
}

/**
 * A cluster name exactly as Argo CD compares it: not blank, no surrounding whitespace (which would never
 * match), no `*` (names are not globs here).
 */
export function isClusterName(name: unknown): name is string {
  return typeof name === 'string' && name.trim().length > 0 && name === name.trim() && !name.includes('*');
}
