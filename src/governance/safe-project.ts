import { ApiObject, Chart, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { hasFeature } from '../core/argocd-features';
import { ArgoCdVersion } from '../core/argocd-version';
import { badValue, ErrorCode } from '../core/errors';
import { isValidGlob } from '../core/glob';
import { isDns1123Label } from '../core/names';
import { destinationAllowed, PROJECT_PATTERN, sourceAllowed } from '../core/project-policy';
import { suppressionKey } from '../core/suppressions';
import { cronScheduleProblem, manualSyncBlocked, timeZoneProblem } from '../core/sync-windows';
import { formatFinding } from '../private/format';
import { GITOPS_PART, GitOpsLayout, PartFile } from '../private/gitops-part';
import { goDuration } from '../private/go-duration';
import { checkNotificationList, notificationAnnotations } from '../private/notifications';
import { SAFE_PROJECT } from '../private/synth-index';
import { runRules, unsuppressed } from '../rules/engine';
import { IArgoProject } from '../values/argo-project';
import { DestinationCluster } from '../values/destination-cluster';
import { NotificationSubscription } from '../values/notification';

/** What Argo CD reads as a pattern in a project: globs, brace sets, escapes and a leading "!" (deny). */
const GLOB = PROJECT_PATTERN;

/** Where a project's Applications may deploy to: one namespace of one cluster. */
export interface ProjectDestination {
  /** The namespace, exactly (no `*`). */
  readonly namespace: string;

  /**
   * The cluster.
   *
   * @default DestinationCluster.IN_CLUSTER
   */
  readonly cluster?: DestinationCluster;
}

/** A kind of cluster-scoped resource the project's Applications may manage. */
export interface ClusterResource {
  /** The API group, `''` for the core group. No `*`. */
  readonly group: string;
  /** The kind, e.g. `Namespace`. No `*`. */
  readonly kind: string;
}

/** The people who may use `override` (apply local manifests in place of Git), and why. */
export interface OverrideGrant {
  /** The SSO groups given `override`. */
  readonly groups: string[];
  /** Why this team needs to bypass Git; recorded on the AppProject. */
  readonly reason: string;
}

/** Whether a sync window lets syncs run or stops them. */
export enum SyncWindowKind {
  /** Syncs run only while an allow window is open (when the project has allow windows and no deny window is active). */
  ALLOW = 'allow',
  /** No sync runs while the window is open. */
  DENY = 'deny',
}

/**
 * A time when the project's Applications may, or may not, sync. A window applies to an Application when any of
 * its `applications`, `namespaces` or `clusters` patterns matches it; at least one list is required.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/sync_windows/
 */
export interface ProjectSyncWindow {
  /** Whether the window allows or denies syncs. */
  readonly kind: SyncWindowKind;

  /**
   * When the window opens, as five cron fields read in `timeZone`: minute, hour, day of month, month, day of
   * week (0 to 6 from Sunday, or `sun`-`sat`). E.g. `0 22 * * fri` for Friday 22:00.
   */
  readonly schedule: string;

  /** How long the window stays open after each start, in whole minutes (rendered as a Go duration, e.g. `2h30m`). */
  readonly duration: Duration;

  /**
   * The IANA time zone the schedule is read in, e.g. `Europe/Berlin`. Argo CD runs a window with an unknown zone in
   * UTC without refusing it; here it is refused.
   *
   * @default 'UTC'
   */
  readonly timeZone?: string;

  /**
   * Application name patterns (globs) the window applies to; `['*']` for every Application of the project.
   *
   * @default - none: the window applies through `namespaces` or `clusters`
   */
  readonly applications?: string[];

  /**
   * Destination namespace patterns (globs) the window applies to.
   *
   * @default - none: the window applies through `applications` or `clusters`
   */
  readonly namespaces?: string[];

  /**
   * Destination cluster patterns (globs, matched against the server URL and the cluster name) the window applies to.
   *
   * @default - none: the window applies through `applications` or `namespaces`
   */
  readonly clusters?: string[];

  /**
   * Whether manual syncs may run when the window would stop syncs (during a deny window, outside allow windows).
   * Keep it: the break-glass runbook's fix is a manual sync. `false` needs `manualSyncBlockedReason`.
   *
   * @default true
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/sync_windows/
   */
  readonly manualSync?: boolean;

  /**
   * Whether the window applies only to Applications that match each of the lists given (`applications`,
   * `namespaces`, `clusters`), instead of any one of them. Argo CD reads it from 3.0; for an older
   * `argoCdVersion` it is refused, since 2.14 would apply the window more widely than written.
   *
   * @default false - one list that matches is enough
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/sync_windows/
   */
  readonly andOperator?: boolean;

  /**
   * Why this window may block manual syncs too (with `manualSync: false`), recorded on the AppProject as the
   * reasoned suppression of the rule SA208 and stated in the runbooks of the Applications it applies to.
   *
   * @default - none: `manualSync: false` is refused
   */
  readonly manualSyncBlockedReason?: string;
}

/**
 * Props of a {@link SafeProject}.
 */
export interface SafeProjectProps {
  /** The AppProject's name: a DNS-1123 label, never `default`. */
  readonly name: string;

  /**
   * The Git or Helm repositories the project's Applications may read, exactly (no `*`).
   */
  readonly sourceRepos: string[];

  /** Where the project's Applications may deploy to (no `*` server or namespace). */
  readonly destinations: ProjectDestination[];

  /**
   * A sentence for the Argo CD UI.
   *
   * @default - none
   */
  readonly description?: string;

  /**
   * The cluster-scoped kinds the project's Applications may manage.
   *
   * @default - none: cluster-scoped resources are denied
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/projects/#managing-projects
   */
  readonly clusterResources?: ClusterResource[];

  /**
   * SSO groups of the developers: they may see and sync the project's Applications.
   *
   * @default - no developer role
   */
  readonly developerGroups?: string[];

  /**
   * SSO groups of the on-call engineers: like developers, and may also update an Application (to change
   * its sync policy for a break-glass, as the runbooks do).
   *
   * @default - no on-call role
   */
  readonly onCallGroups?: string[];

  /**
   * Give `override` (sync local manifests in place of Git) to some groups. Almost no one should have it:
   * it is the one way around Git that self-heal does not undo.
   *
   * @default - no role has `override`
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/rbac/
   */
  readonly overrideGrant?: OverrideGrant;

  /**
   * Who Argo CD Notifications tells about events of every Application of the project, as
   * `notifications.argoproj.io/subscribe.<trigger>.<service>` annotations on the AppProject.
   *
   * @default - none at the project (each Application's and argocd-notifications-cm's subscriptions still apply)
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/notifications/subscriptions/
   */
  readonly notifications?: NotificationSubscription[];

  /**
   * When the project's Applications may sync. Every window lets manual syncs through unless it says why not, so
   * that the break-glass fix can be synced at any hour. `description` (3.1+) and `syncOverrun` (3.5+) are not
   * offered yet.
   *
   * @default - none: Applications may sync at any time
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/sync_windows/
   */
  readonly syncWindows?: ProjectSyncWindow[];

  /**
   * The Argo CD release the AppProject is written for: a field the release lacks (a sync window's `andOperator`
   * before 3.0) is refused.
   *
   * @default ArgoCdVersion.LATEST
   */
  readonly argoCdVersion?: ArgoCdVersion;
}

/**
 * An Argo CD AppProject that bounds what its Applications may do: explicit source repositories and
 * destinations (no wildcards), cluster-scoped resources denied unless listed, orphaned resources monitored,
 * and roles for developers (get, sync) and on-call (get, sync, update) with no `override` unless a reasoned
 * grant asks for it. SafeApplications refer to it by type (`project: safeProject`) and are checked against
 * its destinations and repositories at synth.
 *
 * The GitOpsApp writes it next to the project's Applications, in `applications/<name>/`.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/projects/
 */
export class SafeProject extends Chart implements IArgoProject {
  /** Whether `x` is a SafeProject. */
  public static isSafeProject(x: unknown): x is SafeProject {
    return typeof x === 'object' && x !== null && SAFE_PROJECT in x;
  }

  /**
   * `instanceof SafeProject` (cdk8s's Chart would otherwise answer true for any chart).
   * @internal
   */
  static [Symbol.hasInstance](x: unknown): x is SafeProject {
    return SafeProject.isSafeProject(x);
  }

  /** The AppProject's name. */
  public readonly projectName: string;
  /** The repositories the project's Applications may read. */
  public readonly sourceRepos: string[];
  /** Where the project's Applications may deploy. */
  public readonly destinations: ProjectDestination[];
  /** The Argo CD release the AppProject is written for. */
  public readonly argoCdVersion: ArgoCdVersion;
  /** The sync windows, with their defaults (`timeZone` UTC, `manualSync` true) applied. */
  public readonly syncWindows: ProjectSyncWindow[];
  /** Who Argo CD Notifications tells about events of every Application of the project. */
  public readonly notifications: NotificationSubscription[];
  /** The AppProject object. */
  public readonly resource: ApiObject;

  private readonly props: SafeProjectProps;

  public constructor(scope: Construct, id: string, props: SafeProjectProps) {
    super(scope, id);
    Object.defineProperty(this, SAFE_PROJECT, { value: true });
    Object.defineProperty(this, GITOPS_PART, { value: true });
    this.props = props;

    if (typeof props.name !== 'string' || !isDns1123Label(props.name) || props.name === 'default') {
      throw badValue(props.name === 'default' ? ErrorCode.DEFAULT_PROJECT : ErrorCode.INVALID_NAME, this, 'name', props.name,
        'must be a DNS-1123 label other than "default"', 'name the project after the team, e.g. "payments"');
    }
    this.projectName = props.name;
    if (!Array.isArray(props.sourceRepos) || props.sourceRepos.length === 0) {
      throw badValue(ErrorCode.PROJECT_WILDCARD, this, 'sourceRepos', props.sourceRepos,
        'must list at least one repository', 'list the repositories the team\'s Applications read');
    }
    for (const repo of props.sourceRepos) {
      if (typeof repo !== 'string' || repo.trim() === '' || GLOB.test(repo)) {
        throw badValue(ErrorCode.PROJECT_WILDCARD, this, 'sourceRepos', repo,
          'must be one exact repository URL, without "*"', 'list each repository the team\'s Applications read');
      }
    }
    this.sourceRepos = [...props.sourceRepos];
    if (!Array.isArray(props.destinations) || props.destinations.length === 0) {
      throw badValue(ErrorCode.PROJECT_WILDCARD, this, 'destinations', props.destinations,
        'must list at least one destination', 'list the namespaces (and clusters) the team deploys to');
    }
    for (const d of props.destinations) {
      const cluster = d?.cluster?.server ?? d?.cluster?.name ?? '';
      if (GLOB.test(cluster)) {
        throw badValue(ErrorCode.PROJECT_WILDCARD, this, 'destinations[].cluster', cluster,
          'must be one exact cluster: Argo CD matches project destinations by glob', 'list each cluster the team deploys to');
      }
      if (typeof d?.namespace !== 'string' || !isDns1123Label(d.namespace)) {
        throw badValue(ErrorCode.PROJECT_WILDCARD, this, 'destinations[].namespace', d?.namespace,
          'must be one exact namespace (a DNS-1123 label, no "*")', 'list each namespace the team deploys to');
      }
    }
    this.destinations = props.destinations.map((d) => ({ namespace: d.namespace, cluster: d.cluster ?? DestinationCluster.IN_CLUSTER }));
    for (const r of props.clusterResources ?? []) {
      if (typeof r?.kind !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(r.kind) || typeof r.group !== 'string' || GLOB.test(r.group)) {
        throw badValue(ErrorCode.PROJECT_WILDCARD, this, 'clusterResources', r,
          'must name one concrete group and kind, without "*"', 'list each cluster-scoped kind, e.g. { group: "", kind: "Namespace" }');
      }
    }
    for (const [prop, groups] of [['developerGroups', props.developerGroups], ['onCallGroups', props.onCallGroups], ['overrideGrant.groups', props.overrideGrant?.groups]] as const) {
      for (const g of groups ?? []) {
        if (typeof g !== 'string' || g.trim() === '' || /[\s,*]/.test(g)) {
          throw badValue(ErrorCode.INVALID_NAME, this, prop, g,
            'must be an SSO group name without spaces, commas or "*"', 'use the group name as your identity provider sends it');
        }
      }
    }
    if (props.overrideGrant && (typeof props.overrideGrant.reason !== 'string' || props.overrideGrant.reason.trim().length < 10
      || props.overrideGrant.groups.length === 0)) {
      throw badValue(ErrorCode.INVALID_REASON, this, 'overrideGrant', props.overrideGrant,
        'must name at least one group and say, in at least 10 characters, why it may bypass Git', 'leave overrideGrant out unless a team truly needs to sync local manifests');
    }

    this.argoCdVersion = props.argoCdVersion ?? ArgoCdVersion.LATEST;
    this.syncWindows = checkSyncWindows(this, props.syncWindows, this.argoCdVersion);
    const blocking = this.syncWindows.flatMap((w, i) => (w.manualSync ? [] : [`window ${i} (${w.kind} ${w.schedule}): ${w.manualSyncBlockedReason!.trim()}`]));

    this.notifications = checkNotificationList(this, props.notifications);
    const annotations = {
      ...notificationAnnotations(this, this.notifications, (i) => `notifications[${i}]`),
      // A reasoned grant is recorded as the suppression the override rule (SA205) reads.
      ...(props.overrideGrant ? { [suppressionKey('SA205')]: props.overrideGrant.reason.trim() } : {}),
      // So is a window that blocks manual syncs (SA208), with the reason of each.
      ...(blocking.length > 0 ? { [suppressionKey('SA208')]: blocking.join('; ') } : {}),
    };

    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'AppProject',
      metadata: {
        name: this.projectName,
        namespace: 'argocd',
        ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      },
      spec: this.renderSpec(),
    });
    // The same rules audit runs, over the rendered AppProject (escape hatches included).
    this.node.addValidation({
      validate: () => unsuppressed(runRules({ resources: [this.resource.toJson()], argoCdVersion: this.argoCdVersion }))
        .map((f) => formatFinding(f, this.resource.node.path)),
    });
  }

  /** Whether an Application of this project may deploy to `namespace` on `cluster`. */
  public allowsDestination(namespace: string, cluster: DestinationCluster): boolean {
    const entries = this.destinations.map((d) => ({ namespace: d.namespace, server: d.cluster!.server, name: d.cluster!.name }));
    return destinationAllowed(entries, namespace, cluster.server, cluster.name);
  }

  /** Whether an Application of this project may read `repoUrl`. */
  public allowsSource(repoUrl: string): boolean {
    return sourceAllowed(this.sourceRepos, repoUrl);
  }

  /**
   * The same roles as global RBAC policy lines, for teams that keep RBAC in `argocd-rbac-cm`'s `policy.csv`
   * instead of in the AppProject.
   *
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/rbac/
   */
  public get rbacPolicyCsv(): string {
    const lines: string[] = [];
    for (const role of this.roles()) {
      const subject = `role:${this.projectName}-${role.name}`;
      for (const action of role.actions) {
        lines.push(`p, ${subject}, applications, ${action}, ${this.projectName}/*, allow`);
      }
      for (const group of role.groups) {
        lines.push(`g, ${group}, ${subject}`);
      }
    }
    return lines.join('\n') + (lines.length > 0 ? '\n' : '');
  }

  /** @internal */
  public _renderGitOpsFiles(layout: GitOpsLayout): PartFile[] {
    return [{ path: `${layout.applicationsFolder(this.projectName)}/AppProject.${this.projectName}${layout.extension}`, manifest: this.resource.toJson() }];
  }

  private roles(): { name: string; description: string; groups: string[]; actions: string[] }[] {
    const roles = [];
    if (this.props.developerGroups?.length) {
      roles.push({ name: 'developer', description: 'See and sync the project\'s Applications', groups: this.props.developerGroups, actions: ['get', 'sync'] });
    }
    if (this.props.onCallGroups?.length) {
      roles.push({
        name: 'oncall',
        description: 'See and sync, and update an Application to suspend or restore its sync policy (break-glass)',
        groups: this.props.onCallGroups,
        actions: ['get', 'sync', 'update'],
      });
    }
    if (this.props.overrideGrant) {
      roles.push({ name: 'override', description: `Sync local manifests in place of Git: ${this.props.overrideGrant.reason.trim()}`, groups: this.props.overrideGrant.groups, actions: ['get', 'override'] });
    }
    return roles;
  }

  private renderSpec(): Record<string, unknown> {
    return {
      ...(this.props.description ? { description: this.props.description } : {}),
      sourceRepos: this.sourceRepos,
      destinations: this.destinations.map((d) => ({
        namespace: d.namespace,
        ...(d.cluster!.server ? { server: d.cluster!.server } : { name: d.cluster!.name }),
      })),
      clusterResourceWhitelist: (this.props.clusterResources ?? []).map((r) => ({ group: r.group, kind: r.kind })),
      orphanedResources: { warn: true },
      roles: this.roles().map((r) => ({
        name: r.name,
        description: r.description,
        groups: r.groups,
        policies: r.actions.map((a) => `p, proj:${this.projectName}:${r.name}, applications, ${a}, ${this.projectName}/*, allow`),
      })),
      ...(this.syncWindows.length > 0 ? { syncWindows: this.syncWindows.map(renderSyncWindow) } : {}),
    };
  }
}

