import { badValue, ErrorCode } from '../private/errors';

/**
 * The Argo CD release an Application is rendered for.
 *
 * Fields that a release does not have are never emitted for it (for example `automated.enabled`,
 * which exists from Argo CD 3.1). Only the releases whose CRDs this library is tested against
 * are offered; pick the newest one that is not newer than the Argo CD you run.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/upgrading/overview/
 */
export class ArgoCdVersion {
  /** Argo CD 2.14. */
  public static readonly V2_14 = new ArgoCdVersion(2, 14);
  /** Argo CD 3.0. */
  public static readonly V3_0 = new ArgoCdVersion(3, 0);
  /** Argo CD 3.1: the first release with `syncPolicy.automated.enabled`. */
  public static readonly V3_1 = new ArgoCdVersion(3, 1);
  /** Argo CD 3.5. */
  public static readonly V3_5 = new ArgoCdVersion(3, 5);
  /** The newest release this library supports. */
  public static readonly LATEST = ArgoCdVersion.V3_5;

  /** Every supported release, oldest first. */
  public static all(): ArgoCdVersion[] {
    return [ArgoCdVersion.V2_14, ArgoCdVersion.V3_0, ArgoCdVersion.V3_1, ArgoCdVersion.V3_5];
  }

  /**
   * The supported release named `major.minor` (a patch part, `v` prefix or `.x` is accepted and ignored).
   *
   * @param version for example `'3.1'`, `'v3.1.16'` or `'2.14.x'`
   */
  public static of(version: string): ArgoCdVersion {
    const match = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)(\.(\d+|x))?$/.exec(String(version).trim());
    const found = match
      ? ArgoCdVersion.all().find((v) => v.major === Number(match[1]) && v.minor === Number(match[2]))
      : undefined;
    if (!found) {
      const supported = ArgoCdVersion.all().map((v) => v.version).join(', ');
      throw badValue({
        code: ErrorCode.UNKNOWN_VERSION,
        where: 'ArgoCdVersion.of',
        prop: 'version',
        value: version,
        allowed: `must be one of the supported releases ${supported}`,
        fix: 'name the newest supported release that is not newer than the Argo CD you run',
      });
    }
    return found;
  }

  /** The major release number, for example 3. */
  public readonly major: number;
  /** The minor release number, for example 1. */
  public readonly minor: number;
  /** `major.minor`, for example `3.1`. */
  public readonly version: string;

  private constructor(major: number, minor: number) {
    this.major = major;
    this.minor = minor;
    this.version = `${major}.${minor}`;
  }

  /** Whether this release is `major.minor` or newer. */
  public isAtLeast(major: number, minor: number): boolean {
    return this.major > major || (this.major === major && this.minor >= minor);
  }

  /**
   * Whether `syncPolicy.automated.enabled` exists (Argo CD 3.1 and newer; argo-cd #24254 for the UI).
   */
  public get hasAutomatedEnabled(): boolean {
    return this.isAtLeast(3, 1);
  }
}
