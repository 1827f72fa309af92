import * as path from 'path';
import { expandApplicationSet, RepositoryView, valueAt } from './application-set';
import { NEW_GIT_FILE_GLOBBING, readGitFileGlobbing } from './controller-settings';
import { excludeMatcher } from './exclude';
import { KustomizeLayout, kustomizeLayout } from './kustomize';
import { buildArgoCdObjects } from './kustomize-build';
import { buildPlainFolder, PlainBuildInput } from './kustomize-plain';
import { isWaiting, mayWait, objectsOf, readContent, readObjects, textOf, UnitEntry, unexpected, WaitingFile, WaitingFiles } from './read-objects';
import { AuditedRepository, AuditFile, AuditFinding, AuditResult, ConfigSuppression, FileProblem, FolderLink, RenderedManifests } from './types';
import { ArgoCdVersion } from '../core/argocd-version';
import { globMatches } from '../core/glob';
import { at, describeObject, isApplication, isApplicationSet, isAppProject, isObject, listAt, LocatedManifest, Manifest, readSourcesOf, SourceLocation, stringAt } from '../core/manifest';
import { compareStrings } from '../core/order';
import { scopedProjectOf } from '../core/project-policy';
import { isKustomizationFile, isRepoUrlPlaceholder, isUnfilledPath, KUSTOMIZATION_FILES, repositoryDir, repositoryKey, sourcePathRefusal } from '../core/source-paths';
import { detached, stripTrailing } from '../core/text';
import { runRules, runRulesAcross } from '../rules/engine';
import { ALL_RULES } from '../rules/registry';
import { Severity } from '../rules/severity';
import { Finding, RepositoryFacts, Rule } from '../rules/types';

/** How to audit. */
export interface AuditOptions {
  readonly argoCdVersion: ArgoCdVersion;
  /** Only these rule ids; none means all. */
  readonly ruleIds?: readonly string[];
  /** Only findings at or above this severity are reported. */
  readonly minSeverity?: Severity;
  readonly suppressions?: readonly ConfigSuppression[];
  /** Today's date (`YYYY-MM-DD`), for the break-glass expiry rule. */
  readonly today?: string;
  /** The work budget: at most this many Kubernetes objects a file (default {@link MAX_OBJECTS_PER_FILE}). */
  readonly maxObjectsPerFile?: number;
  /** Globs of files and folders to leave out, unread (see {@link isExcluded}). */
  readonly exclude?: readonly string[];
  /** What is known of the repository the files come from: its URLs, its other files. */
  readonly repository?: AuditedRepository;
  /** Manifests rendered for Applications: audited as what they deploy, instead of the files under their source paths. */
  readonly rendered?: readonly RenderedManifests[];
  /**
   * Whether the ApplicationSet controller runs with `applicationsetcontroller.enable.new.git.file.globbing`, so that a
   * git files generator's `*` stays within one folder. Default: what the audited files set (an argocd-cmd-params-cm
   * ConfigMap, the argo-cd chart's `configs.params`), else off, as in Argo CD.
   */
  readonly newGitFileGlobbing?: boolean;
}

/**
 * The audit's work budget per file. Pairing and the rules are linear in the objects, but a file of more objects than
 * any repository holds in one file (the largest of about 12,000 files in 37 public GitOps repositories holds 38) is
 * refused with a problem, answered in the time it takes to parse, rather than audited for seconds: from the command
 * line on a 2-core machine a file of 5,000 autoscaled objects takes about 0.6 s, one of 32,000 about 1.5 s.
 * `--max-objects-per-file` raises it, for a large rendering.
 */
export const MAX_OBJECTS_PER_FILE = 5_000;

/**
 * The budget of one ApplicationSet: at most this many generated Applications (and never more than the per-file
 * budget of objects), and this many characters rendered for them all. Past it, the set is "too large, not
 * expanded" and only its template's literal fields are audited.
 */
export const MAX_GENERATED_APPLICATIONS = 2_000;
export const MAX_RENDERED_CHARS = 20_000_000;

const SEVERITY_RANK: Record<Severity, number> = { [Severity.NOTE]: 0, [Severity.WARNING]: 1, [Severity.ERROR]: 2 };

/** Whether `severity` is at least `threshold`. */
export function atLeast(severity: Severity, threshold: Severity): boolean {
  return SEVERITY_RANK[severity] >= SEVERITY_RANK[threshold];
}

/** An Application (or one an ApplicationSet generates, or its literal template) and what it deploys. */
interface AuditUnit {
  readonly application?: LocatedManifest;
  readonly applicationName?: string;
  /** What it deploys: objects, and files whose objects are made when the unit is audited (see WaitingFile). */
  readonly resources: UnitEntry[];
  /** The ApplicationSet this unit's Application is generated from (or is the literal template of). */
  readonly set?: SetOrigin;
  /**
   * Objects the Application names but this unit does not own (its AppProject, wherever it is written, and the
   * repository and cluster Secrets scoped to that project): the rules about that reference read them (SA202); no rule counts them among what the Application deploys, and findings on
   * them are reported by the unit that deploys them.
   */
  readonly context?: LocatedManifest[];
  /** Whether `resources` are every object the Application deploys (RuleInput.complete). */
  readonly complete?: boolean;
}

/** An ApplicationSet whose template a unit's Application comes from. */
interface SetOrigin {
  /** Names the ApplicationSet: its file and where it starts. */
  readonly id: string;
  readonly name: string;
  /** `ApplicationSet namespace/name`: the object template findings are reported on. */
  readonly object: string;
  /** How many Applications it generates here. */
  readonly total: number;
  readonly expanded: boolean;
  /** The generated Application's own name (its metadata.name), when expanded. */
  readonly generated?: string;
  /** Which of the set's Applications this is: two may share a name left with {{ }}. */
  readonly index: number;
  /** Where in the ApplicationSet a field of this Application is written. */
  readonly pointerOf: (applicationPointer: string) => string;
}

/**
 * Audits files of a GitOps repository with the same rules SafeApplication runs at synth: parses every
 * file, finds Applications (and those ApplicationSets generate, see application-set.ts), pairs each with the manifests under its
 * `source.path`, runs the rules, and applies suppressions. Files that cannot be parsed are reported and
 * the rest is still audited. Pure: the caller reads the files.
 */
