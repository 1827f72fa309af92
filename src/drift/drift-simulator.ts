import { simulateApplication } from './application-drift';
import { ApplicationDriftReport, ManifestSource } from './application-drift-report';
import { DriftReport } from './drift-report';
import { simulate, SimulateOptions } from './engine';
import { formatDriftText } from './format';
import { Json } from './json';
import { JqRunner } from './normalize';
import { readOneManifest } from './read-manifest';
import { TrackingOptions } from './tracking';
import { DEFAULT_INSTANCE_LABEL } from '../core/annotations';
import { hasFeature } from '../core/argocd-features';
import { ArgoCdVersion } from '../core/argocd-version';
import { BoundedJq } from '../core/bounded-jq';

/**
 * How Argo CD marks the resources of an Application (`application.resourceTrackingMethod` in argocd-cm).
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/resource_tracking/
 */
export enum TrackingMethod {
  /** The `argocd.argoproj.io/tracking-id` annotation (the default from Argo CD 3.0). */
  ANNOTATION = 'annotation',
  /** The instance label, `app.kubernetes.io/instance` unless configured (the default before Argo CD 3.0). */
  LABEL = 'label',
  /** Both the annotation and the instance label. */
  ANNOTATION_AND_LABEL = 'annotation+label',
}

/**
 * How Argo CD is set up to compare: the release, and how it tracks an Application's resources.
 */
export interface DriftOptions {
  /**
   * The Argo CD release that compares: it decides the default tracking method.
   *
   * @default ArgoCdVersion.LATEST
   */
  readonly argoCdVersion?: ArgoCdVersion;

  /**
   * How Argo CD tracks the Application's resources. The controller stamps this metadata on the target before
   * comparing it, so a live object that lacks it is OutOfSync.
   *
   * @default - the release's default (annotation from Argo CD 3.0, label before), applied only when the live
   * object carries tracking metadata (an annotation or the instance label); a live object without any is
   * compared as it is
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/resource_tracking/
   */
  readonly trackingMethod?: TrackingMethod;

  /**
   * The instance label key (`application.instanceLabelKey` in argocd-cm).
   *
   * @default 'app.kubernetes.io/instance'
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/resource_tracking/
   */
  readonly instanceLabelKey?: string;
}

/**
 * One resource to simulate, as YAML or JSON text (one document each).
 */
export interface DriftInput extends DriftOptions {
  /** The Argo CD Application that deploys the resource: its ignoreDifferences and sync options are used. */
  readonly application: string;

  /** The resource as Git renders it. */
  readonly desired: string;

  /**
   * The resource as the cluster returns it (`kubectl get -o yaml`), with `metadata.managedFields` and the
   * `kubectl.kubernetes.io/last-applied-configuration` annotation when it has them.
   *
   * @default - the resource does not exist yet
   */
  readonly live?: string;
}

/**
 * A whole Application to simulate: its objects as Git renders them and as the cluster returns them.
 */
export interface ApplicationDriftInput extends DriftOptions {
  /** The Argo CD Application: its name, destination namespace, ignoreDifferences and sync options are used. */
  readonly application: string;

  /** The Application's objects as Git renders them (`cdk8s synth`, `kustomize build`, `helm template`). */
  readonly desired: ManifestSource[];

  /**
   * The objects as the cluster returns them (`kubectl get deploy,svc,hpa -n payments -o yaml`); objects that
   * neither Git nor the Application's tracking names are left out.
   */
  readonly live: ManifestSource[];
}

/** The engine's tracking options for an input. */
function trackingOf(input: DriftOptions): { tracking: TrackingOptions; trackingOnlyWhenLiveTracked: boolean } {
  const version = input.argoCdVersion ?? ArgoCdVersion.LATEST;
  const method = input.trackingMethod ?? (hasFeature(version, 'annotationTrackingByDefault') ? TrackingMethod.ANNOTATION : TrackingMethod.LABEL);
  return {
    tracking: { method, labelKey: input.instanceLabelKey ?? DEFAULT_INSTANCE_LABEL },
    trackingOnlyWhenLiveTracked: input.trackingMethod === undefined,
  };
}

