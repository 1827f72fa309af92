/**
 * What happens to the deployed resources when the Application object itself is deleted.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/app_deletion/
 */
export enum DeletionPolicy {
  /**
   * No resources finalizer: deleting the Application (by hand, by a mistaken prune of an app-of-apps)
   * leaves every deployed resource running. Delete workloads on purpose, by removing them from Git.
   */
  ORPHAN = 'ORPHAN',
  /**
   * `resources-finalizer.argocd.argoproj.io`: deleting the Application deletes everything it deployed,
   * in the foreground.
   */
  CASCADE_FOREGROUND = 'CASCADE_FOREGROUND',
  /**
   * `resources-finalizer.argocd.argoproj.io/background`: deleting the Application deletes everything it
   * deployed, in the background.
   */
  CASCADE_BACKGROUND = 'CASCADE_BACKGROUND',
}
