import * as path from 'path';
import { applyOperation, Operation } from 'fast-json-patch';
import type { RE2JS } from 're2js';
import { keysFromPointer } from '../core/json-pointer';
import { groupOf } from '../core/kinds';
import { isWithin, listedPaths } from '../core/kustomization';
import { at, describeObject, isObject, listAt, LocatedManifest, Manifest, stringAt } from '../core/manifest';
import { holdsDirective, mergePatch } from '../core/merge-patch';
import { compareStrings } from '../core/order';
import { parseYamlDocuments } from '../core/yaml-text';

/**
 * What Kustomize makes of the Argo CD objects (Applications, ApplicationSets, AppProjects) it builds: an app-of-apps
 * root whose folder is a kustomization that lists child Applications and patches them (`syncPolicy` for those of a
 * label, the cluster of all of them), renames them (`nameSuffix`) and puts them in a namespace. Argo CD applies what
 * the build gives, not the files, so the audit judges that. Only Argo CD objects are built here, by the fields that
 * change them: `resources` (and `bases`, `components`) of files and of other kustomization folders of the repository,
 * `patchesStrategicMerge`, `patches`, `namespace`, `namePrefix`, `nameSuffix`, `labels`, `commonLabels`,
 * `commonAnnotations` and `patchesJson6902`, in the order Kustomize applies them (kusttarget_configplugin.go). A
 * component's own patches, remote bases, generators and replacements are not modelled: the objects they would change
 * stay as written, as a build that fails does.
 */

/** What the build is given: the repository's kustomizations and Argo CD objects, and a way to read patch files. */
export interface KustomizeBuildInput {
  /** Each kustomization read, by its folder. */
  readonly kustomizations: ReadonlyMap<string, LocatedManifest>;
  /** The Argo CD objects each file holds, in document order. */
  readonly argoObjects: ReadonlyMap<string, readonly LocatedManifest[]>;
  /** Folders Argo CD builds because an Application names them as its source path, besides those no kustomization lists. */
  readonly sourceFolders: ReadonlySet<string>;
  /** The text of a file of the repository, undefined when it is not there or cannot be read. */
  readonly fileText: (file: string) => string | undefined;
}

/** What the build found. */
export interface KustomizeBuild {
  /**
   * The written objects some build changes, each with what the builds make of it: one object for each namespace and
   * name it is built as (two overlays that build it alike give one).
   */
  readonly built: ReadonlyMap<LocatedManifest, readonly Manifest[]>;
  /** Kustomizations whose build failed or was not modelled, and why: their objects are judged as written. */
  readonly unbuilt: readonly string[];
  /** Objects that two builds make differently under one namespace and name, as the first builds them (which is judged), and where they are written. */
  readonly differing: readonly { readonly built: Manifest; readonly file: string }[];
}

/** Deeper nesting of kustomizations than any repository has: past it, the build is refused (a cycle is found before). */
const MAX_NESTING = 50;
/** At most this many objects built in all: a base listed by thousands of overlays does not multiply the audit. */
const MAX_BUILT_OBJECTS = 5_000;

/** At most this many patches applied to (or tried on) an object, in all: thousands of patches of thousands of objects are refused. */
const MAX_PATCH_WORK = 50_000;

/** What the builds of one audit may still do. */
interface Budget {
  /** Objects it may still build. */
  left: number;
  /** Patches it may still try on an object. */
  work: number;
}

/** A build that cannot go on: the reason is told, and the objects of that build are judged as written. */
class BuildError extends Error {}

interface Item {
  readonly source: LocatedManifest;
  manifest: Manifest;
  /** The namespaces and names it had, from the file's on (a build's namespace, prefix or suffix change them): a patch may name any. */
  readonly ids: ObjectId[];
}

/** An object's namespace, as Kustomize compares it (none is `default`), and name. */
interface ObjectId {
  readonly namespace: string;
  readonly name: string;
}

