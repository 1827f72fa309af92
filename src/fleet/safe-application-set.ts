import { ApiObject, Chart, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { ApplicationSetCluster } from './application-set-cluster';
import { ApplicationSetGenerator } from './application-set-generator';
import { RollingSyncOptions, RollingSyncStep } from './rolling-sync';
import { renderApplicationSetRunbook } from '../application/runbook';
import { SafeApplication } from '../application/safe-application';
import { featureRow, releaseName } from '../core/argocd-features';
import { ArgoCdVersion } from '../core/argocd-version';
import { badValue, ErrorCode, ErrorCodeValue } from '../core/errors';
import { Manifest } from '../core/manifest';
import { isDns1123Label, isGitRepoUrl, isLabelValue, isQualifiedName } from '../core/names';
import { suppressionKey } from '../core/suppressions';
import { toJson_ApplicationSpec } from '../imports/application-argoproj.io';
import { checkIgnoreRule, checkLabel, checkProject, checkRepoUrl, fixedRevisionProblem } from '../private/app-checks';
import { formatFinding } from '../private/format';
import { GITOPS_PART, GitOpsLayout, PartFile } from '../private/gitops-part';
import { checkTemplateSyntax, fieldChainsOf, hasAction, parseTemplate, ParsedTemplate, renderSimple } from '../private/go-template';
import { hardenedAnnotations, hardenedFinalizers, hardenedSpec, jqProblems } from '../private/hardened-application';
import { renderSyncOptions, ResolvedRetry, resolveRetry } from '../private/sync-policy';
import { SAFE_APPLICATION_SET } from '../private/synth-index';
import { runRules, unsuppressed } from '../rules/engine';
import { ApplicationsSyncPolicy } from '../values/applications-sync-policy';
import { IArgoProject } from '../values/argo-project';
import { DeletionPolicy } from '../values/deletion-policy';
import { IgnoreRule } from '../values/ignore-rule';
import { RetryOptions } from '../values/retry-options';

/**
 * The one field of a generated Application that may be changed by hand without the ApplicationSet
 * controller putting it back. Only `automated`: ignoring all of `/spec/syncPolicy` would also freeze the
 * sync options and retry of existing Applications (argo-cd #22832).
 */
const BREAK_GLASS_POINTER = '/spec/syncPolicy/automated';

/** The rule that reports an ApplicationSet whose controller may delete the Applications it generated. */
const DELETES_APPLICATIONS_RULE = 'SA016';

/** The policies under which the controller deletes an Application that is no longer generated. */
const DELETING_POLICIES: readonly ApplicationsSyncPolicy[] = [ApplicationsSyncPolicy.SYNC, ApplicationsSyncPolicy.CREATE_DELETE];


/**
 * Props of a {@link SafeApplicationSet}.
 */
export interface SafeApplicationSetProps {
  /**
   * The ApplicationSet's own name: a DNS-1123 label. Explicit, because renaming an ApplicationSet deletes
   * it, and with it every Application it generated.
   */
  readonly name: string;

  /**
   * Where the parameters come from; one Application per parameter set of each generator: list elements, clusters,
   * folders or files of a Git repository, or a matrix or merge of them.
   */
  readonly generators: ApplicationSetGenerator[];

  /**
   * The name of each generated Application: a Go template that reads at least one parameter, e.g.
   * `{{.name}}-checkout`, and renders to a DNS-1123 label. With the list generator, every element's name
   * is rendered and checked here, duplicates included.
   */
  readonly applicationName: string;

  /**
   * The AppProject every generated Application belongs to. Never `default`, which allows every repository,
   * destination and kind; the same for every Application (a template could render to `default`).
   *
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/projects/
   */
  readonly project: IArgoProject;

  /**
   * The Git repository Argo CD reads, the same for every generated Application.
   */
  readonly repoUrl: string;

  /**
   * The directory Argo CD reads, relative to the repository root; a template is allowed,
   * e.g. `deploy/{{.name}}`.
   */
  readonly path: string;

  /**
   * The branch, tag or commit Argo CD tracks, the same for every generated Application, and the one a git
   * generator of the same repository reads. `HEAD` and an empty value are refused: they follow whatever someone
   * else decides.
   *
   * @default 'main'
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/tracking_strategies/
   */
  readonly targetRevision?: string;

  /**
   * The namespace each generated Application deploys to; a template is allowed, e.g. `checkout-{{.name}}`.
   * Argo CD creates it (`CreateNamespace=true`).
   */
  readonly destinationNamespace: string;

  /**
   * The cluster each generated Application deploys to. With the clusters generator this must read the
   * cluster from the parameters, e.g. `ApplicationSetCluster.fromServer('{{.server}}')`.
   *
   * @default ApplicationSetCluster.IN_CLUSTER - the cluster Argo CD runs in
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Generators-Cluster/
   */
  readonly destinationCluster?: ApplicationSetCluster;

  /**
   * The Argo CD release the ApplicationSet is rendered for. Fields the release lacks are not emitted
   * (`automated.enabled` before 3.1); every supported release has the ApplicationSet fields used here
   * (`goTemplateOptions` from 2.8, `ignoreApplicationDifferences` from 2.9), except `exclude` on a git files
   * generator (3.1), which is refused for older releases: they would drop it and generate the excluded files.
   *
   * @default ArgoCdVersion.LATEST
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/upgrading/overview/
   */
  readonly argoCdVersion?: ArgoCdVersion;

  /**
   * The namespace of the ApplicationSet. The controller creates the generated Applications in the same
   * namespace, whatever the template says.
   *
   * @default 'argocd'
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Appset-Any-Namespace/
   */
  readonly applicationNamespace?: string;

  /**
   * How a failed sync of a generated Application is retried. Always on (without it Argo CD does not retry
   * a failed automated sync of the same commit); only the bounds can be tuned.
   *
   * @default - limit 5, backoff 5s, factor 2, maxDuration 3m
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/auto_sync/#automatic-retry-with-a-limit
   */
  readonly retry?: RetryOptions;

  /**
   * What deleting the ApplicationSet, or removing an element or cluster from its generators (which makes
   * the controller delete that Application), does to the deployed resources.
   *
   * `ORPHAN` renders `syncPolicy.preserveResourcesOnDeletion: true`, so the controller does not add the
   * resources finalizer to generated Applications. A cascade renders `preserveResourcesOnDeletion: false`
   * and the chosen finalizer in the template.
   *
   * @default DeletionPolicy.ORPHAN - the resources keep running, no longer managed: delete them on purpose
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Application-Deletion/
   */
  readonly deletionPolicy?: DeletionPolicy;

  /**
   * Fields that belong to someone other than Git, in every generated Application. More can be added with
   * `addIgnoreRule`. Any rule also turns on `RespectIgnoreDifferences=true`.
   *
   * @default - none: every field of every deployed resource is compared with Git
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/diffing/
   */
  readonly ignoreRules?: IgnoreRule[];

  /**
   * What the ApplicationSet controller may do to the Applications it generated, rendered as
   * `syncPolicy.applicationsSync`. The default never deletes an Application: when a folder of a git generator is
   * deleted or renamed (or a file, element or cluster goes), its Application stays, with its resources, and
   * whoever removed the folder deletes the Application on purpose. Changes of the template still reach every
   * Application, which `CREATE_ONLY` would stop.
   *
   * The controller honours this field only when `applicationsetcontroller.policy` in `argocd-cmd-params-cm` is
   * empty (Argo CD's default) or `applicationsetcontroller.enable.policy.override` is `"true"`; with a policy
   * set there and no override, that policy applies instead. Check it: `kubectl -n argocd get cm
   * argocd-cmd-params-cm -o yaml`.
   *
   * A policy that deletes Applications (`SYNC`, `CREATE_DELETE`) needs `applicationsSyncReason`.
   *
   * @default ApplicationsSyncPolicy.CREATE_UPDATE
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Controlling-Resource-Modification/
   */
  readonly applicationsSync?: ApplicationsSyncPolicy;

  /**
   * Why the controller may delete Applications (`applicationsSync` `SYNC` or `CREATE_DELETE`), e.g. "preview
   * environments: a closed pull request's Application must go". Recorded on the ApplicationSet as the reasoned
   * suppression of SA016; refused with a policy that deletes nothing.
   *
   * @default - none: a deleting policy is refused
   */
  readonly applicationsSyncReason?: string;

  /**
   * Labels on every generated Application; a value may be a template that renders to a label value, e.g.
   * `{ env: '{{index .path.segments 1}}' }`. A RollingSync selects Applications by one of them.
   *
   * @default - no labels
   */
  readonly applicationLabels?: { [key: string]: string };

  /**
   * Sync the generated Applications step by step (Argo CD's progressive sync, `strategy: RollingSync`), by one of
   * `applicationLabels`, waiting for each step to be Healthy before the next.
   *
   * The ApplicationSet controller does this only with `applicationsetcontroller.enable.progressive.syncs: "true"`
   * in `argocd-cmd-params-cm` (or `--enable-progressive-syncs`); without it the strategy is ignored and every
   * Application auto-syncs at once. With it, the controller turns auto-sync off in every generated Application
   * (before Argo CD 3.3 by removing `automated`, from 3.3 by setting `automated.enabled: false`, argo-cd #24507)
   * and syncs them itself, with the template's prune and retry. So there is no self-heal: a change made by hand in
   * the cluster stays until the next Git change reaches that Application's step, or someone syncs it. Argo CD calls
   * progressive syncs alpha up to 3.2 and beta from 3.3 (its Progressive-Syncs page at those tags).
   *
   * @default - no strategy: every Application auto-syncs on its own
   * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Progressive-Syncs/
   */
  readonly rollingSync?: RollingSyncOptions;
}

/**
 * An Argo CD ApplicationSet whose generated Applications carry the same hardened policy as a
 * {@link SafeApplication}: automated sync with prune and selfHeal (and `enabled` on 3.1+), never
 * allowEmpty, the sync options CreateNamespace, PruneLast and ApplyOutOfSyncOnly (and
 * RespectIgnoreDifferences with ignore rules), and a bounded retry. None of it can be switched off by a prop.
 *
 * The template uses Go templates with `missingkey=error`: a misspelt parameter makes the controller refuse
 * to render instead of producing an empty name or namespace. Parameters are also checked here, against
 * what each generator gives, and list elements are rendered to check names and namespaces.
 *
 * Deleting the ApplicationSet, or dropping an element from a generator, does not delete what was deployed:
 * `preserveResourcesOnDeletion: true` keeps the controller from adding the resources finalizer (see
 * `deletionPolicy`). Nor does the controller delete an Application whose folder, file, element or cluster is no
 * longer generated: `syncPolicy.applicationsSync` is `create-update` (see `applicationsSync`, and the controller
 * setting it needs). Deleting the ApplicationSet itself still deletes its Applications through their owner
 * references, whatever the policy (Argo CD documents this); their resources stay with `DeletionPolicy.ORPHAN`.
 *
 * Break-glass on one generated Application: the ApplicationSet ignores each Application's
 * `/spec/syncPolicy/automated` (`ignoreApplicationDifferences`, Argo CD 2.9+), so auto-sync can be turned
 * off by hand and the controller does not turn it back on. Two traps:
 * - Turning auto-sync back on with `argocd app set --sync-policy automated` alone writes `automated: {}`:
 *   prune and selfHeal come back false (argo-cd #23303, #23330), and the controller does not repair them,
 *   because it ignores that field. A restore must set the whole policy, and be checked. (From Argo CD 3.2 the
 *   UI's auto-sync toggle sets `enabled` and keeps prune and selfHeal, argo-cd #24254; before, its Disable
 *   button removes the block.)
 * - The field stays ignored for every Application: a change to `automated` here reaches only Applications
 *   created afterwards. Only `automated` is ignored, not all of `/spec/syncPolicy` as in the Argo CD docs'
 *   example, because that would also freeze sync options and retry, e.g. keep RespectIgnoreDifferences from
 *   reaching existing Applications when an ignore rule is added (argo-cd #22832).
 *
 * With `rollingSync` the controller has already turned auto-sync off in every generated Application: there is
 * nothing to suspend, and auto-sync must not be turned back on by hand. A GitOpsApp writes both cases, and the
 * controller settings `applicationsSync` and `rollingSync` need, to `runbooks/ApplicationSet.<name>.md`.
 *
 * ```sh
 * argocd app set argocd/eu-checkout --sync-policy none        # suspend; the ApplicationSet leaves it alone
 * # ... act, then backfill Git ...
 * argocd app set argocd/eu-checkout --sync-policy automated --auto-prune --self-heal --allow-empty=false
 * argocd app get argocd/eu-checkout -o json | jq .spec.syncPolicy.automated  # prune and selfHeal must be true
 * ```
 *
 * A chart of its own, like SafeApplication and SafeProject: define it in the app (or a GitOpsApp, which writes
 * it next to its project's Applications). When synthesized it checks its template, wrapped as an
 * Application, against every rule in RULES.md, so escape hatches on `ApiObject.of(set)` are caught too.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/
 * @see https://argo-cd.readthedocs.io/en/stable/operator-manual/applicationset/Controlling-Resource-Modification/
 */
export class SafeApplicationSet extends Chart {
  /** Whether `x` is a SafeApplicationSet. */
  public static isSafeApplicationSet(x: unknown): x is SafeApplicationSet {
    return typeof x === 'object' && x !== null && SAFE_APPLICATION_SET in x;
  }

  /**
   * `instanceof SafeApplicationSet` (cdk8s's Chart would otherwise answer true for any chart).
   * @internal
   */
  static [Symbol.hasInstance](x: unknown): x is SafeApplicationSet {
    return SafeApplicationSet.isSafeApplicationSet(x);
  }

  /** The ApplicationSet's name. */
  public readonly applicationSetName: string;
  /** The template of the generated Applications' names. */
  public readonly applicationName: string;
  /** The AppProject's name. */
  public readonly projectName: string;
  /** The repository Argo CD reads. */
  public readonly repoUrl: string;
  /** The directory Argo CD reads (may be a template). */
  public readonly sourcePath: string;
  /** The revision Argo CD tracks. */
  public readonly targetRevision: string;
  /** The namespace the generated Applications deploy to (may be a template). */
  public readonly destinationNamespace: string;
  /** The cluster the generated Applications deploy to. */
  public readonly destinationCluster: ApplicationSetCluster;
  /** The namespace of the ApplicationSet and of the Applications it generates. */
  public readonly applicationNamespace: string;
  /** The Argo CD release the ApplicationSet is rendered for. */
  public readonly argoCdVersion: ArgoCdVersion;
  /** What deleting the ApplicationSet or one of its Applications does to the deployed resources. */
  public readonly deletionPolicy: DeletionPolicy;
  /** What the ApplicationSet controller may do to the generated Applications. */
  public readonly applicationsSync: ApplicationsSyncPolicy;
  /** The ApplicationSet object. */
  public readonly resource: ApiObject;

  private readonly generatorList: ApplicationSetGenerator[];
  private readonly retry: ResolvedRetry;
  private readonly rules: IgnoreRule[] = [];
  private readonly applicationsSyncReason?: string;
  private readonly templateLabels: { [key: string]: string };
  private readonly rollingSync?: RollingSyncOptions;

  public constructor(scope: Construct, id: string, props: SafeApplicationSetProps) {
    super(scope, id);
    Object.defineProperty(this, SAFE_APPLICATION_SET, { value: true });
    Object.defineProperty(this, GITOPS_PART, { value: true });

    this.applicationSetName = checkLabel(this, 'name', props.name, 'the ApplicationSet\'s name');
    this.applicationNamespace = checkLabel(this, 'applicationNamespace', props.applicationNamespace ?? 'argocd', 'a namespace name');
    this.generatorList = checkGenerators(this, props.generators);
    this.projectName = checkFixedProject(this, props.project);
    this.repoUrl = checkFixedRepoUrl(this, props.repoUrl);
    this.targetRevision = checkFixedRevision(this, props.targetRevision);
    this.argoCdVersion = props.argoCdVersion ?? ArgoCdVersion.LATEST;
    this.deletionPolicy = props.deletionPolicy ?? DeletionPolicy.ORPHAN;
    this.retry = resolveRetry(this, props.retry ?? {});
    this.checkGitSources();
    this.applicationsSync = props.applicationsSync ?? ApplicationsSyncPolicy.CREATE_UPDATE;
    this.applicationsSyncReason = this.checkApplicationsSync(props.applicationsSyncReason);

    this.applicationName = this.checkTemplateField('applicationName', props.applicationName, {
      required: true,
      shape: (v) => isDns1123Label(v),
      what: 'a DNS-1123 label (lowercase letters, digits and "-", at most 63 characters)',
      code: ErrorCode.INVALID_NAME,
    });
    this.sourcePath = this.checkTemplateField('path', props.path, {
      shape: (v) => v.trim() !== '' && !v.startsWith('/') && !v.split('/').includes('..') && !/\s/.test(v),
      what: 'a directory relative to the repository root, without ".." or whitespace',
      code: ErrorCode.SOURCE_CONFLICT,
    });
    this.destinationNamespace = this.checkTemplateField('destinationNamespace', props.destinationNamespace, {
      shape: (v) => isDns1123Label(v),
      what: 'a namespace name that is a DNS-1123 label',
      code: ErrorCode.INVALID_NAMESPACE,
    });
    this.destinationCluster = this.checkCluster(props.destinationCluster ?? ApplicationSetCluster.IN_CLUSTER);
    this.checkListNames();
    this.templateLabels = this.checkLabels(props.applicationLabels ?? {});
    this.rollingSync = this.checkRollingSync(props.rollingSync);

    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: {
        name: this.applicationSetName,
        namespace: this.applicationNamespace,
        ...(this.applicationsSyncReason !== undefined
          ? { annotations: { [suppressionKey(DELETES_APPLICATIONS_RULE)]: `applicationsSync ${this.applicationsSync} chosen in code: ${this.applicationsSyncReason}` } }
          : {}),
      },
      // Rendered late, so that rules added after construction still show.
      spec: Lazy.any({ produce: () => this.renderSpec() }),
    });

    for (const rule of props.ignoreRules ?? []) {
      this.addIgnoreRule(rule);
    }
    this.node.addValidation({ validate: () => this.validateSet() });
  }

  /** The generators, in order. */
  public get generators(): ApplicationSetGenerator[] {
    return [...this.generatorList];
  }

  /** The ignore rules, in the order they were added. */
  public get ignoreRules(): IgnoreRule[] {
    return [...this.rules];
  }

  /** The sync options every generated Application carries. */
  public get syncOptions(): string[] {
    return renderSyncOptions({ hasIgnoreRules: this.rules.length > 0 });
  }

  /**
   * Adds an ignore rule to every generated Application. A rule identical to one already present is merged
   * into it, keeping both reasons. When `destinationNamespace` is a template, leave the namespace out of
   * the rule's target (`IgnoreTarget.resource({ group, kind, name })`): Argo CD then matches the named
   * object in whatever namespace the Application deploys to.
   */
  public addIgnoreRule(rule: IgnoreRule): void {
    checkIgnoreRule(this, 'rule', rule, 'IgnoreTarget.resource({...})');
    // The controller renders every string of the template, the reasons annotation included.
    const templated = [rule.value, rule.reason].find(hasAction);
    if (templated !== undefined) {
      throw badValue(ErrorCode.INVALID_TEMPLATE, this, 'rule', templated,
        'contains "{{", which the ApplicationSet controller would render as a Go template action', 'reword the reason or expression without "{{"');
    }
    this.rules.push(rule);
  }

  private renderSpec(): Record<string, unknown> {
    const finalizers = hardenedFinalizers(this.deletionPolicy);
    const annotations = hardenedAnnotations(this.rules, this.deletionPolicy);
    const defaults = { repoUrl: this.repoUrl, revision: this.targetRevision };
    return {
      goTemplate: true,
      goTemplateOptions: ['missingkey=error'],
      generators: this.generatorList.map((g) => g._render(defaults)),
      syncPolicy: { applicationsSync: this.applicationsSync, preserveResourcesOnDeletion: finalizers === undefined },
      ...(this.rollingSync ? { strategy: renderRollingSync(this.rollingSync) } : {}),
      ignoreApplicationDifferences: [{ jsonPointers: [BREAK_GLASS_POINTER] }],
      template: {
        metadata: {
          name: this.applicationName,
          ...(Object.keys(this.templateLabels).length > 0 ? { labels: { ...this.templateLabels } } : {}),
          ...(annotations ? { annotations } : {}),
          ...(finalizers ? { finalizers } : {}),
        },
        spec: toJson_ApplicationSpec(hardenedSpec({
          project: this.projectName,
          repoUrl: this.repoUrl,
          targetRevision: this.targetRevision,
          path: this.sourcePath,
          server: this.destinationCluster.server,
          clusterName: this.destinationCluster.name,
          namespace: this.destinationNamespace,
          ignoreRules: this.rules,
          deletionPolicy: this.deletionPolicy,
          argoCdVersion: this.argoCdVersion,
          retry: this.retry,
        })),
      },
    };
  }

  private validateSet(): string[] {
    const errors: string[] = [];
    errors.push(...jqProblems(this.rules, `ApplicationSet ${this.applicationSetName}`));
    // The rendered object, so that escape hatches are checked too.
    const application = templateAsApplication(this.resource.toJson() as Manifest);
    if (!application) {
      errors.push(`[${ErrorCode.RULE_VIOLATIONS}] the ApplicationSet has no spec.template with metadata and spec, `
        + 'so it would generate nothing. Fix: remove the JSON patch that removed it.');
      return errors;
    }
    // The ApplicationSet itself too, for the rules about it (SA016).
    for (const f of unsuppressed(runRules({ application, resources: [this.resource.toJson() as Manifest], argoCdVersion: this.argoCdVersion }))) {
      errors.push(formatFinding(f, this.resource.node.path));
    }
    return errors;
  }

  /**
   * Checks a field that may hold template actions: its syntax, the parameters it reads against every
   * generator, what it can look like once rendered, and, for list elements, the rendered value itself.
   */
  private checkTemplateField(prop: string, value: string, check: {
    readonly required?: boolean;
    readonly shape: (rendered: string) => boolean;
    readonly what: string;
    readonly code: ErrorCodeValue;
  }): string {
    if (typeof value !== 'string' || value.length === 0) {
      throw badValue(check.code, this, prop, value,
        `must be ${check.what}, or a Go template that renders to one`, 'give a value such as "{{.name}}-checkout"');
    }
    const parsed = checkTemplateSyntax(this, prop, value);
    if (check.required && parsed.actions.length === 0) {
      throw badValue(check.code, this, prop, value,
        'reads no generator parameter, so every generated Application would get the same value', `read a parameter, e.g. ${JSON.stringify(`{{.name}}-${value}`)}`);
    }
    if (!check.shape(parsed.skeleton)) {
      throw badValue(check.code, this, prop, value,
        `cannot render to ${check.what}${parsed.actions.length > 0 ? ' (its text outside the {{ }} actions already breaks that)' : ''}`, 'keep the literal text to what the rendered value allows; put generator parameters in {{ }}');
    }
    this.checkParameters(prop, value, parsed);
    this.generatorList.forEach((g, gi) => g._elements().forEach((element, ei) => {
      const rendered = renderSimple(value, element);
      if (rendered !== undefined && !check.shape(rendered)) {
        throw badValue(check.code, this, prop, value,
          `renders to ${JSON.stringify(rendered)} for list element ${ei} of generator ${gi}, which is not ${check.what}`, 'change that element\'s parameter values, or the template');
      }
    }));
    return value;
  }

  private checkParameters(prop: string, value: string, parsed: ParsedTemplate): void {
    for (const chain of parsed.actions.flatMap(fieldChainsOf)) {
      this.generatorList.forEach((g, gi) => {
        const missing = g._missing(chain);
        if (missing !== undefined) {
          throw badValue(ErrorCode.INVALID_TEMPLATE, this, prop, value,
            `reads the parameter "${missing.parameter}", but in generator ${gi} ${missing.why}; with missingkey=error the controller would refuse to render the ApplicationSet`, 'read a parameter every generator gives, or add it to every list element');
        }
      });
    }
  }

  /**
   * A git generator of the ApplicationSet's own repository reads the revision its Applications deploy, so that
   * every folder it finds is there for them; and its fields exist in the release rendered for.
   */
  private checkGitSources(): void {
    this.generatorList.forEach((g, gi) => {
      for (const source of g._gitSources()) {
        if (source.repoUrl === undefined && !isGitRepoUrl(this.repoUrl)) {
          throw badValue(ErrorCode.INVALID_URL, this, `generators[${gi}]`, this.repoUrl,
            'is the repository a git generator without repoUrl reads, and is no Git repository (an OCI registry has no folders to list)',
            'give the git generator the repoUrl of the Git repository it reads');
        }
        if (source.revision !== undefined && (source.repoUrl ?? this.repoUrl) === this.repoUrl && source.revision !== this.targetRevision) {
          throw badValue(ErrorCode.INVALID_REVISION, this, `generators[${gi}].revision`, source.revision,
            `differs from targetRevision ${JSON.stringify(this.targetRevision)} of the same repository: the generator would find folders at one revision that the Applications deploy from another, where they may not exist`,
            'leave the generator\'s revision out, so that it reads targetRevision');
        }
      }
      for (const { feature, what, field } of g._features()) {
        const row = featureRow(feature);
        if (!this.argoCdVersion.isAtLeast(row.since.major, row.since.minor)) {
          throw badValue(ErrorCode.UNKNOWN_VERSION, this, `generators[${gi}]`, what,
            `needs Argo CD ${releaseName(row.since)} or newer (${field}); Argo CD ${this.argoCdVersion.version} drops the field and generates what it should leave out`,
            `upgrade Argo CD to ${releaseName(row.since)} and set argoCdVersion, or narrow include so that it matches only the files wanted`);
        }
      }
    });
  }

  private checkApplicationsSync(reason: string | undefined): string | undefined {
    const policy = this.applicationsSync;
    if (!Object.values(ApplicationsSyncPolicy).includes(policy)) {
      throw badValue(ErrorCode.INVALID_GENERATOR, this, 'applicationsSync', policy,
        `must be one of ${Object.values(ApplicationsSyncPolicy).join(', ')}`, 'use ApplicationsSyncPolicy.CREATE_UPDATE');
    }
    const deletes = DELETING_POLICIES.includes(policy);
    if (deletes && (typeof reason !== 'string' || reason.trim() === '')) {
      throw badValue(ErrorCode.INVALID_REASON, this, 'applicationsSync', policy,
        'lets the ApplicationSet controller delete every Application whose folder, file, element or cluster stops being generated (a renamed folder, a moved file, a cluster Secret relabelled), and with it, under a cascading deletionPolicy, what it deployed; it needs applicationsSyncReason',
        'leave applicationsSync at CREATE_UPDATE, or say why the Applications must be deleted in applicationsSyncReason');
    }
    if (!deletes && reason !== undefined) {
      throw badValue(ErrorCode.INVALID_REASON, this, 'applicationsSyncReason', reason,
        `is given, but applicationsSync ${policy} deletes no Application, so there is nothing to justify`, 'remove applicationsSyncReason');
    }
    if (reason !== undefined && hasAction(reason)) {
      throw badValue(ErrorCode.INVALID_TEMPLATE, this, 'applicationsSyncReason', reason,
        'contains "{{", which reads as a template action', 'reword the reason without "{{"');
    }
    return reason?.trim();
  }

  private checkLabels(labels: { [key: string]: string }): { [key: string]: string } {
    if (typeof labels !== 'object' || labels === null || Array.isArray(labels)) {
      throw badValue(ErrorCode.INVALID_GENERATOR, this, 'applicationLabels', labels, 'must be a map of label keys to values', 'e.g. { env: \'{{index .path.segments 1}}\' }');
    }
    const out: { [key: string]: string } = {};
    for (const key of Object.keys(labels).sort()) {
      if (!isQualifiedName(key)) {
        throw badValue(ErrorCode.INVALID_GENERATOR, this, 'applicationLabels', key,
          'is not a Kubernetes label key: an optional DNS subdomain and "/", then up to 63 letters, digits, "-", "_" or "."', 'use a key such as "env" or "example.com/tier"');
      }
      out[key] = this.checkTemplateField(`applicationLabels.${key}`, labels[key], {
        shape: (v) => isLabelValue(v),
        what: 'a Kubernetes label value (up to 63 letters, digits, "-", "_" or ".")',
        code: ErrorCode.INVALID_GENERATOR,
      });
    }
    return out;
  }

  private checkRollingSync(options: RollingSyncOptions | undefined): RollingSyncOptions | undefined {
    if (options === undefined) {
      return undefined;
    }
    const label = options?.label;
    if (typeof label !== 'string' || !Object.prototype.hasOwnProperty.call(this.templateLabels, label)) {
      throw badValue(ErrorCode.INVALID_GENERATOR, this, 'rollingSync.label', label,
        `is not one of applicationLabels (${Object.keys(this.templateLabels).join(', ') || 'none'}): the steps select generated Applications by their labels, so no Application would be in any step and none would ever sync`,
        'add the label to applicationLabels, e.g. { env: \'{{index .path.segments 1}}\' }');
    }
    const steps = options.steps;
    if (!Array.isArray(steps) || steps.length === 0) {
      throw badValue(ErrorCode.INVALID_GENERATOR, this, 'rollingSync.steps', steps,
        'must hold at least one step: Argo CD ignores a RollingSync without steps', 'give one step per stage, e.g. [{ values: [\'staging\'] }, { values: [\'prod\'] }]');
    }
    const stepOf = new Map<string, number>();
    steps.forEach((step: RollingSyncStep, i) => {
      const values = step?.values;
      if (!Array.isArray(values) || values.length === 0) {
        throw badValue(ErrorCode.INVALID_GENERATOR, this, `rollingSync.steps[${i}].values`, values,
          'must hold at least one label value', 'e.g. [\'staging\']');
      }
      for (const v of values) {
        if (typeof v !== 'string' || !isLabelValue(v)) {
          throw badValue(ErrorCode.INVALID_GENERATOR, this, `rollingSync.steps[${i}].values`, v,
            'is not a Kubernetes label value', 'give the value the label renders to, e.g. "staging"');
        }
        const earlier = stepOf.get(v);
        if (earlier !== undefined) {
          throw badValue(ErrorCode.DUPLICATE, this, `rollingSync.steps[${i}].values`, v,
            `is also in step ${earlier}: the controller puts such an Application in the first step only`, 'keep each value in one step');
        }
        stepOf.set(v, i);
      }
    });
    // What list elements render to is known here: an Application in no step would never be synced.
    const template = this.templateLabels[label];
    this.generatorList.forEach((g, gi) => g._elements().forEach((element, ei) => {
      const rendered = renderSimple(template, element);
      if (rendered !== undefined && !stepOf.has(rendered)) {
        throw badValue(ErrorCode.INVALID_GENERATOR, this, 'rollingSync.steps', rendered,
          `is the ${label} label of list element ${ei} of generator ${gi}, which is in no step: the rollout never syncs that Application, and with auto-sync off nothing else does`,
          `add ${JSON.stringify(rendered)} to a step's values`);
      }
    }));
    return { label, steps: steps.map((s) => ({ values: [...s.values], ...(s.maxUpdate ? { maxUpdate: s.maxUpdate } : {}) })) };
  }

  private checkCluster(cluster: ApplicationSetCluster): ApplicationSetCluster {
    if (!(cluster instanceof ApplicationSetCluster)) {
      throw badValue(ErrorCode.INVALID_URL, this, 'destinationCluster', cluster,
        'must be built with an ApplicationSetCluster factory', 'use ApplicationSetCluster.fromServer(\'{{.server}}\'), ApplicationSetCluster.fromName(\'prod-eu\') or ApplicationSetCluster.IN_CLUSTER');
    }
    const value = (cluster.server ?? cluster.name) as string;
    const parsed = parseTemplate(value) as ParsedTemplate;
    this.checkParameters('destinationCluster', value, parsed);
    const perCluster = this.generatorList.some((g) => g._perCluster());
    if (perCluster && parsed.actions.length === 0) {
      throw badValue(ErrorCode.INVALID_TEMPLATE, this, 'destinationCluster', value,
        'reads no parameter, so every Application the clusters generator makes would deploy to this one cluster', 'deploy each to its own cluster: ApplicationSetCluster.fromServer(\'{{.server}}\')');
    }
    return cluster;
  }

  /** Two list elements that render to the same Application name would collide in the controller. */
  private checkListNames(): void {
    const seen = new Map<string, string>();
    this.generatorList.forEach((g, gi) => g._elements().forEach((element, ei) => {
      const name = renderSimple(this.applicationName, element);
      if (name === undefined) {
        return;
      }
      const here = `list element ${ei} of generator ${gi}`;
      const other = seen.get(name);
      if (other !== undefined) {
        throw badValue(ErrorCode.DUPLICATE, this, 'applicationName', this.applicationName,
          `renders to ${JSON.stringify(name)} for both ${other} and ${here}; the controller refuses an ApplicationSet with duplicate names`, 'give every element its own name parameter, or remove the duplicate element');
      }
      seen.set(name, here);
    }));
  }

  /**
   * In a GitOpsApp, a set that no SafeApplication deploys goes next to its project's Applications
   * (`applications/<project>/ApplicationSet.<name>`), where the project's app-of-apps root deploys it, with its
   * runbook (`runbooks/ApplicationSet.<name>.md`: the controller settings it needs, break-glass on one Application).
   * Inside a SafeApplication it is one of that app's workloads instead.
   * @internal
   */
  public _renderGitOpsFiles(layout: GitOpsLayout): PartFile[] {
    for (let c: IConstruct | undefined = this.node.scope; c; c = c.node.scope) {
      if (SafeApplication.isSafeApplication(c)) {
        return [];
      }
    }
    return [
      { path: `${layout.applicationsFolder(this.projectName)}/ApplicationSet.${this.applicationSetName}${layout.extension}`, manifest: this.resource.toJson() },
      { path: `${layout.runbooksFolder}/ApplicationSet.${this.applicationSetName}.md`, text: this._runbook() },
    ];
  }

  /**
   * The operations runbook of this ApplicationSet: the controller settings its policy needs, and break-glass on one
   * of its Applications.
   * @internal
   */
  public _runbook(): string {
    const spec = (this.resource.toJson() as Manifest).spec as Manifest;
    const template = (spec.template as Manifest).spec as Manifest;
    return renderApplicationSetRunbook({
      name: this.applicationSetName,
      applicationNamespace: this.applicationNamespace,
      applicationsSync: this.applicationsSync,
      rollingSync: this.rollingSync !== undefined,
      cascades: hardenedFinalizers(this.deletionPolicy) !== undefined,
      syncPolicy: template.syncPolicy as Record<string, unknown>,
    });
  }
}


