import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, AppProps } from 'cdk8s';
import { IConstruct } from 'constructs';
import type { SafeApplication } from './safe-application';
import { badValue, ErrorCode, failure } from '../core/errors';
import { compareStrings } from '../core/order';
import { writeTreeAtomically } from '../private/atomic-write';
import { GitOpsLayout, isGitOpsPart } from '../private/gitops-part';
import { compileJq } from '../private/jq';
import { cdk8sConfiguredOutput, gitRoot, pathInside } from '../private/repository';
import { SAFE_APPLICATION, SynthIndex, withSynthIndex } from '../private/synth-index';
import { manifestYaml } from '../private/yaml-output';

const GITOPS_APP = Symbol.for('cdk8s-safe-argocd.GitOpsApp');

/**
 * Props of a {@link GitOpsApp}.
 */
export interface GitOpsAppProps {
  /**
   * The folder the GitOps tree is written to. The folder belongs to the synth: it is replaced as a whole.
   *
   * @default - `CDK8S_OUTDIR` when run by `cdk8s synth`, else `dist`
   */
  readonly outdir?: string;

  /**
   * Where `outdir` lies in the Git repository Argo CD reads, relative to the repository root
   * (`.` for the root). Every Application's `source.path` starts with it.
   *
   * @default - where `outdir` lies in the Git work tree of the working directory (the nearest folder with
   * `.git` from there up; the working directory itself outside any work tree). When `outdir` lies outside that
   * tree, as the temporary folder of `cdk8s synth --stdout` does, the tree is taken to land where `cdk8s.yaml`
   * in the working directory says the cdk8s CLI writes (its `output`), else in `dist`.
   */
  readonly outdirFromRepoRoot?: string;

  /**
   * The folder, inside `outdir`, that receives one folder per AppProject, holding the project's
   * Applications (`<project>/Application.<name>.k8s.yaml`) and the AppProject itself. An app-of-apps root
   * per project points at its folder.
   *
   * @default 'applications'
   */
  readonly applicationsDir?: string;

  /**
   * The folder, inside `outdir`, that receives one folder of workload manifests per Application
   * (`<name>/<Kind>.<name>.k8s.yaml`). Each Application's `source.path` is its folder here.
   *
   * @default 'workloads'
   */
  readonly workloadsDir?: string;

  /**
   * The file extension of every written manifest.
   *
   * @default '.k8s.yaml'
   */
  readonly outputFileExtension?: string;
}

/**
 * One file of the GitOps tree, as the synth would write it.
 */
export interface RenderedFile {
  /** The path relative to `outdir`, with `/` separators. */
  readonly path: string;
  /** The file's content. */
  readonly content: string;
}

/**
 * A cdk8s App that writes a self-consistent GitOps tree:
 *
 * ```
 * <outdir>/applications/<app>.k8s.yaml                 the Application of each SafeApplication
 * <outdir>/workloads/<app>/<Kind>.<name>.k8s.yaml      what it deploys; its source.path points here
 * ```
 *
 * Synthesis first validates everything (every SafeApplication runs the rules over its own manifests),
 * then renders into a temporary folder next to `outdir` and swaps it in. When validation fails or the
 * process dies mid-write, the previous output stays as it was. Output is byte-for-byte deterministic.
 */
export class GitOpsApp extends App {
  /** Whether `x` is a GitOpsApp. */
  public static isGitOpsApp(x: unknown): x is GitOpsApp {
    return typeof x === 'object' && x !== null && GITOPS_APP in x;
  }

  /** The GitOpsApp at the root of `scope`'s tree, if the root is one. */
  public static findRoot(scope: IConstruct): GitOpsApp | undefined {
    const root = scope.node.root;
    return GitOpsApp.isGitOpsApp(root) ? root : undefined;
  }

  /** `outdir` relative to the repository root, `/`-separated; empty for the root itself. */
  public readonly outdirFromRepoRoot: string;
  /** The folder of Application files, inside `outdir`. */
  public readonly applicationsDir: string;
  /** The folder of workload folders, inside `outdir`. */
  public readonly workloadsDir: string;
  /** The folder of app-of-apps roots, inside `outdir`. */
  public readonly rootsDir: string;
  /** The folder of break-glass runbooks, inside `outdir`. */
  public readonly runbooksDir: string;

