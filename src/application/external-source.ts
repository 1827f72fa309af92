import { checkKustomizeOptions, KustomizeOptions } from './kustomize-options';
import { badValue, ErrorCode } from '../core/errors';
import { isDns1123Subdomain, isGitRepoUrl } from '../core/names';
import { refusedRevisionProblem } from '../core/revisions';
import { isBuildEnvironmentVariable, isRefName, valueFileRef } from '../core/source-paths';
import { stripTrailing } from '../core/text';
import { readHelmValues } from '../private/helm-values';

/**
 * One Helm parameter of a chart source, as `helm template --set` (or `--set-string`) takes it.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/helm/#helm-parameters
 */
export interface HelmParameter {
  /**
   * The value's key in Helm's `--set` syntax, e.g. `controller.replicaCount` or `ingress.hosts[0]`.
   * Not empty, and without `=`, which ends the key.
   */
  readonly name: string;

  /**
   * The value, as text. Never a password, token or private key: SA207 refuses those at synth.
   */
  readonly value: string;

  /**
   * Whether Helm keeps the value a string (`--set-string`) instead of reading a number or boolean from it.
   *
   * @default false - Helm infers the type: `"true"` becomes a boolean and `"3"` a number
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/helm/#helm-parameters
   */
  readonly forceString?: boolean;
}

/**
 * How Argo CD renders a Helm chart (from a Helm repository, or in a Git folder): the release name and the values it is given.
 * Argo CD applies, lowest first: the chart's own `values.yaml`, `valueFiles`, `valuesYaml` (as `valuesObject`), `parameters`.
 * Missing value files always fail the render (`ignoreMissingValueFiles` is never set): a misspelt file name
 * must not deploy the chart's defaults.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/helm/
 */
export interface HelmChartOptions {
  /**
   * The Helm release name: a lowercase RFC 1123 name (letters, digits, `-` and `.`) of at most 53
   * characters, as Helm requires. Charts derive object names from it, so changing it later renames (and
   * makes Argo CD recreate) what the chart deploys.
   *
   * @default - the Application's name
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/helm/#helm-release-name
   */
  readonly releaseName?: string;

  /**
   * Helm values as YAML text (JSON is YAML too: `JSON.stringify({ controller: { replicaCount: 2 } })` works), read
   * at construction and rendered into the Application as `valuesObject`. A map of plain data: strings, finite
   * numbers, booleans, lists and maps, no anchors or aliases; `null` is refused, because cdk8s would leave it out
   * of the output and the chart's default would stay (Helm removes a default only for an explicit `null`). Never a
   * password, token or private key: SA207 refuses those at synth (deliver them through an ExternalSecret and the
   * chart's `existingSecret`).
   *
   * Text rather than an object so that the public API stays typed: the values are free-form.
   *
   * @default - none: the chart's own values, and `valueFiles`
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/helm/#helm-values
   */
  readonly valuesYaml?: string;

  /**
   * Value files, applied in order (later files override earlier ones): a file inside the chart, relative to its root,
   * e.g. `values-production.yaml`, or a file of a Git repository the app reads as a ref source, written
   * `$<ref>/<path from that repository's root>`, e.g. `$values/payments/api/values-production.yaml`, where `<ref>` is
   * the name of an `ExternalSource.gitRef` among the SafeApplication's `additionalSources`. Not absolute, not a URL,
   * without `..`. A missing file fails the render.
   *
   * @default - none: only the chart's own `values.yaml`
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/helm/#values-files
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/multiple_sources/#helm-value-files-from-external-git-repository
   */
  readonly valueFiles?: string[];

  /**
   * Single values set as with `--set`; they override `valuesYaml` and `valueFiles`. Names must differ.
   *
   * @default - none
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/helm/#helm-parameters
   */
  readonly parameters?: HelmParameter[];
}


/**
 * How Argo CD renders a Git folder.
 */
export interface GitPathOptions {
  /**
   * What Argo CD asks Kustomize to change before it builds the folder: image overrides, name prefix and suffix,
   * namespace, common labels and annotations. The folder must hold a `kustomization.yaml`.
   *
   * @default - none: the folder is built as committed
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/kustomize/
   */
  readonly kustomize?: KustomizeOptions;