/**
 * Predicts, offline, what Argo CD will do to one live resource: whether it is OutOfSync after normalization,
 * which fields differ, and what self-heal (or the next sync) would revert or keep.
 *
 * It models Argo CD's default comparison: the ignoreDifferences entries that match the resource (group and
 * kind by glob, name and namespace exactly), jsonPointers removed, jqPathExpressions run as `del(<expr>)` by
 * a real jq engine, managedFieldsManagers removing the differing fields those managers own (read from
 * `metadata.managedFields`), `status` ignored; then the client-side three-way diff against
 * `kubectl.kubernetes.io/last-applied-configuration` (two-way without it) with strategic-merge list keys
 * for built-in kinds and JSON merge for custom resources. The apply model copies ignored live values into
 * Git's object under RespectIgnoreDifferences and gives deleted fields their API defaults (replicas 1).
 *
 * Both sides go through Argo CD's normalizations first: the tracking metadata the controller stamps on the
 * target, the typed round trip of built-in kinds (nulls and omitempty zero values vanish, quantities become
 * canonical), the API server's defaults for the common built-in kinds, Secrets' `stringData` folded into
 * `data`, last-applied read without its namespace and empty annotations, and custom resources compared on
 * the fields their last-applied has.
 *
 * Not modelled: server-side diff (`ServerSideDiff=true`) and server-side apply, `argocd-cm` resource
 * overrides and system-level ignore rules, defaults of kinds beyond the common built-in ones, and the order
 * of merged list items.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/diffing/
 */
export class DriftSimulator {
  /**
   * A short human reading of a report, one fact per line, as `safe-argocd simulate` prints it.
   *
   * @param subject what the report is about, e.g. `Deployment payments/checkout-web`
   */
  public static describe(subject: string, report: DriftReport): string {
    return formatDriftText(subject, report);
  }

  /**
   * A simulator whose jq engine runs in a worker thread, each jqPathExpression bounded to 1 s (as Argo CD
   * bounds it) and a limited heap, so that an expression that never ends is reported instead of hanging.
   * Simulations are synchronous.
   */
  public static async create(): Promise<DriftSimulator> {
    return new DriftSimulator(new BoundedJq());
  }

  private readonly jq: JqRunner;

  private constructor(jq: JqRunner) {
    this.jq = jq;
  }

  /**
   * Simulates Argo CD's comparison and sync for one resource.
   *
   * @throws when a document is not one YAML or JSON object
   */
  public simulateDrift(input: DriftInput): DriftReport {
    const application = readOneManifest('application', input.application);
    const desired = readOneManifest('desired', input.desired);
    const live = input.live === undefined ? undefined : readOneManifest('live', input.live);
    const result = simulate(this.jq, application, desired, live, trackingOf(input));
    return { ...result, liveAfterApply: JSON.stringify(result.liveAfterApply) };
  }

  /**
   * Simulates Argo CD's comparison of a whole Application: Git's objects and the cluster's paired by group,
   * kind, namespace and name; one verdict per resource (Synced, OutOfSync with its fields, missing in the
   * cluster, left over and tracked by the Application so a pruning sync deletes it) and the Application's.
   *
   * @throws when a source cannot be read, or two objects of one side have the same group, kind, namespace and name
   */
  public simulateApplication(input: ApplicationDriftInput): ApplicationDriftReport {
    const application = readOneManifest('application', input.application);
    const options = trackingOf(input);
    return simulateApplication((desired, live) => {
      const result = simulate(this.jq, application, desired, live, options);
      return { ...result, liveAfterApply: JSON.stringify(result.liveAfterApply) };
    }, application, input.desired, input.live, options.tracking);
  }

  /** @internal Simulates on parsed objects. */
  public _simulateObjects(application: Json, desired: Json, live: Json | undefined, options?: SimulateOptions) {
    return simulate(this.jq, application, desired, live, options);
  }
}
