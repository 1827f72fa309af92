import { IN_CLUSTER_SERVER, isClusterName, isServerUrl } from '../core/cluster';
import { badValue, ErrorCode } from '../core/errors';

/**
 * The cluster an Application deploys to.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/declarative-setup/#clusters
 */
export class DestinationCluster {
  /** The cluster Argo CD runs in (`https://kubernetes.default.svc`). */
  public static readonly IN_CLUSTER = new DestinationCluster(IN_CLUSTER_SERVER, undefined);

  /**
   * A cluster by its API server URL, as registered in Argo CD.
   *
   * @param url e.g. `https://prod-eu.example.com:6443`
   */
  public static fromServer(url: string): DestinationCluster {
    if (!isServerUrl(url)) {
      throw badValue(ErrorCode.INVALID_URL, 'DestinationCluster.fromServer', 'url', url,
        'must be the http(s) URL of a Kubernetes API server registered in Argo CD', 'copy the server URL from `argocd cluster list`');
    }
    return new DestinationCluster(url, undefined);
  }

  /**
   * A cluster by the name it is registered under in Argo CD.
   *
   * @param name e.g. `prod-eu`
   */
  public static fromName(name: string): DestinationCluster {
    if (!isClusterName(name)) {
      throw badValue(ErrorCode.INVALID_NAME, 'DestinationCluster.fromName', 'name', name,
        'must be the exact name a cluster is registered under in Argo CD', 'copy the name from `argocd cluster list`');
    }
    return new DestinationCluster(undefined, name);
  }

  /** The API server URL, when the cluster is given by URL. */
  public readonly server?: string;
  /** The registered cluster name, when the cluster is given by name. */
  public readonly name?: string;

  private constructor(server: string | undefined, name: string | undefined) {
    this.server = server;
    this.name = name;
  }
}