function idOf(manifest: Manifest): ObjectId {
  return { namespace: stringAt(manifest, 'metadata', 'namespace') || 'default', name: stringAt(manifest, 'metadata', 'name') ?? '' };
}

/** Builds, for each folder Argo CD builds (a kustomization no other lists, or one an Application names), its Argo CD objects. */
export function buildArgoCdObjects(input: KustomizeBuildInput): KustomizeBuild {
  const listed = new Set<string>();
  for (const [dir, kustomization] of input.kustomizations) {
    for (const listedPath of listedPaths(kustomization.manifest, dir, ['resources', 'bases', 'components'])) {
      listed.add(listedPath);
    }
  }
  const tops = [...input.kustomizations.keys()].filter((dir) => !listed.has(dir) || input.sourceFolders.has(dir)).sort(compareStrings);
  const variants = new Map<LocatedManifest, Map<string, Manifest>>();
  const unbuilt: string[] = [];
  const differing = new Map<Manifest, string>();
  const budget: Budget = { left: MAX_BUILT_OBJECTS, work: MAX_PATCH_WORK };
  for (const top of tops) {
    let items: Item[];
    try {
      items = build(input, top, [], budget);
    } catch (e) {
      if (!(e instanceof BuildError)) {
        throw e;
      }
      unbuilt.push(e.message);
      continue;
    }
    for (const item of items) {
      const key = JSON.stringify([stringAt(item.manifest, 'metadata', 'namespace') ?? '', stringAt(item.manifest, 'metadata', 'name') ?? '']);
      const byKey = variants.get(item.source) ?? new Map<string, Manifest>();
      // The first build (in folder order) of a namespace and name is kept: two overlays that build the same object
      // differently are for different Argo CD instances, and judging both would report one object twice.
      const first = byKey.get(key);
      if (first === undefined) {
        byKey.set(key, item.manifest);
      } else if (JSON.stringify(first) !== JSON.stringify(item.manifest)) {
        differing.set(first, item.source.location.file);
      }
      variants.set(item.source, byKey);
    }
  }
  const built = new Map<LocatedManifest, Manifest[]>();
  for (const [source, byKey] of variants) {
    const written = JSON.stringify(source.manifest);
    const made = [...byKey.values()];
    if (made.some((m) => JSON.stringify(m) !== written)) {
      built.set(source, made);
    }
  }
  return { built, unbuilt, differing: [...differing].map(([first, file]) => ({ built: first, file })) };
}

/** What the kustomization of one folder builds of the Argo CD objects, or why its build fails or is not modelled. */
export function buildFolder(input: KustomizeBuildInput, dir: string): { objects: Manifest[] } | { error: string } {
  try {
    return { objects: build(input, dir, [], { left: MAX_BUILT_OBJECTS, work: MAX_PATCH_WORK }).map((item) => item.manifest) };
  } catch (e) {
    if (e instanceof BuildError) {
      return { error: e.message };
    }
    throw e;
  }
}

/**
 * What the kustomization of `dir` builds: its resources and bases (files, and folders built on their own), then its
 * components, each of which adds its resources to the same list and runs its transformers over all of it, then its
 * own transformers.
 */
