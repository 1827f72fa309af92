/** Every annotation key this library writes or reads, in one place. */

/** Annotations Argo CD reads. Nothing else under argocd.argoproj.io/ is ever emitted. */
export const HOOK_ANNOTATION = 'argocd.argoproj.io/hook';
export const HOOK_DELETE_POLICY_ANNOTATION = 'argocd.argoproj.io/hook-delete-policy';
export const SYNC_WAVE_ANNOTATION = 'argocd.argoproj.io/sync-wave';
/** Helm hooks, which Argo CD maps onto its own (pre-install/pre-upgrade run as PreSync). */
export const HELM_HOOK_ANNOTATION = 'helm.sh/hook';
/** Helm's hook weight, which Argo CD reads as the sync wave when no sync-wave annotation is set. */
export const HELM_HOOK_WEIGHT_ANNOTATION = 'helm.sh/hook-weight';
/** Argo CD's resource tracking annotation (`<app>:<group>/<kind>:<namespace>/<name>`), the default method from 3.0. */
export const TRACKING_ID_ANNOTATION = 'argocd.argoproj.io/tracking-id';
/** The instance label Argo CD tracks resources by with the label method, unless argocd-cm names another. */
export const DEFAULT_INSTANCE_LABEL = 'app.kubernetes.io/instance';
/** The label Argo CD tells its own Secrets apart by (repositories, credential templates, clusters: common.LabelKeySecretType). */
export const SECRET_TYPE_LABEL = 'argocd.argoproj.io/secret-type';
/** Per-resource compare options, e.g. `IgnoreExtraneous`. */
export const COMPARE_OPTIONS_ANNOTATION = 'argocd.argoproj.io/compare-options';
/** Where a client-side apply records what it applied: the third side of the three-way diff. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** Argo CD Notifications subscriptions: `<prefix><trigger>.<service>: <recipient>;<recipient>` on an Application or AppProject. */
export const NOTIFICATIONS_SUBSCRIBE_PREFIX = 'notifications.argoproj.io/subscribe.';
/** Argo CD (2.7+, alpha) does not reconcile an Application that carries this annotation with "true". */
export const SKIP_RECONCILE_ANNOTATION = 'argocd.argoproj.io/skip-reconcile';

/** Annotations of a declarative break-glass, written by SafeApplication and read by the rules. */
export const BREAK_GLASS_REASON_ANNOTATION = 'safe-argocd/break-glass-reason';
export const BREAK_GLASS_EXPIRES_ANNOTATION = 'safe-argocd/break-glass-expires';
export const BREAK_GLASS_TICKET_ANNOTATION = 'safe-argocd/break-glass-ticket';
/** On a MigrationHook's Job: where its failure is reported when no subscription is written (`FailureNotice.subscribedElsewhere`). */
export const FAILURE_NOTICE_ANNOTATION = 'safe-argocd/failure-notice';
/** The annotation that records why each ignore rule exists. */
export const IGNORE_REASONS_ANNOTATION = 'safe-argocd/ignore-reasons';
/**
 * Annotations of the form `safe-argocd/suppress.SA003: <reason>` silence one rule on the object that
 * carries them. A suppression without a reason is not honoured.
 */
export const SUPPRESSION_PREFIX = 'safe-argocd/suppress.';
