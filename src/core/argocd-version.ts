import {
  compareReleases, hasFeature, KNOWN_RELEASES, NEWEST_RELEASE, OLDEST_RELEASE, parseRelease, releaseName, standingOf,
} from './argocd-features';
import { badValue, ErrorCode } from './errors';

/**
 * The Argo CD release an Application is rendered for.
 *
 * Fields that a release does not have are never emitted for it (for example `automated.enabled`, which
 * exists from Argo CD 3.1), and the audit rules read an Application as that release does. Every minor
 * release from 2.14 to 3.5 is known; each has a constant, and the output for each is validated against
 * that release's Application and AppProject CRDs.
 *
 * A release newer than the newest known one: a later 3.x minor (`3.6`, `3.10`) is accepted and treated
 * as the newest known release, {@link ArgoCdVersion.LATEST}: within a major, Argo CD adds CRD fields and
 * removes none (no release from 2.14 to 3.5 removed a field from the Application or AppProject CRD), so what is
 * rendered for 3.5 is valid for a later 3.x, and a newer field is simply not written. This is what the
 * advice "pick the newest known release that is not newer than yours" gives, without failing a pipeline
 * the day Argo CD is upgraded. A later major (`4.0`) is refused: a major release is where Argo CD changes
 * defaults and meanings (3.0 changed the tracking method and the status diff), so rendering for it needs
 * a release of this library that knows it.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/upgrading/overview/
 */
export class ArgoCdVersion {
  /** Argo CD 2.14, the oldest supported release and the last 2.x. */
  public static readonly V2_14 = new ArgoCdVersion(2, 14);
  /** Argo CD 3.0: annotation tracking and the `status` of every resource ignored in diffs, by default. */
  public static readonly V3_0 = new ArgoCdVersion(3, 0);
  /** Argo CD 3.1: the first release with `syncPolicy.automated.enabled`. */
  public static readonly V3_1 = new ArgoCdVersion(3, 1);
  /** Argo CD 3.2: the UI shows `automated.enabled: false` as no auto-sync (argo-cd #24254). */
  public static readonly V3_2 = new ArgoCdVersion(3, 2);
  /** Argo CD 3.3: the first release with PreDelete hooks (argo-cd #22288). */
  public static readonly V3_3 = new ArgoCdVersion(3, 3);
  /** Argo CD 3.4. */
  public static readonly V3_4 = new ArgoCdVersion(3, 4);
  /** Argo CD 3.5. */
  public static readonly V3_5 = new ArgoCdVersion(3, 5);
  /** The newest known release, 3.5. A later 3.x minor is rendered as this one. */
  public static readonly LATEST = ArgoCdVersion.V3_5;

  /** Every known minor release, oldest first. */
  public static all(): ArgoCdVersion[] {
    return [
      ArgoCdVersion.V2_14, ArgoCdVersion.V3_0, ArgoCdVersion.V3_1, ArgoCdVersion.V3_2,
      ArgoCdVersion.V3_3, ArgoCdVersion.V3_4, ArgoCdVersion.V3_5,
    ];
  }

  /**
   * The release a text names, from 2.14 on.
   *
   * The text is `major.minor`, with an optional patch (a number or `x`) and an optional `v`. The patch is
   * ignored: patches of a minor have the same fields. A 3.x minor newer than the newest known one gives
   * {@link ArgoCdVersion.LATEST} (see the class documentation).
   *
   * @param version for example `'3.4'`, `'3.4.7'`, `'v3.2.1'` or `'2.14.x'`
   * @throws [SAFE-005] when the text is no release (`3`, `3.4.7.1`, `latest`, `3.04`), or names one older
   * than 2.14, a 2.x after 2.14 (there is none), or a major newer than 3
   * @see https://github.com/argoproj/argo-cd/releases
   */
  public static of(version: string): ArgoCdVersion {
    const parsed = typeof version === 'string' || typeof version === 'number' ? parseRelease(String(version)) : undefined;
    if (!parsed) {
      throw ArgoCdVersion.refuse(version,
        'must name an Argo CD release as major.minor, optionally with a patch number or x and a leading v (3.4, 3.4.7, v3.2.1, 2.14.x)',
        `write the release of the Argo CD you run that way, e.g. '${releaseName(NEWEST_RELEASE)}' (\`argocd version\` shows it)`);
    }
    const name = releaseName(parsed);
    const known = `${releaseName(OLDEST_RELEASE)} to ${releaseName(NEWEST_RELEASE)}`;
    switch (standingOf(parsed)) {
      case 'known':
        return ArgoCdVersion.all().find((v) => compareReleases(v, parsed) === 0)!;
      case 'newerMinor':
        return ArgoCdVersion.LATEST;
      case 'tooOld':
        throw ArgoCdVersion.refuse(version,
          `must be Argo CD ${releaseName(OLDEST_RELEASE)} or newer; ${name} is older than every supported release (${known})`,
          `upgrade Argo CD to ${releaseName(OLDEST_RELEASE)} or newer, then name that release`);
      case 'noSuchRelease':
        throw ArgoCdVersion.refuse(version,
          `must be a released Argo CD version; there is no ${name}: the last ${parsed.major}.x release is ${ArgoCdVersion.lastMinorOf(parsed.major)}`,
          'name the release of the Argo CD you run (`argocd version` shows it)');
      case 'newerMajor':
        throw ArgoCdVersion.refuse(version,
          `must be Argo CD ${known} or a later ${NEWEST_RELEASE.major}.x; ${name} is a new major release, which may change what an Application means, and this library does not know it yet`,
          `upgrade cdk8s-safe-argocd to a release that knows Argo CD ${parsed.major}; until then, name '${releaseName(NEWEST_RELEASE)}' only once the upgrade notes of Argo CD ${name} show that nothing rendered changed`);
    }
  }

  private static refuse(version: unknown, allowed: string, fix: string): Error {
    return badValue(ErrorCode.UNKNOWN_VERSION, 'ArgoCdVersion.of', 'version', version, allowed, fix);
  }

  private static lastMinorOf(major: number): string {
    const minors = KNOWN_RELEASES.filter((r) => r.major === major);
    return releaseName(minors[minors.length - 1]);
  }

  /** The major release number, for example 3. */
  public readonly major: number;
  /** The minor release number, for example 4. */
  public readonly minor: number;
  /** `major.minor`, for example `3.4`. */
  public readonly version: string;

  private constructor(major: number, minor: number) {
    this.major = major;
    this.minor = minor;
    this.version = releaseName({ major, minor });
  }

  /** Whether this release is `major.minor` or newer. */
  public isAtLeast(major: number, minor: number): boolean {
    return compareReleases(this, { major, minor }) >= 0;
  }

  /**
   * Whether `syncPolicy.automated.enabled` exists (Argo CD 3.1 and newer; the UI honours `false` from 3.2, argo-cd #24254).
   */
  public get hasAutomatedEnabled(): boolean {
    return hasFeature(this, 'automatedEnabled');
  }
}