function checkGenerators(scope: Construct, generators: ApplicationSetGenerator[]): ApplicationSetGenerator[] {
  if (!Array.isArray(generators) || generators.length === 0 || generators.some((g) => !(g instanceof ApplicationSetGenerator))) {
    throw badValue(ErrorCode.INVALID_GENERATOR, scope, 'generators', Array.isArray(generators) ? `${generators.length} generator(s)` : generators,
      'must be a non-empty list built with ApplicationSetGenerator factories', 'use e.g. [ApplicationSetGenerator.list([{ name: \'eu\' }])] or [ApplicationSetGenerator.clusters({ matchLabels: { env: \'prod\' } })]');
  }
  return [...generators];
}

function checkFixedProject(scope: Construct, project: IArgoProject): string {
  if (typeof project?.projectName === 'string' && hasAction(project.projectName)) {
    throw badValue(ErrorCode.DEFAULT_PROJECT, scope, 'project', project.projectName,
      'must be one fixed AppProject: a template could render to "default" or to another team\'s project', 'pass ArgoProject.fromName(\'<team project>\'); use one ApplicationSet per project');
  }
  return checkProject(scope, project);
}

function checkFixedRepoUrl(scope: Construct, url: string): string {
  if (typeof url === 'string' && hasAction(url)) {
    throw badValue(ErrorCode.INVALID_URL, scope, 'repoUrl', url,
      'must be one fixed repository URL, without template actions', 'give the repository URL as it is registered in Argo CD; vary `path` per Application instead');
  }
  return checkRepoUrl(scope, url);
}