function build(input: KustomizeBuildInput, dir: string, stack: readonly string[], budget: Budget, inherited: Item[] = []): Item[] {
  const { manifest: kustomization, location: { file } } = input.kustomizations.get(dir)!;
  if (stack.includes(dir) || stack.length > MAX_NESTING) {
    throw new BuildError(`${file}: its resources list ${dir} again (a cycle), which Kustomize refuses`);
  }
  const items: Item[] = inherited;
  for (const target of listedPaths(kustomization, dir, ['resources', 'bases'])) {
    if (input.kustomizations.has(target)) {
      items.push(...build(input, target, [...stack, dir], budget));
      continue;
    }
    const inFile = input.argoObjects.get(target) ?? [];
    if (inFile.length > 0 && !isWithin(target, dir)) {
      throw new BuildError(`${file}: lists ${target}, a file outside its folder, which Kustomize refuses (its load restrictor)`);
    }
    for (const source of inFile) {
      if (--budget.left < 0) {
        throw new BuildError(`${file}: builds more than ${MAX_BUILT_OBJECTS} Argo CD objects in all; not modelled`);
      }
      items.push({ source, manifest: structuredClone(source.manifest), ids: [idOf(source.manifest)] });
    }
  }
  for (const component of listedPaths(kustomization, dir, ['components'])) {
    if (input.kustomizations.has(component)) {
      build(input, component, [...stack, dir], budget, items);
    }
  }
  if (items.length === 0) {
    return items;
  }
  const field = (name: string) => `${file}: ${name}`;
  /** The documents of a patch (each operation of a JSON patch), each to be tried on every object: counted against the budget first. */
  const documentsOf = (entry: unknown, where: string): unknown[] => {
    const documents = patchDocuments(input, dir, entry, where);
    budget.work -= Math.max(1, documents.reduce<number>((n, d) => n + (Array.isArray(d) ? d.length : 1), 0)) * items.length;
    if (budget.work < 0) {
      throw new BuildError(`${where}: more patches of more objects than the audit builds (${MAX_PATCH_WORK} a run); not modelled`);
    }
    return documents;
  };
  listAt(kustomization, 'patchesStrategicMerge').forEach((entry, i) => {
    const where = field(`patchesStrategicMerge[${i}]`);
    for (const patch of documentsOf(typeof entry === 'string' && (entry.includes('\n') || entry.includes(': ')) ? { patch: entry } : { path: entry }, where)) {
      strategicMerge(items, patch, undefined, where);
    }
  });
  listAt(kustomization, 'patches').forEach((entry, i) => {
    const where = field(`patches[${i}]`);
    if (!isObject(entry)) {
      throw new BuildError(`${where} is not a map of path or patch and target`);
    }
    const target = isObject(entry.target) ? entry.target : undefined;
    const documents = documentsOf(entry, where);
    if (documents.length === 1 && Array.isArray(documents[0])) {
      if (target === undefined) {
        throw new BuildError(`${where}: a JSON patch needs a target`);
      }
      jsonPatch(items, documents[0], target, where);
      return;
    }
    for (const patch of documents) {
      strategicMerge(items, patch, target, where);
    }
  });
  const namespace = stringAt(kustomization, 'namespace');
  const prefix = stringAt(kustomization, 'namePrefix') ?? '';
  const suffix = stringAt(kustomization, 'nameSuffix') ?? '';
  const labels = [...listAt(kustomization, 'labels').map((l) => (isObject(l) ? l.pairs : undefined)), kustomization.commonLabels];
  for (const item of items) {
    const metadata = metadataOf(item.manifest);
    if (namespace !== undefined && namespace !== '') {
      metadata.namespace = namespace;
    }
    if ((prefix !== '' || suffix !== '') && typeof metadata.name === 'string') {
      metadata.name = `${prefix}${metadata.name}${suffix}`;
    }
    const last = item.ids[item.ids.length - 1];
    const now = idOf(item.manifest);
    if (now.namespace !== last.namespace || now.name !== last.name) {
      item.ids.push(now);
    }
    for (const pairs of labels) {
      addStrings(metadata, 'labels', pairs);
    }
    addStrings(metadata, 'annotations', kustomization.commonAnnotations);
  }
  listAt(kustomization, 'patchesJson6902').forEach((entry, i) => {
    const where = field(`patchesJson6902[${i}]`);
    if (!isObject(entry) || !isObject(entry.target)) {
      throw new BuildError(`${where} needs a target`);
    }
    const documents = documentsOf(entry, where);
    if (documents.length !== 1 || !Array.isArray(documents[0])) {
      throw new BuildError(`${where} is not a list of JSON patch operations`);
    }
    jsonPatch(items, documents[0], entry.target, where);
  });
  // In place: a component's caller goes on with the same list.
  const kept = items.filter((item) => !deleted.has(item));
  items.length = 0;
  items.push(...kept);
  return items;
}

