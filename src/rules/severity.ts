/**
 * How serious a rule's finding is. Synth fails on every unsuppressed finding; the audit CLI's
 * `--fail-on` chooses the lowest severity that fails a run.
 */
export enum Severity {
  /** Argo CD will do something destructive or silently wrong. */
  ERROR = 'error',
  /** A production policy is missing or weaker than it should be. */
  WARNING = 'warning',
  /** Worth knowing; nothing breaks. */
  NOTE = 'note',
}
