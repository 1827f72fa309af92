/**
 * A declarative, recorded suspension of one Application, for teams that prefer to break glass through Git.
 * The Application keeps its whole sync policy and gets `argocd.argoproj.io/skip-reconcile: "true"`, so Argo
 * CD stops reconciling it (no sync, no self-heal) until the break-glass is removed from Git, and carries the
 * reason and expiry as annotations that `safe-argocd audit` reports (and fails on once expired). Lifting it
 * restores the policy exactly as declared.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/skip_reconcile/
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
