import { badValue, ErrorCode } from '../core/errors';

/**
 * What an Application deploys when its manifests are not rendered by this synth.
 */
export class ExternalSource {
  /**
   * A directory of a Git repository (plain YAML, Kustomize, or a Helm chart in Git).
   *
   * @param path the directory, relative to the repository root, e.g. `deploy/overlays/prod`
   */
  public static gitPath(path: string): ExternalSource {
    if (typeof path !== 'string' || path.trim() === '' || path.startsWith('/') || path.split('/').includes('..')) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, 'ExternalSource.gitPath', 'path', path,
        'must be a directory relative to the repository root, without ".."', 'give the path as Argo CD expects it, e.g. "deploy/overlays/prod"');
    }
    return new ExternalSource(path.replace(/\/+$/, ''), undefined);
  }

  /**
   * A chart from a Helm repository. The app's `targetRevision` is the chart version and must be one exact release.
   *
   * @param chart the chart name in the Helm repository at `repoUrl`, e.g. `ingress-nginx`
   */
  public static helmChart(chart: string): ExternalSource {
    if (typeof chart !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(chart)) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, 'ExternalSource.helmChart', 'chart', chart,
        'must be a chart name', 'give the chart name as the Helm repository lists it');
    }
    return new ExternalSource(undefined, chart);
  }

  /** The Git directory, for a Git source. */
  public readonly path?: string;
  /** The chart name, for a Helm repository source. */
  public readonly chart?: string;

  private constructor(path: string | undefined, chart: string | undefined) {
    this.path = path;
    this.chart = chart;
  }
}