/** Items a `$patch: delete` removed from the build. */
const deleted = new WeakSet<Item>();

/** The item's own metadata map, made when it has none: the item's manifest is its build's own copy. */
function metadataOf(manifest: Manifest): Record<string, unknown> {
  const writable = manifest as Record<string, unknown>;
  if (!isObject(writable.metadata)) {
    writable.metadata = {};
  }
  return writable.metadata as Record<string, unknown>;
}

function addStrings(metadata: Record<string, unknown>, field: string, pairs: unknown): void {
  if (!isObject(pairs) || Object.keys(pairs).length === 0) {
    return;
  }
  const into = isObject(metadata[field]) ? metadata[field] as Record<string, unknown> : {};
  for (const [k, v] of Object.entries(pairs)) {
    Object.defineProperty(into, k, { value: v === null || v === undefined ? '' : String(v), enumerable: true, writable: true, configurable: true });
  }
  metadata[field] = into;
}

/** The documents of a patch (`patch:` written inline, or `path:` to a file beside the kustomization), as data. */
function patchDocuments(input: KustomizeBuildInput, dir: string, entry: unknown, where: string): unknown[] {
  let text: string | undefined;
  let from = 'inline';
  if (isObject(entry) && typeof entry.patch === 'string') {
    text = entry.patch;
  } else if (isObject(entry) && typeof entry.path === 'string') {
    from = path.posix.normalize(path.posix.join(dir, entry.path));
    if (!isWithin(from, dir)) {
      throw new BuildError(`${where}: the patch file ${from} is outside the kustomization's folder, which Kustomize refuses (its load restrictor)`);
    }
    text = input.fileText(from);
    if (text === undefined) {
      throw new BuildError(`${where}: the patch file ${from} is not among the audited files`);
    }
  } else {
    throw new BuildError(`${where} names no patch`);
  }
  try {
    const docs = parseYamlDocuments(text, { prettyErrors: false });
    const values: unknown[] = [];
    for (const doc of Array.isArray(docs) ? docs : []) {
      if (doc.errors.length > 0) {
        throw new BuildError(`${where}: the patch (${from}) is not YAML: ${doc.errors[0].message.split('\n')[0]}`);
      }
      const value = doc.toJS({ maxAliasCount: 100 });
      if (value !== null && value !== undefined) {
        values.push(value);
      }
    }
    return values;
  } catch (e) {
    throw e instanceof BuildError ? e : new BuildError(`${where}: the patch (${from}) cannot be read: ${(e as Error).message}`);
  }
}

/**
 * A strategic merge patch: into the items `target` selects, or, without one, into the object the patch names (its
 * kind, and a namespace and name it has or had), which must be there: Kustomize's build fails otherwise. A patch of
 * another kind than Argo CD's is for objects this build does not hold, and is passed over.
 */
function strategicMerge(items: readonly Item[], patch: unknown, target: Record<string, unknown> | undefined, where: string): void {
  if (!isObject(patch)) {
    throw new BuildError(`${where}: the patch is neither a map nor a list of JSON patch operations`);
  }
  let chosen: Item[];
  if (target !== undefined) {
    chosen = items.filter((item) => selects(target, item, where));
  } else {
    if (!ARGO_CD_KINDS.includes(String(patch.kind)) || groupOf(String(patch.apiVersion ?? '')) !== 'argoproj.io') {
      return;
    }
    chosen = items.filter((item) => isPatchOf(patch, item));
    if (chosen.length !== 1) {
      const id = idOf(patch);
      throw new BuildError(`${where}: ${chosen.length === 0 ? 'no object' : 'more than one object'} of the build is the ${String(patch.kind)} ${id.namespace}/${id.name} the patch names`);
    }
  }
  if (chosen.length === 0) {
    return;
  }
  if (patch.$patch === 'delete') {
    for (const item of chosen) {
      deleted.add(item);
    }
    return;
  }
  if (holdsDirective(patch)) {
    throw new BuildError(`${where}: a $patch, $retainKeys or $setElementOrder directive for ${describeObject(chosen[0].manifest)}, which the audit does not model`);
  }
  // A patch applied by a target keeps each object's own kind and name (Kustomize's allowNameChange is off by default).
  const body = target !== undefined ? withoutIdentity(patch) : patch;
  for (const item of chosen) {
    item.manifest = mergePatch(item.manifest, body, false) as Manifest;
  }
}