  public constructor(props: GitOpsAppProps = {}) {
    const appProps: AppProps = {
      outdir: props.outdir,
      outputFileExtension: props.outputFileExtension,
    };
    super(appProps);
    Object.defineProperty(this, GITOPS_APP, { value: true });
    this.applicationsDir = checkFolder(this, 'applicationsDir', props.applicationsDir ?? 'applications', false);
    this.workloadsDir = checkFolder(this, 'workloadsDir', props.workloadsDir ?? 'workloads', false);
    this.rootsDir = 'roots';
    this.runbooksDir = 'runbooks';
    this.outdirFromRepoRoot = checkFolder(this, 'outdirFromRepoRoot', props.outdirFromRepoRoot ?? defaultOutdirFromRepoRoot(this.outdir), true);
    if (this.applicationsDir === this.workloadsDir) {
      throw badValue(ErrorCode.INVALID_OUTPUT_LAYOUT, this, 'workloadsDir', this.workloadsDir,
        'must differ from applicationsDir, or Argo CD would deploy Applications as workloads', 'keep the defaults, \'applications\' and \'workloads\'');
    }
  }

  /**
   * A folder of the tree (relative to `outdir`), as Argo CD's `source.path`: relative to the repository root.
   */
  public repoPathOf(folder: string): string {
    return path.posix.join(this.outdirFromRepoRoot, folder);
  }

  /**
   * The folder, relative to the repository root, that the workloads of the Application named
   * `applicationName` are written to. It is that Application's `source.path`.
   */
  public workloadPathFor(applicationName: string): string {
    return path.posix.join(this.outdirFromRepoRoot, this.workloadsDir, applicationName);
  }

  /**
   * Validates the whole app and renders the GitOps tree, without writing anything.
   *
   * @throws listing every violation, with construct path, rule id, value and fix
   */
  public renderFiles(): RenderedFile[] {
    // The tree does not change from here on: one walk and one rendering of each object serve the whole synth.
    return withSynthIndex(this, (index) => this.renderIndexed(index, 'nothing was written'));
  }

  /** @param nothingWritten what a failure says of the output, which it leaves alone */
  private renderIndexed(index: SynthIndex, nothingWritten: string): RenderedFile[] {
    this.validateAll(index, nothingWritten);
    const layout = this.layout();
    const files: RenderedFile[] = [];
    const owners = new Map<string, string>();
    const duplicates: string[] = [];
    for (const part of index.all.filter(isGitOpsPart)) {
      for (const file of part._renderGitOpsFiles(layout)) {
        const other = owners.get(file.path);
        if (other !== undefined) {
          duplicates.push(`${part.node.path}: [${ErrorCode.DUPLICATE}] ${file.path} is also written by ${other}. Fix: give each SafeApplication and SafeProject its own name.`);
          continue;
        }
        owners.set(file.path, part.node.path);
        // Each manifest starts a YAML document, so that files printed one after another (`cdk8s synth --stdout`)
        // are one valid stream.
        files.push({ path: file.path, content: file.text ?? `---\n${manifestYaml(file.manifest)}` });
      }
    }
    if (duplicates.length > 0) {
      throw failure(ErrorCode.RULE_VIOLATIONS, `synth found ${duplicates.length} problem(s); ${nothingWritten}:\n`
        + duplicates.map((e) => `  - ${e}`).join('\n'));
    }
    return files.sort((a, b) => compareStrings(a.path, b.path));
  }

  /** Where things go, for the parts of the tree. */
  private layout(): GitOpsLayout {
    const ext = this.outputFileExtension;
    return {
      extension: ext,
      applicationsFolder: (project) => `${this.applicationsDir}/${project}`,
      rootsFolder: this.rootsDir,
      workloadsFolder: (application) => `${this.workloadsDir}/${application}`,
      runbooksFolder: this.runbooksDir,
    };
  }

  /**
   * Validates, renders and writes the GitOps tree to `outdir`, replacing it only once everything
   * rendered. On any error the previous content of `outdir` is left as it was.
   */
  public override synth(): void {
    try {
      const files = withSynthIndex(this, (index) => this.renderIndexed(index, this.nothingWritten()));
      writeTreeAtomically(this.outdir, files);
    } catch (e) {
      // The message says what is wrong and where in the app; the trace starts at the caller's synth() line
      // instead of going through this library's internals.
      if (e instanceof Error) {
        Error.captureStackTrace(e, GitOpsApp.prototype.synth);
      }
      throw e;
    }
  }

