import { checkKustomizeOptions, KustomizeOptions } from './kustomize-options';
import { badValue, ErrorCode } from '../core/errors';
import { isDns1123Subdomain } from '../core/names';
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
 * How Argo CD renders a chart from a Helm repository: the release name and the values it is given.
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
   * Value files inside the chart, relative to its root, e.g. `values-production.yaml`; later files
   * override earlier ones. Not absolute, not a URL, without `..`. A missing file fails the render.
   *
   * @default - none: only the chart's own `values.yaml`
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/helm/#values-files
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
   * @param options the Kustomize options Argo CD builds the directory with
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
    const kustomize = options.kustomize === undefined ? undefined : checkKustomizeOptions(options.kustomize);
    return new ExternalSource(stripTrailing(path, '/'), undefined, undefined, kustomize);
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
    return new ExternalSource(undefined, chart, checkHelmOptions(options), undefined);
  }

  /** The Git directory, for a Git source. */
  public readonly path?: string;
  /** The chart name, for a Helm repository source. */
  public readonly chart?: string;
  /** The release name and values of a Helm repository source, as checked; undefined when none were given. */
  public readonly helm?: HelmChartOptions;
  /** The Kustomize options of a Git source, as checked; undefined when none were given. */
  public readonly kustomize?: KustomizeOptions;

  private constructor(path: string | undefined, chart: string | undefined, helm: HelmChartOptions | undefined,
    kustomize: KustomizeOptions | undefined) {
    this.path = path;
    this.chart = chart;
    this.helm = helm;
    this.kustomize = kustomize;
  }
}

const WHERE = 'ExternalSource.helmChart';

/** The options, checked and copied (a caller changing its objects later does not change the source); undefined when empty. */
function checkHelmOptions(options: HelmChartOptions): HelmChartOptions | undefined {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, WHERE, 'options', options,
      'must be an object of HelmChartOptions', 'give e.g. { releaseName: \'ingress\', valueFiles: [\'values-production.yaml\'] }');
  }
  const releaseName = options.releaseName === undefined ? undefined : checkReleaseName(options.releaseName);
  const valueFiles = checkList(options.valueFiles, 'valueFiles', checkValueFile);
  const parameters = checkList(options.parameters, 'parameters', checkParameter);
  // Read here so that a mistake fails where it is written; the renderer reads the same text again.
  const values = options.valuesYaml === undefined ? undefined : readHelmValues(options.valuesYaml, WHERE, 'options.valuesYaml');
  repeated(valueFiles ?? [], (f) => f, 'valueFiles', 'list each value file once');
  repeated(parameters ?? [], (p) => p.name, 'parameters', 'set each value once; the last one would silently win');
  const checked: HelmChartOptions = {
    releaseName,
    valuesYaml: values && Object.keys(values).length > 0 ? options.valuesYaml : undefined,
    valueFiles: valueFiles && valueFiles.length > 0 ? Object.freeze(valueFiles) as string[] : undefined,
    parameters: parameters && parameters.length > 0 ? Object.freeze(parameters) as HelmParameter[] : undefined,
  };
  return Object.values(checked).some((v) => v !== undefined) ? Object.freeze(checked) : undefined;
}

function checkReleaseName(name: string): string {
  if (typeof name !== 'string' || name.length > MAX_RELEASE_NAME || !isDns1123Subdomain(name)) {
    const suggestion = String(name ?? '').toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, MAX_RELEASE_NAME).replace(/[-.]+$/, '');
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, WHERE, 'options.releaseName', name,
      `must be a Helm release name: lowercase letters, digits, "-" and ".", starting and ending with a letter or digit, at most ${MAX_RELEASE_NAME} characters`,
      `use e.g. ${JSON.stringify(suggestion || 'my-release')}, or leave it out to use the Application's name`);
  }
  return name;
}

function checkList<T>(list: T[] | undefined, prop: string, check: (item: T, prop: string) => T): T[] | undefined {
  if (list === undefined) {
    return undefined;
  }
  if (!Array.isArray(list)) {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, WHERE, `options.${prop}`, list, 'must be a list', `give a list, e.g. ${prop === 'valueFiles' ? '[\'values-production.yaml\']' : '[{ name: \'replicaCount\', value: \'3\' }]'}`);
  }
  return list.map((item, i) => check(item, `options.${prop}[${i}]`));
}

function checkValueFile(file: string, prop: string): string {
  if (typeof file !== 'string' || file.trim() === '' || file.startsWith('/') || file.includes('\\') || /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(file)
    || file.split('/').includes('..')) {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, WHERE, prop, file,
      'must be a file inside the chart, relative to its root, with "/" between folders: not empty, not absolute, not a URL, without ".."',
      'give the value file as the chart package holds it, e.g. "values-production.yaml", or put the values in valuesYaml');
  }
  return file;
}

function checkParameter(parameter: HelmParameter, prop: string): HelmParameter {
  if (typeof parameter !== 'object' || parameter === null) {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, WHERE, prop, parameter, 'must be a HelmParameter', 'give e.g. { name: \'controller.replicaCount\', value: \'3\' }');
  }
  const { name, value, forceString } = parameter;
  if (typeof name !== 'string' || name.trim() === '' || name.includes('=')) {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, WHERE, `${prop}.name`, name,
      'must be the key of a Helm value: not empty, and without "=", which ends the key in --set', 'name the value as the chart\'s values.yaml does, e.g. "controller.replicaCount"');
  }
  if (typeof value !== 'string') {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, WHERE, `${prop}.value`, value,
      'must be a string', `write the value as text, e.g. ${JSON.stringify(String(value))}, with forceString: true to keep it a string`);
  }
  if (forceString !== undefined && typeof forceString !== 'boolean') {
    throw badValue(ErrorCode.INVALID_HELM_SOURCE, WHERE, `${prop}.forceString`, forceString, 'must be true or false', 'leave it out, or give true');
  }
  return Object.freeze(forceString ? { name, value, forceString } : { name, value });
}

function repeated<T>(items: T[], key: (item: T) => string, prop: string, fix: string): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) {
      throw badValue(ErrorCode.DUPLICATE, WHERE, `options.${prop}[${i}]`, k, 'is given twice', fix);
    }
    seen.add(k);
  });
}