function checkFixedRevision(scope: Construct, revision: string | undefined): string {
  if (revision === undefined) {
    return 'main';
  }
  const problem = fixedRevisionProblem(revision, 'every generated Application tracks the same, reviewed revision');
  if (problem) {
    throw badValue(ErrorCode.INVALID_REVISION, scope, 'targetRevision', revision,
      `is refused: ${problem}`, 'name the branch, tag or commit to track, e.g. "main"');
  }
  return revision.trim();
}


/** The ApplicationSet's template as the Application manifest it generates, for the rules. */
function templateAsApplication(set: Manifest): Manifest | undefined {
  const template = (set.spec as Manifest | undefined)?.template as Manifest | undefined;
  const metadata = template?.metadata as Manifest | undefined;
  if (!metadata || !template?.spec) {
    return undefined;
  }
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { ...metadata, namespace: (set.metadata as Manifest | undefined)?.namespace },
    spec: template.spec,
  };
}


/** `spec.strategy` of a RollingSync: one `In` expression on the label a step. */
function renderRollingSync(options: RollingSyncOptions): Record<string, unknown> {
  return {
    type: 'RollingSync',
    rollingSync: {
      steps: options.steps.map((step) => ({
        matchExpressions: [{ key: options.label, operator: 'In', values: [...step.values] }],
        ...(step.maxUpdate ? { maxUpdate: step.maxUpdate._render() } : {}),
      })),
    },
  };
}
