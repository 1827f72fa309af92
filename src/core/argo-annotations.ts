/** Annotations Argo CD reads. Nothing else under argocd.argoproj.io/ is ever emitted. */
export const HOOK_ANNOTATION = 'argocd.argoproj.io/hook';
export const HOOK_DELETE_POLICY_ANNOTATION = 'argocd.argoproj.io/hook-delete-policy';
export const SYNC_WAVE_ANNOTATION = 'argocd.argoproj.io/sync-wave';
/** Helm hooks, which Argo CD maps onto its own (pre-install/pre-upgrade run as PreSync). */
export const HELM_HOOK_ANNOTATION = 'helm.sh/hook';
/** Helm's hook weight, which Argo CD reads as the sync wave when no sync-wave annotation is set. */
export const HELM_HOOK_WEIGHT_ANNOTATION = 'helm.sh/hook-weight';
