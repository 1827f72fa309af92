/**
 * What each Argo CD release can do, as facts read from Argo CD's own code, CRDs (`manifests/crds/`) and
 * upgrade notes (`docs/operator-manual/upgrading/`) at the release tags.
 *
 * The bottom layer: this file imports nothing from the rest of `src/`. Everything that depends on the
 * Argo CD release asks it (through `ArgoCdVersion`) instead of comparing release numbers itself.
 */

/** An Argo CD release as major and minor; patches of one minor have the same features. */
export interface Release {
  readonly major: number;
  readonly minor: number;
}

/**
 * Every minor release this library knows, oldest first: from the oldest supported one to the newest whose
 * CRDs the rendered output is validated against. 2.14 is the last 2.x minor (no 2.15 exists; see
 * docs/operator-manual/upgrading/2.14-3.0.md).
 */
export const KNOWN_RELEASES: readonly Release[] = [
  { major: 2, minor: 14 },
  { major: 3, minor: 0 },
  { major: 3, minor: 1 },
  { major: 3, minor: 2 },
  { major: 3, minor: 3 },
  { major: 3, minor: 4 },
  { major: 3, minor: 5 },
];

/** The oldest supported release. */
export const OLDEST_RELEASE: Release = KNOWN_RELEASES[0];
/** The newest known release. */
export const NEWEST_RELEASE: Release = KNOWN_RELEASES[KNOWN_RELEASES.length - 1];

/** The features below, by name. */
export type ArgoCdFeature =
  | 'automatedEnabled'
  | 'uiKeepsAutomatedOnToggle'
  | 'preDeleteHooks'
  | 'deleteHookLists'
  | 'statusIgnoredForAllResources'
  | 'annotationTrackingByDefault'
  | 'postDeleteHooks'
  | 'ignoreApplicationDifferences'
  | 'skipReconcileAnnotation'
  | 'goTemplateOptions'
  | 'respectIgnoreDifferences'
  | 'clientSideApplyMigrationOption'
  | 'applicationPruneDeleteOptions'
  | 'syncWindowAndOperator'
  | 'multipleSources'
  | 'multiSourceRollback'
  | 'gitFilesExclude'
  | 'rollingSyncDeletionOrder'
  | 'rollingSyncKeepsAutomatedBlock';

/** One row of the feature table. */
export interface FeatureRow {
  readonly feature: ArgoCdFeature;
  /** What the release can do, in one sentence. */
  readonly description: string;
  /** The first release that has it; every later release has it too. */
  readonly since: Release;
  /** Where that is shown: argo-cd pull requests and issues, and the file or doc page at a release tag. */
  readonly source: string;
  /** The field this library writes only for releases that have the feature, if any. */
  readonly renders?: string;
}

const release = (major: number, minor: number): Release => ({ major, minor });

/**
 * The feature table: feature, first release, source. Rows with `renders` decide what is written for a
 * release; the others decide how the rules and the drift model read an Application, or document a fact
 * the constructs rely on (those from before 2.14 hold for every supported release).
 */