const ARGO_CD_KINDS = ['Application', 'ApplicationSet', 'AppProject'];

function withoutIdentity(patch: Record<string, unknown>): Record<string, unknown> {
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = patch;
  if (isObject(rest.metadata)) {
    const { name: _name, namespace: _namespace, ...metadata } = rest.metadata;
    return { ...rest, metadata };
  }
  return rest;
}

/** Whether a patch without a target is the patch of this object: the same kind and version, and a namespace and name it has or had. */
function isPatchOf(patch: Record<string, unknown>, item: Item): boolean {
  const id = idOf(patch);
  return patch.kind === item.manifest.kind && patch.apiVersion === item.manifest.apiVersion
    && [...item.ids, idOf(item.manifest)].some((had) => had.namespace === id.namespace && had.name === id.name);
}

function jsonPatch(items: readonly Item[], operations: unknown[], target: Record<string, unknown>, where: string): void {
  for (const item of items) {
    if (!selects(target, item, where)) {
      continue;
    }
    // The item's manifest is the build's own copy: changed in place. The operations are copied for each object, whose
    // values they become part of.
    let document: unknown = item.manifest;
    for (const written of operations as Operation[]) {
      // A value that is a map or list is copied for each object: it becomes part of it.
      const operation = isObject(written) && typeof (written as { value?: unknown }).value === 'object'
        ? { ...written, value: structuredClone((written as { value?: unknown }).value) } as Operation : written;
      try {
        // Validated: an operation on a path that is not there fails, as it fails Kustomize's build; __proto__ is refused.
        document = applyOperation(document, asKustomizeApplies(document, operation), true, true, true).newDocument;
      } catch (e) {
        throw new BuildError(`${where}: the JSON patch fails on ${describeObject(item.manifest)}: ${String((e as Error).message).split('\n')[0]}`);
      }
    }
    item.manifest = document as Manifest;
  }
}

/**
 * The operation as Kustomize's JSON patch library applies it: `replace` of a key a map does not have adds it (its
 * maps answer a missing key with nothing rather than an error), where RFC 6902 would fail.
 */
function asKustomizeApplies(document: unknown, operation: Operation): Operation {
  if (operation.op !== 'replace' || typeof operation.path !== 'string') {
    return operation;
  }
  const keys = keysFromPointer(operation.path);
  let parent: unknown = document;
  for (const key of keys.slice(0, -1)) {
    const has = isObject(parent) && Object.prototype.hasOwnProperty.call(parent, key);
    parent = Array.isArray(parent) ? parent[Number(key)] : has ? (parent as Record<string, unknown>)[key] : undefined;
  }
  const last = keys[keys.length - 1];
  return isObject(parent) && last !== undefined && !Object.prototype.hasOwnProperty.call(parent, last) ? { op: 'add', path: operation.path, value: operation.value } : operation;
}

/**
 * Whether a patch's target selects the object (types.Selector, resmap Select): each of group, version, kind, name and
 * namespace a regular expression of the whole value, the name and namespace matched against those the object had
 * in its file or has now, and label and annotation selectors.
 */
