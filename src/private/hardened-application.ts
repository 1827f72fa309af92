import { renderIgnoreDifferences, renderIgnoreReasons } from './ignore-differences';
import { compileJq, JQ_UNCHECKED } from './jq';
import { renderSyncPolicy, ResolvedRetry } from './sync-policy';
import { IGNORE_REASONS_ANNOTATION } from '../core/annotations';
import { ArgoCdVersion } from '../core/argocd-version';
import { BoundedJq, JQ_TIMEOUT_MS, JqBoundError } from '../core/bounded-jq';
import { ErrorCode } from '../core/errors';
import { groupOf } from '../core/kinds';
import { describeObject, Manifest, stringAt } from '../core/manifest';
import { compareStrings } from '../core/order';
import { suppressionKey } from '../core/suppressions';
import { ApplicationSpec, ApplicationSpecSource, ApplicationSpecSourceHelm, ApplicationSpecSourceKustomize, ApplicationSpecSourceKustomizePatchesTarget } from '../imports/application-argoproj.io';
import { DeletionPolicy } from '../values/deletion-policy';
import { IgnoreRule } from '../values/ignore-rule';

/**
 * The one renderer of the hardened Application: SafeApplication (and AppOfApps, a SafeApplication) and
 * SafeApplicationSet's template are rendered here, so that a guarantee added here holds for every
 * Application this library makes.
 */
export interface HardenedApplication {
  readonly project: string;
  readonly repoUrl: string;
  readonly targetRevision: string;
  /** The folder in the repository; absent for a Helm chart. */
  readonly path?: string;
  /** The Helm chart, for a chart repository. */
  readonly chart?: string;
  /** The release name and values of a Helm chart, checked by its factory. */
  readonly helm?: HardenedHelm;
  /** What Argo CD asks Kustomize to change in a Git folder, checked by its factory. */
  readonly kustomize?: HardenedKustomize;
  /**
   * Git repositories read only for the value files the Helm options name as `$<ref>/<path>`. With any, the
   * Application has `spec.sources` (this source first, then these) and no `spec.source`.
   */
  readonly refSources?: readonly HardenedRefSource[];
  /** The cluster, by its API server URL or by its name in Argo CD (exactly one). */
  readonly server?: string;
  readonly clusterName?: string;
  readonly namespace: string;
  readonly ignoreRules: readonly IgnoreRule[];
  readonly deletionPolicy: DeletionPolicy;
  readonly argoCdVersion: ArgoCdVersion;
  readonly retry: ResolvedRetry;
  /** Whether resources are ordered in sync waves. Default false. */
  readonly usesSyncWaves?: boolean;
}

/** What of a chart source's Helm options is rendered; `ignoreMissingValueFiles` has no place here, so it is never true. */
export interface HardenedHelm {
  readonly releaseName?: string;
  readonly valueFiles?: readonly string[];
  readonly parameters?: readonly { readonly name: string; readonly value: string; readonly forceString?: boolean }[];
  readonly valuesObject?: { readonly [key: string]: unknown };
}

/** A ref source: a repository at a revision, read only for value files; no path, so nothing is rendered from it. */
export interface HardenedRefSource {
  readonly ref: string;
  readonly repoUrl: string;
  readonly targetRevision: string;
}

/** What of a Git folder's Kustomize options is rendered; images already in Argo CD's `name=newName:newTag` form. */
export interface HardenedKustomize {
  readonly images?: readonly string[];
  readonly namePrefix?: string;
  readonly nameSuffix?: string;
  readonly namespace?: string;
  readonly commonLabels?: { readonly [key: string]: string };
  readonly commonAnnotations?: { readonly [key: string]: string };
  readonly patches?: readonly { readonly patch: string; readonly target?: ApplicationSpecSourceKustomizePatchesTarget }[];
}

/**
 * `spec`: project, the source (or, with ref sources, `sources`: the source first, then each ref source), destination,
 * the hardened sync policy and one ignoreDifferences entry per resource.
 */
