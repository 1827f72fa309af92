import { DriftReport } from './drift-report';

/**
 * A file (or stream) of manifests for a whole-application simulation: any number of YAML or JSON documents,
 * `List` objects unpacked (as `kubectl get deploy,svc -o yaml` prints them).
 */
export interface ManifestSource {
  /** How errors name the input, e.g. the file's path or `-` for standard input. */
  readonly name: string;
  /** The documents, as text. */
  readonly text: string;
}

/**
 * Where one resource of an Application stands, as Argo CD's resource list shows it.
 */
export enum ResourceSyncStatus {
  /** Live matches Git after Argo CD's normalization. */
  SYNCED = 'Synced',
  /** Live differs from Git, is missing, or is left over in the cluster. */
  OUT_OF_SYNC = 'OutOfSync',
  /** A hook, a Skip, or a left-over object whose tracking names another object: Argo CD stores no status. */
  NOT_COMPARED = 'NotCompared',
}

/**
 * One resource of a whole-application simulation.
 */
export interface ResourceDrift {
  /** The API group, `''` for the core group. */
  readonly group: string;
  /** The kind. */
  readonly kind: string;
  /** The namespace, `''` for a cluster-scoped kind. */
  readonly namespace: string;
  /** The name. */
  readonly name: string;
  /** Synced, OutOfSync, or not compared. */
  readonly status: ResourceSyncStatus;
  /** In Git, not in the cluster: the next sync creates it. */
  readonly missing: boolean;
  /**
   * In the cluster and tracked by this Application, not in Git: a sync with pruning deletes it (automated
   * sync prunes only with `prune: true`).
   */
  readonly requiresPruning: boolean;
  /**
   * Whether the resource counts towards the Application's sync status: not for hooks, and not for a
   * left-over object annotated `argocd.argoproj.io/compare-options: IgnoreExtraneous`.
   */
  readonly affectsApplication: boolean;
  /**
   * The comparison of Git's object with live, for a resource in Git that the cluster has or lacks.
   *
   * @default - none: the resource is only in the cluster
   */
  readonly report?: DriftReport;
}

/**
 * The simulation of every resource of an Application.
 */
export interface ApplicationDriftReport {
  /** The Application's name. */
  readonly application: string;
  /** Whether Argo CD would show the Application OutOfSync. */
  readonly outOfSync: boolean;
  /** Every resource in Git or tracked by the Application in the cluster, ordered by group, kind, namespace and name. */
  readonly resources: ResourceDrift[];
}
