import { IN_CLUSTER_SERVER, isClusterName, isServerUrl } from '../core/cluster';
import { badValue, ErrorCode } from '../core/errors';
import { checkTemplateSyntax, hasAction } from '../private/go-template';

/**
 * The cluster a generated Application deploys to: fixed, or read from the generator's parameters
 * (`ApplicationSetCluster.fromServer('{{.server}}')` with the clusters generator).
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Template/
 */
export class ApplicationSetCluster {
  /** The cluster Argo CD runs in (`https://kubernetes.default.svc`). */
  public static readonly IN_CLUSTER = new ApplicationSetCluster(IN_CLUSTER_SERVER, undefined);

  /**
   * A cluster by its API server URL, or a template that renders to one.
   *
   * @param url e.g. `https://prod-eu.example.com:6443`, or `{{.server}}` with the clusters generator
   */
  public static fromServer(url: string): ApplicationSetCluster {
    const where = 'ApplicationSetCluster.fromServer';
    if (typeof url === 'string' && hasAction(url)) {
      const parsed = checkTemplateSyntax(where, 'url', url);
      if (/\s/.test(parsed.skeleton)) {
        throw badValue(ErrorCode.INVALID_URL, where, 'url', url,
          'has whitespace outside its template actions, so it cannot render to a server URL', 'use e.g. "{{.server}}"');
      }
      return new ApplicationSetCluster(url, undefined);
    }
    if (!isServerUrl(url)) {
      throw badValue(ErrorCode.INVALID_URL, where, 'url', url,
        'must be the http(s) URL of a Kubernetes API server registered in Argo CD, or a template such as "{{.server}}"', 'copy the server URL from `argocd cluster list`');
    }
    return new ApplicationSetCluster(url, undefined);
  }

  /**
   * A cluster by the name it is registered under in Argo CD, or a template that renders to one.
   *
   * @param name e.g. `prod-eu`, or `{{.name}}` with the clusters generator
   */
  public static fromName(name: string): ApplicationSetCluster {
    const where = 'ApplicationSetCluster.fromName';
    if (!isClusterName(name)) {
      throw badValue(ErrorCode.INVALID_NAME, where, 'name', name,
        'must be the exact name a cluster is registered under in Argo CD, or a template such as "{{.name}}"', 'copy the name from `argocd cluster list`');
    }
    if (hasAction(name)) {
      checkTemplateSyntax(where, 'name', name);
    }
    return new ApplicationSetCluster(undefined, name);
  }

  /** The API server URL or its template, when the cluster is given by URL. */
  public readonly server?: string;
  /** The registered cluster name or its template, when the cluster is given by name. */
  public readonly name?: string;

  private constructor(server: string | undefined, name: string | undefined) {
    this.server = server;
    this.name = name;
  }
}