export function hardenedSpec(app: HardenedApplication): ApplicationSpec {
  const ignoreDifferences = renderIgnoreDifferences(app.ignoreRules);
  const source: ApplicationSpecSource = {
    repoUrl: app.repoUrl,
    targetRevision: app.targetRevision,
    path: app.path,
    chart: app.chart,
    helm: renderHelm(app.helm),
    kustomize: renderKustomize(app.kustomize),
  };
  const refs = app.refSources ?? [];
  return {
    project: app.project,
    // Argo CD reads spec.sources whenever it holds anything, so spec.source is left out then rather than kept unread.
    source: refs.length > 0 ? undefined : source,
    sources: refs.length > 0
      ? [source, ...refs.map((r) => ({ repoUrl: r.repoUrl, targetRevision: r.targetRevision, ref: r.ref }))]
      : undefined,
    destination: {
      server: app.server,
      name: app.clusterName,
      namespace: app.namespace,
    },
    syncPolicy: renderSyncPolicy({
      argoCdVersion: app.argoCdVersion,
      hasIgnoreRules: app.ignoreRules.length > 0,
      usesSyncWaves: app.usesSyncWaves,
      retry: app.retry,
    }),
    ignoreDifferences: ignoreDifferences.length > 0 ? ignoreDifferences : undefined,
  };
}

/** `source.kustomize`, or nothing when no option is set; maps in key order so that the output is byte for byte the same. */
function renderKustomize(kustomize: HardenedKustomize | undefined): ApplicationSpecSourceKustomize | undefined {
  if (kustomize === undefined) {
    return undefined;
  }
  const sorted = (map: { readonly [key: string]: string } | undefined) => map && Object.keys(map).length > 0
    ? Object.fromEntries(Object.keys(map).sort(compareStrings).map((k) => [k, map[k]])) : undefined;
  const rendered: ApplicationSpecSourceKustomize = {
    images: kustomize.images?.length ? [...kustomize.images] : undefined,
    namePrefix: kustomize.namePrefix || undefined,
    nameSuffix: kustomize.nameSuffix || undefined,
    namespace: kustomize.namespace || undefined,
    commonLabels: sorted(kustomize.commonLabels),
    commonAnnotations: sorted(kustomize.commonAnnotations),
    patches: kustomize.patches?.length ? kustomize.patches.map((p) => ({ patch: p.patch, target: p.target && { ...p.target } })) : undefined,
  };
  return Object.values(rendered).some((v) => v !== undefined) ? rendered : undefined;
}

/**
 * `source.helm`, or nothing when no option is set. A missing value file fails Argo CD's render, as it should:
 * `ignoreMissingValueFiles` is left out (false), so a misspelt file name never deploys the chart's defaults.
 */
function renderHelm(helm: HardenedHelm | undefined): ApplicationSpecSourceHelm | undefined {
  if (helm === undefined) {
    return undefined;
  }
  const rendered: ApplicationSpecSourceHelm = {
    releaseName: helm.releaseName,
    valueFiles: helm.valueFiles?.length ? [...helm.valueFiles] : undefined,
    valuesObject: helm.valuesObject,
    parameters: helm.parameters?.length
      ? helm.parameters.map((p) => ({ name: p.name, value: p.value, forceString: p.forceString === true ? true : undefined }))
      : undefined,
  };
  return Object.values(rendered).some((v) => v !== undefined) ? rendered : undefined;
}

/**
 * `metadata.finalizers` of a deletion policy: none unless the policy cascades, so that deleting the
 * Application by hand never deletes what it deployed.
 */
export function hardenedFinalizers(policy: DeletionPolicy): string[] | undefined {
  switch (policy) {
    case DeletionPolicy.CASCADE_FOREGROUND:
      return ['resources-finalizer.argocd.argoproj.io'];
    case DeletionPolicy.CASCADE_BACKGROUND:
      return ['resources-finalizer.argocd.argoproj.io/background'];
    default:
      return undefined;
  }
}

