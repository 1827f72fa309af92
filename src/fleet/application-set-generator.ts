import { ArgoCdFeature } from '../core/argocd-features';
import { badValue, ErrorCode } from '../core/errors';
import { isGitRepoUrl, isLabelValue, isQualifiedName } from '../core/names';
import { fixedRevisionProblem } from '../private/app-checks';
import { hasAction } from '../private/go-template';

/** The parameters the cluster generator gives every cluster (applicationset/generators/cluster.go, v3.5.1). */
const CLUSTER_PARAMETERS = ['name', 'nameNormalized', 'server', 'project'];

/**
 * What the git generators give under `path` with goTemplate (applicationset/generators/git.go, v3.5.1): the
 * folder, its last segment, that made safe for names, and its segments; the files generator adds the file's name.
 */
const GIT_DIRECTORY_PATH = { path: 'string', basename: 'string', basenameNormalized: 'string', segments: 'list' } as const;
const GIT_FILE_PATH = { ...GIT_DIRECTORY_PATH, filename: 'string', filenameNormalized: 'string' } as const;

/** A parameter name Go templates can read as `.name`. */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A dotted parameter path a Go template can read as `.cluster.address`. */
const PARAMETER_PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * Options of the cluster generator.
 */
export interface ClusterGeneratorOptions {
  /**
   * Only the clusters whose Argo CD cluster Secret carries all these labels. A selector also leaves out
   * the local cluster when it has no Secret.
   *
   * @default - every cluster registered in Argo CD, now and in the future, including the local cluster
   * (`in-cluster`, `https://kubernetes.default.svc`), for which the generator gives no `metadata` parameter
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-Cluster/#label-selector
   */
  readonly matchLabels?: { [key: string]: string };
}

/**
 * Where a git generator reads, and what it leaves out or prefixes. Shared by the directory and file generators.
 */
export interface GitGeneratorOptions {
  /**
   * Path globs (Go's `path.Match` for directories: `*` stops at `/`; a `git ls-files` pathspec for files: `*`
   * crosses `/`), relative to the repository root. Each match is one set of parameters.
   *
   * @example ['apps/*']
   */
  readonly include: string[];

  /**
   * Path globs left out even when `include` matches them. Files generators have it from Argo CD 3.1 only
   * (argo-cd #22734): on an older release the field is dropped and the files it should leave out generate
   * Applications, so it is refused there.
   *
   * @default - nothing left out
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-Git/#exclude-directories
   */
  readonly exclude?: string[];

  /**
   * The repository the generator reads.
   *
   * @default - the ApplicationSet's `repoUrl`
   */
  readonly repoUrl?: string;

  /**
   * The branch, tag or commit the generator reads. `HEAD` and an empty value are refused as everywhere in this
   * library: they follow the repository's default branch, whatever someone decides it is. When the generator
   * reads the ApplicationSet's own repository, it must read the revision the Applications deploy, so that every
   * folder it finds exists where they look.
   *
   * @default - the ApplicationSet's `targetRevision`
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/tracking_strategies/
   */
  readonly revision?: string;

  /**
   * Puts the path parameters under this name: `{{.app.path.basename}}` instead of `{{.path.basename}}`. Needed when
   * two git generators are combined in a matrix, whose parameters would otherwise collide.
   *
   * @default - the parameters are under `path`
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-Git/#git-generator-directories
   */
  readonly pathParamPrefix?: string;
}

/**
 * Options of the git files generator.
 */
export interface GitFilesGeneratorOptions extends GitGeneratorOptions {
  /**
   * The parameters every matched file gives (its keys, dotted for nested maps: `cluster.address`). The template
   * may read these and the path parameters; the files themselves are read by Argo CD, not at synth, so the
   * list is what the synth checks the template against. `safe-argocd audit` renders the files of the repository
   * it audits and reports a file that lacks one.
   *
   * @example ['cluster.name', 'cluster.address']
   */
  readonly parameters: string[];
}