export function auditFiles(files: Iterable<AuditFile>, options: AuditOptions): AuditResult {
  const problems: FileProblem[] = [];
  const notes: string[] = [];
  const objects: LocatedManifest[] = [];
  const chartRoots = new Set<string>();
  const templateFiles: AuditFile[] = [];
  let fileCount = 0;
  let skippedDocuments = 0;
  let excludedFiles = 0;

  const exclude = options.exclude ?? [];
  const leftOut = excludeMatcher(exclude);
  // Excluded files are not read, but their folders are still there for Argo CD.
  const allPaths: string[] = [];
  const all = [...files].filter((f) => {
    allPaths.push(f.path);
    // Before its content is touched: an excluded file is never read.
    const excluded = exclude.length > 0 && leftOut(f.path);
    excludedFiles += excluded ? 1 : 0;
    return !excluded;
  });
  for (const f of all) {
    if (/(^|\/)Chart\.ya?ml$/.test(f.path)) {
      chartRoots.add(path.posix.dirname(f.path));
    }
  }
  const budget = options.maxObjectsPerFile ?? MAX_OBJECTS_PER_FILE;
  /** What each file read holds, in the order the files came: its objects, or the file while its parsing waits. */
  const slots: (readonly LocatedManifest[] | WaitingFile)[] = [];
  for (const file of all) {
    fileCount++;
    if (chartRoots.size > 0 && isInChart(file.path, chartRoots)) {
      templateFiles.push(file);
      continue;
    }
    const content = readContent(file, problems);
    if (content === undefined) {
      continue;
    }
    // A kustomization is read before any pairing, whatever it holds.
    if (!isKustomizationFile(file.path) && mayWait(content)) {
      slots.push({ location: { file: file.path, line: 1, column: 1 }, order: slots.length, content, uses: 0, parsed: false });
      continue;
    }
    const read = objectsOf(file.path, content, budget, problems);
    skippedDocuments += read.skipped;
    slots.push(keptList(read.objects));
  }
  const filled = () => {
    objects.length = 0;
    for (const slot of slots) {
      // One by one: spreading a 175,000-item List into push() overflows the stack.
      for (const o of isWaiting(slot) ? [] : slot) {
        objects.push(o);
      }
    }
  };
  filled();

  // Kustomize builds only what its kustomization files list: patches and unlisted files there are not objects Argo CD applies.
  const layout = kustomizeLayout([...all.map((f) => f.path), ...options.repository?.otherFiles ?? []], objects);
  // What Kustomize builds, a patch and a generator's input are read before any pairing too: the files there wait no longer.
  if (layout.any) {
    const readNow = (file: string) => layout.underKustomization(file) || layout.isPatch(file) || layout.isGeneratorInput(file);
    let read = false;
    slots.forEach((slot, i) => {
      if (isWaiting(slot) && readNow(slot.location.file)) {
        const objectsRead = objectsOf(slot.location.file, slot.content!, budget, problems);
        skippedDocuments += objectsRead.skipped;
        slots[i] = keptList(objectsRead.objects);
        read = true;
      }
    });
    if (read) {
      filled();
    }
  }
  // Where each file read at once came, for placing the waiting files among their objects: made when first asked for.
  let orders: Map<string, number> | undefined;
  const orderOf = (file: string) => (orders ??= fileOrders(slots)).get(file) ?? -1;
  const waiting = new WaitingFiles(slots.filter(isWaiting), orderOf, budget, problems);
  // Made when a file's text is first asked for (a Kustomize build, a Helm value file SA207 checks): most runs ask for none.
  let byPath: Map<string, AuditFile> | undefined;
  const fileOf = (file: string) => (byPath ??= new Map(all.map((f) => [f.path, f]))).get(file);
  const { unbuilt, fragments, fragmentFiles, unlistedFragments, switchedOff, kustomizations } =
    kustomizeBuilt(objects, layout, (file) => textOf(fileOf(file)), notes);
  if (unbuilt.size > 0) {
    notes.push(`${unbuilt.size} file(s) in Kustomize folders that no kustomization lists as a resource are not built by Kustomize, `
      + `so not audited as objects: ${namesOf([...unbuilt])}`);
  }
  if (switchedOff.size > 0) {
    notes.push(`${switchedOff.size} file(s) hold Argo CD objects that the kustomization of their folder leaves out while it lists the `
      + `others of their kind there: switched off, never applied, so not audited: ${namesOf([...switchedOff])}`);
  }
  // What a generator reads is data: that YAML cannot read it, or that it holds {{ }}, is no problem of a manifest.
  if (problems.some((p) => layout.isGeneratorInput(p.file))) {
    const kept = problems.filter((p) => !layout.isGeneratorInput(p.file));
    problems.length = 0;
    problems.push(...kept);
  }
  if (fragmentFiles.size > 0) {
    notes.push(`${fragmentFiles.size} file(s) in Kustomize folders hold Applications without the repoURL the API server requires, which `
      + 'their kustomization adds in a way the audit does not build (a replacement, a remote base): their sources are not judged as '
      + 'written; give the rendering of the Application that deploys the folder (--rendered <application>=<file>) to audit what they '
      + `become: ${namesOf([...fragmentFiles])}`);
  }
  if (unlistedFragments.size > 0) {
    notes.push(`${unlistedFragments.size} file(s) in Kustomize folders hold Applications without the repoURL the API server requires that `
      + `no kustomization lists: switched off, never applied, so not audited: ${namesOf([...unlistedFragments])}`);
  }
  const facts: AuditFacts = {
    ...repositoryFacts([...allPaths, ...options.repository?.otherFiles ?? []], objects, options.repository?.urls ?? [],
      options.repository?.auditedPaths, options.repository?.folderLinks),
    kustomizeBuild: plainKustomizeBuilds(objects, all, templateFiles, problems),
  };
  // Where each kustomization was read from: SA018 resolves the paths it lists against its folder.
  const kustomizationFolders = new Map<Manifest, string>();
  for (const o of objects) {
    if (isKustomizationFile(o.location.file)) {
      kustomizationFolders.set(o.manifest, path.posix.dirname(o.location.file));
    }
  }
  const texts = new Map<string, string | undefined>();
  const ruleFacts: RepositoryFacts = {
    ...facts,
    // Read again when a rule asks (a Helm value file SA207 checks): few files are.
    fileText: (file) => {
      if (!texts.has(file)) {
        texts.set(file, textOf(fileOf(file)));
      }
      return texts.get(file);
    },
    folderOf: (object) => kustomizationFolders.get(object),
  };
  const repository = () => repositoryView(all, facts, gitFileGlobbing(options, objects, templateFiles, notes));
  const rendered = renderedByApplication(options.rendered ?? [], budget, problems);
  const sets = { expanded: 0, literal: 0, generated: 0 };
  const maxApplications = Math.min(MAX_GENERATED_APPLICATIONS, budget);
  const undeployed: string[] = [];
  const context = { repository, facts, rendered, maxApplications, sets, fragments, undeployed };
  const units = groupUnits(objects, waiting, notes, problems, templateFiles, context);
  // A waiting file's objects are kept while a unit that deploys it is still to be audited.
  for (const unit of units) {
    for (const r of unit.resources) {
      if (isWaiting(r)) {
        r.uses++;
      }
    }
  }
  const rules = rulesFor(options);
  const findings: PlacedFinding[] = [];
  const onTemplates = new Map<string, { placed: PlacedFinding; set: SetOrigin; generated: Map<number, string>; unsuppressed: Map<number, string> }>();
  for (const unit of units) {
    // The objects of the files that waited are made now, and are gone once the unit is audited.
    const own: LocatedManifest[] = [];
    for (const r of unit.resources) {
      for (const o of isWaiting(r) ? waiting.objectsFor(r) : [r]) {
        own.push(o);
      }
    }
    const manifests: Manifest[] = [];
    for (const r of own) {
      manifests.push(r.manifest);
    }
    let raw: ReturnType<typeof runRules>;
    try {
      raw = runRules({
        application: unit.application?.manifest,
        resources: manifests,
        ...(unit.context ? { context: unit.context.map((r) => r.manifest) } : {}),
        argoCdVersion: options.argoCdVersion,
        today: options.today,
        repository: ruleFacts,
        ...(unit.complete ? { complete: true } : {}),
      }, rules);
    } catch (e) {
      // A defect the input provoked: report it on the unit's files and audit the rest.
      const where = unit.application ? `Application ${unit.applicationName}` : 'the manifests of this folder';
      const unitFiles = [...new Set([...(unit.application ? [unit.application] : []), ...unit.resources].map((r) => r.location.file))];
      for (const file of unitFiles) {
        problems.push({ file, message: unexpected(e, `auditing ${where}`) });
      }
      continue;
    }
    // Built only for a unit with findings: most have none.
    const located = raw.length === 0 ? new Map<Manifest, LocatedManifest>() : locatedIn(own, unit.application);
    for (const f of raw) {
      // An Application an app-of-apps root deploys is judged in its own unit: found again in the root's, it is not reported twice.
      if (!located.has(f.object) || (f.object !== unit.application?.manifest && isApplication(f.object))) {
        continue;
      }
      // The sources of a fragment are what a kustomization's patches make of them, which the files do not show.
      if (fragments.has(f.object) && SOURCE_POINTER.test(f.path)) {
        continue;
      }
      const set = unit.set;
      if (set === undefined || f.object !== unit.application?.manifest) {
        findings.push(toAuditFinding(f, located.get(f.object)!, unit.applicationName, options.suppressions ?? []));
        continue;
      }
      // A field of an ApplicationSet's template: unjudged while it holds {{ }}, else one finding for all the Applications it holds for.
      if (holdsAction(valueAt(f.object, f.path))) {
        continue;
      }
      // The finding is on the ApplicationSet itself: a config suppression limited to applications names the ApplicationSet.
      const suppressions = options.suppressions ?? [];
      const { finding: { application: _, ...finding }, objectStart } = toAuditFinding(f, located.get(f.object)!, set.name, suppressions);
      const pointer = set.pointerOf(f.path);
      const placed = { finding: { ...finding, pointer }, objectStart };
      const key = `${set.id}\u0000${f.rule.id}\u0000${pointer}`;
      const group = onTemplates.get(key) ?? { placed, set, generated: new Map<number, string>(), unsuppressed: new Map<number, string>() };
      group.generated.set(set.index, set.generated ?? '');
      if (!placed.finding.suppression) {
        group.unsuppressed.set(set.index, set.generated ?? '');
        if (group.placed.finding.suppression) {
          group.placed = placed;
        }
      }
      onTemplates.set(key, group);
    }
  }
  // Once unsuppressed, a group holds an unsuppressed copy: one Application's suppression does not hide the others'.
  for (const { placed, set, generated: every, unsuppressed } of onTemplates.values()) {
    // An unsuppressed finding says for which Applications it is not suppressed.
    const generated = placed.finding.suppression ? every : unsuppressed;
    // Reported on the ApplicationSet, at its template's field: what a baseline names does not change with the generators.
    findings.push({
      objectStart: placed.objectStart,
      finding: {
        ...placed.finding,
        object: set.object,
        message: placed.finding.message + holdsFor(set, generated),
      },
    });
  }

  findings.push(...acrossApplications(objects, rules, options.suppressions ?? []));
  waiting.settle();

  const reported = onePerField(findings)
    .filter((f) => !options.minSeverity || atLeast(f.severity, options.minSeverity))
    .sort(byLocation);
  return {
    findings: reported.filter((f) => !f.suppression),
    suppressed: reported.filter((f) => f.suppression),
    problems: problems.sort((a, b) => compareStrings(a.file, b.file)),
    notes: notes.sort(compareStrings),
    baselined: [],
    staleBaselineEntries: 0,
    stats: {
      files: fileCount + (options.rendered?.length ?? 0),
      manifests: objects.length + waiting.manifests - kustomizations + [...rendered.values()].reduce((n, r) => n + r.objects.length, 0),
      applications: units.filter((u) => u.application).length,
      skippedDocuments: skippedDocuments + waiting.skipped,
      skippedTemplates: templateFiles.length,
      excludedFiles,
      ...(sets.expanded + sets.literal > 0 ? { applicationSets: { ...sets } } : {}),
    },
    ...(undeployed.length > 0 ? { undeployedFolders: undeployed } : {}),
    ...argoCdObjectsIn(templateFiles),
  };
}