  /**
   * What a failed synth left of the output, as it is: the cdk8s CLI removes the output folder before it runs the
   * app, so the folder is not always there to be unchanged.
   */
  private nothingWritten(): string {
    const outdir = JSON.stringify(this.outdir);
    return fs.existsSync(this.outdir) ? `nothing was written and ${outdir} is unchanged` : `nothing was written to ${outdir}`;
  }

  private validateAll(index: SynthIndex, nothingWritten: string): void {
    const apps = index.all.filter((c): c is SafeApplication => isSafeApplication(c));
    // One jq process for the whole synth; each app's own validation then reads the cached answers.
    compileJq(apps.flatMap((a) => a.ignoreRules.filter((r) => r.needsJqCompile).map((r) => r.value)));

    const errors: string[] = [];
    for (const c of index.all) {
      for (const message of c.node.validate()) {
        errors.push(`${c.node.path}: ${message}`);
      }
    }
    errors.push(...this.layoutErrors(apps, index));
    if (errors.length > 0) {
      throw failure(ErrorCode.RULE_VIOLATIONS,
        `synth found ${errors.length} problem(s); ${nothingWritten}:\n`
        + errors.map((e) => `  - ${e}`).join('\n'));
    }
  }

  private layoutErrors(apps: SafeApplication[], index: SynthIndex): string[] {
    const errors: string[] = [];
    const byName = new Map<string, SafeApplication>();
    for (const app of apps) {
      const other = byName.get(app.applicationName);
      if (other) {
        errors.push(`${app.node.path}: [${ErrorCode.DUPLICATE}] the Application name ${JSON.stringify(app.applicationName)} is also used by ${other.node.path}; `
          + 'both would be written to the same files and Argo CD would see one app. Fix: give each SafeApplication its own name.');
      }
      byName.set(app.applicationName, app);
    }
    for (const c of index.all) {
      if (ApiObject.isApiObject(c) && !insideGitOpsPart(c)) {
        errors.push(`${c.node.path}: [${ErrorCode.UNOWNED_OBJECT}] ${c.kind} ${c.name} is not inside a SafeApplication, so no Application `
          + 'would deploy it and it would not be written. Fix: define it inside the SafeApplication that should deploy it.');
      }
    }
    return errors;
  }
}

function isSafeApplication(c: IConstruct): c is SafeApplication {
  return SAFE_APPLICATION in c;
}

function insideGitOpsPart(c: IConstruct): boolean {
  for (let s: IConstruct | undefined = c; s; s = s.node.scope) {
    if (isGitOpsPart(s)) {
      return true;
    }
  }
  return false;
}

/** Where `outdir` lies in the repository, when the app does not say: see `GitOpsAppProps.outdirFromRepoRoot`. */
function defaultOutdirFromRepoRoot(outdir: string): string {
  const cwd = process.cwd();
  const root = gitRoot(cwd) ?? cwd;
  for (const folder of [outdir, cdk8sConfiguredOutput(cwd)]) {
    const inside = folder === undefined ? undefined : pathInside(root, path.resolve(cwd, folder));
    if (inside !== undefined) {
      return inside;
    }
  }
  // The work tree holds the working directory, so it holds its dist/ too.
  return pathInside(root, path.resolve(cwd, 'dist'))!;
}

function checkFolder(app: IConstruct, prop: string, value: string, allowRoot: boolean): string {
  const slashed = typeof value === 'string' ? path.posix.normalize(value.replace(/\\/g, '/')) : '';
  // normalize leaves at most one trailing slash
  const normalized = slashed.replace(/\/$/, '');
  const bad = typeof value !== 'string'
    || path.posix.isAbsolute(slashed)
    || normalized.split('/').includes('..')
    || (!allowRoot && normalized === '.');
  if (bad) {
    throw badValue(ErrorCode.INVALID_OUTPUT_LAYOUT, app, prop, value,
      `must be a relative folder without ".."${allowRoot ? '' : ' and not "."'}`, prop === 'outdirFromRepoRoot' ? 'give the path of outdir from the repository root, e.g. \'deploy/rendered\'' : 'keep the default');
  }
  return normalized === '.' ? '' : normalized;
}
