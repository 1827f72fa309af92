import { Severity } from './severity';
import { ArgoCdVersion } from '../core/argocd-version';
import { Manifest } from '../core/manifest';


/**
 * What a rule looks at: one Argo CD Application and the manifests it deploys.
 * Rules are pure: the same input gives the same findings, and nothing is changed.
 */
export interface RuleInput {
  /** The Application, when there is one (an audit may also check loose manifests). */
  readonly application?: Manifest;
  /** The manifests the Application deploys (never including the Application itself). */
  readonly resources: readonly Manifest[];
  /**
   * Objects the Application names but does not deploy: the AppProject it belongs to, wherever the repository holds it,
   * and the repository and cluster Secrets scoped to that project.
   * Only the rules about that reference read them; the others judge what the Application deploys, not these.
   */
  readonly context?: readonly Manifest[];
  /** The Argo CD release the Application is meant for. */
  readonly argoCdVersion: ArgoCdVersion;
  /** Today's date (`YYYY-MM-DD`, UTC), for rules about expiry; rules that need it skip that check without it. */
  readonly today?: string;
  /** What an audit knows of the repository it reads; a synth, which writes the repository, knows none of it. */
  readonly repository?: RepositoryFacts;
  /**
   * Whether `resources` are every object the Application deploys: an audit says so when each of its sources that
   * deploys anything is a plain folder of the audited repository, or when a rendering of it was given (`--rendered`).
   * Absent, it is not known: a Helm chart, Kustomize, a plugin or another repository may deploy objects not among them.
   */
  readonly complete?: boolean;
}

/** The repository an audit reads, as the rules about source paths need it. */
export interface RepositoryFacts {
  /** Whether its URL was given (`--repo-url`, the Git remote) rather than inferred from the source paths it holds. */
  readonly identified?: boolean;
  /** Whether Argo CD, reading `repoURL`, reads the audited files. */
  isAudited(repoURL: string): boolean;
  /** Whether the repository holds the folder, spelled as `repositoryDir` of core/source-paths.ts spells it. */
  hasDirectory(dir: string): boolean;
  /**
   * Whether the audited files cover the folder, so that {@link hasDirectory}'s no means it is not there: an audit of
   * `apps/` knows nothing of `workloads/`. Absent: every folder is covered.
   */
  knowsDirectory?(dir: string): boolean;
  /** Whether the repository holds the file (relative to its root, `/`-separated). Absent: not known. */
  hasFile?(file: string): boolean;
  /** The text of a YAML or JSON file of the repository (relative to the root, `/`-separated); undefined when it is not there or not text. */
  fileText?(file: string): string | undefined;
  /** The folder (relative to the root, `.` for it) of the kustomization file an object was read from; undefined otherwise. */
  folderOf?(object: Manifest): string | undefined;
}

/** One Application among all those of an audit, with the file it is written in (relative to the repository root). */
export interface ApplicationSite {
  readonly application: Manifest;
  readonly file: string;
}

/** What a rule's check reports: which object, where in it, and what is wrong. */
export interface Violation {
  /** The object the finding is about (the same reference that was passed in). */
  readonly object: Manifest;
  /** RFC 6901 pointer into the object, `''` for the whole object. */
  readonly path: string;
  /** One sentence, specific to this object. */
  readonly message: string;
  /** The offending value, when there is one. */
  readonly value?: unknown;
}

/** A rule of the engine: metadata for docs and reports, and a pure check. */
export interface Rule {
  /** Stable id, `SA` and three digits; never reused. */
  readonly id: string;
  /** Short kebab-case name. */
  readonly name: string;
  readonly severity: Severity;
  /** One line: what is wrong. */
  readonly summary: string;
  /** Why it matters in Argo CD's terms, with issue references. */
  readonly explanation: string;
  /** What to change. */
  readonly fix: string;
  /**
   * Whether only `safe-argocd audit` runs the rule, not a synth: for what is fine while an app is drafted
   * and must be gone before it is deployed.
   */
  readonly auditOnly?: boolean;
  /** Checks one Application and its manifests. */
  check(input: RuleInput): Violation[];
  /**
   * For a rule about Applications together rather than one at a time (names that collide): checks every
   * Application of an audit at once, in the order given. Such a rule's `check` finds nothing and it is `auditOnly`;
   * `safe-argocd audit` calls this once, through `runRulesAcross`.
   */
  checkAcross?(applications: readonly ApplicationSite[]): Violation[];
}

/** A violation together with its rule, after suppressions were applied. */
export interface Finding extends Violation {
  readonly rule: Rule;
  /** The reason of the suppression that silenced it, if one did. */
  readonly suppressedBecause?: string;
}
