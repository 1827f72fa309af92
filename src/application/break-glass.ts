/**
 * A declarative, recorded suspension of one Application's automated sync, for teams that prefer to
 * break glass through Git. The Application keeps its retry and sync options but loses `automated`, and
 * carries the reason and expiry as annotations that `safe-argocd audit` reports (and fails on once expired).
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/auto_sync/
 */
export interface BreakGlass {
  /** Why automated sync is suspended, for the audit trail. */
  readonly reason: string;

  /** The date (`YYYY-MM-DD`) by which the suspension must be lifted; audit fails after it. */
  readonly expires: string;

  /**
   * The incident or change ticket.
   *
   * @default - none
   */
  readonly ticket?: string;
}