export const FEATURES: readonly FeatureRow[] = [
  {
    feature: 'automatedEnabled',
    description: '`spec.syncPolicy.automated.enabled`: `false` pauses auto-sync and keeps the automated block; the controller and the CLI read it',
    since: release(3, 1),
    source: 'argo-cd #21999 and #22440 (v3.1.0); in manifests/crds/application-crd.yaml from v3.1.0, not at v3.0.23; '
      + 'SyncPolicy.IsAutomatedSyncEnabled in pkg/apis/application/v1alpha1/types.go',
    renders: 'spec.syncPolicy.automated.enabled',
  },
  {
    feature: 'uiKeepsAutomatedOnToggle',
    description: 'the UI shows `enabled: false` as no auto-sync, and its auto-sync toggle sets `enabled` and keeps prune and selfHeal',
    since: release(3, 2),
    source: 'argo-cd #24254 (v3.2.0); ui/src/app/applications/components/application-summary/application-summary.tsx at v3.2.12; '
      + 'at v3.1.16 it showed AUTOMATED, and its Disable button removed the automated block',
  },
  {
    feature: 'preDeleteHooks',
    description: 'PreDelete hooks (`argocd.argoproj.io/hook: PreDelete`, `helm.sh/hook: pre-delete`) run before the app\'s resources are deleted',
    since: release(3, 3),
    source: 'argo-cd #22288 for issue #13975 (v3.3.0); controller/hook.go at v3.3.0, which v3.2.12 lacks',
  },
  {
    feature: 'deleteHookLists',
    description: 'the controller finds a deletion hook type in a comma-separated hook annotation; before, only a value that is exactly that type counted',
    since: release(3, 3),
    source: 'argo-cd #22288 (v3.3.0); isHookOfType in controller/hook.go at v3.3.14, isPostDeleteHook (`val == v`) at v3.2.12',
  },
  {
    feature: 'statusIgnoredForAllResources',
    description: '`status` is left out of the diff for every resource by default (`ignoreResourceStatusField: all`); before, only for CustomResourceDefinitions',
    since: release(3, 0),
    source: 'argo-cd #22230 (v3.0.0); docs/operator-manual/upgrading/2.14-3.0.md, "Ignoring status field from differences by default"; '
      + 'GetDefaultDiffOptions in util/settings/settings.go at v3.0.23',
  },
  {
    feature: 'annotationTrackingByDefault',
    description: 'resources are tracked by the `argocd.argoproj.io/tracking-id` annotation by default; before, by the `app.kubernetes.io/instance` label',
    since: release(3, 0),
    source: 'argo-cd #22289 (v3.0.0); docs/operator-manual/upgrading/2.14-3.0.md, "Use Annotation-Based Tracking by Default"',
  },
  {
    feature: 'postDeleteHooks',
    description: 'PostDelete hooks run after the app\'s resources are deleted',
    since: release(2, 10),
    source: 'argo-cd #16595 (v2.10.0); controller/hook.go',
  },
  {
    feature: 'ignoreApplicationDifferences',
    description: 'an ApplicationSet can leave fields of its Applications alone (`ignoreApplicationDifferences`)',
    since: release(2, 9),
    source: 'argo-cd #14743 for issue #9101 (v2.9.0); manifests/crds/applicationset-crd.yaml',
  },
  {
    feature: 'skipReconcileAnnotation',
    description: 'the controller skips an Application annotated `argocd.argoproj.io/skip-reconcile: "true"`',
    since: release(2, 7),
    source: 'argo-cd #11879 (v2.7.0); docs/user-guide/skip_reconcile.md',
  },
  {
    feature: 'goTemplateOptions',
    description: 'an ApplicationSet template can refuse missing keys (`goTemplateOptions: ["missingkey=error"]`)',
    since: release(2, 8),
    source: 'argo-cd #13733 for issue #13731 (v2.8.0); manifests/crds/applicationset-crd.yaml',
  },
  {
    feature: 'respectIgnoreDifferences',
    description: 'the `RespectIgnoreDifferences=true` sync option keeps ignored fields out of the sync as well as the diff',
    since: release(2, 3),
    source: 'argo-cd #8078 (v2.3.0); docs/user-guide/sync-options.md',
  },
  {
    feature: 'clientSideApplyMigrationOption',
    description: 'the `ClientSideApplyMigration=false` sync option turns off moving client-side-applied fields to Argo CD\'s field manager '
      + '(the docs spelled it `DisableClientSideApplyMigration=true`, which nothing reads, until argo-cd #25288)',
    since: release(3, 1),
    source: 'argo-cd #23337 (v3.1.0); SyncOptionDisableClientSideApplyMigration in controller/sync.go; docs/user-guide/sync-options.md corrected by argo-cd #25288',
  },
  {
    feature: 'applicationPruneDeleteOptions',
    description: '`Prune=false`, `Prune=confirm`, `Delete=false` and `Delete=confirm` are read from an Application\'s sync options as the '
      + 'default for its resources; before, only from a resource\'s `argocd.argoproj.io/sync-options` annotation',
    since: release(3, 4),
    source: 'argo-cd #23370 (v3.4.0); SyncOptions.GetOptionValue in controller/state.go, absent at v3.3.0',
  },
  {
    feature: 'syncWindowAndOperator',
    description: 'a project sync window with `andOperator: true` applies only to Applications that match each of its non-empty '
      + 'lists (applications, clusters, namespaces); before, and without it, one list that matches is enough',
    since: release(3, 0),
    source: 'argo-cd #16846 (v3.0.0); SyncWindows.Matches in pkg/apis/application/v1alpha1/types.go; andOperator is in '
      + 'manifests/crds/appproject-crd.yaml from v3.0.0, not at v2.14.21',
  },
  {
    feature: 'multipleSources',
    description: 'an Application reads `spec.sources` (and then not `spec.source`), and a Helm source reads value files '
      + '`$<ref>/<path>` from the Git source whose `ref` is that name',
    since: release(2, 6),
    source: 'argo-cd #10432 for issue #2789 (v2.6.0); docs/user-guide/multiple_sources.md, "Helm value files from external Git repository"; '
      + 'GetRefSources in util/argo/argo.go',
  },
  {
    feature: 'multiSourceRollback',
    description: '`argocd app rollback` of an Application with `spec.sources` syncs every source back to the revisions of the chosen deployment',
    since: release(2, 12),
    source: 'argo-cd #14124 (v2.12.0); Rollback in server/application/application.go, which passes the history entry\'s Sources and Revisions',
  },
  {
    feature: 'gitFilesExclude',
    description: 'a git files generator entry can be `exclude: true`, so files matching its path are left out; before, the field '
      + 'is not in the ApplicationSet CRD and is dropped, so what it meant to exclude is generated',
    since: release(3, 1),
    source: 'argo-cd #22734 (v3.1.0); generateParamsForGitFiles in applicationset/generators/git.go; `files[].exclude` is in '
      + 'manifests/crds/applicationset-crd.yaml from v3.1.0, not at v3.0.23; SafeApplicationSet refuses it for older releases '
      + '(leaving it out would generate the excluded files)',
  },
  {
    feature: 'rollingSyncDeletionOrder',
    description: '`strategy.deletionOrder: Reverse` deletes a RollingSync ApplicationSet\'s Applications step by step, last step first, '
      + 'when the ApplicationSet is deleted, whatever its applicationsSync policy allows',
    since: release(3, 2),
    source: 'argo-cd #23465 (v3.2.0); PerformReverseDeletion in applicationset/progressivesync/progressive_sync.go at v3.5.1; '
      + '`strategy.deletionOrder` is in manifests/crds/applicationset-crd.yaml from v3.2.0, not at v3.1.16',
  },
  {
    feature: 'rollingSyncKeepsAutomatedBlock',
    description: 'under a RollingSync strategy the ApplicationSet controller writes `automated.enabled: false` into each generated '
      + 'Application and keeps prune and selfHeal; before, it removes the `automated` block. Either way the Applications do not auto-sync',
    since: release(3, 3),
    source: 'argo-cd #24507 (v3.3.0); the RollingSync loop of applicationset/controllers/applicationset_controller.go at v3.3.14 '
      + '(`Automated.Enabled = ptr.To(false)`) and at v3.2.12 (`Automated = nil`)',
  },
];