/** What {@link kustomizeBuilt} leaves out of the objects, and why. */
interface KustomizeFiltered {
  /** Files in Kustomize folders that no kustomization lists as a resource. */
  readonly unbuilt: Set<string>;
  /** Applications a kustomization builds without the repoURL it patches in: judged but for their sources. */
  readonly fragments: Set<Manifest>;
  readonly fragmentFiles: Set<string>;
  readonly unlistedFragments: Set<string>;
  /** Argo CD objects that a kustomization listing their neighbours leaves out: switched off, never applied. */
  readonly switchedOff: Set<string>;
  /** Kustomization files are read, not counted as manifests: Argo CD applies what they build, not them. */
  readonly kustomizations: number;
}

/**
 * Replaces `objects` by what Argo CD applies of them where kustomizations are: what Kustomize builds of the Argo CD
 * objects, without patches, generator inputs and the files no kustomization lists.
 */
function kustomizeBuilt(
  objects: LocatedManifest[], layout: KustomizeLayout, fileText: (file: string) => string | undefined, notes: string[],
): KustomizeFiltered {
  const unbuilt = new Set<string>();
  const fragments = new Set<Manifest>();
  const fragmentFiles = new Set<string>();
  const unlistedFragments = new Set<string>();
  const switchedOff = new Set<string>();
  let kustomizations = 0;
  // Most repositories hold no kustomization: then every object is built as written, and no file's role needs working out.
  if (!layout.any) {
    return { unbuilt, fragments, fragmentFiles, unlistedFragments, switchedOff, kustomizations };
  }
  // A file's role is worked out once for all its objects (a List may hold 150,000).
  const roles = new Map<string, KustomizeRole>();
  /** The Argo CD objects' families (argoFamily) that the kustomization of a folder lists there. */
  const listedFamilies = new Map<string, Set<string>>();
  for (const o of objects) {
    let fileRole = roles.get(o.location.file);
    if (fileRole === undefined) {
      fileRole = kustomizeRole(layout, o.location.file);
      roles.set(o.location.file, fileRole);
    }
    const family = argoFamily(o.manifest);
    if (fileRole === 'built' && family !== undefined) {
      const dir = path.posix.dirname(o.location.file);
      listedFamilies.set(dir, (listedFamilies.get(dir) ?? new Set()).add(family));
    }
  }
  applyKustomizeBuilds(objects, roles, fileText, notes);
  const built = objects.filter((o) => {
    const file = o.location.file;
    const role = roles.get(file)!;
    kustomizations += role === 'kustomization' ? 1 : 0;
    // An Application without the repoURL the API server requires, in or below a Kustomize folder: a fragment that a
    // kustomization's patches complete. Built (listed), it is judged but for its sources, which only a rendering shows;
    // listed by none (left out of the list to switch it off), it is never applied, not even by hand.
    if (isApplication(o.manifest) && role !== 'patch' && !hasRepoUrls(o.manifest) && layout.underKustomization(file)) {
      if (!layout.isListedResource(file)) {
        unlistedFragments.add(file);
        return false;
      }
      fragments.add(o.manifest);
      fragmentFiles.add(file);
    }
    // An Application, ApplicationSet or AppProject no kustomization lists is applied by hand: an app-of-apps root
    // beside the kustomization that installs Argo CD, `kubectl apply -f root.yaml`. It is still audited, unless the
    // kustomization of its folder lists the folder's other Applications (or AppProjects) and not it: left out of the
    // list, it is switched off.
    if (role === 'unbuilt' && !isArgoCdObject(o.manifest)) {
      unbuilt.add(file);
      return false;
    }
    if (role === 'unbuilt' && listedFamilies.get(path.posix.dirname(file))?.has(argoFamily(o.manifest)!)) {
      switchedOff.add(file);
      return false;
    }
    return role !== 'patch';
  });
  if (built.length < objects.length) {
    objects.length = 0;
    for (const o of built) {
      objects.push(o);
    }
  }
  return { unbuilt, fragments, fragmentFiles, unlistedFragments, switchedOff, kustomizations };
}