function selects(target: Record<string, unknown>, item: Item, where: string): boolean {
  const manifest = item.manifest;
  const apiVersion = String(manifest.apiVersion ?? '');
  const [original, now] = [item.ids[0], idOf(manifest)];
  const fields: Array<[string, string[]]> = [
    ['group', [groupOf(apiVersion)]],
    ['version', [apiVersion.slice(apiVersion.indexOf('/') + 1)]],
    ['kind', [String(manifest.kind ?? '')]],
    ['name', [original.name, now.name]],
    ['namespace', [original.namespace, now.namespace]],
  ];
  for (const [field, values] of fields) {
    const wanted = target[field];
    if (typeof wanted !== 'string' || wanted === '') {
      continue;
    }
    const regexp = compiled(wanted);
    if (regexp === undefined) {
      throw new BuildError(`${where}: the target's ${field} "${wanted}" is no regular expression`);
    }
    // The whole value, as Kustomize anchors it.
    if (!values.some((value) => regexp.matcher(value).matches())) {
      return false;
    }
  }
  for (const [field, map] of [['labelSelector', 'labels'], ['annotationSelector', 'annotations']]) {
    const selector = target[field];
    if (typeof selector !== 'string') {
      continue;
    }
    const test = parseSelector(selector);
    if (test === undefined) {
      throw new BuildError(`${where}: the target's ${field} "${selector}" is no Kubernetes selector`);
    }
    const values = at(manifest, 'metadata', map);
    if (!test(isObject(values) ? values : {})) {
      return false;
    }
  }
  return true;
}

/**
 * Each target field's regular expression, compiled once (a kustomization may target hundreds of objects), with RE2's
 * syntax and linear time, as Kustomize's Go regexp; undefined for one that does not compile (Kustomize's build fails).
 */
const patterns = new Map<string, RE2JS | undefined>();

function compiled(pattern: string): RE2JS | undefined {
  if (!patterns.has(pattern)) {
    let regexp: RE2JS | undefined;
    try {
      // Loaded when a target first names a regular expression: most audits have none, and the engine is a fifth of the bin.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      regexp = (require('re2js') as typeof import('re2js')).RE2JS.compile(pattern);
    } catch {
      regexp = undefined;
    }
    // Bounded: hostile input may hold any number of distinct patterns.
    if (patterns.size >= 10_000) {
      patterns.clear();
    }
    patterns.set(pattern, regexp);
  }
  return patterns.get(pattern);
}

/**
 * A Kubernetes label selector (`a=b,c!=d,e,!f,g in (x,y),h notin (z)`, labels.Parse) as a test of labels, or
 * undefined when it does not parse (Kustomize's build then fails).
 */
export function parseSelector(selector: string): ((labels: Record<string, unknown>) => boolean) | undefined {
  const terms = selector.trim() === '' ? [] : selector.split(/,(?![^(]*\))/).map((t) => t.trim());
  const tests: Array<(value: (key: string) => string | undefined) => boolean> = [];
  for (const term of terms) {
    let m: RegExpExecArray | null;
    if ((m = /^([^\s!=(),]+)\s+(in|notin)\s*\(([^()]*)\)$/.exec(term))) {
      const [, key, op, list] = m;
      const values = list.split(',').map((v) => v.trim());
      tests.push((value) => (op === 'in' ? values.includes(value(key) as string) : !values.includes(value(key) as string)));
    } else if ((m = /^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/.exec(term))) {
      const [, key, op, wanted] = m;
      tests.push((value) => (op === '!=' ? value(key) !== wanted : value(key) === wanted));
    } else if ((m = /^!\s*([^\s!=(),]+)$/.exec(term))) {
      const key = m[1];
      tests.push((value) => value(key) === undefined);
    } else if (/^[^\s!=(),]+$/.test(term)) {
      tests.push((value) => value(term) !== undefined);
    } else {
      return undefined;
    }
  }
  return (labels) => {
    const value = (key: string) => (Object.prototype.hasOwnProperty.call(labels, key) ? String(labels[key]) : undefined);
    return tests.every((test) => test(value));
  };
}
