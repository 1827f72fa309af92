import { Construct } from 'constructs';
import { ExternalSource } from '../application/external-source';
import { GitOpsApp } from '../application/gitops-app';
import { SafeApplication } from '../application/safe-application';
import { ArgoCdVersion } from '../core/argocd-version';
import { badValue, ErrorCode } from '../core/errors';
import { GitOpsLayout } from '../private/gitops-part';
import { APP_OF_APPS, synthIndexOf } from '../private/synth-index';
import { IArgoProject } from '../values/argo-project';
import { IgnoreRule } from '../values/ignore-rule';
import { IgnoreTarget } from '../values/ignore-target';
import { RetryOptions } from '../values/retry-options';

/**
 * Props of an {@link AppOfApps}. There is no break-glass: the root is never suspended, its children are.
 */
export interface AppOfAppsProps {
  /** The root Application's name. */
  readonly name: string;

  /** The AppProject the root itself belongs to (it deploys into Argo CD's namespace). */
  readonly project: IArgoProject;

  /** The project whose Applications the root deploys: everything in `applications/<project>/`. */
  readonly childProject: IArgoProject;

  /** The Git repository the synth output is committed to. */
  readonly repoUrl: string;

  /**
   * The branch, tag or commit Argo CD tracks.
   *
   * @default 'main'
   */
  readonly targetRevision?: string;

  /**
   * The namespace Argo CD looks for Applications in, where the root deploys its children.
   *
   * @default 'argocd'
   */
  readonly applicationNamespace?: string;

  /**
   * The Argo CD release the root is rendered for.
   *
   * @default ArgoCdVersion.LATEST
   */
  readonly argoCdVersion?: ArgoCdVersion;

  /**
   * How a failed sync of the root is retried.
   *
   * @default - limit 5, backoff 5s, factor 2, maxDuration 3m
   */
  readonly retry?: RetryOptions;
}

/**
 * An app-of-apps root: an Application that deploys one project's Applications (and its AppProject) from
 * `applications/<project>/`, written to `roots/` and applied once by hand.
 *
 * In app-of-apps, the parent's self-heal reverts a child's changed sync policy within seconds (argo-cd
 * #3895, #4808, #23484), which defeats the usual break-glass. The root therefore ignores each child's
 * `/spec/syncPolicy/automated`, scoped to that one Application, with RespectIgnoreDifferences: an on-call
 * engineer can suspend one leaf (see its runbook) and the suspension holds. A declarative break-glass
 * suspends a child with the `argocd.argoproj.io/skip-reconcile` annotation instead, which the root applies.
 *
 * The root is applied by hand: apply `roots/` again (or deploy it from a bootstrap Application) when the
 * project gains an Application, so that the new child's ignore rule reaches the cluster.
 *
 * The root has the same hardened policy as every SafeApplication and cannot be suspended by a prop.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/cluster-bootstrapping/
 */
export class AppOfApps extends SafeApplication {
  /** Whether `x` is an AppOfApps. */
  public static isAppOfApps(x: unknown): x is AppOfApps {
    return typeof x === 'object' && x !== null && APP_OF_APPS in x;
  }

  /**
   * `instanceof AppOfApps`.
   * @internal
   */
  static [Symbol.hasInstance](x: unknown): x is AppOfApps {
    return AppOfApps.isAppOfApps(x);
  }

  /** The project whose Applications the root deploys. */
  public readonly childProjectName: string;

  public constructor(scope: Construct, id: string, props: AppOfAppsProps) {
    const gitops = GitOpsApp.findRoot(scope);
    if (!gitops) {
      throw badValue(ErrorCode.WRONG_SCOPE, scope, 'scope', scope.node.root.node.path || '<root>',
        'is not a GitOpsApp, so there is no folder of Applications for the root to deploy', 'create the root inside `new GitOpsApp()`');
    }
    const childProject = props.childProject?.projectName;
    const applicationNamespace = props.applicationNamespace ?? 'argocd';
    super(scope, id, {
      name: props.name,
      project: props.project,
      repoUrl: props.repoUrl,
      targetRevision: props.targetRevision,
      destinationNamespace: applicationNamespace,
      applicationNamespace,
      argoCdVersion: props.argoCdVersion,
      retry: props.retry,
      externalSource: ExternalSource.gitPath(gitops.repoPathOf(`${gitops.applicationsDir}/${childProject}`)),
    });
    Object.defineProperty(this, APP_OF_APPS, { value: true });
    this.childProjectName = childProject;
  }

  /** The Applications this root deploys: the SafeApplications of its child project (roots excluded). */
  public get children(): SafeApplication[] {
    // Asked each time the root's spec renders: during a synth, the index answers without walking the whole tree.
    return (synthIndexOf(this)?.applicationsOf(this.childProjectName) ?? this.node.root.node.findAll())
      .filter((c): c is SafeApplication => SafeApplication.isSafeApplication(c) && !AppOfApps.isAppOfApps(c))
      .filter((a) => a.projectName === this.childProjectName);
  }

  /** @internal */
  public _applicationFolder(layout: GitOpsLayout): string {
    return layout.rootsFolder;
  }

  /** @internal The root is never suspended: it has no runbook. */
  public _runbook(): string | undefined {
    return undefined;
  }

  protected additionalIgnoreRules(): IgnoreRule[] {
    return this.children
      .map((child) => IgnoreRule.jsonPointer(
        IgnoreTarget.resource({ group: 'argoproj.io', kind: 'Application', name: child.applicationName, namespace: child.applicationNamespace }),
        '/spec/syncPolicy/automated',
        'a leaf\'s break-glass suspension must hold: the root does not put its automated sync back (argo-cd #3895, #4808, #23484)',
      ));
  }
}