/** The kinds of generator this library renders. */
type Kind = 'list' | 'clusters' | 'gitDirectories' | 'gitFiles' | 'matrix' | 'merge';

interface GitSource {
  readonly repoUrl?: string;
  readonly revision?: string;
  readonly include: string[];
  readonly exclude: string[];
  readonly prefix?: string;
  readonly parameters?: string[];
}

/**
 * Where the parameters of a `SafeApplicationSet`'s template come from. Each generator produces one
 * set of parameters per Application; the template reads them as `{{.name}}`.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators/
 */
export class ApplicationSetGenerator {
  /**
   * One Application per element. Each element maps parameter names (letters, digits and `_`, so that
   * `{{.name}}` can read them) to string values; every parameter the template reads must be in every element.
   *
   * @param elements e.g. `[{ name: 'eu', namespace: 'checkout-eu' }, { name: 'us', namespace: 'checkout-us' }]`
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-List/
   */
  public static list(elements: { [key: string]: string }[]): ApplicationSetGenerator {
    const where = 'ApplicationSetGenerator.list';
    if (!Array.isArray(elements) || elements.length === 0) {
      throw badValue(ErrorCode.INVALID_GENERATOR, where, 'elements', elements,
        'must be a non-empty list: a list generator without elements generates no Application', 'give one element per Application, e.g. [{ name: \'eu\' }, { name: \'us\' }]');
    }
    const copies = elements.map((element, i) => {
      if (typeof element !== 'object' || element === null || Array.isArray(element) || Object.keys(element).length === 0) {
        throw badValue(ErrorCode.INVALID_GENERATOR, where, `elements[${i}]`, element,
          'must be a non-empty map of parameter names to string values', 'give the parameters this Application is made from, e.g. { name: \'eu\', namespace: \'checkout-eu\' }');
      }
      for (const [key, value] of Object.entries(element)) {
        if (!PARAMETER_NAME.test(key)) {
          throw badValue(ErrorCode.INVALID_GENERATOR, where, `elements[${i}]`, key,
            'has a parameter name that a Go template cannot read as {{.name}}: use letters, digits and "_", not starting with a digit', `rename the parameter, e.g. ${JSON.stringify(key.replace(/\W+/g, '_').replace(/^(\d)/, '_$1') || 'name')}`);
        }
        if (typeof value !== 'string') {
          throw badValue(ErrorCode.INVALID_GENERATOR, where, `elements[${i}].${key}`, value,
            'must be a string', 'write the value as a string, e.g. "3"');
        }
      }
      // Sorted, so the output does not depend on the order the caller built the element in.
      return Object.fromEntries(Object.keys(element).sort().map((k) => [k, element[k]]));
    });
    return new ApplicationSetGenerator('list', { list: { elements: copies } }, { elements: copies });
  }

