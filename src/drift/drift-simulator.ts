import { BoundedJq } from './bounded-jq';
import { DriftReport } from './drift-report';
import { simulate } from './engine';
import { formatDriftText } from './format';
import { Json } from './json';
import { JqRunner } from './normalize';
import { readOneManifest } from './read-manifest';

/**
 * One resource to simulate, as YAML or JSON text (one document each).
 */
export interface DriftInput {
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
 * Not modelled: server-side diff (`ServerSideDiff=true`) and server-side apply, Argo CD's known-type
 * normalizations (quantities such as `0.5` vs `500m`), system-level ignore rules from `argocd-cm`, defaults
 * beyond those of replicas and a few related fields, and the order of merged list items.
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
    const result = simulate(this.jq, application, desired, live);
    return { ...result, liveAfterApply: JSON.stringify(result.liveAfterApply) };
  }

  /** @internal Simulates on parsed objects. */
  public _simulateObjects(application: Json, desired: Json, live: Json | undefined) {
    return simulate(this.jq, application, desired, live);
  }
}
