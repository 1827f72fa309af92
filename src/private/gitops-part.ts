import { IConstruct } from 'constructs';

/** Marks a construct that contributes files to the GitOps tree a GitOpsApp writes. */
export const GITOPS_PART = Symbol.for('cdk8s-safe-argocd.GitOpsPart');

/** Where things go in the GitOps tree, relative to outdir, and how to name a folder for Argo CD. */
export interface GitOpsLayout {
  readonly extension: string;
  /** The folder of app-of-apps roots, applied once by hand or by a higher root. */
  readonly rootsFolder: string;
  /** The folder of break-glass runbooks. */
  readonly runbooksFolder: string;
  /** The folder of one project's Applications and its AppProject, e.g. `applications/payments`. */
  applicationsFolder(project: string): string;
  /** The folder of one Application's workloads, e.g. `workloads/checkout`. */
  workloadsFolder(application: string): string;
}

/** One file a part contributes: a path relative to outdir, and either manifests or text. */
export interface PartFile {
  readonly path: string;
  readonly manifest?: Record<string, unknown>;
  readonly text?: string;
}

/** A construct that contributes files to the GitOps tree. */
export interface GitOpsPart extends IConstruct {
  _renderGitOpsFiles(layout: GitOpsLayout): PartFile[];
}

export function isGitOpsPart(x: unknown): x is GitOpsPart {
  return typeof x === 'object' && x !== null && GITOPS_PART in x;
}