  /**
   * The release name and values Argo CD renders a Helm chart in the folder with (a folder holding a `Chart.yaml`),
   * checked as `ExternalSource.helmChart` checks them; `valueFiles` are relative to the folder. Not together with
   * `kustomize`: Argo CD renders a source with one tool.
   *
   * @default - none: the chart is rendered with its own `values.yaml` and the Application's name as release name
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/helm/
   */
  readonly helm?: HelmChartOptions;
}

/**
 * Where a ref source reads from: a Git repository and the revision of it whose files Helm value files name.
 */
export interface GitRefOptions {
  /**
   * The Git repository the value files are read from, e.g. the platform repository. It must be among the
   * AppProject's `sourceRepos`, as every source's repository must.
   */
  readonly repoUrl: string;

  /**
   * The branch, tag or commit of `repoUrl` the value files are read at. `HEAD` and an empty value are refused: they
   * follow whatever the repository's default branch is.
   *
   * @default 'main'
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/tracking_strategies/
   */
  readonly targetRevision?: string;
}

/** Helm's limit on release names (its `helm install` refuses longer ones). */
const MAX_RELEASE_NAME = 53;

/**
 * What an Application deploys when its manifests are not rendered by this synth.
 */
export class ExternalSource {
  /**
   * A directory of a Git repository (plain YAML, Kustomize, or a Helm chart in Git).
   *
   * @param path the directory, relative to the repository root, e.g. `deploy/overlays/prod`
   * @param options the Kustomize options Argo CD builds the directory with, or the Helm options of a chart in it
   */
  public static gitPath(path: string, options: GitPathOptions = {}): ExternalSource {
    if (typeof path !== 'string' || path.trim() === '' || path.startsWith('/') || path.split('/').includes('..')) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, 'ExternalSource.gitPath', 'path', path,
        'must be a directory relative to the repository root, without ".."', 'give the path as Argo CD expects it, e.g. "deploy/overlays/prod"');
    }
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      throw badValue(ErrorCode.INVALID_KUSTOMIZE_SOURCE, 'ExternalSource.gitPath', 'options', options,
        'must be an object of GitPathOptions', 'give e.g. { kustomize: { images: [{ name: \'ghcr.io/acme/api\', newTag: \'1.4.2\' }] } }');
    }
    if (options.kustomize !== undefined && options.helm !== undefined) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, 'ExternalSource.gitPath', 'options', Object.keys(options).sort(),
        'must not hold both kustomize and helm: Argo CD renders a source with one tool', 'keep the options of the tool the folder is built with: kustomize for a kustomization.yaml, helm for a Chart.yaml');
    }
    const kustomize = options.kustomize === undefined ? undefined : checkKustomizeOptions(options.kustomize);
    const helm = options.helm === undefined ? undefined : checkHelmOptions(options.helm, 'ExternalSource.gitPath', 'options.helm');
    return new ExternalSource({ path: stripTrailing(path, '/'), helm, kustomize });
  }

  /**
   * A chart from a Helm repository. The app's `targetRevision` is the chart version and must be one exact release.
   *
   * @param chart the chart name in the Helm repository at `repoUrl`, e.g. `ingress-nginx`
   * @param options the release name and the values the chart is rendered with
   */
  public static helmChart(chart: string, options: HelmChartOptions = {}): ExternalSource {
    if (typeof chart !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(chart)) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, 'ExternalSource.helmChart', 'chart', chart,
        'must be a chart name', 'give the chart name as the Helm repository lists it');
    }
    return new ExternalSource({ chart, helm: checkHelmOptions(options, 'ExternalSource.helmChart', 'options') });
  }

  /**
   * A Git repository read only for the Helm value files the app's chart names as `$<ref>/<path>`: a `ref` source of
   * the Application's `spec.sources`, with no path, so Argo CD renders nothing from it. Give it in a SafeApplication's
   * `additionalSources`. The chart's values then live in a repository the team reviews, while the chart comes from
   * its Helm repository at one exact version.
   *
   * @param ref the name value files use after `$`, e.g. `values` for `$values/payments/values.yaml`: letters, digits,
   * `_` and `-`, as Argo CD requires
   * @param options the repository and revision the value files are read from
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/multiple_sources/#helm-value-files-from-external-git-repository
   */
  public static gitRef(ref: string, options: GitRefOptions): ExternalSource {
    const where = 'ExternalSource.gitRef';
    if (typeof ref !== 'string' || !isRefName(ref)) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, where, 'ref', ref,
        'must be a ref name Argo CD accepts: letters, digits, "_" and "-"', 'name the ref as value files use it after "$", e.g. "values" for "$values/app/values.yaml"');
    }
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      throw badValue(ErrorCode.SOURCE_CONFLICT, where, 'options', options,
        'must be an object of GitRefOptions', 'give e.g. { repoUrl: \'https://git.example.com/platform/values.git\', targetRevision: \'main\' }');
    }
    if (!isGitRepoUrl(options.repoUrl)) {
      throw badValue(ErrorCode.INVALID_URL, where, 'options.repoUrl', options.repoUrl,
        'must be a Git repository URL Argo CD can read (https://, ssh:// or git@host:path)', 'give the URL of the repository that holds the value files, as it is registered in Argo CD');
    }
    const revision = options.targetRevision ?? 'main';
    const problem = refusedRevisionProblem(revision, false);
    if (problem) {
      throw badValue(ErrorCode.INVALID_REVISION, where, 'options.targetRevision', revision,
        `is refused: ${problem}`, 'name the branch, tag or commit the value files are read at, e.g. "main"');
    }
    return new ExternalSource({ ref, repoUrl: options.repoUrl, targetRevision: revision.trim() });
  }

  /** The Git directory, for a Git source. */
  public readonly path?: string;
  /** The chart name, for a Helm repository source. */
  public readonly chart?: string;
  /** The release name and values of a Helm chart (from a Helm repository or in a Git folder), as checked; undefined when none were given. */
  public readonly helm?: HelmChartOptions;
  /** The Kustomize options of a Git source, as checked; undefined when none were given. */
  public readonly kustomize?: KustomizeOptions;
  /** The ref name of a `gitRef` source, which value files use after `$`. */
  public readonly ref?: string;
  /** The repository of a `gitRef` source; the other sources read the app's `repoUrl`. */
  public readonly repoUrl?: string;
  /** The revision of a `gitRef` source; the other sources read the app's `targetRevision`. */
  public readonly targetRevision?: string;

  private constructor(fields: SourceFields) {
    this.path = fields.path;
    this.chart = fields.chart;
    this.helm = fields.helm;
    this.kustomize = fields.kustomize;
    this.ref = fields.ref;
    this.repoUrl = fields.repoUrl;
    this.targetRevision = fields.targetRevision;
  }
}