  /**
   * One Application per cluster registered in Argo CD, optionally only those whose cluster Secret has
   * the given labels. The template can read `name`, `nameNormalized` (name made safe for Kubernetes names:
   * prefer it in Application names), `server`, `project` and, for clusters with a Secret,
   * `metadata.labels.<key>` and `metadata.annotations.<key>`.
   *
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-Cluster/
   */
  public static clusters(options: ClusterGeneratorOptions = {}): ApplicationSetGenerator {
    const labels = options.matchLabels ?? {};
    if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) {
      throw badValue(ErrorCode.INVALID_GENERATOR, 'ApplicationSetGenerator.clusters', 'matchLabels', labels,
        'must be a map of label keys to values', 'give the labels of the cluster Secrets to select, e.g. { env: \'prod\' }');
    }
    for (const [key, value] of Object.entries(labels)) {
      if (!isQualifiedName(key)) {
        throw badValue(ErrorCode.INVALID_GENERATOR, 'ApplicationSetGenerator.clusters', 'matchLabels', key,
          'is not a Kubernetes label key: an optional DNS subdomain and "/", then up to 63 letters, digits, "-", "_" or "."', 'use the label key as it is set on the cluster Secret, e.g. "env" or "example.com/tier"');
      }
      if (typeof value !== 'string' || !isLabelValue(value)) {
        throw badValue(ErrorCode.INVALID_GENERATOR, 'ApplicationSetGenerator.clusters', `matchLabels.${key}`, value,
          'is not a Kubernetes label value: up to 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit', 'use the label value as it is set on the cluster Secret, e.g. "prod"');
      }
    }
    const keys = Object.keys(labels).sort();
    const selected = keys.length > 0;
    const spec = selected ? { selector: { matchLabels: Object.fromEntries(keys.map((k) => [k, labels[k]])) } } : {};
    return new ApplicationSetGenerator('clusters', { clusters: spec }, { selected });
  }

  /**
   * One Application per folder of a Git repository that `include` matches and `exclude` does not. With the
   * goTemplate the ApplicationSet uses, the template reads `path.path` (the folder), `path.basename` (its last
   * segment), `path.basenameNormalized` (that made safe for Kubernetes names: prefer it in Application names)
   * and `path.segments` (a list: `index .path.segments 1`).
   *
   * A folder that disappears from Git (deleted, renamed, moved) no longer gives its Application; what the
   * controller does then is `applicationsSync` of the SafeApplicationSet, which by default keeps the Application.
   *
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-Git/#git-generator-directories
   */
  public static gitDirectories(options: GitGeneratorOptions): ApplicationSetGenerator {
    const source = checkGit('ApplicationSetGenerator.gitDirectories', options, undefined);
    return new ApplicationSetGenerator('gitDirectories', undefined, { git: source });
  }

  /**
   * One Application per YAML or JSON map in the files of a Git repository that `include` matches (a file
   * holding a list gives one per item). The template reads the file's keys declared in `parameters`, and
   * `path.path` (the file's folder), `path.basename`, `path.basenameNormalized`, `path.filename`,
   * `path.filenameNormalized` and `path.segments`. A file's own `path` key is overwritten by those.
   *
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-Git/#git-generator-files
   */
  public static gitFiles(options: GitFilesGeneratorOptions): ApplicationSetGenerator {
    const where = 'ApplicationSetGenerator.gitFiles';
    const declared = options?.parameters;
    if (!Array.isArray(declared)) {
      throw badValue(ErrorCode.INVALID_GENERATOR, where, 'parameters', declared,
        'must list the keys every matched file gives', 'e.g. [\'cluster.name\', \'cluster.address\'], or [] when the template reads only the path parameters');
    }
    const prefix = options.pathParamPrefix ?? 'path';
    for (const p of declared) {
      if (typeof p !== 'string' || !PARAMETER_PATH.test(p)) {
        throw badValue(ErrorCode.INVALID_GENERATOR, where, 'parameters', p,
          'holds a key a Go template cannot read as {{.cluster.name}}: letters, digits and "_" between dots', 'give the key as the files nest it, e.g. "cluster.name"');
      }
      if (p.split('.')[0] === prefix) {
        throw badValue(ErrorCode.INVALID_GENERATOR, where, 'parameters', p,
          `is under "${prefix}", where the generator puts the file's path and overwrites what the file says`, 'rename the key in the files, or set pathParamPrefix');
      }
    }
    const source = checkGit(where, options, [...new Set(declared)].sort());
    return new ApplicationSetGenerator('gitFiles', undefined, { git: source });
  }

  /**
   * Every combination of the parameter sets of two generators: one Application per pair, reading the
   * parameters of both (e.g. every folder of `apps/*` on every production cluster). A parameter both give is
   * refused: the controller would keep one of the two values and drop the other without a word.
   *
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-Matrix/
   */
  public static matrix(first: ApplicationSetGenerator, second: ApplicationSetGenerator): ApplicationSetGenerator {
    const where = 'ApplicationSetGenerator.matrix';
    const children = checkChildren(where, [first, second]);
    const shared = children[0]._topLevel().filter((p) => children[1]._topLevel().includes(p));
    if (shared.length > 0) {
      throw badValue(ErrorCode.INVALID_GENERATOR, where, 'second', shared.join(', '),
        'is a parameter both generators give: the matrix would keep one value and drop the other',
        'rename the list element keys, or give one git generator a pathParamPrefix');
    }
    return new ApplicationSetGenerator('matrix', undefined, { children });
  }

  /**
   * The parameter sets of the first generator, each merged with the set of every other generator that has the
   * same values for all `mergeKeys` (later generators win). Sets of the other generators with no match in the
   * first are dropped, so only the first generator's parameters reach every Application: the template may read a
   * parameter of another generator only when the first gives it too, as a default.
   *
   * @param mergeKeys top-level parameters every generator gives, e.g. `['server']`
   * @param generators two or more; the first gives the Applications
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-Merge/
   */
  public static merge(mergeKeys: string[], generators: ApplicationSetGenerator[]): ApplicationSetGenerator {
    const where = 'ApplicationSetGenerator.merge';
    if (!Array.isArray(generators) || generators.length < 2) {
      throw badValue(ErrorCode.INVALID_GENERATOR, where, 'generators', Array.isArray(generators) ? `${generators.length} generator(s)` : generators,
        'must hold at least two generators: the first gives the Applications, the others override its parameters', 'add the generator whose parameters override the first\'s');
    }
    const children = checkChildren(where, generators);
    if (!Array.isArray(mergeKeys) || mergeKeys.length === 0) {
      throw badValue(ErrorCode.INVALID_GENERATOR, where, 'mergeKeys', mergeKeys,
        'must name at least one parameter: without merge keys Argo CD refuses the merge', 'name the parameter that identifies an Application in every generator, e.g. [\'server\']');
    }
    for (const key of mergeKeys) {
      if (typeof key !== 'string' || !PARAMETER_NAME.test(key)) {
        throw badValue(ErrorCode.INVALID_GENERATOR, where, 'mergeKeys', key,
          'must be a top-level parameter: Argo CD looks a merge key up as one name, so "a.b" never matches', 'merge on a top-level parameter, e.g. "server"');
      }
      children.forEach((child, i) => {
        const missing = child._missing([key]);
        if (missing) {
          throw badValue(ErrorCode.INVALID_GENERATOR, where, 'mergeKeys', key,
            `is not given by generator ${i} (${missing.why}): its sets would all have the same empty key, which Argo CD refuses as not unique`, 'merge on a parameter every generator gives');
        }
      });
    }
    return new ApplicationSetGenerator('merge', undefined, { children, mergeKeys: [...new Set(mergeKeys)].sort() });
  }

  private readonly kind: Kind;
  private readonly fixed?: Record<string, unknown>;
  private readonly elements?: ReadonlyArray<{ readonly [key: string]: string }>;
  private readonly selected?: boolean;
  private readonly git?: GitSource;
  private readonly children?: readonly ApplicationSetGenerator[];
  private readonly mergeKeys?: readonly string[];

  private constructor(kind: Kind, fixed: Record<string, unknown> | undefined, parts: {
    readonly elements?: { [key: string]: string }[];
    readonly selected?: boolean;
    readonly git?: GitSource;
    readonly children?: ApplicationSetGenerator[];
    readonly mergeKeys?: string[];
  }) {
    this.kind = kind;
    this.fixed = fixed;
    this.elements = parts.elements;
    this.selected = parts.selected;
    this.git = parts.git;
    this.children = parts.children;
    this.mergeKeys = parts.mergeKeys;
  }

  /**
   * The generator as the ApplicationSet's `spec.generators[]` entry, git generators reading `defaults` where
   * they name no repository or revision of their own.
   * @internal
   */
  public _render(defaults: { readonly repoUrl: string; readonly revision: string }): Record<string, unknown> {
    if (this.fixed) {
      return JSON.parse(JSON.stringify(this.fixed));
    }
    if (this.git) {
      const g = this.git;
      const items = [...g.include.map((path) => ({ path })), ...g.exclude.map((path) => ({ path, exclude: true }))];
      return {
        git: {
          repoURL: g.repoUrl ?? defaults.repoUrl,
          revision: g.revision ?? defaults.revision,
          [this.kind === 'gitFiles' ? 'files' : 'directories']: items,
          ...(g.prefix !== undefined ? { pathParamPrefix: g.prefix } : {}),
        },
      };
    }
    const generators = (this.children ?? []).map((c) => c._render(defaults));
    return this.kind === 'matrix' ? { matrix: { generators } } : { merge: { mergeKeys: [...this.mergeKeys ?? []], generators } };
  }

  /**
   * The list elements; empty for other generators.
   * @internal
   */
  public _elements(): ReadonlyArray<{ readonly [key: string]: string }> {
    return this.elements ?? [];
  }

  /**
   * Whether this generator makes one Application per cluster (alone, or in a matrix or as the first of a merge).
   * @internal
   */
  public _perCluster(): boolean {
    if (this.kind === 'clusters') {
      return true;
    }
    if (this.kind === 'matrix') {
      return this.children!.some((c) => c._perCluster());
    }
    return this.kind === 'merge' ? this.children![0]._perCluster() : false;
  }

  /**
   * The git generators in this one, for the checks that need the ApplicationSet's repository and release.
   * @internal
   */
  public _gitSources(): { readonly repoUrl?: string; readonly revision?: string; readonly excludesFiles: boolean }[] {
    if (this.git) {
      return [{ repoUrl: this.git.repoUrl, revision: this.git.revision, excludesFiles: this.kind === 'gitFiles' && this.git.exclude.length > 0 }];
    }
    return (this.children ?? []).flatMap((c) => c._gitSources());
  }

  /**
   * The Argo CD features this generator's output needs, with the prop that asks for each.
   * @internal
   */
  public _features(): { readonly feature: ArgoCdFeature; readonly what: string; readonly field: string }[] {
    return this._gitSources().some((s) => s.excludesFiles)
      ? [{ feature: 'gitFilesExclude', what: 'a git files generator with exclude', field: 'spec.generators[].git.files[].exclude' }] : [];
  }

  /**
   * The top-level parameters this generator gives (some of them, for a list, only in some elements).
   * @internal
   */
  public _topLevel(): string[] {
    switch (this.kind) {
      case 'list': return [...new Set(this.elements!.flatMap((e) => Object.keys(e)))];
      case 'clusters': return [...CLUSTER_PARAMETERS, 'metadata'];
      case 'gitDirectories':
      case 'gitFiles': return [this.git!.prefix ?? 'path', ...(this.git!.parameters ?? []).map((p) => p.split('.')[0])];
      default: return [...new Set(this.children!.flatMap((c) => c._topLevel()))];
    }
  }

  /**
   * Why this generator does not give the field `chain` (`['path', 'basename']` for `.path.basename`) to every
   * Application it makes, or undefined when it does: the part of the field that is missing, dotted (`nmae`,
   * `path.basenam`), and why. Field access on a string or a list fails with missingkey=error as surely as a missing key.
   * @internal
   */
  public _missing(chain: string[]): { readonly parameter: string; readonly why: string } | undefined {
    const top = chain[0];
    switch (this.kind) {
      case 'list': {
        const i = this.elements!.findIndex((e) => !Object.prototype.hasOwnProperty.call(e, top));
        if (i >= 0) {
          return { parameter: top, why: `list element ${i} has no such parameter (it has ${Object.keys(this.elements![i]).join(', ')})` };
        }
        return chain.length > 1 ? { parameter: chain.slice(0, 2).join('.'), why: `the list elements give "${top}" as a string, which has no fields` } : undefined;
      }
      case 'clusters':
        if (CLUSTER_PARAMETERS.includes(top)) {
          return chain.length > 1 ? { parameter: chain.slice(0, 2).join('.'), why: `the clusters generator gives "${top}" as a string, which has no fields` } : undefined;
        }
        if (top === 'metadata') {
          return this.selected ? undefined : {
            parameter: top,
            why: 'the clusters generator gives no "metadata" for the local cluster, which it includes when no matchLabels select clusters',
          };
        }
        return { parameter: top, why: `the clusters generator gives only ${CLUSTER_PARAMETERS.join(', ')} and metadata` };
      case 'gitDirectories':
      case 'gitFiles':
        return this.missingFromGit(chain);
      case 'matrix': {
        // Each pair holds both sets: a field is missing only where neither child gives it.
        const reasons = this.children!.map((c) => c._missing(chain));
        return reasons.every((r) => r !== undefined)
          ? { parameter: reasons[0]!.parameter, why: `neither generator of the matrix gives it (${reasons.map((r) => r!.why).join('; ')})` } : undefined;
      }
      default: {
        const base = this.children![0]._missing(chain);
        if (base === undefined) {
          return undefined;
        }
        const other = this.children!.findIndex((c, i) => i > 0 && c._missing(chain) === undefined);
        return other < 0 ? { parameter: base.parameter, why: `no generator of the merge gives it (${base.why})` } : {
          parameter: base.parameter,
          why: `the merge's first generator does not (${base.why}); generator ${other} of the merge gives it only to the Applications whose merge keys it matches`,
        };
      }
    }
  }

  /**
   * How deep matrix and merge generators nest in this one: 0 for a plain generator.
   * @internal
   */
  public _depth(): number {
    return this.children ? 1 + Math.max(...this.children.map((c) => c._depth())) : 0;
  }

  private missingFromGit(chain: string[]): { readonly parameter: string; readonly why: string } | undefined {
    const git = this.git!;
    const files = this.kind === 'gitFiles';
    const prefix = git.prefix;
    const fields: { readonly [key: string]: string } = files ? GIT_FILE_PATH : GIT_DIRECTORY_PATH;
    const gives = files ? 'the git files generator gives' : 'the git directories generator gives';
    const pathChain = prefix === undefined ? chain : (chain[0] === prefix ? chain.slice(1) : undefined);
    if (pathChain !== undefined && pathChain.length > 0 && pathChain[0] === 'path') {
      const head = prefix === undefined ? 'path' : `${prefix}.path`;
      if (pathChain.length === 1) {
        return undefined;
      }
      const field = pathChain[1];
      const type = Object.prototype.hasOwnProperty.call(fields, field) ? fields[field] : undefined;
      if (type === undefined) {
        return { parameter: `${head}.${field}`, why: `${gives} only ${Object.keys(fields).map((f) => `${head}.${f}`).join(', ')}` };
      }
      return pathChain.length > 2 ? { parameter: `${head}.${field}.${pathChain[2]}`, why: `${gives} "${head}.${field}" as a ${type}, which has no fields` } : undefined;
    }
    if (prefix !== undefined && chain[0] === prefix) {
      return { parameter: chain.slice(0, 2).join('.'), why: `${gives} only "${prefix}.path" under its pathParamPrefix "${prefix}"` };
    }
    const dotted = chain.join('.');
    // A declared key, a map above one, or a field below one (whose shape the files decide).
    if ((git.parameters ?? []).some((p) => p === dotted || p.startsWith(`${dotted}.`) || dotted.startsWith(`${p}.`))) {
      return undefined;
    }
    const declared = files ? ` and the declared parameters (${(git.parameters ?? []).join(', ') || 'none'})` : '';
    const head = prefix === undefined ? 'path' : `${prefix}.path`;
    return { parameter: dotted, why: `${gives} only ${head}${declared}` };
  }
}

