/**
 * What the ApplicationSet controller may do to the Applications an ApplicationSet generated, rendered as
 * `spec.syncPolicy.applicationsSync`.
 *
 * The controller honours it only when it lets ApplicationSets override its own policy: when
 * `applicationsetcontroller.policy` in `argocd-cmd-params-cm` is empty (the default; the controller's
 * policy is then `sync`), or when `applicationsetcontroller.enable.policy.override` is `"true"`. With a policy
 * set there and no override, the controller's policy applies to every ApplicationSet and this field is
 * ignored (DefaultPolicy in applicationset/utils/policy.go, argo-cd v2.14 to v3.5).
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Controlling-Resource-Modification/
 */
export enum ApplicationsSyncPolicy {
  /**
   * Creates Applications and updates them when the template or the parameters change; never deletes one. When
   * a folder, file, element or cluster stops being generated, its Application stays (and keeps its resources),
   * for someone to delete on purpose.
   */
  CREATE_UPDATE = 'create-update',
  /**
   * Creates Applications, then never changes or deletes them: a change of the template (a new ignore rule, a
   * retry bound) reaches only Applications created afterwards.
   */
  CREATE_ONLY = 'create-only',
  /**
   * Creates, updates and deletes: an Application whose folder, file, element or cluster disappears is deleted.
   * Needs `applicationsSyncReason`.
   */
  SYNC = 'sync',
  /**
   * Creates and deletes, never updates. Needs `applicationsSyncReason`.
   */
  CREATE_DELETE = 'create-delete',
}