/** What one factory sets of an ExternalSource. */
interface SourceFields {
  readonly path?: string;
  readonly chart?: string;
  readonly helm?: HelmChartOptions;
  readonly kustomize?: KustomizeOptions;
  readonly ref?: string;
  readonly repoUrl?: string;
  readonly targetRevision?: string;
}

/**
 * The options, checked and copied (a caller changing its objects later does not change the source); undefined when empty.
 *
 * @param where the factory, for messages, e.g. `ExternalSource.helmChart`
 * @param prop the argument the options were given as, e.g. `options` or `options.helm`
 */
function checkHelmOptions(options: HelmChartOptions, where: string, prop: string): HelmChartOptions | undefined {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, where, prop, options,
      'must be an object of HelmChartOptions', 'give e.g. { releaseName: \'ingress\', valueFiles: [\'values-production.yaml\'] }');
  }
  const at: Place = { where, prop };
  const releaseName = options.releaseName === undefined ? undefined : checkReleaseName(options.releaseName, at);
  const valueFiles = checkList(options.valueFiles, 'valueFiles', checkValueFile, at);
  const parameters = checkList(options.parameters, 'parameters', checkParameter, at);
  // Read here so that a mistake fails where it is written; the renderer reads the same text again.
  const values = options.valuesYaml === undefined ? undefined : readHelmValues(options.valuesYaml, where, `${prop}.valuesYaml`);
  repeated(valueFiles ?? [], (f) => f, 'valueFiles', 'list each value file once', at);
  repeated(parameters ?? [], (p) => p.name, 'parameters', 'set each value once; the last one would silently win', at);
  const checked: HelmChartOptions = {
    releaseName,
    valuesYaml: values && Object.keys(values).length > 0 ? options.valuesYaml : undefined,
    valueFiles: valueFiles && valueFiles.length > 0 ? Object.freeze(valueFiles) as string[] : undefined,
    parameters: parameters && parameters.length > 0 ? Object.freeze(parameters) as HelmParameter[] : undefined,
  };
  return Object.values(checked).some((v) => v !== undefined) ? Object.freeze(checked) : undefined;
}

