import { badValue, ErrorCode } from '../core/errors';
import { isDns1123Subdomain } from '../core/names';

/**
 * An Argo CD AppProject an Application belongs to.
 */
export interface IArgoProject {
  /** The AppProject's name. */
  readonly projectName: string;
}

/**
 * References to AppProjects defined outside this app.
 */
export class ArgoProject {
  /**
   * An existing AppProject, by name. The `default` project is refused: it allows every repository,
   * destination and kind.
   *
   * @param projectName e.g. `payments`
   */
  public static fromName(projectName: string): IArgoProject {
    if (projectName === 'default') {
      throw badValue(ErrorCode.DEFAULT_PROJECT, 'ArgoProject.fromName', 'projectName', projectName,
        'must not be "default", which allows every source, destination and resource kind', 'create an AppProject for the team that owns the app and name it here');
    }
    if (typeof projectName !== 'string' || !isDns1123Subdomain(projectName)) {
      throw badValue(ErrorCode.INVALID_NAME, 'ArgoProject.fromName', 'projectName', projectName,
        'must be an AppProject name (lowercase letters, digits, "-" and ".")', 'use the metadata.name of the AppProject');
    }
    return { projectName };
  }

  private constructor() {}
}
