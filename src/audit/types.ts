import { SourceLocation } from '../core/manifest';
import { Severity } from '../rules/severity';

/** A file that could not be audited, and why. */
export interface FileProblem {
  readonly file: string;
  readonly message: string;
  /**
   * Set when the file is one given as rendered manifests (`--rendered`), whose path is as given, not relative to the
   * repository root: a tree file of the same path is another file.
   */
  readonly rendered?: boolean;
}

/**
 * Thrown by a file's `content` when the file is left unread on purpose (over the size limit): its message is the
 * problem as the report gives it, not a read error.
 */
export class UnreadFile extends Error {}

/** A file handed to the audit: its path relative to the repository root, and its bytes. */
export interface AuditFile {
  readonly path: string;
  readonly content: Uint8Array;
}

/** What the audit is told of the repository its files come from. */
export interface AuditedRepository {
  /**
   * The URLs Argo CD reads it by (`--repo-url`, else the Git remote): only sources with one of these repoURLs are
   * paired with the audited files. None: the repoURLs whose source paths the files hold are taken to be it.
   */
  readonly urls?: readonly string[];
  /** Paths of its other files (neither YAML nor JSON), relative to its root: folders and source types they make. */
  readonly otherFiles?: readonly string[];
  /**
   * Its symbolic links to folders inside it, each as the link's path and the folder's, relative to its root: a path
   * through a link names the folder's files, as it does for Argo CD and Kustomize (the files are read at the folder).
   */
  readonly folderLinks?: readonly FolderLink[];
  /**
   * The paths audited, relative to its root (`.` for all of it): of a folder outside them, the audit knows nothing, and
   * does not call it missing. None: the files are all of the repository.
   */
  readonly auditedPaths?: readonly string[];
}

/** A symbolic link to a folder: its own path and the folder's, relative to the repository's root. */
export interface FolderLink {
  readonly path: string;
  readonly target: string;
}

/** What Argo CD renders for one Application (`kustomize build`, `helm template`, `argocd app manifests`). */
export interface RenderedManifests {
  /** The Application's `metadata.name`, or `namespace/name` when names repeat across namespaces. */
  readonly application: string;
  readonly file: AuditFile;
}

/** A suppression from the project's config file. */
export interface ConfigSuppression {
  readonly ruleId: string;
  readonly reason: string;
  /** Path prefixes (relative to the repository root) the suppression is limited to; none means everywhere. */
  readonly paths: readonly string[];
  /** Application names the suppression is limited to; none means every application. */
  readonly applications: readonly string[];
}

/** What the audit reports for one rule violation. */
export interface AuditFinding {
  readonly ruleId: string;
  readonly ruleName: string;
  readonly severity: Severity;
  readonly message: string;
  readonly fix: string;
  /** RFC 6901 pointer into the object. */
  readonly pointer: string;
  /** `Kind namespace/name` of the object. */
  readonly object: string;
  readonly location: SourceLocation;
  /** The Application the object belongs to, if any. */
  readonly application?: string;
  /** Set when a suppression silenced the finding. */
  readonly suppression?: { readonly reason: string; readonly source: 'annotation' | 'config' };
}

/** The audit of a set of files. */
export interface AuditResult {
  /** Unsuppressed findings, ordered by file, line, column and rule. */
  readonly findings: readonly AuditFinding[];
  /** Findings a suppression silenced, in the same order. */
  readonly suppressed: readonly AuditFinding[];
  /** Files that could not be read or parsed; the rest were audited. */
  readonly problems: readonly FileProblem[];
  /** Things the audit could not check, e.g. an Application whose Helm source is not rendered. */
  readonly notes: readonly string[];
  /** Unsuppressed findings a baseline holds: known, reported apart, and never failing a run. */
  readonly baselined: readonly AuditFinding[];
  /** Entries of the baseline that no finding matched any more (fixed, or their file or object renamed). */
  readonly staleBaselineEntries: number;
  readonly stats: AuditStats;
  /**
   * Top folders whose Argo CD objects no Application of the audited files deploys, while a root deploys Applications
   * from folders of its own: where a repository may keep switched-off Applications. Their findings hold only if
   * something else applies them; set only when there are any.
   */
  readonly undeployedFolders?: readonly string[];
  /**
   * Helm chart files (skipped as templates) that hold Argo CD objects: Applications, ApplicationSets or AppProjects
   * that only a rendering of the chart shows the audit; set only when there are any.
   */
  readonly chartArgoCdFiles?: readonly string[];
}

export interface AuditStats {
  readonly files: number;
  /** Kubernetes objects audited: those of the files Argo CD applies as written, and of the rendered manifests given; kustomization files are read but not counted. */
  readonly manifests: number;
  readonly applications: number;
  /** YAML documents that are not Kubernetes objects (no apiVersion and kind), skipped quietly. */
  readonly skippedDocuments: number;
  /** Files skipped because they are Helm chart templates (audit the rendered output instead). */
  readonly skippedTemplates: number;
  /** Files an exclude pattern left out, unread. */
  readonly excludedFiles: number;
  /** Set when the files hold ApplicationSets: how many were expanded, how many audited as their literal template, and the Applications generated. */
  readonly applicationSets?: { readonly expanded: number; readonly literal: number; readonly generated: number };
}
