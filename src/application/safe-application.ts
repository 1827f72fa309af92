import { ApiObject, Chart, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { BreakGlass } from './break-glass';
import { ExternalSource, HelmChartOptions } from './external-source';
import { GitOpsApp } from './gitops-app';
import { KustomizeOptions, kustomizeImageOverride } from './kustomize-options';
import { renderRunbook } from './runbook';
import { Suppression, Suppressions } from './suppression';
import { BREAK_GLASS_EXPIRES_ANNOTATION, BREAK_GLASS_REASON_ANNOTATION, BREAK_GLASS_TICKET_ANNOTATION, IGNORE_REASONS_ANNOTATION, SKIP_RECONCILE_ANNOTATION, SYNC_WAVE_ANNOTATION } from '../core/annotations';
import { hasFeature } from '../core/argocd-features';
import { ArgoCdVersion } from '../core/argocd-version';
import { isCalendarDate } from '../core/break-glass';
import { badValue, ErrorCode } from '../core/errors';
import { isApplication, Manifest } from '../core/manifest';
import { refusedRevisionProblem } from '../core/revisions';
import { isBuildEnvironmentVariable, repositoryKey, valueFileRef } from '../core/source-paths';
import { suppressionsOf } from '../core/suppressions';
import { syncWindowsOf, windowApplies } from '../core/sync-windows';
import { ApplicationSpec, ApplicationSpecSyncPolicy, toJson_ApplicationSpec, toJson_ApplicationSpecSyncPolicy } from '../imports/application-argoproj.io';
import { checkIgnoreRule, checkLabel, checkProject, checkRepoUrl } from '../private/app-checks';
import { nameFiles } from '../private/file-names';
import { formatFinding } from '../private/format';
import { GITOPS_PART, GitOpsLayout, PartFile } from '../private/gitops-part';
import { HardenedHelm, HardenedKustomize, HardenedRefSource, hardenedAnnotations, hardenedFinalizers, hardenedSpec, jqProblems } from '../private/hardened-application';
import { readHelmValues } from '../private/helm-values';
import { checkNotificationList, failureSubscriptions, notificationAnnotations } from '../private/notifications';
import { renderSyncOptions, renderSyncPolicy, ResolvedRetry, resolveRetry } from '../private/sync-policy';
import { asSafeProject, manifestOf, ProjectGate, nearestApplication, SAFE_APPLICATION, SynthIndex, synthIndexOf } from '../private/synth-index';
import { runRules, unsuppressed } from '../rules/engine';
import { IArgoProject } from '../values/argo-project';
import { DeletionPolicy } from '../values/deletion-policy';
import { DestinationCluster } from '../values/destination-cluster';
import { IgnoreRule } from '../values/ignore-rule';
import { IgnoreTarget } from '../values/ignore-target';
import type { KnownFieldOwner } from '../values/known-field-owner';
import { FailureNotice, FailureNoticeKind, NotificationSubscription, NotificationTrigger } from '../values/notification';
import { RetryOptions } from '../values/retry-options';

/**
 * Props of a {@link SafeApplication}.
 */
export interface SafeApplicationProps {
  /**
   * The Application's name in Argo CD. Explicit, because renaming an Application makes Argo CD
   * delete and recreate it: a DNS-1123 label (lowercase letters, digits, `-`, at most 63 characters,
   * as Argo CD's tracking label requires).
   */
  readonly name: string;

  /**
   * The AppProject the app belongs to. Never `default`, which allows every repository, destination and kind.
   *
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/projects/
   */
  readonly project: IArgoProject;

  /**
   * The repository Argo CD reads: for rendered workloads, the Git repository this synth's output is
   * committed to; for an external source, that source's Git or Helm repository.
   */
  readonly repoUrl: string;

  /**
   * The namespace the workloads are deployed to. Workloads defined in this app get it as their default
   * namespace, and Argo CD creates it (`CreateNamespace=true`).
   */
  readonly destinationNamespace: string;

  /**
   * The cluster the workloads are deployed to.
   *
   * @default DestinationCluster.IN_CLUSTER - the cluster Argo CD runs in
   */
  readonly destinationCluster?: DestinationCluster;

  /**
   * The branch, tag or commit Argo CD tracks; for a Helm chart, the exact chart version (required then).
   * `HEAD`, an empty value and chart version ranges are refused: they follow whatever someone else decides.
   *
   * @default 'main'
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/tracking_strategies/
   */
  readonly targetRevision?: string;

  /**
   * Deploy manifests that this synth does not render: a Git directory or a Helm chart.
   * An app with an external source holds no workloads of its own.
   *
   * @default - the workloads defined inside this app, written by the GitOpsApp into its workloads folder,
   * which becomes `source.path`
   */
  readonly externalSource?: ExternalSource;

  /**
   * Git repositories the app reads Helm value files from, each an `ExternalSource.gitRef`: the chart of
   * `externalSource` (from a Helm repository, or in a Git folder) names their files as `$<ref>/<path>` in its
   * `valueFiles`. With any, the Application has `spec.sources` (the chart first, then these) instead of
   * `spec.source`. Each ref must be named by a value file, each value file's ref must be here, and each repository
   * must be allowed by the project; two refs of one repository must read the same revision, as Argo CD requires.
   *
   * @default - none: the Application has one source, `spec.source`
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/multiple_sources/
   */
  readonly additionalSources?: ExternalSource[];

  /**
   * The Argo CD release the Application is rendered for. Fields the release lacks are not emitted.
   *
   * @default ArgoCdVersion.LATEST
   */
  readonly argoCdVersion?: ArgoCdVersion;

  /**
   * The namespace of the Application object itself: where Argo CD looks for Applications.
   *
   * @default 'argocd'
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/app-any-namespace/
   */
  readonly applicationNamespace?: string;

  /**
   * How a failed sync is retried. Always on; only the bounds can be tuned.
   *
   * @default - limit 5, backoff 5s, factor 2, maxDuration 3m
   */
  readonly retry?: RetryOptions;

  /**
   * What deleting the Application object does to the resources it deployed.
   *
   * @default DeletionPolicy.ORPHAN - no resources finalizer: a hand deletion of the Application at 2 a.m.
   * does not cascade into deleting production
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/app_deletion/
   */
  readonly deletionPolicy?: DeletionPolicy;

  /**
   * Suspend the app declaratively, with a reason and an expiry that audit enforces: Argo CD stops
   * reconciling it (`argocd.argoproj.io/skip-reconcile`) while the full sync policy stays declared. Prefer the
   * generated runbook (`runbooks/<app>.md`) for a 2 a.m. incident; use this when the suspension must be
   * reviewed in Git.
   *
   * @default - no break-glass: automated sync with prune and self-heal
   */
  readonly breakGlass?: BreakGlass;

  /**
   * Fields that belong to someone other than Git. More can be added with `addIgnoreRule`, and workloads
   * inside the app add their own. Any rule also turns on `RespectIgnoreDifferences=true`.
   *
   * @default - none
   */
  readonly ignoreRules?: IgnoreRule[];
  /**
   * Who Argo CD Notifications tells about this Application's events, as
   * `notifications.argoproj.io/subscribe.<trigger>.<service>` annotations. More can be added with
   * `addNotification`; a SafeProject's `notifications` reach every Application of the project.
   *
   * @default - none on the Application (the project's and argocd-notifications-cm's subscriptions still apply)
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/notifications/subscriptions/
   */
  readonly notifications?: NotificationSubscription[];
}

/**
 * An Argo CD Application with a hardened sync policy, and the chart its workloads are defined in.
 *
 * The Application always has automated sync with prune and selfHeal, never allowEmpty, a bounded retry
 * with exponential backoff, and the sync options CreateNamespace, PruneLast and ApplyOutOfSyncOnly;
 * RespectIgnoreDifferences is added whenever it has an ignore rule. None of this can be switched off
 * by a prop. When synthesized, the app checks its own rendered manifests (Application and workloads)
 * against every rule in RULES.md, so escape hatches such as `ApiObject.of(app).addJsonPatch(...)` are
 * caught too.
 *
 * The Application object is the child `Resource` (`ApiObject.of(app)`).
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/auto_sync/
 */
export class SafeApplication extends Chart {
  /** Whether `x` is a SafeApplication. */
  public static isSafeApplication(x: unknown): x is SafeApplication {
    return typeof x === 'object' && x !== null && SAFE_APPLICATION in x;
  }

  /**
   * `instanceof SafeApplication` (cdk8s's Chart would otherwise answer true for any chart).
   * @internal
   */
  static [Symbol.hasInstance](x: unknown): x is SafeApplication {
    return SafeApplication.isSafeApplication(x);
  }

  /**
   * The SafeApplication that `scope` is defined in.
   *
   * @throws when `scope` is not inside a SafeApplication
   */
  public static enclosing(scope: IConstruct): SafeApplication {
    const found = nearestApplication(scope);
    if (found) {
      return found as SafeApplication;
    }
    throw badValue(ErrorCode.WRONG_SCOPE, scope, 'scope', scope.node.path || '<root>',
      'is not inside a SafeApplication', 'define the construct inside the SafeApplication that deploys it: new X(app, \'id\', {...})');
  }

  /** The Application's name. */
  public readonly applicationName: string;
  /** The AppProject's name. */
  public readonly projectName: string;
  /** The repository Argo CD reads. */
  public readonly repoUrl: string;
  /** The revision Argo CD tracks. */
  public readonly targetRevision: string;
  /** The namespace the workloads are deployed to. */
  public readonly destinationNamespace: string;
  /** The namespace of the Application object. */
  public readonly applicationNamespace: string;
  /** The Argo CD release the Application is rendered for. */
  public readonly argoCdVersion: ArgoCdVersion;
  /** What deleting the Application does to its resources. */
  public readonly deletionPolicy: DeletionPolicy;
  /**
   * The directory Argo CD reads, relative to the repository root; undefined for a Helm chart source.
   * For rendered workloads this is the folder the GitOpsApp writes them to.
   */
  public readonly sourcePath?: string;
  /** The external source, if the app has one. */
  public readonly externalSource?: ExternalSource;
  /** The ref sources the app reads Helm value files from, in `spec.sources` after the chart; empty for a single-source app. */
  public readonly additionalSources: ExternalSource[];
  /** The Application object. */
  public readonly resource: ApiObject;
  /** The declarative break-glass, when the app is suspended through Git. */
  public readonly breakGlass?: BreakGlass;

  private readonly destinationCluster: DestinationCluster;
  private readonly project: IArgoProject;
  private readonly retry: ResolvedRetry;
  private readonly rules: IgnoreRule[] = [];
  private readonly waves = new Map<ApiObject, number>();
  private subscriptions: NotificationSubscription[] = [];
  private failureNotices: { where: IConstruct; notice: FailureNotice }[] = [];
  /** The `on-sync-failed` subscriptions the failure notices add, as last rendered. */
  private addedFailureSubscriptions: NotificationSubscription[] = [];

  public constructor(scope: Construct, id: string, props: SafeApplicationProps) {
    super(scope, id, { namespace: props.destinationNamespace });
    Object.defineProperty(this, SAFE_APPLICATION, { value: true });
    Object.defineProperty(this, GITOPS_PART, { value: true });

    this.applicationName = checkLabel(this, 'name', props.name, 'the Application\'s name');
    this.projectName = checkProject(this, props.project);
    this.project = props.project;
    this.repoUrl = checkRepoUrl(this, props.repoUrl);
    this.destinationNamespace = checkLabel(this, 'destinationNamespace', props.destinationNamespace, 'a namespace name');
    this.applicationNamespace = checkLabel(this, 'applicationNamespace', props.applicationNamespace ?? 'argocd', 'a namespace name');
    this.argoCdVersion = props.argoCdVersion ?? ArgoCdVersion.LATEST;
    this.deletionPolicy = props.deletionPolicy ?? DeletionPolicy.ORPHAN;
    if (props.destinationCluster !== undefined && !(props.destinationCluster instanceof DestinationCluster)) {
      throw badValue(ErrorCode.INVALID_URL, this, 'destinationCluster', props.destinationCluster,
        'must be built with DestinationCluster.IN_CLUSTER, fromServer or fromName', 'use DestinationCluster.fromServer(\'https://...\') or DestinationCluster.fromName(\'prod\')');
    }
    this.destinationCluster = props.destinationCluster ?? DestinationCluster.IN_CLUSTER;
    this.externalSource = props.externalSource;
    if (props.externalSource !== undefined && (!(props.externalSource instanceof ExternalSource) || props.externalSource.ref !== undefined)) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, this, 'externalSource', props.externalSource?.ref ?? props.externalSource,
        'must be built with ExternalSource.gitPath or ExternalSource.helmChart: a gitRef source renders nothing', 'give the chart or folder as externalSource, and the gitRef in additionalSources');
    }
    this.targetRevision = checkRevision(this, props.targetRevision, props.externalSource?.chart !== undefined);
    this.additionalSources = checkAdditionalSources(this, props.additionalSources, props.externalSource,
      props.externalSource?.chart === undefined ? { repoUrl: this.repoUrl, revision: this.targetRevision } : undefined);

    this.breakGlass = props.breakGlass === undefined ? undefined : checkBreakGlass(this, props.breakGlass);
    this.retry = resolveRetry(this, props.retry ?? {});

    if (props.externalSource) {
      this.sourcePath = props.externalSource.path;
    } else {
      const gitops = GitOpsApp.findRoot(this);
      if (!gitops) {
        throw badValue(ErrorCode.WRONG_SCOPE, this, 'scope', this.node.root.node.path || '<root>',
          'is not a GitOpsApp, so nothing writes the workloads where source.path can point', 'create the app inside `new GitOpsApp()`, or give it an externalSource');
      }
      this.sourcePath = gitops.workloadPathFor(this.applicationName);
    }

    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: {
        name: this.applicationName,
        namespace: this.applicationNamespace,
        finalizers: hardenedFinalizers(this.deletionPolicy),
      },
      spec: Lazy.any({ produce: () => toJson_ApplicationSpec(this.renderSpec()) }),
    });
    if (this.breakGlass) {
      // Argo CD stops reconciling the Application while this is set; the full sync policy stays declared,
      // so lifting the break-glass in Git restores it as it was (no argo-cd #23330), through any root.
      this.resource.metadata.addAnnotation(SKIP_RECONCILE_ANNOTATION, 'true');
      this.resource.metadata.addAnnotation(BREAK_GLASS_REASON_ANNOTATION, this.breakGlass.reason);
      this.resource.metadata.addAnnotation(BREAK_GLASS_EXPIRES_ANNOTATION, this.breakGlass.expires);
      if (this.breakGlass.ticket) {
        this.resource.metadata.addAnnotation(BREAK_GLASS_TICKET_ANNOTATION, this.breakGlass.ticket);
      }
    }
    // Rendered late, so that rules added after construction still show; the rest is known now.
    this.resource.metadata.addAnnotation(IGNORE_REASONS_ANNOTATION, Lazy.any({
      produce: () => hardenedAnnotations(this.allRules(), this.deletionPolicy)?.[IGNORE_REASONS_ANNOTATION],
    }) as unknown as string);
    for (const [key, value] of Object.entries(hardenedAnnotations([], this.deletionPolicy) ?? {})) {
      this.resource.metadata.addAnnotation(key, value);
    }

    for (const rule of props.ignoreRules ?? []) {
      checkIgnoreRule(this, 'ignoreRules', rule, 'IgnoreTarget.fromApiObject(x)');
      this.addIgnoreRule(rule);
    }
    this.setNotifications(checkNotificationList(this, props.notifications), (i) => `notifications[${i}]`);
    this.node.addValidation({ validate: () => this.validateApp() });
  }

  /** The ignore rules of this app, in the order they were added, duplicates included once. */
  public get ignoreRules(): IgnoreRule[] {
    return this.allRules();
  }

  /**
   * The sync options the Application carries. ApplyOutOfSyncOnly is left out when the app orders resources
   * in sync waves: with it, a sync leaves out the resources already in sync, so a wave does not wait for those
   * of earlier waves to be healthy.
   */
  public get syncOptions(): string[] {
    return renderSyncOptions({ hasIgnoreRules: this.allRules().length > 0, usesSyncWaves: this.waves.size > 0 });
  }

  /**
   * Subscribes recipients to a trigger of this Application. Recipients of the same trigger and service are
   * joined into one annotation; a recipient subscribed twice is refused.
   */
  public addNotification(subscription: NotificationSubscription): void {
    const added = this.subscriptions.length;
    this.setNotifications([...this.subscriptions, subscription], (i) => (i === added ? 'subscription' : `notifications[${i}]`));
  }

  /**
   * Who is told when a migration of this app fails: MigrationHook calls this. The `on-sync-failed` subscriptions
   * it adds follow later `addNotification` calls too.
   *
   * @internal
   */
  public _addFailureNotice(where: IConstruct, notice: FailureNotice): void {
    if (!(notice instanceof FailureNotice)) {
      throw badValue(ErrorCode.INVALID_NOTIFICATION, where, 'onFailure', notice,
        'must be a FailureNotice', 'use FailureNotice.onCall(), FailureNotice.to(service, recipients) or FailureNotice.subscribedElsewhere(reason)');
    }
    if (notice.kind === FailureNoticeKind.RECIPIENTS) {
      // Checked on its own first, so that an error names the hook's prop.
      notificationAnnotations(where, [{ trigger: NotificationTrigger.ON_SYNC_FAILED, service: notice.service!, recipients: notice.recipients }], () => 'onFailure');
    }
    this.failureNotices = [...this.failureNotices, { where, notice }];
    this.setNotifications(this.subscriptions, (i) => `notifications[${i}]`);
  }

  /** Checks and renders all subscriptions at once (with the failure notices' ones), so that a refused one changes nothing. */
  private setNotifications(subscriptions: NotificationSubscription[], propOf: (index: number) => string): void {
    const added = failureSubscriptions(this.failureNotices.map((n) => n.notice), subscriptions, asSafeProject(this.project)?.notifications ?? []);
    const annotations = notificationAnnotations(this, [...subscriptions, ...added], propOf) ?? {};
    for (const [key, value] of Object.entries(annotations)) {
      this.resource.metadata.addAnnotation(key, value);
    }
    this.subscriptions = subscriptions;
    this.addedFailureSubscriptions = added;
  }

  /**
   * Why a failed migration of this app would notify nobody, if it would: an on-call notice while neither the
   * Application nor its project subscribes anyone to `on-sync-failed`.
   */
  private unnotifiedMigration(project: ProjectGate | undefined): string[] {
    const onCall = this.failureNotices.find((n) => n.notice.kind === FailureNoticeKind.ON_CALL);
    if (!onCall) {
      return [];
    }
    const failed = (subs: readonly NotificationSubscription[]) => subs.some((s) => s.trigger.name === NotificationTrigger.ON_SYNC_FAILED.name);
    if (this.addedFailureSubscriptions.length > 0 || failed(this.subscriptions) || failed(project?.notifications ?? [])) {
      return [];
    }
    return [`[${ErrorCode.UNNOTIFIED_MIGRATION}] ${onCall.where.node.path}: onFailure is FailureNotice.onCall(), but app ${this.applicationName} `
      + `and its project ${this.projectName} notify nobody, so a failed migration would stop every deploy of the app without telling anyone. `
      + 'Fix: give the app (or its SafeProject) notifications, e.g. [{ trigger: NotificationTrigger.ON_SYNC_FAILED, service: \'slack\', recipients: [\'payments-oncall\'] }], '
      + 'or set onFailure: FailureNotice.to(service, recipients), or FailureNotice.subscribedElsewhere(reason) when argocd-notifications-cm subscribes every Application.'];
  }

  /**
   * Adds an ignore rule. A rule identical to one already present (same resource, same field) is merged
   * into it, keeping both reasons; workloads inside the app call this for the fields their controllers own.
   */
  public addIgnoreRule(rule: IgnoreRule): void {
    this.rules.push(checkIgnoreRule(this, 'rule', rule, 'IgnoreTarget.fromApiObject(x)'));
  }

  /**
   * Declares that a controller other than Argo CD writes some fields of one resource, and adds the
   * exact ignore rules for them (see `KnownFieldOwner`).
   *
   * @param target the resource the owner writes to, e.g. `IgnoreTarget.fromApiObject(webhookConfig)`
   * @param owner the controller, e.g. `KnownFieldOwner.certManagerCaInjector()`
   */
  public addFieldOwner(target: IgnoreTarget, owner: KnownFieldOwner): void {
    for (const rule of owner.ignoreRulesFor(target)) {
      this.addIgnoreRule(rule);
    }
  }

  /**
   * Puts one resource of this app into a sync wave (`argocd.argoproj.io/sync-wave`). Waves order the
   * Sync phase but are not transactional: a later wave is not rolled back when an earlier one fails.
   * Jobs and Pods are refused; a migration that must finish before new code runs is a MigrationHook.
   * Once any resource is in a wave, the Application drops ApplyOutOfSyncOnly, with which a wave does not
   * wait for the resources of earlier waves that are already in sync.
   *
   * @param resource an ApiObject of this app, or a construct whose default child is one
   * @param wave the wave, an integer; lower waves are applied first, the default wave is 0
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/sync-waves/
   */
  public addToSyncWave(resource: IConstruct, wave: number): void {
    const obj = ApiObject.of(resource);
    if (SafeApplication.enclosing(obj) !== this) {
      throw badValue(ErrorCode.WRONG_SCOPE, this, 'resource', obj.node.path,
        'is not a resource of this app', 'put resources into waves of the app that deploys them');
    }
    if (obj.kind === 'Job' || obj.kind === 'Pod') {
      throw badValue(ErrorCode.INVALID_SYNC_WAVE, this, 'resource', `${obj.kind} ${obj.name}`,
        'is a Job or Pod: in a wave it gives no guarantee that it finished before later waves, and a failure is not rolled back', 'run a migration as a MigrationHook (a PreSync hook, which stops the sync when it fails)');
    }
    if (!Number.isInteger(wave) || Math.abs(wave) > 1000) {
      throw badValue(ErrorCode.INVALID_SYNC_WAVE, this, 'wave', wave,
        'must be a whole number from -1000 to 1000', 'use small integers, e.g. -1 for resources that must come first');
    }
    if (this.waves.has(obj)) {
      throw badValue(ErrorCode.DUPLICATE, this, 'resource', obj.node.path,
        `is already in wave ${this.waves.get(obj)}`, 'put each resource into one wave');
    }
    this.waves.set(obj, wave);
    obj.metadata.addAnnotation(SYNC_WAVE_ANNOTATION, String(wave));
  }

  /**
   * Accepts one rule's finding on the Application object, with a reason recorded on it.
   */
  public addSuppression(suppression: Suppression): void {
    Suppressions.add(this.resource, suppression);
  }

  /**
   * The files this app adds to the GitOps tree: its Application in its project's folder, and its workloads
   * in its own folder (the Application's source.path).
   * @internal
   */
  public _renderGitOpsFiles(layout: GitOpsLayout): PartFile[] {
    const files: PartFile[] = [{
      path: `${this._applicationFolder(layout)}/Application.${this.applicationName}${layout.extension}`,
      manifest: manifestOf(this.resource),
    }];
    for (const [name, manifest] of nameFiles(this.workloadObjects(), layout.extension, manifestOf)) {
      files.push({ path: `${layout.workloadsFolder(this.applicationName)}/${name}`, manifest });
    }
    const runbook = this._runbook();
    if (runbook !== undefined) {
      files.push({ path: `${layout.runbooksFolder}/${this.applicationName}.md`, text: runbook });
    }
    return files;
  }

  /**
   * The break-glass runbook of this app, or undefined for an app that is never suspended (a root).
   * @internal
   */
  public _runbook(): string | undefined {
    // During a synth the index knows the roots; a walk of the whole tree per app would make synth quadratic.
    const index = synthIndexOf(this) ?? new SynthIndex(this.node.root);
    const root = index.rootsOf(this.projectName)[0];
    const project = asSafeProject(this.project) ?? asSafeProject(index.projectNamed(this.projectName));
    const projectManifest = project ? manifestOf(project.resource) as Manifest : undefined;
    const subject = {
      name: this.applicationName,
      namespace: this.destinationNamespace,
      server: this.destinationCluster.server,
      clusterName: this.destinationCluster.name,
    };
    return renderRunbook({
      name: this.applicationName,
      applicationNamespace: this.applicationNamespace,
      project: this.projectName,
      repoUrl: this.repoUrl,
      path: this.sourcePath,
      targetRevision: this.targetRevision,
      refSources: this.refSources(),
      destinationNamespace: this.destinationNamespace,
      syncPolicy: toJson_ApplicationSpecSyncPolicy(this.renderSyncPolicy(true)) as Record<string, unknown>,
      root: root ? (root as unknown as SafeApplication).applicationName : undefined,
      declarativeBreakGlass: this.breakGlass !== undefined,
      syncWindows: projectManifest
        ? syncWindowsOf(projectManifest).filter((w) => windowApplies(w, subject, hasFeature(this.argoCdVersion, 'syncWindowAndOperator')))
        : undefined,
      manualSyncBlockedReason: projectManifest ? suppressionsOf(projectManifest).get('SA208') : undefined,
    });
  }

  /**
   * The folder the Application file goes to: its project's folder.
   * @internal
   */
  public _applicationFolder(layout: GitOpsLayout): string {
    return layout.applicationsFolder(this.projectName);
  }

  /**
   * The objects this app deploys: every ApiObject in it but the Application. For the GitOpsApp's writer.
   * @internal
   */
  public _workloadObjects(): ApiObject[] {
    return this.workloadObjects();
  }

  private workloadObjects(): ApiObject[] {
    const index = synthIndexOf(this);
    if (index) {
      return index.objectsOf(this).filter((o) => o !== this.resource);
    }
    return this.node.findAll()
      .filter((c): c is ApiObject => ApiObject.isApiObject(c))
      .filter((o) => o !== this.resource && nearestApplication(o) === this);
  }

  private renderSpec(): ApplicationSpec {
    return hardenedSpec({
      project: this.projectName,
      repoUrl: this.repoUrl,
      targetRevision: this.targetRevision,
      path: this.sourcePath,
      chart: this.externalSource?.chart,
      helm: hardenedHelm(this.externalSource?.helm),
      kustomize: hardenedKustomize(this.externalSource?.kustomize),
      refSources: this.refSources(),
      server: this.destinationCluster.server,
      clusterName: this.destinationCluster.name,
      namespace: this.destinationNamespace,
      ignoreRules: this.allRules(),
      deletionPolicy: this.deletionPolicy,
      argoCdVersion: this.argoCdVersion,
      retry: this.retry,
      usesSyncWaves: this.waves.size > 0,
    });
  }

  /** The ref sources as the renderer and the runbook take them. */
  private refSources(): HardenedRefSource[] {
    return this.additionalSources.map((s) => ({ ref: s.ref as string, repoUrl: s.repoUrl as string, targetRevision: s.targetRevision as string }));
  }

  /** The sync policy; `automated` is left out while a declarative break-glass suspends the app. */
  private renderSyncPolicy(automated: boolean): ApplicationSpecSyncPolicy {
    return renderSyncPolicy({
      argoCdVersion: this.argoCdVersion,
      hasIgnoreRules: this.allRules().length > 0,
      usesSyncWaves: this.waves.size > 0,
      automated,
      retry: this.retry,
    });
  }

  /**
   * Ignore rules a subclass derives late, from the rest of the tree (an app-of-apps root's rules for its children).
   */
  protected additionalIgnoreRules(): IgnoreRule[] {
    return [];
  }

  private allRules(): IgnoreRule[] {
    return [...this.rules, ...this.additionalIgnoreRules()];
  }

  private validateApp(): string[] {
    const errors: string[] = [];
    const workloads = this.workloadObjects();
    if (this.externalSource && workloads.length > 0) {
      errors.push(`[${ErrorCode.SOURCE_CONFLICT}] the app deploys an external source, but ${workloads.length} object(s) are defined in it `
        + `(${workloads.slice(0, 3).map((o) => o.node.path).join(', ')}); Argo CD would never deploy them. `
        + 'Fix: move them into an app without externalSource, or remove externalSource.');
    }
    if (!this.externalSource && workloads.length === 0) {
      errors.push(`[${ErrorCode.NOTHING_TO_DEPLOY}] the app defines no workloads, so its source folder would be empty and `
        + 'Argo CD would refuse to sync it (allowEmpty is false). Fix: define workloads inside the app, or give it an externalSource.');
    }
    // A project named with ArgoProject.fromName is checked too when this app defines it as a SafeProject.
    const named = (synthIndexOf(this) ?? new SynthIndex(this.node.root)).projectNamed(this.projectName);
    const project = asSafeProject(this.project) ?? asSafeProject(named);
    errors.push(...this.unnotifiedMigration(project));
    if (project) {
      if (!project.allowsDestination(this.destinationNamespace, this.destinationCluster)) {
        errors.push(`[${ErrorCode.DESTINATION_NOT_ALLOWED}] project ${this.projectName} does not allow the destination namespace `
          + `${JSON.stringify(this.destinationNamespace)} on ${this.destinationCluster.server ?? this.destinationCluster.name}; Argo CD would refuse to sync. `
          + 'Fix: add the destination to the SafeProject, or deploy to one of its destinations.');
      }
      for (const repoUrl of new Set([this.repoUrl, ...this.additionalSources.map((s) => s.repoUrl as string)])) {
        if (!project.allowsSource(repoUrl)) {
          errors.push(`[${ErrorCode.DESTINATION_NOT_ALLOWED}] project ${this.projectName} does not allow the repository ${JSON.stringify(repoUrl)}; `
            + 'Argo CD would refuse to sync. Fix: add it to the SafeProject\'s sourceRepos.');
        }
      }
    }
    // Rendered once per synth: the files written are these same manifests.
    const objects = new Map<Manifest, ApiObject>();
    const application = manifestOf(this.resource) as Manifest;
    objects.set(application, this.resource);
    const resources = workloads.map((o) => {
      const manifest = manifestOf(o) as Manifest;
      objects.set(manifest, o);
      return manifest;
    });
    errors.push(...jqProblems(this.allRules(), `Application ${this.applicationName}`, resources));
    const today = new Date().toISOString().slice(0, 10);
    const findings = runRules({ application, resources, argoCdVersion: this.argoCdVersion, today });
    // Applications this app deploys (an app-of-apps, or a raw ApiObject) are checked as Applications too.
    for (const child of resources.filter(isApplication)) {
      findings.push(...runRules({ application: child, resources: [], argoCdVersion: this.argoCdVersion, today }));
    }
    for (const f of unsuppressed(findings)) {
      errors.push(formatFinding(f, (objects.get(f.object) ?? this).node.path));
    }
    return errors;
  }
}