/** An Argo CD object's apiVersion and kind, as a chart template writes them (values around them may be templated). */
const ARGO_CD_KIND = /^\s*kind:\s*["']?(Application|ApplicationSet|AppProject)["']?\s*$/m;

/**
 * The chart files that hold Argo CD objects (an app-of-apps chart, an ApplicationSet templated by Helm): what the audit
 * cannot see without a rendering, which the reports then ask for.
 */
function argoCdObjectsIn(chartFiles: readonly AuditFile[]): { chartArgoCdFiles?: string[] } {
  const found = chartFiles.filter((f) => {
    const text = textOf(f);
    return text !== undefined && text.includes('argoproj.io') && ARGO_CD_KIND.test(text);
  }).map((f) => f.path).sort(compareStrings);
  return found.length > 0 ? { chartArgoCdFiles: found } : {};
}

/**
 * Finds the AppProject an Application names in `spec.project` as Argo CD resolves it: by name, wherever it is written.
 * A repository holding several copies of one platform (one per cloud, say) has several AppProjects of that name: the
 * one nearest the Application's file is taken (the most leading folders in common), none when the nearest are in
 * several files. Each AppProject is filed under every folder above it, so a lookup walks the Application's folders,
 * not the AppProjects.
 */
function projectIndex(objects: readonly LocatedManifest[]): (application: LocatedManifest) => LocatedManifest[] {
  // Per name, per folder: the AppProject of that name in or below it, if all of that name there are in one file (the
  // last of them: applied in order, it is what Argo CD holds); undefined if they are in several.
  const byName = new Map<string, Map<string, LocatedManifest | undefined>>();
  for (const o of objects) {
    if (!isAppProject(o.manifest)) {
      continue;
    }
    const name = stringAt(o.manifest, 'metadata', 'name') ?? '';
    const byFolder = byName.get(name) ?? new Map<string, LocatedManifest | undefined>();
    byName.set(name, byFolder);
    for (const folder of foldersAbove(o.location.file)) {
      const found = byFolder.get(folder);
      byFolder.set(folder, !byFolder.has(folder) || found?.location.file === o.location.file ? o : undefined);
    }
  }
  return (application) => {
    const byFolder = byName.get(stringAt(application.manifest, 'spec', 'project') ?? '');
    if (byFolder === undefined) {
      return [];
    }
    // The deepest folder of the Application's that holds any: those share the most folders with it.
    for (const folder of foldersAbove(application.location.file)) {
      if (byFolder.has(folder)) {
        const project = byFolder.get(folder);
        return project ? [project] : [];
      }
    }
    return [];
  };
}

/** The folders holding a file, the deepest first: `a/b/c.yaml` is in `a/b`, `a` and the root (``). */
function foldersAbove(file: string): string[] {
  const folders: string[] = [];
  for (let end = file.lastIndexOf('/'); end > 0; end = file.lastIndexOf('/', end - 1)) {
    folders.push(file.slice(0, end));
  }
  folders.push('');
  return folders;
}

/** A field of an Application's sources: `/spec/source/...`, `/spec/sources/...`. */
const SOURCE_POINTER = /^\/spec\/sources?(\/|$)/;

/** Whether every source of an Application names its repository (a repoURL that is not empty), as the API server requires. */
function hasRepoUrls(application: Manifest): boolean {
  const sources = readSourcesOf(application);
  return sources.length > 0 && sources.every(({ source }) => typeof source.repoURL === 'string' && source.repoURL.trim() !== '');
}

/**
 * A list of objects kept to the end of the audit, made here rather than by the parser: V8, seeing the lists the parser
 * returns outlive its collections, would make them in its old generation at once (allocation-site pretenuring), also
 * for the files parsed for one unit only, whose objects those lists would then keep alive through every young
 * collection until a full one.
 */
function keptList(objects: readonly LocatedManifest[]): LocatedManifest[] {
  return objects.slice();
}

/** The place among the files read of each file read at once, by path. */
function fileOrders(slots: readonly (readonly LocatedManifest[] | WaitingFile)[]): Map<string, number> {
  const orders = new Map<string, number>();
  slots.forEach((slot, i) => {
    if (!isWaiting(slot) && slot.length > 0) {
      orders.set(slot[0].location.file, i);
    }
  });
  return orders;
}

/** `fn` with its answers kept per argument: for a pure function asked the same few values many times. */
function remembered(fn: (value: string) => string): (value: string) => string {
  const answers = new Map<string, string>();
  return (value) => {
    let answer = answers.get(value);
    if (answer === undefined) {
      answer = fn(value);
      answers.set(value, answer);
    }
    return answer;
  };
}

/** Argo CD's own objects, which are applied to bootstrap it as often as they are built. */
function isArgoCdObject(manifest: Manifest): boolean {
  return argoFamily(manifest) !== undefined;
}

/** What a kustomization lists an Argo CD object as: an app (Application or ApplicationSet) or a project. */
function argoFamily(manifest: Manifest): 'app' | 'project' | undefined {
  return isApplication(manifest) || isApplicationSet(manifest) ? 'app' : isAppProject(manifest) ? 'project' : undefined;
}

/**
 * Replaces, in `objects`, each Argo CD object a kustomization changes (patches, namespace, name prefix or suffix,
 * labels) by what Kustomize builds of it, once for each namespace and name it is built as: that is what Argo CD
 * applies. Its findings are placed where the object is written.
 */
function applyKustomizeBuilds(
  objects: LocatedManifest[],
  roles: ReadonlyMap<string, KustomizeRole>,
  fileText: (file: string) => string | undefined,
  notes: string[],
): void {
  const kustomizations = new Map<string, LocatedManifest>();
  const argoObjects = new Map<string, LocatedManifest[]>();
  const sourceFolders = new Set<string>();
  // Most repositories have no kustomization: then nothing else is looked at.
  if (![...roles.values()].includes('kustomization')) {
    return;
  }
  for (const o of objects) {
    const role = roles.get(o.location.file);
    if (role === 'kustomization') {
      const dir = path.posix.dirname(o.location.file);
      if (!kustomizations.has(dir)) {
        kustomizations.set(dir, o);
      }
    } else if (role === 'built' && isArgoCdObject(o.manifest)) {
      const inFile = argoObjects.get(o.location.file);
      if (inFile === undefined) {
        argoObjects.set(o.location.file, [o]);
      } else {
        inFile.push(o);
      }
    }
    if (isApplication(o.manifest)) {
      for (const { source } of readSourcesOf(o.manifest)) {
        const p = stringAt(source, 'path');
        if (p !== undefined) {
          sourceFolders.add(repositoryDir(p));
        }
      }
    }
  }
  if (kustomizations.size === 0 || argoObjects.size === 0) {
    return;
  }
  const { built, unbuilt, differing } = buildArgoCdObjects({ kustomizations, argoObjects, sourceFolders, fileText });
  for (const reason of unbuilt) {
    notes.push(`Kustomize: ${reason}; the Argo CD objects it builds are judged as written`);
  }
  if (differing.length > 0) {
    notes.push(`${differing.length} Argo CD object(s) are built differently by several kustomizations under the same name (overlays for `
      + 'different Argo CD instances): each is judged as the first of them in folder order builds it; to judge another, give the `kustomize build` '
      + `of its overlay as the rendering of the Application that deploys it (--rendered <application>=<file>): ${namesOf(differing.map((o) => `${describeObject(o.built)} (${o.file})`))}`);
  }
  if (built.size === 0) {
    return;
  }
  const written = [...objects];
  objects.length = 0;
  for (const o of written) {
    for (const manifest of built.get(o) ?? [o.manifest]) {
      objects.push(manifest === o.manifest ? o : placedAt(o, manifest));
    }
  }
}

/**
 * What a file is to Kustomize: a patch (a fragment) or a generator's input (data), a kustomization, a file no
 * kustomization lists (never built), or built as written.
 */
type KustomizeRole = 'patch' | 'kustomization' | 'unbuilt' | 'built';

function kustomizeRole(layout: KustomizeLayout, file: string): KustomizeRole {
  // A generator's input is data (an Alertmanager config, a properties file) that becomes a ConfigMap's or Secret's value.
  if (layout.isPatch(file) || layout.isGeneratorInput(file)) {
    return 'patch';
  }
  // A kustomization is no object Argo CD applies, but its secretGenerator puts values in Git (SA203).
  if (isKustomizationFile(file)) {
    return 'kustomization';
  }
  return !layout.isKustomizeDir(path.posix.dirname(file)) || layout.isListedResource(file) ? 'built' : 'unbuilt';
}

/** Rendered manifests by the Application they were given for (`name` or `namespace/name`). */
interface RenderedInput {
  readonly files: readonly string[];
  readonly objects: readonly LocatedManifest[];
  /** Whether an Application of the audited files took it. */
  used: boolean;
}

function renderedByApplication(given: readonly RenderedManifests[], budget: number, problems: FileProblem[]): Map<string, RenderedInput> {
  const byApplication = new Map<string, RenderedInput>();
  for (const { application, file } of given) {
    const own: FileProblem[] = [];
    const objects = readObjects(file, budget, own).objects;
    if (own.length === 0 && objects.length === 0) {
      // Most often the output of a render that failed (`kustomize build | ...` without pipefail): nothing was audited.
      own.push({
        file: file.path,
        message: `given with --rendered ${application}, holds no Kubernetes object (it is empty, or only comments or other documents): `
          + 'check that the command that rendered it succeeded; an Application that deploys nothing needs no --rendered',
      });
    }
    problems.push(...own.map((p) => ({ ...p, rendered: true })));
    const earlier = byApplication.get(application);
    // Two files for one Application (helm template and a Kustomize overlay of it, say) are one rendering.
    byApplication.set(application, { files: [...earlier?.files ?? [], file.path], objects: [...earlier?.objects ?? [], ...objects], used: false });
  }
  return byApplication;
}

/** A unit's own objects (its Application and resources, not its context) by manifest. */
function locatedIn(resources: readonly LocatedManifest[], application: LocatedManifest | undefined): Map<Manifest, LocatedManifest> {
  const located = new Map<Manifest, LocatedManifest>();
  for (const r of resources) {
    located.set(r.manifest, r);
  }
  if (application) {
    located.set(application.manifest, application);
  }
  return located;
}

/**
 * The findings of the rules that look at every Application at once (SA011): over the Application objects as written
 * in the files, not ApplicationSet templates, in the order the files were read.
 */
function acrossApplications(objects: readonly LocatedManifest[], rules: readonly Rule[], config: readonly ConfigSuppression[]): PlacedFinding[] {
  const located = new Map<Manifest, LocatedManifest>();
  for (const o of objects) {
    if (isApplication(o.manifest)) {
      located.set(o.manifest, o);
    }
  }
  const sites = [...located.values()].map((o) => ({ application: o.manifest, file: o.location.file }));
  return runRulesAcross(sites, rules)
    .filter((f) => located.has(f.object))
    .map((f) => toAuditFinding(f, located.get(f.object)!, stringAt(f.object, 'metadata', 'name'), config));
}

/** ` (in 2 of 5 generated Applications: a, b)` when a finding on a template holds for some of its Applications only. */
function holdsFor(set: SetOrigin, generated: Map<number, string>): string {
  if (!set.expanded || generated.size >= set.total) {
    return '';
  }
  return ` (in ${generated.size} of ${set.total} generated Applications: ${namesOf([...generated.values()])})`;
}

/** Up to three names, sorted and once each, then `...`. */
function namesOf(names: readonly string[]): string {
  const sorted = [...new Set(names)].sort(compareStrings);
  return `${sorted.slice(0, 3).join(', ')}${sorted.length > 3 ? ', ...' : ''}`;
}

/** Whether a value is, or holds, a string with a template action left unrendered. */
function holdsAction(value: unknown): boolean {
  if (typeof value === 'string') {
    return value.includes('{{');
  }
  if (Array.isArray(value)) {
    return value.some(holdsAction);
  }
  return isObject(value) && Object.values(value).some(holdsAction);
}

/** The audited repository as the rules and the pairing see it. */
interface AuditFacts extends RepositoryFacts {
  /** Every file path of the repository, audited or not. */
  readonly files: ReadonlySet<string>;
  /** Every folder that holds a file, or one below it, the root (`.`) included. */
  readonly directories: ReadonlySet<string>;
  /** The folders that hold a `.jsonnet` file, which a directory source renders too: objects the audit does not read. */
  readonly jsonnetFolders: readonly string[];
  /** A path with the folder links on it resolved: where its files are read. */
  readonly resolve: (p: string) => string;
  /**
   * What Kustomize builds of a folder whose kustomizations only list files and folders and set a namespace (each
   * object built, and the written one it is built from), or why this audit leaves the folder to a rendering.
   */
  readonly kustomizeBuild: (dir: string) => { readonly objects: readonly BuiltObject[] } | { readonly notPlain: string };
}

/** An object a Kustomize build makes, and the written object it is made from (the same, when the build changes nothing). */
interface BuiltObject {
  readonly built: LocatedManifest;
  readonly source: LocatedManifest;
}

/**
 * A path as the file system resolves the folder links on it (the longest link first, through chains of links up to
 * a bound): `apps/web/2.x/x.yaml` for `apps/web/default/x.yaml` when `default` links to `2.x`. Paths through no link
 * are themselves.
 */
function throughLinks(links: readonly FolderLink[]): (p: string) => string {
  if (links.length === 0) {
    return (p) => p;
  }
  const targets = new Map(links.map((l) => [l.path, l.target]));
  return (p) => {
    let resolved = p;
    for (let hops = 0; hops < 40; hops++) {
      // The longest prefix of the path, folder by folder, that is a link: a lookup a folder, however many links there are.
      let link: string | undefined;
      for (let end = resolved.length; end > 0; end = resolved.lastIndexOf('/', end - 1)) {
        const prefix = resolved.slice(0, end);
        if (targets.has(prefix)) {
          link = prefix;
          break;
        }
      }
      if (link === undefined) {
        return resolved;
      }
      const target = targets.get(link)!;
      const rest = resolved.slice(link.length);
      resolved = target === '.' ? rest.slice(1) || '.' : target + rest;
    }
    return resolved;
  };
}

/**
 * The repository the files come from: every folder that holds a file (the root included), and the repoURLs that read
 * it: the given URLs or, when none is given, each repoURL of an Application (or a literal ApplicationSet template)
 * one of whose source paths is a folder here.
 */
function repositoryFacts(
  paths: readonly string[], objects: readonly LocatedManifest[], urls: readonly string[], audited?: readonly string[],
  links: readonly FolderLink[] = [],
): Omit<AuditFacts, 'kustomizeBuild'> {
  const files = new Set(paths);
  const real = throughLinks(links);
  const directories = new Set<string>(['.']);
  const jsonnetFolders = new Set<string>();
  for (const f of files) {
    if (f.endsWith('.jsonnet')) {
      jsonnetFolders.add(path.posix.dirname(f));
    }
    for (let dir = path.posix.dirname(f); dir !== '.' && dir !== '/' && dir !== ''; dir = path.posix.dirname(dir)) {
      if (directories.has(dir)) {
        break;
      }
      directories.add(dir);
    }
  }
  // An Application's repoURL is most often the one of the others: each is normalized once.
  const keyOf = remembered(repositoryKey);
  const keys = new Set(urls.map(keyOf));
  if (keys.size === 0) {
    for (const { manifest } of objects) {
      const set = isApplicationSet(manifest);
      const app = isApplication(manifest) ? manifest : set ? at(manifest, 'spec', 'template') : undefined;
      if (app === undefined) {
        continue;
      }
      for (const source of [at(app, 'spec', 'source'), ...listAt(app, 'spec', 'sources')].filter(isObject)) {
        const { repoURL, path: p } = source;
        // A template's path left to its generator (a git generator's folder, say) is taken to be here; a placeholder
        // repoURL (`cnoe://web`, `${{ values.repoUrl }}`) names no repository yet.
        if (typeof repoURL === 'string' && typeof p === 'string' && !isRepoUrlPlaceholder(repoURL)
          && ((set && p.includes('{{')) || (sourcePathRefusal(p) === undefined && directories.has(real(repositoryDir(p)))))) {
          keys.add(keyOf(repoURL));
        }
      }
    }
  }
  // A folder is covered when it is an audited folder or lies below one; an audited file covers no folder.
  const covered = audited?.map((p) => p.replace(/\/+$/, ''));
  const knowsDirectory = covered === undefined || covered.includes('.') || covered.includes('')
    ? undefined
    : (dir: string) => covered.some((p) => dir === p || dir.startsWith(`${p}/`));
  return {
    files,
    directories,
    jsonnetFolders: [...jsonnetFolders],
    resolve: real,
    hasDirectory: (dir) => directories.has(real(dir)),
    hasFile: (file) => files.has(real(file)),
    isAudited: (url) => keys.has(keyOf(url)),
    identified: urls.length > 0,
    ...(knowsDirectory ? { knowsDirectory } : {}),
  };
}

/** What a Kustomize build makes of a written object, placed where that object is written (its fields found in its file). */
function placedAt(written: LocatedManifest, manifest: Manifest): LocatedManifest {
  // Called on the written object: a parsed object's locate is a method.
  return { manifest, location: written.location, ...written.locate ? { locate: (pointer: string) => written.locate!(pointer) } : {} };
}

/**
 * The plain Kustomize builds of the audited files (kustomize-plain.ts), each worked out once, when an Application's
 * source first asks. A file that could not be parsed, a Helm chart's template and a file left out are objects the
 * build cannot know: a folder that lists one is left to a rendering.
 */
function plainKustomizeBuilds(
  objects: readonly LocatedManifest[], audited: readonly AuditFile[], templateFiles: readonly AuditFile[], problems: readonly FileProblem[],
): AuditFacts['kustomizeBuild'] {
  let input: PlainBuildInput | undefined;
  const builds = new Map<string, ReturnType<AuditFacts['kustomizeBuild']>>();
  return (dir) => {
    let found = builds.get(dir);
    if (found === undefined) {
      // Worked out when a Kustomize source first asks: most repositories have none.
      input ??= plainBuildInput(objects, audited, templateFiles, problems);
      const result = buildPlainFolder(input, dir);
      found = 'notPlain' in result ? result : {
        objects: result.objects.map(({ source, manifest }) => ({
          source,
          built: manifest === source.manifest ? source : placedAt(source, manifest),
        })),
      };
      builds.set(dir, found);
    }
    return found;
  };
}

function plainBuildInput(
  objects: readonly LocatedManifest[], audited: readonly AuditFile[], templateFiles: readonly AuditFile[], problems: readonly FileProblem[],
): PlainBuildInput {
  const kustomizations = new Map<string, LocatedManifest>();
  const byFile = new Map<string, LocatedManifest[]>();
  for (const o of objects) {
    const file = o.location.file;
    if (isKustomizationFile(file)) {
      const dir = path.posix.dirname(file);
      if (!kustomizations.has(dir)) {
        kustomizations.set(dir, o);
      }
      continue;
    }
    const inFile = byFile.get(file);
    if (inFile === undefined) {
      byFile.set(file, [o]);
    } else {
      inFile.push(o);
    }
  }
  const files = new Set(audited.map((f) => f.path));
  const problemOf = new Map(problems.map((p) => [p.file, p.message]));
  for (const f of templateFiles) {
    problemOf.set(f.path, 'a template of a Helm chart');
  }
  return {
    kustomizations,
    objects: byFile,
    isFile: (file) => files.has(file),
    problemOf: (file) => problemOf.get(file),
    builtElsewhere: isArgoCdObject,
  };
}

/** The audited files as a git generator sees the repository whose URL {@link repositoryFacts} says it is. */
function repositoryView(files: readonly AuditFile[], facts: AuditFacts, newGitFileGlobbing: boolean): RepositoryView {
  const byPath = new Map(files.map((f) => [f.path, f]));
  // The repo server lists every folder but the root, and no hidden one (reposerver GetGitDirectories).
  const directories = [...facts.directories].filter((dir) => dir !== '.' && !dir.split('/').some((segment) => segment.startsWith('.')));
  return {
    directories: directories.sort(compareStrings),
    files: [...byPath.keys()].sort(compareStrings),
    read: (file) => {
      try {
        return byPath.get(file)?.content;
      } catch {
        return undefined;
      }
    },
    isAudited: facts.isAudited,
    newGitFileGlobbing,
  };
}

/**
 * How the ApplicationSet controller globs git files generators' paths: as the options say, else as the audited files
 * set it, with a note saying where (or that they disagree, and the default is kept). Read when an ApplicationSet is first
 * expanded: most repositories have none.
 */
function gitFileGlobbing(options: AuditOptions, objects: readonly LocatedManifest[], chartFiles: readonly AuditFile[], notes: string[]): boolean {
  if (options.newGitFileGlobbing !== undefined) {
    return options.newGitFileGlobbing;
  }
  const valueFiles = chartFiles.filter((f) => /(^|\/)values[^/]*\.ya?ml$/.test(f.path))
    .map((f) => ({ path: f.path, text: textOf(f) ?? '' }));
  const setting = readGitFileGlobbing(objects, valueFiles);
  const where = namesOf(setting.setBy);
  if (setting.conflicting) {
    notes.push(`${NEW_GIT_FILE_GLOBBING} is set to different values (${where}): git files generators are expanded with the `
      + 'default globbing, where `*` crosses folders; set newGitFileGlobbing in .safe-argocd.yaml to say which the controller uses');
  } else if (setting.enabled) {
    notes.push('git files generators are expanded with the new git file globbing (`*` within one folder, `**` across folders), '
      + `as ${NEW_GIT_FILE_GLOBBING} in ${where} sets`);
  }
  return setting.enabled;
}

/** The files of a chart's own folder that Helm reads: its metadata, dependencies, values and their schema. */
const CHART_OWN_FILE = /^(Chart\.(ya?ml|lock)|requirements\.(ya?ml|lock)|values[^/]*\.(ya?ml|json)|values\.schema\.json)$/;

/**
 * Whether a file is part of a Helm chart: anything in a folder below a chart's root (`templates/`, `charts/`, `crds/`,
 * `files/`), and the chart's own files at its root. Another manifest at a chart's root is no part of what Helm renders:
 * an Application applied by hand beside the chart its root deploys, say.
 */
function isInChart(file: string, chartRoots: Set<string>): boolean {
  const dir = path.posix.dirname(file);
  if (chartRoots.has(dir === '' ? '.' : dir)) {
    return CHART_OWN_FILE.test(path.posix.basename(file));
  }
  for (let above = path.posix.dirname(dir); ; above = path.posix.dirname(above)) {
    if (chartRoots.has(above)) {
      return true;
    }
    if (above === '.' || above === '/' || above === '') {
      return false;
    }
  }
}


/**
 * The folders an Application deploys as plain manifests from the audited repository, what it deploys that is not
 * rendered here, and the folders of the audited repository its sources render whatever their type (what a rendering
 * given with --rendered was built from), of the sources Argo CD reads (`readSourcesOf`); a path it refuses (SA014)
 * deploys nothing.
 */
function sourcePaths(app: Manifest, facts: AuditFacts): OwnSources {
  const paths: DirectorySource[] = [];
  const unrendered: string[] = [];
  const dirs: string[] = [];
  const built: BuiltObject[] = [];
  let complete = true;
  for (const { source } of readSourcesOf(app)) {
    const { repoURL, path: sourcePath } = source;
    if (typeof source.ref === 'string' && sourcePath === undefined && source.chart === undefined) {
      // A source that only names a ref (for another source's value files) deploys nothing.
      continue;
    }
    // Whether what the source deploys is read here in full: a plain folder of the audited files, without Jsonnet.
    let read = false;
    if (typeof source.chart === 'string') {
      unrendered.push(`Helm chart ${source.chart}`);
    } else if (typeof sourcePath !== 'string' || typeof repoURL !== 'string' || isUnfilledPath(sourcePath) || repoURL.includes('{{')
      || sourcePathRefusal(sourcePath) !== undefined) {
      // Not paired: a path left to a template, or one Argo CD refuses (SA014).
    } else if (!facts.isAudited(repoURL)) {
      unrendered.push(`${repositoryDir(sourcePath)} of ${repoURL.trim()} (another repository, unless --repo-url says it is this one)`);
    } else {
      // Through a folder link, the folder it names: its files are read there.
      const dir = facts.resolve(repositoryDir(sourcePath));
      dirs.push(dir);
      const type = sourceType(source, dir, facts.files);
      const recurse = at(source, 'directory', 'recurse') === true;
      const glob = (key: string) => {
        const value = at(source, 'directory', key);
        return typeof value === 'string' && value !== '' ? { [key]: value } : {};
      };
      if (type === 'Directory') {
        paths.push({ path: dir, recurse, ...glob('include'), ...glob('exclude') });
        // Argo CD renders the folder's Jsonnet as well as its YAML: the objects it makes are not read here.
        read = !facts.jsonnetFolders.some((f) => f === dir || (recurse && isUnder(f, dir)));
      } else if (type === 'Kustomize') {
        // Options the Application gives Kustomize (images, a name prefix, patches) change the build: left to a rendering.
        const options = isObject(source.kustomize) ? Object.keys(source.kustomize) : [];
        const build = options.length > 0 ? { notPlain: `the Application sets kustomize.${options.sort()[0]}` } : facts.kustomizeBuild(dir);
        if ('objects' in build) {
          built.push(...build.objects);
          read = true;
        } else {
          unrendered.push(`${dir} as a Kustomize source (${build.notPlain})`);
        }
      } else {
        unrendered.push(`${dir} as a ${type} source`);
      }
    }
    complete &&= read;
  }
  return { paths, unrendered, dirs, built, complete };
}

/** A plain folder an Application deploys: with `directory.recurse`, its subfolders too; of its files, those its globs select. */
interface DirectorySource {
  readonly path: string;
  readonly recurse: boolean;
  readonly include?: string;
  readonly exclude?: string;
}

/**
 * Whether a directory source's `include` and `exclude` globs select a file (its path relative to the source's folder),
 * as Argo CD's repo server does (findManifests): Argo CD's glob, whose `*` crosses `/`, the exclude first.
 */
function selectedBy(include: string | undefined, exclude: string | undefined, relative: string): boolean {
  return !(exclude !== undefined && globMatches(exclude, relative)) && (include === undefined || globMatches(include, relative));
}

/** What an Application's sources deploy from the audited repository ({@link sourcePaths}). */
interface OwnSources {
  readonly paths: DirectorySource[];
  readonly unrendered: string[];
  readonly dirs: string[];
  /** What Kustomize builds of the sources that are plain kustomizations (kustomize-plain.ts). */
  readonly built: readonly BuiltObject[];
  /** Whether the audit sees all it deploys: each source is a plain folder of the audited files, or a ref source that deploys nothing. */
  readonly complete: boolean;
}

/**
 * How Argo CD's repo server renders a source (GetAppSourceType): the type its fields name, else by the files of its
 * folder, a kustomization file before a Chart.yaml (a config management plugin found by discovery is not known here).
 */
function sourceType(source: Record<string, unknown>, dir: string, files: ReadonlySet<string>): string {
  for (const [field, type] of [['plugin', 'plugin'], ['helm', 'Helm'], ['kustomize', 'Kustomize'], ['directory', 'Directory']]) {
    if (isObject(source[field])) {
      return type;
    }
  }
  const inDir = (name: string) => files.has(dir === '.' ? name : `${dir}/${name}`);
  if (KUSTOMIZATION_FILES.some(inDir)) {
    return 'Kustomize';
  }
  return inDir('Chart.yaml') ? 'Helm' : 'Directory';
}

/** An Application's name as `--rendered` may give it, and whether it is written in the files or generated. */
interface NamedApplication {
  readonly key: string;
  readonly written: boolean;
}

/**
 * The rendered manifests given for an Application: by `namespace/name`, or by its name when it is the one written
 * Application of that name, or, with none written, the one generated (an ApplicationSet's Applications live in the
 * ApplicationSet's namespace).
 */
function renderedFor(
  name: string, namespace: string, written: boolean, rendered: Map<string, RenderedInput>, byName: Map<string, NamedApplication[]>,
): RenderedInput | undefined {
  if (rendered.size === 0) {
    return undefined;
  }
  const candidates = byName.get(name) ?? [];
  const writtenCount = candidates.filter((c) => c.written).length;
  const byBareName = writtenCount === 1 ? written : writtenCount === 0 && candidates.length === 1;
  const input = rendered.get(`${namespace}/${name}`) ?? (byBareName ? rendered.get(name) : undefined);
  if (input) {
    input.used = true;
  }
  return input;
}

/** The objects of the files in the folder `p` and below it, folder by folder (pushed one by one: a folder may hold 150,000). */
function objectsUnder(byDir: ReadonlyMap<string, readonly UnitEntry[]>, p: string): UnitEntry[] {
  const found: UnitEntry[] = [];
  for (const [dir, list] of byDir) {
    if (isUnder(dir, p)) {
      for (const m of list) {
        found.push(m);
      }
    }
  }
  return found;
}

/** Whether files in `dir` lie under the source folder `p` (itself or, recursing, below it). */
function isUnder(dir: string, p: string): boolean {
  return p === '.' || dir === p || dir.startsWith(`${p}/`);
}

/** What pairing needs: the repository, rendered manifests, and for ApplicationSets the limits of expanding them and their counts. */
interface SetContext {
  readonly repository: () => RepositoryView;
  readonly facts: AuditFacts;
  readonly rendered: Map<string, RenderedInput>;
  readonly maxApplications: number;
  readonly sets: { expanded: number; literal: number; generated: number };
  /** Applications whose sources a kustomization completes: not paired, as what they read is not written. */
  readonly fragments: ReadonlySet<Manifest>;
  /** Filled in: the folders of Argo CD objects nothing deploys ({@link undeployedFolders}). */
  readonly undeployed: string[];
}

function groupUnits(
  objects: LocatedManifest[], waiting: WaitingFiles, notes: string[], problems: FileProblem[], templateFiles: AuditFile[], context: SetContext,
): AuditUnit[] {
  const applications: { located: LocatedManifest; name: string; namespace: string; set?: SetOrigin }[] = [];
  const byName = new Map<string, NamedApplication[]>();
  /** `namespace/name` of the Applications written out (not generated): one Application of the cluster each. */
  const writtenKeys = new Set<string>();
  const addApplication = (entry: { located: LocatedManifest; name: string; namespace: string; set?: SetOrigin }) => {
    applications.push(entry);
    const appName = stringAt(entry.located.manifest, 'metadata', 'name') ?? '';
    const key = `${entry.namespace}/${appName}`;
    byName.set(appName, [...byName.get(appName) ?? [], { key, written: entry.set === undefined }]);
    if (entry.set === undefined) {
      writtenKeys.add(key);
    }
  };
  let repository: RepositoryView | undefined;
  /** Adds the Applications of an Argo CD object: an Application itself, or those an ApplicationSet generates. */
  const addApplicationsOf = (o: LocatedManifest) => {
    if (isApplication(o.manifest)) {
      addApplication({ located: o, name: stringAt(o.manifest, 'metadata', 'name') ?? '<no name>', namespace: stringAt(o.manifest, 'metadata', 'namespace') ?? '' });
      return;
    }
    if (!isApplicationSet(o.manifest)) {
      return;
    }
    const setName = stringAt(o.manifest, 'metadata', 'name') ?? '<no name>';
    repository ??= context.repository();
    const limits = { maxApplications: context.maxApplications, maxRenderedChars: MAX_RENDERED_CHARS };
    const expansion = expandApplicationSet(o.manifest, repository, limits);
    for (const note of expansion.notes) {
      notes.push(`ApplicationSet ${setName} (${o.location.file}): ${note}`);
    }
    context.sets[expansion.expanded ? 'expanded' : 'literal']++;
    context.sets.generated += expansion.expanded ? expansion.applications.length : 0;
    const id = `${o.location.file}\u0000${o.location.line}:${o.location.column}`;
    // Called on its object: a parsed object's locate may be a method.
    const locate = o.locate ? (pointer: string) => o.locate!(pointer) : undefined;
    for (const [index, generated] of expansion.applications.entries()) {
      addApplication({
        located: {
          manifest: generated.manifest,
          location: o.location,
          // The template's fields are written under spec.template of the ApplicationSet (or a generator's template).
          ...(locate ? { locate: (pointer: string) => locate(generated.pointerOf(pointer)) } : {}),
        },
        name: expansion.expanded ? `${generated.name} (ApplicationSet ${setName})` : `${setName} (ApplicationSet template)`,
        // The controller puts every Application it generates in the ApplicationSet's namespace.
        namespace: stringAt(o.manifest, 'metadata', 'namespace') ?? '',
        set: {
          id,
          name: setName,
          object: describeObject(o.manifest),
          total: expansion.applications.length,
          expanded: expansion.expanded,
          ...(expansion.expanded ? { generated: generated.name } : {}),
          index,
          pointerOf: generated.pointerOf,
        },
      });
    }
  };
  // An Application is also what an app-of-apps root deploys, when its file lies under the root's source path.
  const others: LocatedManifest[] = [];
  for (const o of objects) {
    addApplicationsOf(o);
    others.push(o);
  }

  // Resources by directory, for pairing with source paths.
  const byDir = new Map<string, UnitEntry[]>();
  let lastFile: string | undefined;
  let inDir: UnitEntry[] = [];
  for (const o of waiting.inWalkOrder(others)) {
    // The objects of a file come one after another: its folder is looked up once.
    if (o.location.file !== lastFile) {
      lastFile = o.location.file;
      const dir = path.posix.dirname(lastFile);
      inDir = byDir.get(dir) ?? [];
      byDir.set(dir, inDir);
    }
    inDir.push(o);
  }
  const projects = projectIndex(others);
  const scopedSecrets = new Map<string, LocatedManifest[]>();
  for (const o of others) {
    const project = scopedProjectOf(o.manifest);
    if (project !== undefined) {
      const secrets = scopedSecrets.get(project) ?? [];
      secrets.push(o);
      scopedSecrets.set(project, secrets);
    }
  }
  const claimed = new Set<UnitEntry>();
  const units: AuditUnit[] = [];
  // The Applications of one ApplicationSet share their template: one note for all of them that it holds for.
  const setNotes = new Map<string, { set: SetOrigin; file: string; tail: string; names: string[] }>();
  const noteOn = (name: string, set: SetOrigin | undefined, file: string, tail: string) => {
    if (set === undefined) {
      notes.push(`Application ${name} (${file}): ${tail}`);
      return;
    }
    const key = `${set.id}\u0000${tail}`;
    const entry = setNotes.get(key) ?? { set, file, tail, names: [] };
    entry.names.push(set.generated ?? name);
    setNotes.set(key, entry);
  };
  const renderingsRead = new Set<RenderedInput>();
  const mayDeployApps = new Set<LocatedManifest>();
  for (const { located, name, namespace, set } of applications) {
    const resources: UnitEntry[] = [];
    const inUnit = new Set<UnitEntry>();
    const rendered = renderedFor(stringAt(located.manifest, 'metadata', 'name') ?? '', namespace, set === undefined, context.rendered, byName);
    if (rendered && !renderingsRead.has(rendered)) {
      renderingsRead.add(rendered);
      // The Applications a rendering deploys (an app-of-apps root's children, templated by its chart) are judged in their
      // own right, as written ones are; the loop reaches them as it reaches the rest. One that is written out already is
      // that Application (a root that manages itself), not another.
      for (const o of rendered.objects) {
        const key = `${stringAt(o.manifest, 'metadata', 'namespace') ?? ''}/${stringAt(o.manifest, 'metadata', 'name') ?? ''}`;
        if (!(isApplication(o.manifest) && writtenKeys.has(key))) {
          addApplicationsOf(o);
        }
      }
    }
    const own: OwnSources = context.fragments.has(located.manifest)
      ? { paths: [], unrendered: [], dirs: [], built: [], complete: false }
      : sourcePaths(located.manifest, context.facts);
    // A rendering, or a source of this repository that is not a plain folder (a chart, a kustomization), may hold Applications.
    if (rendered !== undefined || own.dirs.length > own.paths.length) {
      mayDeployApps.add(located);
    }
    const { paths, unrendered, built } = rendered ? { paths: [], unrendered: [], built: [] } : own;
    for (const o of rendered?.objects ?? []) {
      resources.push(o);
    }
    // What Kustomize builds of a plain kustomization: deployed as built, and the written objects not judged again as loose.
    for (const { built: o, source } of built) {
      if (!inUnit.has(o) && o !== located && source !== located) {
        inUnit.add(o);
        resources.push(o);
      }
      claimed.add(source);
    }
    if (rendered) {
      // The rendering is what was built from the files under the Application's source paths (a Kustomize overlay's
      // resources and patches): those files are not judged again as loose manifests.
      for (const dir of own.dirs) {
        for (const m of objectsUnder(byDir, dir)) {
          claimed.add(m);
        }
      }
    }
    if (unrendered.length > 0) {
      // One note for an ApplicationSet's Applications: the same words for each.
      const appName = set ? '<application>' : stringAt(located.manifest, 'metadata', 'name') ?? '<name>';
      noteOn(name, set, located.location.file, `deploys ${unrendered.join('; ')}, not rendered here: give what Argo CD renders for it `
        + `with --rendered ${appName}=<file> to audit its workloads`);
    }
    for (const { path: p, recurse, include, exclude } of paths) {
      // Argo CD reads only the folder itself unless directory.recurse is set, and of its files those its globs select.
      const inFolder = recurse ? objectsUnder(byDir, p) : [...byDir.get(p) ?? []];
      const matched = include === undefined && exclude === undefined ? inFolder
        : inFolder.filter((m) => selectedBy(include, exclude, p === '.' ? m.location.file : m.location.file.slice(p.length + 1)));
      // A folder that is not there at all is SA014's finding, when it is of the audited repository.
      if (matched.length === 0 && context.facts.hasDirectory(p)) {
        const chart = templateFiles.some((f) => isUnder(path.posix.dirname(f.path), p));
        noteOn(name, set, located.location.file, chart
          ? `source path ${p} is a Helm chart, which is not rendered here; pass its rendered output to audit the workloads`
          : `source path ${p} holds no manifests in the audited files`);
      }
      for (const m of matched) {
        // Two sources of one Application may name overlapping folders: each object once. An Application whose path is
        // its own folder does not deploy itself.
        if (!inUnit.has(m) && m !== located) {
          inUnit.add(m);
          resources.push(m);
        }
        claimed.add(m);
      }
    }
    // The AppProject the Application names, wherever in the repository it is written (a projects/ folder, say), and the
    // repository and cluster Secrets scoped to that project, which widen what it permits.
    const projectName = stringAt(located.manifest, 'spec', 'project') ?? '';
    const named = [...projects(located), ...scopedSecrets.get(projectName) ?? []].filter((p) => !inUnit.has(p));
    units.push({
      application: located,
      applicationName: name,
      resources,
      ...(set ? { set } : {}),
      ...(named.length > 0 ? { context: named } : {}),
      // A rendering is what Argo CD renders for the Application: all it deploys.
      ...(rendered !== undefined || own.complete ? { complete: true } : {}),
    });
  }
  for (const [application, input] of context.rendered) {
    for (const file of input.used ? [] : input.files) {
      problems.push({ file, rendered: true, message: unusedRendering(application, byName.get(application) ?? []) });
    }
  }
  for (const { set, file, tail, names } of setNotes.values()) {
    const which = !set.expanded ? 'its template' : `${names.length === set.total ? 'all' : names.length} of its ${set.total} Applications (${namesOf(names)})`;
    notes.push(`ApplicationSet ${set.name} (${file}), ${which}: ${tail}`);
  }
  context.undeployed.push(...undeployedFolders(units, objects, claimed, mayDeployApps));
  // Manifests no Application deploys are still checked for the workload rules, directory by directory.
  for (const [, list] of [...byDir.entries()].sort(([a], [b]) => compareStrings(a, b))) {
    // An Application no root deploys is judged in its own unit, not again as a loose manifest.
    const loose = list.filter((o) => !claimed.has(o) && (isWaiting(o) || !isApplication(o.manifest)));
    if (loose.length > 0) {
      units.push({ resources: loose });
    }
  }
  return units;
}

/**
 * The top folders that hold Argo CD objects no Application of the audited files deploys, beside a root that deploys
 * Applications from a folder of its own: where a repository keeps its switched-off Applications (`argocd-disabled/`).
 * A folder is one only when none of its Argo CD objects is deployed or may deploy others (a root, an ApplicationSet,
 * an Application of a chart or kustomization here); files at the repository's root are roots applied by hand.
 */
function undeployedFolders(
  units: readonly AuditUnit[],
  objects: readonly LocatedManifest[],
  claimed: ReadonlySet<UnitEntry>,
  mayDeployApps: ReadonlySet<LocatedManifest>,
): string[] {
  const roots = units.filter((u) => u.application !== undefined && u.set === undefined
    && u.resources.some((r) => !isWaiting(r) && (isApplication(r.manifest) || isApplicationSet(r.manifest)))).map((u) => u.application!);
  if (roots.length === 0) {
    return [];
  }
  const deploysApps = new Set([...roots, ...mayDeployApps]);
  const top = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : undefined);
  const candidates = new Set<string>();
  const managed = new Set<string>();
  for (const o of objects) {
    const folder = top(o.location.file);
    if (folder === undefined || !isArgoCdObject(o.manifest)) {
      continue;
    }
    const leaf = !claimed.has(o) && !isApplicationSet(o.manifest) && !deploysApps.has(o);
    (leaf ? candidates : managed).add(folder);
  }
  return [...candidates].filter((f) => !managed.has(f)).sort(compareStrings);
}

