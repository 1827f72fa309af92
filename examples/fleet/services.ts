/** The replica bounds of a service whose replica count belongs to an HPA. */
export interface HpaBounds {
  /** The fewest replicas the HPA keeps. */
  readonly min: number;
  /** The most replicas the HPA may scale to. */
  readonly max: number;
  /**
   * The average CPU utilization the HPA aims for, in percent of the requests.
   *
   * @default 70
   */
  readonly cpuPercent?: number;
  /**
   * A KEDA ScaledObject owns the replica count (on the same CPU target) instead of an HPA.
   *
   * @default false
   */
  readonly keda?: boolean;
}

/** What runs a service's pods; a StatefulSet or a Rollout only with HPA bounds (the point is an autoscaled one). */
export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'Rollout';

/** One service of the fleet: one row of the platform team's table. */
export interface ServiceSpec {
  /** The service's name: its Application, Deployment, Service and secret are named after it. */
  readonly name: string;
  /** The team that owns it: its AppProject, namespace and SSO groups (`<team>-developers`, `<team>-oncall`). */
  readonly team: string;
  /** The image tag deployed, e.g. `1.42.0`; the image is `registry.example.com/<team>/<name>:<version>`. */
  readonly version: string;
  /** The port the container listens on; the Service exposes it on port 80. */
  readonly port: number;
  /**
   * The HPA owns the replica count within these bounds.
   *
   * @default - a fixed replica count (`replicas`), declared in Git
   */
  readonly hpa?: HpaBounds;
  /**
   * The replica count of a service without an HPA.
   *
   * @default 2
   */
  readonly replicas?: number;
  /**
   * What runs the pods: a Deployment, a StatefulSet whose pods keep their names, or an Argo Rollout released as a canary.
   *
   * @default 'Deployment'
   */
  readonly workload?: WorkloadKind;
  /** Whether a PreSync migration (`./<name> migrate`) runs before each sync. */
  readonly migration: boolean;
  /** The keys of the service's secret, read from `<team>/<name>` in the vault and passed to the containers as env variables. */
  readonly secrets: string[];
}

/** The fleet: eight services of three teams. */
export const SERVICES: ServiceSpec[] = [
  { name: 'checkout', team: 'payments', version: '1.42.0', port: 8080, hpa: { min: 3, max: 12 }, migration: true, secrets: ['db-password'] },
  { name: 'refunds', team: 'payments', version: '0.9.3', port: 8080, hpa: { min: 2, max: 6 }, migration: true, secrets: ['db-password'] },
  { name: 'payouts', team: 'payments', version: '2.1.0', port: 8080, replicas: 2, migration: false, secrets: ['bank-api-token'] },
  { name: 'catalog', team: 'catalog', version: '3.7.1', port: 8080, hpa: { min: 4, max: 20, cpuPercent: 60 }, migration: true, secrets: ['db-password'] },
  { name: 'search', team: 'catalog', version: '5.0.2', port: 9200, hpa: { min: 2, max: 10 }, workload: 'StatefulSet', migration: false, secrets: ['index-api-key'] },
  { name: 'pricing', team: 'catalog', version: '1.3.0', port: 8080, replicas: 3, migration: true, secrets: ['db-password'] },
  { name: 'accounts', team: 'identity', version: '4.2.0', port: 8443, hpa: { min: 3, max: 9, keda: true }, workload: 'Rollout', migration: true, secrets: ['db-password', 'jwt-signing-key'] },
  { name: 'sessions', team: 'identity', version: '1.0.4', port: 8080, replicas: 2, migration: false, secrets: ['redis-password'] },
];