/** Negative, zero or positive as `a` is older than, the same minor as, or newer than `b`. */
export function compareReleases(a: Release, b: Release): number {
  return a.major !== b.major ? a.major - b.major : a.minor - b.minor;
}

/** `major.minor`, for example `3.4`. */
export function releaseName(r: Release): string {
  return `${r.major}.${r.minor}`;
}

/** The row of a feature. */
export function featureRow(feature: ArgoCdFeature): FeatureRow {
  const row = FEATURES.find((f) => f.feature === feature);
  if (!row) {
    throw new Error(`no row for Argo CD feature ${JSON.stringify(feature)}`);
  }
  return row;
}

/** Whether `r` has the feature: it is its first release or newer. */
export function hasFeature(r: Release, feature: ArgoCdFeature): boolean {
  return compareReleases(r, featureRow(feature).since) >= 0;
}

/**
 * The release a text names: `major.minor` with an optional patch (a number or `x`) and an optional `v`,
 * surrounding whitespace ignored, no leading zeros (`3.04` is not 3.4). Undefined when the text is not
 * written that way (`3`, `3.4.7.1`, `latest`, `3.4.0-rc1`).
 */
export function parseRelease(text: string): Release | undefined {
  const match = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)(?:\.(?:0|[1-9]\d*|x))?$/.exec(text.trim());
  return match ? release(Number(match[1]), Number(match[2])) : undefined;
}

/**
 * Where a release stands against the known ones:
 * - `known`: one of KNOWN_RELEASES;
 * - `tooOld`: older than the oldest supported release;
 * - `noSuchRelease`: a minor after the last known one of an older major (2.15: 2.14 was the last 2.x);
 * - `newerMinor`: a minor after the newest known one, in the newest known major (3.6);
 * - `newerMajor`: a major after the newest known one (4.0).
 */
export type ReleaseStanding = 'known' | 'tooOld' | 'noSuchRelease' | 'newerMinor' | 'newerMajor';

/** Where `r` stands; see ReleaseStanding. */
export function standingOf(r: Release): ReleaseStanding {
  if (KNOWN_RELEASES.some((k) => compareReleases(k, r) === 0)) {
    return 'known';
  }
  if (compareReleases(r, OLDEST_RELEASE) < 0) {
    return 'tooOld';
  }
  if (r.major > NEWEST_RELEASE.major) {
    return 'newerMajor';
  }
  if (r.major === NEWEST_RELEASE.major && r.minor > NEWEST_RELEASE.minor) {
    return 'newerMinor';
  }
  return 'noSuchRelease';
}