function checkChildren(where: string, generators: ApplicationSetGenerator[]): ApplicationSetGenerator[] {
  generators.forEach((g, i) => {
    if (!(g instanceof ApplicationSetGenerator)) {
      throw badValue(ErrorCode.INVALID_GENERATOR, where, `generators[${i}]`, g,
        'must be built with an ApplicationSetGenerator factory', 'use e.g. ApplicationSetGenerator.gitDirectories({ include: [\'apps/*\'] })');
    }
    // Argo CD nests one level: a matrix or merge inside another holds only plain generators.
    if (g._depth() >= 2) {
      throw badValue(ErrorCode.INVALID_GENERATOR, where, `generators[${i}]`, 'a matrix or merge nested two levels deep',
        'nests deeper than Argo CD allows: a matrix or merge inside another may only hold list, clusters and git generators', 'flatten the nesting to one level');
    }
  });
  return [...generators];
}

function checkGit(where: string, options: GitGeneratorOptions, parameters: string[] | undefined): GitSource {
  if (typeof options !== 'object' || options === null) {
    throw badValue(ErrorCode.INVALID_GENERATOR, where, 'options', options, 'must give at least include', 'e.g. { include: [\'apps/*\'] }');
  }
  const paths = (prop: 'include' | 'exclude', list: string[] | undefined, required: boolean): string[] => {
    if (list === undefined && !required) {
      return [];
    }
    if (!Array.isArray(list) || (required && list.length === 0)) {
      throw badValue(ErrorCode.INVALID_GENERATOR, where, prop, list,
        required ? 'must be a non-empty list of path globs: without one, Argo CD generates nothing' : 'must be a list of path globs', 'give paths relative to the repository root, e.g. [\'apps/*\']');
    }
    for (const p of list) {
      const problem = typeof p !== 'string' || p.trim() === '' ? 'is empty'
        : hasAction(p) ? 'contains a template action: the paths the generator reads are fixed, reviewed values'
          : p.startsWith('/') ? 'starts with "/": Argo CD matches paths relative to the repository root'
            : p.split('/').includes('..') ? 'climbs out of the repository with ".."'
              : p !== p.trim() ? 'has leading or trailing whitespace' : undefined;
      if (problem) {
        throw badValue(ErrorCode.INVALID_GENERATOR, where, prop, p, problem, 'give a path glob relative to the repository root, e.g. "apps/*"');
      }
    }
    return [...new Set(list)].sort();
  };
  const include = paths('include', options.include, true);
  const exclude = paths('exclude', options.exclude, false);
  if (options.repoUrl !== undefined && !isGitRepoUrl(options.repoUrl)) {
    throw badValue(ErrorCode.INVALID_URL, where, 'repoUrl', options.repoUrl,
      'must be a Git repository URL Argo CD can read (https://, ssh:// or git@host:path), without template actions', 'give the URL as it is registered in Argo CD, or leave it out to read the ApplicationSet\'s repoUrl');
  }
  const revision = options.revision;
  if (revision !== undefined) {
    const problem = fixedRevisionProblem(revision, 'the generator reads one reviewed revision');
    if (problem) {
      throw badValue(ErrorCode.INVALID_REVISION, where, 'revision', revision,
        `is refused: ${problem}`, 'name the branch, tag or commit to read, e.g. "main", or leave it out to read the ApplicationSet\'s targetRevision');
    }
  }
  const prefix = options.pathParamPrefix;
  if (prefix !== undefined && (typeof prefix !== 'string' || !PARAMETER_NAME.test(prefix))) {
    throw badValue(ErrorCode.INVALID_GENERATOR, where, 'pathParamPrefix', prefix,
      'must be a name a Go template can read as {{.app.path.path}}: letters, digits and "_"', 'e.g. "app"');
  }
  return {
    ...(options.repoUrl !== undefined ? { repoUrl: options.repoUrl } : {}),
    ...(revision !== undefined ? { revision: revision.trim() } : {}),
    include,
    exclude,
    ...(prefix !== undefined ? { prefix } : {}),
    ...(parameters !== undefined ? { parameters } : {}),
  };
}