/** Why a rendering given for `application` went to no Application, and what to give instead. */
function unusedRendering(application: string, candidates: readonly NamedApplication[]): string {
  const given = `given with --rendered ${application}`;
  const keys = [...new Set(candidates.map((m) => m.key))];
  if (candidates.length > 1 && keys.length === 1) {
    // Written twice (one file for each of two Argo CD instances, say): namespace/name gives it to both.
    return `${given}, which names ${candidates.length} Applications that are all ${keys[0]}, written in different files: `
      + `give --rendered ${keys[0]}=<file> to give it to each of them, or audit their folders one at a time`;
  }
  return candidates.length > 1
    ? `${given}, which names ${candidates.length} Applications (${namesOf(keys)}); give namespace/name`
    : `${given}, which names no Application of the audited files; give the name of an Application (or of one an ApplicationSet generates)`;
}

/** A finding and where its object starts, which with the rule and pointer names it (two objects may share a name). */
interface PlacedFinding {
  readonly finding: AuditFinding;
  readonly objectStart: SourceLocation;
}

/**
 * One finding per rule, object and field: an object several Applications deploy (overlapping source paths, two
 * Applications of one name, a project beside many children) is checked in each, but reported once. Of the
 * copies, an unsuppressed one wins (one Application's suppression does not hide what another deploys), then the
 * first by Application name and message, so that the choice does not depend on the order of the files.
 */