function checkRevision(scope: IConstruct, revision: string | undefined, isHelmChart: boolean): string {
  if (revision === undefined && !isHelmChart) {
    return 'main';
  }
  const problem = refusedRevisionProblem(revision, isHelmChart);
  if (problem) {
    throw badValue(ErrorCode.INVALID_REVISION, scope, 'targetRevision', revision,
      `is refused: ${problem}`, isHelmChart ? 'give one exact chart version, e.g. "4.11.3"' : 'name the branch, tag or commit to track, e.g. "main"');
  }
  return (revision as string).trim();
}

/**
 * The ref sources, checked against each other and against the value files of `primary` that name a ref: each a
 * gitRef, each ref once and named by a value file, each value file's ref among them, one revision per repository
 * (Argo CD's repo server refuses two revisions of one repository: "cannot reference multiple revisions", and, for
 * a chart in Git, "cannot reference a different revision of the same repository" as the app's).
 *
 * @param git the repository and revision of the app's own Git source; undefined for a chart from a Helm repository
 */
function checkAdditionalSources(scope: IConstruct, sources: ExternalSource[] | undefined, primary: ExternalSource | undefined,
  git: { repoUrl: string; revision: string } | undefined): ExternalSource[] {
  if (sources !== undefined && !Array.isArray(sources)) {
    throw badValue(ErrorCode.SOURCE_CONFLICT, scope, 'additionalSources', sources, 'must be a list of ExternalSource.gitRef sources',
      'give e.g. [ExternalSource.gitRef(\'values\', { repoUrl: \'https://git.example.com/platform/values.git\' })]');
  }
  const list = sources ?? [];
  const byRef = new Map<string, ExternalSource>();
  const revisionOf = new Map<string, { ref: string; revision: string }>();
  list.forEach((source, i) => {
    if (!(source instanceof ExternalSource) || source.ref === undefined) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, scope, `additionalSources[${i}]`, source?.chart ?? source?.path ?? source,
        'must be built with ExternalSource.gitRef: an additional source is read for Helm value files only', 'give the chart or folder as externalSource, and ExternalSource.gitRef(\'values\', { repoUrl }) here');
    }
    if (byRef.has(source.ref)) {
      throw badValue(ErrorCode.DUPLICATE, scope, `additionalSources[${i}].ref`, source.ref, 'is the ref of an earlier source too, and Argo CD refuses a ref given twice', 'give each ref source its own name');
    }
    byRef.set(source.ref, source);
    const key = repositoryKey(source.repoUrl as string);
    if (git && repositoryKey(git.repoUrl) === key && git.revision !== source.targetRevision) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, scope, `additionalSources[${i}].targetRevision`, source.targetRevision,
        `differs from the app's targetRevision ${JSON.stringify(git.revision)} of the same repository, and Argo CD refuses a ref source at another revision of the app's own repository`,
        'read the value files at the app\'s targetRevision, or name them relative to the chart folder without a ref source');
    }
    const earlier = revisionOf.get(key);
    if (earlier && earlier.revision !== source.targetRevision) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, scope, `additionalSources[${i}].targetRevision`, source.targetRevision,
        `differs from ${JSON.stringify(earlier.revision)} of ref ${JSON.stringify(earlier.ref)} of the same repository, and Argo CD refuses two revisions of one repository`,
        'read both refs at one revision, or make them one ref');
    }
    revisionOf.set(key, { ref: source.ref, revision: source.targetRevision as string });
  });
  const valueFiles = primary?.helm?.valueFiles ?? [];
  const named = new Set<string>();
  valueFiles.forEach((file, i) => {
    const ref = valueFileRef(file);
    // `$ARGOCD_APP_NAME/...` names no ref source when none has that name: Argo CD substitutes the build variable.
    if (ref === undefined || (!byRef.has(ref) && isBuildEnvironmentVariable(ref))) {
      return;
    }
    named.add(ref);
    if (!byRef.has(ref)) {
      const known = [...byRef.keys()];
      throw badValue(ErrorCode.INVALID_HELM_SOURCE, scope, `externalSource.helm.valueFiles[${i}]`, file,
        `names the ref source ${JSON.stringify(ref)}, but ${known.length === 0 ? 'the app has no ref source' : `its ref sources are ${known.map((k) => JSON.stringify(k)).join(', ')}`}: Argo CD would fail to render the app`,
        `add ExternalSource.gitRef(${JSON.stringify(ref)}, { repoUrl: '<repository of the file>' }) to additionalSources, or correct the ref`);
    }
  });
  list.forEach((source, i) => {
    if (!named.has(source.ref as string)) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, scope, `additionalSources[${i}]`, source.ref,
        'is named by no value file of externalSource\'s Helm options, so Argo CD would fetch it for nothing',
        `name a file of it in valueFiles, e.g. "$${source.ref}/apps/<app>/values.yaml", or remove it`);
    }
  });
  return list;
}