/** Where options are checked: the factory and the argument holding them, for messages. */
interface Place {
  readonly where: string;
  readonly prop: string;
}

function checkReleaseName(name: string, at: Place): string {
  if (typeof name !== 'string' || name.length > MAX_RELEASE_NAME || !isDns1123Subdomain(name)) {
    const suggestion = String(name ?? '').toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, MAX_RELEASE_NAME).replace(/[-.]+$/, '');
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, at.where, `${at.prop}.releaseName`, name,
      `must be a Helm release name: lowercase letters, digits, "-" and ".", starting and ending with a letter or digit, at most ${MAX_RELEASE_NAME} characters`,
      `use e.g. ${JSON.stringify(suggestion || 'my-release')}, or leave it out to use the Application's name`);
  }
  return name;
}

function checkList<T>(list: T[] | undefined, prop: string, check: (item: T, prop: string, at: Place) => T, at: Place): T[] | undefined {
  if (list === undefined) {
    return undefined;
  }
  if (!Array.isArray(list)) {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, at.where, `${at.prop}.${prop}`, list, 'must be a list', `give a list, e.g. ${prop === 'valueFiles' ? '[\'values-production.yaml\']' : '[{ name: \'replicaCount\', value: \'3\' }]'}`);
  }
  return list.map((item, i) => check(item, `${at.prop}.${prop}[${i}]`, at));
}

/** A value file inside the chart, or `$<ref>/<path>` inside a ref source; whether the ref exists is the SafeApplication's to check. */
function checkValueFile(file: string, prop: string, at: Place): string {
  const ref = typeof file === 'string' ? valueFileRef(file) : undefined;
  const inside = ref === undefined ? file : file.slice(ref.length + 2);
  if (ref !== undefined && ((!isRefName(ref) && !isBuildEnvironmentVariable(ref)) || !file.startsWith(`$${ref}/`))) {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, at.where, prop, file,
      'starts with "$", so Argo CD reads it as "$<ref>/<path>" in the source named by ref, and the ref must be letters, digits, "_" and "-", followed by "/"',
      'write the file as "$values/path/from/the/repository/root.yaml", with "values" the ref of an ExternalSource.gitRef in additionalSources');
  }
  if (typeof inside !== 'string' || inside.trim() === '' || inside.startsWith('/') || inside.includes('\\') || /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(inside)
    || inside.split('/').includes('..')) {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, at.where, prop, file,
      ref === undefined
        ? 'must be a file inside the chart, relative to its root, with "/" between folders: not empty, not absolute, not a URL, without ".."'
        : 'must name a file of the ref source after "$<ref>/", relative to that repository\'s root: not empty, not absolute, without ".."',
      ref === undefined
        ? `give the value file as the chart ${at.where === 'ExternalSource.gitPath' ? 'folder' : 'package'} holds it, e.g. "values-production.yaml", or put the values in valuesYaml`
        : `give the file's path from the repository root, e.g. "$${ref}/apps/api/values-production.yaml"`);
  }
  return file;
}

function checkParameter(parameter: HelmParameter, prop: string, at: Place): HelmParameter {
  if (typeof parameter !== 'object' || parameter === null) {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, at.where, prop, parameter, 'must be a HelmParameter', 'give e.g. { name: \'controller.replicaCount\', value: \'3\' }');
  }
  const { name, value, forceString } = parameter;
  if (typeof name !== 'string' || name.trim() === '' || name.includes('=')) {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, at.where, `${prop}.name`, name,
      'must be the key of a Helm value: not empty, and without "=", which ends the key in --set', 'name the value as the chart\'s values.yaml does, e.g. "controller.replicaCount"');
  }
  if (typeof value !== 'string') {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, at.where, `${prop}.value`, value,
      'must be a string', `write the value as text, e.g. ${JSON.stringify(String(value))}, with forceString: true to keep it a string`);
  }
  if (forceString !== undefined && typeof forceString !== 'boolean') {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, at.where, `${prop}.forceString`, forceString, 'must be true or false', 'leave it out, or give true');
  }
  return Object.freeze(forceString ? { name, value, forceString } : { name, value });
}

function repeated<T>(items: T[], key: (item: T) => string, prop: string, fix: string, at: Place): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) {
      throw badValue(ErrorCode.DUPLICATE, at.where, `${at.prop}.${prop}[${i}]`, k, 'is given twice', fix);
    }
    seen.add(k);
  });
}