function onePerField(placed: readonly PlacedFinding[]): AuditFinding[] {
  const chosen = new Map<string, AuditFinding>();
  for (const { finding, objectStart } of placed) {
    const key = `${finding.ruleId}\u0000${objectStart.file}\u0000${objectStart.line}:${objectStart.column}\u0000${finding.pointer}`;
    const current = chosen.get(key);
    if (current === undefined || preferred(finding, current)) {
      chosen.set(key, finding);
    }
  }
  return [...chosen.values()];
}

function preferred(a: AuditFinding, b: AuditFinding): boolean {
  if (Boolean(a.suppression) !== Boolean(b.suppression)) {
    return !a.suppression;
  }
  return (compareStrings(a.application ?? '', b.application ?? '') || compareStrings(a.message, b.message)) < 0;
}

function toAuditFinding(f: Finding, object: LocatedManifest, application: string | undefined, config: readonly ConfigSuppression[]): PlacedFinding {
  const location = object.locate ? object.locate(f.path) : object.location;
  let suppression: AuditFinding['suppression'];
  if (f.suppressedBecause !== undefined) {
    suppression = { reason: f.suppressedBecause, source: 'annotation' };
  } else {
    // Most runs have no suppressions in their configuration: then no test is made for each finding.
    const match = config.length > 0 && config.find((s) => s.ruleId === f.rule.id
      && (s.paths.length === 0 || s.paths.some((p) => location.file === p || location.file.startsWith(`${stripTrailing(p, '/')}/`)))
      && (s.applications.length === 0 || (application !== undefined && s.applications.includes(application))));
    if (match) {
      suppression = { reason: match.reason, source: 'config' };
    }
  }
  // Built field by field, in the order reports print them, without the spread of a temporary object per finding.
  const finding: Mutable<AuditFinding> = {
    ruleId: f.rule.id,
    ruleName: f.rule.name,
    severity: f.rule.severity,
    // Detached from the file's text, which the finding outlives: most files' objects are gone once their unit is audited.
    message: detached(f.message),
    fix: f.rule.fix,
    pointer: f.path,
    object: detached(describeObject(f.object)),
    location,
  };
  if (application !== undefined) {
    finding.application = application;
  }
  if (suppression) {
    finding.suppression = suppression;
  }
  return { objectStart: object.location, finding };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function byLocation(a: AuditFinding, b: AuditFinding): number {
  return compareStrings(a.location.file, b.location.file)
    || a.location.line - b.location.line
    || a.location.column - b.location.column
    || compareStrings(a.ruleId, b.ruleId)
    || compareStrings(a.pointer, b.pointer);
}

/** Every rule, for reporters that list rule metadata. */
export function rulesFor(options: AuditOptions): readonly Rule[] {
  return options.ruleIds && options.ruleIds.length > 0 ? ALL_RULES.filter((r) => options.ruleIds!.includes(r.id)) : ALL_RULES;
}