function checkBreakGlass(scope: IConstruct, breakGlass: BreakGlass): BreakGlass {
  if (typeof breakGlass.reason !== 'string' || breakGlass.reason.trim().length < 10) {
    throw badValue(ErrorCode.BREAK_GLASS, scope, 'breakGlass.reason', breakGlass.reason,
      'must say, in at least 10 characters, why automated sync is suspended', 'write what the incident is and what was changed by hand');
  }
  if (!isCalendarDate(String(breakGlass.expires))) {
    throw badValue(ErrorCode.BREAK_GLASS, scope, 'breakGlass.expires', breakGlass.expires,
      'must be a calendar date written YYYY-MM-DD', 'give the day by which automated sync must be back, e.g. "2026-12-03"');
  }
  return { reason: breakGlass.reason.trim().replace(/\s+/g, ' '), expires: breakGlass.expires, ticket: breakGlass.ticket?.trim() || undefined };
}

/** A Git folder's Kustomize options as the renderer takes them: each image override in Argo CD's string form. */
function hardenedKustomize(kustomize: KustomizeOptions | undefined): HardenedKustomize | undefined {
  if (kustomize === undefined) {
    return undefined;
  }
  const { images, ...rest } = kustomize;
  return { ...rest, images: images?.map(kustomizeImageOverride) };
}

/** A chart source's options as the renderer takes them: the values text read into the map Argo CD renders. */
function hardenedHelm(helm: HelmChartOptions | undefined): HardenedHelm | undefined {
  if (helm === undefined) {
    return undefined;
  }
  const { valuesYaml, ...rest } = helm;
  return { ...rest, ...(valuesYaml !== undefined ? { valuesObject: readHelmValues(valuesYaml, 'ExternalSource.helmChart', 'options.valuesYaml') } : {}) };
}