/** The windows with their defaults applied; throws on the first one Argo CD would refuse or misread. */
function checkSyncWindows(scope: Construct, windows: ProjectSyncWindow[] | undefined, version: ArgoCdVersion): ProjectSyncWindow[] {
  const seen = new Map<string, number>();
  return (windows ?? []).map((w, i) => {
    const prop = (field: string) => `syncWindows[${i}].${field}`;
    if (!Object.values(SyncWindowKind).includes(w?.kind)) {
      throw badValue(ErrorCode.INVALID_SYNC_WINDOW, scope, prop('kind'), w?.kind, 'must be SyncWindowKind.ALLOW or SyncWindowKind.DENY', 'say whether the window allows or denies syncs');
    }
    const scheduleProblem = typeof w.schedule === 'string' ? cronScheduleProblem(w.schedule) : 'is not a string';
    if (scheduleProblem !== undefined) {
      throw badValue(ErrorCode.INVALID_SYNC_WINDOW, scope, prop('schedule'), w.schedule,
        `must be five cron fields as Argo CD parses them: this one ${scheduleProblem}`, 'write minute hour day-of-month month day-of-week, e.g. "0 22 * * fri"');
    }
    const seconds = w.duration instanceof Duration ? w.duration.toSeconds() : NaN;
    if (!Number.isInteger(seconds / 60) || seconds <= 0) {
      throw badValue(ErrorCode.INVALID_SYNC_WINDOW, scope, prop('duration'), Number.isNaN(seconds) ? w.duration : `${seconds}s`,
        'must be a Duration of at least one whole minute', 'use e.g. Duration.hours(2)');
    }
    const timeZone = w.timeZone ?? 'UTC';
    const zoneProblem = typeof timeZone === 'string' ? timeZoneProblem(timeZone) : 'is not a string';
    if (zoneProblem !== undefined) {
      throw badValue(ErrorCode.INVALID_SYNC_WINDOW, scope, prop('timeZone'), timeZone,
        `must be an IANA time zone name: this one ${zoneProblem}`, 'use the name from the time zone database, e.g. "Europe/Berlin", or leave it out for UTC');
    }
    for (const field of ['applications', 'namespaces', 'clusters'] as const) {
      for (const pattern of w[field] ?? []) {
        if (typeof pattern !== 'string' || pattern.trim() === '' || /\s/.test(pattern) || !isValidGlob(pattern)) {
          throw badValue(ErrorCode.INVALID_SYNC_WINDOW, scope, prop(field), pattern,
            'must be a name or a glob Argo CD compiles, without spaces', 'use a name, or a pattern such as "checkout-*"');
        }
      }
    }
    if (!w.applications?.length && !w.namespaces?.length && !w.clusters?.length) {
      throw badValue(ErrorCode.INVALID_SYNC_WINDOW, scope, prop('applications'), w.applications,
        'or namespaces or clusters must list at least one pattern: Argo CD applies a window with none of them to no Application', 'use applications: ["*"] for every Application of the project');
    }
    if (w.andOperator === true && !hasFeature(version, 'syncWindowAndOperator')) {
      throw badValue(ErrorCode.INVALID_SYNC_WINDOW, scope, prop('andOperator'), w.andOperator,
        `is read from Argo CD 3.0; ${version.version} ignores it and applies the window to every Application that matches any one list`,
        'upgrade Argo CD to 3.0 or newer and set argoCdVersion, or leave andOperator out and narrow the lists');
    }
    const manualSync = w.manualSync ?? true;
    const reason = w.manualSyncBlockedReason;
    if (!manualSync && (typeof reason !== 'string' || reason.trim().length < 10)) {
      throw badValue(ErrorCode.INVALID_SYNC_WINDOW, scope, prop('manualSync'), w.manualSync,
        `must be true unless manualSyncBlockedReason says why in at least 10 characters: ${manualSyncBlocked({ kind: w.kind, schedule: w.schedule, manualSync })}`,
        'leave manualSync out (it defaults to true), or give manualSyncBlockedReason');
    }
    if (manualSync && reason !== undefined) {
      throw badValue(ErrorCode.INVALID_SYNC_WINDOW, scope, prop('manualSyncBlockedReason'), reason,
        'is only read with manualSync: false', 'remove manualSyncBlockedReason, or set manualSync: false if the window must block manual syncs too');
    }
    const window: ProjectSyncWindow = { ...w, timeZone, manualSync };
    // Argo CD tells windows apart without manualSync (SyncWindow.HashIdentity).
    const key = JSON.stringify({ ...renderSyncWindow(window), manualSync: undefined });
    if (seen.has(key)) {
      throw badValue(ErrorCode.DUPLICATE, scope, prop('schedule'), w.schedule,
        `must not repeat window ${seen.get(key)}, which has the same kind, schedule, duration, time zone and patterns`, 'remove one of the two windows');
    }
    seen.set(key, i);
    return window;
  });
}

/** A window as the AppProject's `spec.syncWindows` holds it, lists left out when empty. */
function renderSyncWindow(w: ProjectSyncWindow): Record<string, unknown> {
  return {
    kind: w.kind,
    schedule: w.schedule.trim().split(/\s+/).join(' '),
    duration: goDuration(w.duration),
    timeZone: w.timeZone,
    ...(w.applications?.length ? { applications: [...w.applications] } : {}),
    ...(w.namespaces?.length ? { namespaces: [...w.namespaces] } : {}),
    ...(w.clusters?.length ? { clusters: [...w.clusters] } : {}),
    manualSync: w.manualSync,
    // Written only when set: 2.14's CRD has no such field.
    ...(w.andOperator === true ? { andOperator: true } : {}),
  };
}