/**
 * The annotations of the hardened Application: why each ignore rule exists, when there is one, and, for a
 * cascading deletion policy, the reasoned suppression of SA010 that records the choice was made in code.
 */
export function hardenedAnnotations(rules: readonly IgnoreRule[], policy: DeletionPolicy): { [key: string]: string } | undefined {
  const annotations: { [key: string]: string } = {};
  if (rules.length > 0) {
    annotations[IGNORE_REASONS_ANNOTATION] = renderIgnoreReasons(rules);
  }
  if (hardenedFinalizers(policy) !== undefined) {
    annotations[suppressionKey('SA010')] = `deletionPolicy ${policy} chosen in code: deleting this Application deletes what it deployed`;
  }
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/**
 * The problems of the raw jq expressions among `rules`, one `[SAFE-009]` line each, from one batched compile and,
 * for an expression that compiles, a run on each deployed object it targets, bounded as Argo CD bounds it.
 *
 * @param owner the Application or ApplicationSet they belong to, e.g. `Application checkout`
 * @param deployed the objects the rules may target (an ApplicationSet's are not known at synth: compile only)
 */
export function jqProblems(rules: readonly IgnoreRule[], owner: string, deployed: readonly Manifest[] = []): string[] {
  const raw = rules.filter((r) => r.needsJqCompile);
  const problems: string[] = [];
  compileJq(raw.map((r) => r.value)).forEach((error, i) => {
    if (!error) {
      problems.push(...jqRunProblems(raw[i], owner, deployed));
    }
    const expression = `the jq expression ${JSON.stringify(raw[i].value)} for ${raw[i].target.kind} ${raw[i].target.name}`;
    if (error?.startsWith(JQ_UNCHECKED)) {
      problems.push(`[${ErrorCode.INVALID_JQ}] ${expression} in ${owner} ${error.split('\n')[0]}. `
        + 'Fix: simplify the expression (jq must be able to compile it quickly), or build it with IgnoreRule.jq and a typed JqPath.');
    } else if (error) {
      problems.push(`[${ErrorCode.INVALID_JQ}] ${expression} does not compile as del(...): ${error.split('\n')[0]}. `
        + 'Fix: correct the expression, or build it with IgnoreRule.jq and a typed JqPath.');
    }
  });
  return problems;
}

/** Bounded as Argo CD bounds a jq patch; one runner (a worker thread, started on first use) for the process. */
let runner: BoundedJq | undefined;

/**
 * Runs a compiled raw jq expression on each deployed object it targets, as Argo CD will at every comparison
 * (util/argo/normalizers/diff_normalizer.go): one that does not finish within 1 s, or exhausts memory, is skipped
 * there with a debug log line, so the field it should ignore is compared after all, and each comparison costs the
 * controller that second.
 */
function jqRunProblems(rule: IgnoreRule, owner: string, deployed: readonly Manifest[]): string[] {
  const target = rule.target;
  const targeted = deployed.filter((m) => m.kind === target.kind && groupOf(String(m.apiVersion ?? '')) === target.group
    && stringAt(m, 'metadata', 'name') === target.name
    && (target.namespace === undefined || stringAt(m, 'metadata', 'namespace') === target.namespace));
  for (const manifest of targeted) {
    try {
      runner ??= new BoundedJq();
      runner.del(manifest, rule.value);
    } catch (e) {
      if (e instanceof JqBoundError && e.bounded) {
        const bound = /did not finish/.test(e.message) ? `does not finish within ${JQ_TIMEOUT_MS / 1000} s` : 'runs out of memory';
        return [`[${ErrorCode.INVALID_JQ}] the jq expression ${JSON.stringify(rule.value)} for ${target.kind} ${target.name} in ${owner} `
          + `${bound} on ${describeObject(manifest)}: Argo CD skips it there, so the field is compared after all. `
          + 'Fix: simplify the expression, or build it with IgnoreRule.jq and a typed JqPath.'];
      }
      // A jq error on this object (a type mismatch) is Argo CD's to report at run time, as it would be for any value.
    }
  }
  return [];
}
