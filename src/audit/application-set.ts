import * as path from 'path';
import { isTemplated, renderGoTemplate, RenderBudget, sanitizeName, Symbolic } from '../core/go-template';
import { keysFromPointer } from '../core/json-pointer';
import { at, isObject, listAt, Manifest, stringAt } from '../core/manifest';
import { nestingDepth } from '../core/manifest-values';
import { holdsDirective, mergePatch } from '../core/merge-patch';
import { compareStrings } from '../core/order';
import { doublestarMatches, pathMatch, pathspecMatches } from '../core/path-match';
import { templatePatchMayRemoveFinalizers, templatePatchMaySet } from '../core/template-patch';
import { parseYamlDocuments } from '../core/yaml-text';

/**
 * The Applications an ApplicationSet generates, as far as they can be known offline: list generators, git
 * directory and file generators over the audited repository, matrix and merge of those, and cluster generators
 * with the clusters' parameters left symbolic. The generators and parameter names follow Argo CD's
 * applicationset/generators (list.go, git.go, cluster.go, matrix.go, merge.go, generator_spec_processor.go)
 * and the rendering its applicationset/utils/utils.go (Go templates with `goTemplate: true`, fasttemplate
 * otherwise).
 */

/** What the audit knows of the repository it reads, for git generators. */
export interface RepositoryView {
  /** Every folder that holds an audited file, or one below it, as Argo CD's repo server lists them: no root, no hidden folders. */
  readonly directories: readonly string[];
  /** Every audited file's path, sorted. */
  readonly files: readonly string[];
  /** The bytes of an audited file. */
  readonly read: (file: string) => Uint8Array | undefined;
  /** Whether a generator's `repoURL` names the audited repository (compared by `repositoryKey` of core/source-paths.ts). */
  readonly isAudited: (repoURL: string) => boolean;
  /**
   * Whether the ApplicationSet controller globs a git files generator's paths with doublestar
   * (`applicationsetcontroller.enable.new.git.file.globbing`), rather than as `git ls-files` pathspecs.
   */
  readonly newGitFileGlobbing?: boolean;
}

/** How far an ApplicationSet may expand before it is "too large, not expanded". */
export interface ExpansionLimits {
  /** Parameter sets (generated Applications), counted also inside a matrix or merge. */
  readonly maxApplications: number;
  /** Characters the rendered strings of all its Applications may hold together. */
  readonly maxRenderedChars: number;
}

/** One generated Application: its manifest, its name, and where in the ApplicationSet each of its fields is written. */
export interface GeneratedApplication {
  readonly manifest: Manifest;
  readonly name: string;
  /**
   * The pointer into the ApplicationSet of an Application pointer: under `/spec/template`, or under
   * `/spec/generators/N/template` for a field the generator's own template sets.
   */
  readonly pointerOf: (applicationPointer: string) => string;
}

/** What an ApplicationSet expands to. */
export interface ApplicationSetExpansion {
  /**
   * Applications rendered one a parameter set when `expanded`; otherwise one, the template as written, whose
   * `{{ }}` fields are left unjudged.
   */
  readonly applications: readonly GeneratedApplication[];
  readonly expanded: boolean;
  /** What was not expanded or applied, and why; each a clause after the ApplicationSet's name. */
  readonly notes: readonly string[];
}

/** Parameters of one generated Application. Prototype-free, so that a key named `__proto__` is only a key. */
export type Params = { [key: string]: unknown };

/** The parameter sets of a generator, or why there are none known offline. */
export type Generated = { readonly params: Params[] } | { readonly stop: string };

const NOT_OFFLINE: { readonly [kind: string]: string } = {
  scmProvider: 'an SCM provider generator lists repositories of a hosted Git service',
  pullRequest: 'a pull request generator lists open pull requests',
  clusterDecisionResource: 'a cluster decision resource generator reads a resource in the cluster',
  plugin: 'a plugin generator asks a plugin service',
};
const GENERATORS = ['list', 'clusters', 'git', 'matrix', 'merge', ...Object.keys(NOT_OFFLINE)];

/**
 * A git file that cannot be read and nests deeper than this is reported as too deep, not as malformed: the YAML
 * reader gives up on valid data some hundreds of levels deep.
 */
const MAX_READ_DEPTH = 200;

/** Matrix and merge nest at most this deep (Argo CD allows one level of nesting). */
const MAX_NESTING = 3;

/**
 * The parameter sets all generators of an ApplicationSet may produce together, at every level, for each Application
 * it may generate: each generator is bounded by maxApplications, but a merge of hundreds of children (YAML aliases
 * make them cheap to write) would otherwise produce hundreds of times that. A merge of a few children or a matrix
 * nested as Argo CD allows produces a few times the Applications it gives.
 */
const WORK_PER_APPLICATION = 10;

/** `{ key: value }` without a prototype. */
function params(entries: Iterable<[string, unknown]> = []): Params {
  const p: Params = Object.create(null);
  for (const [k, v] of entries) {
    p[k] = v;
  }
  return p;
}

function copyDeep(value: unknown): unknown {
  if (value instanceof Symbolic) {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map(copyDeep);
  }
  if (isObject(value)) {
    return params(Object.entries(value).map(([k, v]) => [k, copyDeep(v)]));
  }
  return value;
}

/** mergo.Merge(dst, src, WithOverride) of maps: src's values win, maps merge deep (matrix.go, merge.go). */
function mergeOverride(dst: Params, src: Params): Params {
  const out = params(Object.entries(dst));
  for (const [k, v] of Object.entries(src)) {
    const current = out[k];
    out[k] = isObject(current) && isObject(v) && !(current instanceof Symbolic) && !(v instanceof Symbolic)
      ? mergeOverride(current as Params, v as Params) : v;
  }
  return out;
}

/** The Applications `set` generates, or its template as written with the reason it was not expanded. */
export function expandApplicationSet(set: Manifest, repo: RepositoryView, limits: ExpansionLimits): ApplicationSetExpansion {
  const template = at(set, 'spec', 'template');
  const goTemplate = at(set, 'spec', 'goTemplate') === true;
  const options = listAt(set, 'spec', 'goTemplateOptions').filter((o): o is string => typeof o === 'string');
  const missingKey = options.map((o) => /^missingkey=(default|invalid|zero|error)$/.exec(o)?.[1]).filter((o) => o !== undefined).pop() as
    'default' | 'invalid' | 'zero' | 'error' | undefined;
  const notes: string[] = [];
  const patch = at(set, 'spec', 'templatePatch');
  const literal = (why: string): ApplicationSetExpansion => ({
    applications: isObject(template) ? [{ manifest: withoutPatchable(asApplication(template), patch), name: '', pointerOf: inTemplate }] : [],
    expanded: false,
    notes: [...notes, ...typeof patch === 'string' ? [`its templatePatch is not applied: ${unpatchedFields(patch)}`] : [], why],
  });
  if (!isObject(template)) {
    return literal('it has no template');
  }
  const budget: RenderBudget = { chars: limits.maxRenderedChars };
  const renderer: Renderer = { goTemplate, missingKey, budget, git: gitCache(), work: { sets: 0 } };
  const generators = listAt(set, 'spec', 'generators');
  if (generators.length === 0) {
    return literal('it has no generators');
  }
  const sets = parameterSets(generators, renderer, repo, limits);
  if ('stop' in sets) {
    const tooLarge = /^too large: /.exec(sets.stop);
    const why = tooLarge ? `too large, not expanded: ${sets.stop.slice(tooLarge[0].length)}` : `not expanded: ${sets.stop}`;
    return literal(`${why}; its literal fields are audited, those with {{ }} are not`);
  }
  const all = sets.params.map(({ params: p, template: own, generator }) => ({
    params: p,
    template: own ? fillEmpty(own, template) : template,
    pointerOf: own ? (pointer: string) => (ownWrites(own, template, pointer) ? `${generator}${pointer}` : inTemplate(pointer)) : inTemplate,
  }));
  if (all.length === 0) {
    // Often a git generator over folders outside what was audited: whatever it generates has the literal fields.
    return literal('its generators give no Application in the audited files; its literal fields are audited, those with {{ }} are not');
  }
  const applications: GeneratedApplication[] = [];
  const failures = new Set<string>();
  const duplicates = new Set<string>();
  const names = new Set<string>();
  const unpatched = new Set<string>();
  for (const { params: p, template: t, pointerOf: inSet } of all) {
    const rendered = renderValue(t, p, renderer);
    const patched = typeof patch === 'string' && 'value' in rendered ? patchTemplate(rendered.value, patch, p, renderer) : rendered;
    if ('tooLarge' in patched) {
      return literal(`too large, not expanded: its Applications render to more than ${limits.maxRenderedChars} characters; its literal fields are audited, those with {{ }} are not`);
    }
    if ('error' in patched) {
      failures.add(String(patched.error));
      continue;
    }
    if ('unpatched' in patched) {
      unpatched.add(String(patched.unpatched));
    }
    const unjudged = 'unpatched' in patched && typeof patch === 'string';
    // A field the patch writes is reported at the templatePatch, which holds it as text.
    const written = 'patch' in patched ? patched.patch : undefined;
    const manifest = unjudged ? withoutPatchable(asApplication(patched.value as Manifest), patch) : asApplication(patched.value as Manifest);
    const pointerOf = written === undefined ? inSet : (pointer: string) => (writes(written as Params, t, manifest, pointer) ? '/spec/templatePatch' : inSet(pointer));
    const name = stringAt(manifest, 'metadata', 'name') ?? '<no name>';
    // The controller keeps the first Application of a name and refuses the others (validateGeneratedApplications);
    // a name left with {{ }} (a cluster's) stands for several names.
    if (names.has(name) && !name.includes('{{')) {
      duplicates.add(name);
      continue;
    }
    names.add(name);
    applications.push({ manifest, name, pointerOf });
  }
  for (const name of [...duplicates].sort(compareStrings)) {
    notes.push(`it generates several Applications named ${name}; Argo CD creates the first and refuses the others, which are not audited`);
  }
  for (const why of [...unpatched].sort(compareStrings)) {
    notes.push(`its templatePatch is not applied to some Applications (${why}): ${unpatchedFields(String(patch))}`);
  }
  for (const failure of [...failures].sort(compareStrings)) {
    notes.push(`Argo CD cannot render its template for some parameters (${failure}); those Applications are not generated`);
  }
  return { applications, expanded: true, notes };
}

/**
 * Whether the patch wrote the field at `pointer` of the patched Application: a finalizer it lists (they merge), a field
 * it sets, or a field missing from a map that the patch alone writes (the retry of a syncPolicy passed through).
 */
function writes(patch: Params, template: unknown, application: Manifest, pointer: string): boolean {
  if (/^\/metadata\/finalizers\/\d+$/.test(pointer)) {
    return listAt(patch, 'metadata', 'finalizers').includes(valueAt(application, pointer));
  }
  if (valueAt(patch, pointer) !== undefined || valueAt(application, pointer) !== undefined) {
    return valueAt(patch, pointer) !== undefined;
  }
  let parent = pointer;
  while (parent.lastIndexOf('/') > 0) {
    parent = parent.slice(0, parent.lastIndexOf('/'));
    if (valueAt(application, parent) !== undefined) {
      return valueAt(patch, parent) !== undefined && valueAt(template, parent) === undefined;
    }
  }
  return false;
}

/** What a field holds that only a templatePatch the audit did not apply knows: a field holding `{{ }}` is not judged. */
const SET_BY_PATCH = '{{ templatePatch }}';

/**
 * The Application with the fields a templatePatch that was not applied may set left unjudged, so that no rule reports
 * the bare template's value of them: the sync policy (automated sync, prune, selfHeal, retry, sync options), when the
 * patch names it or passes a map above it through; the finalizers, only when the patch may remove some (they merge).
 */
function withoutPatchable(application: Manifest, patch: unknown): Manifest {
  if (typeof patch !== 'string') {
    return application;
  }
  let out = application;
  if (templatePatchMaySet(patch, ['spec', 'syncPolicy'])) {
    out = { ...out, spec: { ...isObject(out.spec) ? out.spec : {}, syncPolicy: SET_BY_PATCH } };
  }
  if (templatePatchMayRemoveFinalizers(patch) && listAt(out, 'metadata', 'finalizers').length > 0) {
    out = { ...out, metadata: { ...isObject(out.metadata) ? out.metadata : {}, finalizers: [SET_BY_PATCH] } };
  }
  return out;
}

/** What the audit does with the fields of a templatePatch it did not apply. */
function unpatchedFields(patch: string): string {
  const syncPolicy = templatePatchMaySet(patch, ['spec', 'syncPolicy']);
  const finalizers = templatePatchMayRemoveFinalizers(patch);
  const unjudged = [...syncPolicy ? ['the sync policy'] : [], ...finalizers ? ['the finalizers'] : []];
  return unjudged.length === 0
    ? 'the fields it patches are audited as the template writes them'
    : `${unjudged.join(' and ')}, which it may set, ${unjudged.length > 1 ? 'are' : 'is'} not judged; the other fields it patches are audited as the template writes them`;
}

type Patched = Rendered | { readonly value: unknown; readonly patch: Params } | { readonly value: unknown; readonly unpatched: string };

/**
 * A generated Application with the ApplicationSet's templatePatch applied (controllers/template: the patch text
 * rendered with the same parameters, read as YAML, then a strategic merge patch of the Application). No field of
 * an Application has a merge key, so that patch merges maps, replaces lists and scalars, and deletes on null.
 * A patch that still holds a value known only to Argo CD (a cluster's name) is not applied, and says why.
 */
function patchTemplate(application: unknown, patch: string, p: Params, r: Renderer): Patched {
  const text = renderString(patch, p, r);
  if (!('value' in text)) {
    return 'error' in text ? { error: `error replacing values in templatePatch: ${text.error}` } : text;
  }
  if (String(text.value).includes('{{')) {
    return { value: application, unpatched: 'it holds values known only to Argo CD' };
  }
  const parsed = readYaml(String(text.value));
  // A patch that renders to nothing (or null) changes nothing: the controller's strategic merge of a null patch keeps the Application.
  if (parsed === null) {
    return { value: application, patch: params() };
  }
  if (!isObject(parsed)) {
    return { error: 'invalid templatePatch: it is not a YAML map of Application fields' };
  }
  if (holdsDirective(parsed)) {
    return { value: application, unpatched: 'it uses a $patch, $retainKeys or $setElementOrder directive, which the audit does not model' };
  }
  return { value: mergePatch(application, parsed, true), patch: copyDeep(parsed) as Params };
}

/**
 * Whether a generator's own template writes the field at `pointer`: it sets it, or the field is missing from a map
 * that only the generator's template writes (the retry of its syncPolicy).
 */
function ownWrites(own: Manifest, base: unknown, pointer: string): boolean {
  if (!isEmpty(valueAt(own, pointer))) {
    return true;
  }
  if (!isEmpty(valueAt(base, pointer))) {
    return false;
  }
  for (let parent = pointer; parent.lastIndexOf('/') > 0;) {
    parent = parent.slice(0, parent.lastIndexOf('/'));
    if (valueAt(own, parent) !== undefined || valueAt(base, parent) !== undefined) {
      return valueAt(base, parent) === undefined;
    }
  }
  return false;
}

function inTemplate(pointer: string): string {
  return `/spec/template${pointer}`;
}

/** The value at an RFC 6901 pointer, or undefined when the pointer leads nowhere. */
export function valueAt(object: unknown, pointer: string): unknown {
  let value = object;
  for (const token of keysFromPointer(pointer)) {
    if (Array.isArray(value) && /^(0|[1-9][0-9]*)$/.test(token)) {
      value = value[Number(token)];
    } else if (isObject(value) && Object.prototype.hasOwnProperty.call(value, token)) {
      value = value[token];
    } else {
      return undefined;
    }
  }
  return value;
}

function asApplication(template: Manifest): Manifest {
  return { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', ...template };
}

/**
 * The parameter sets of an ApplicationSet's generators (before any template is rendered), or why they are not
 * known offline. `goTemplate` chooses their shape, as in Argo CD.
 */
export function generatorParameters(set: Manifest, repo: RepositoryView, limits: ExpansionLimits): Generated {
  const renderer: Renderer = { goTemplate: at(set, 'spec', 'goTemplate') === true, budget: { chars: limits.maxRenderedChars }, git: gitCache(), work: { sets: 0 } };
  const sets = parameterSets(listAt(set, 'spec', 'generators'), renderer, repo, limits);
  return 'stop' in sets ? sets : { params: sets.params.map((s) => s.params) };
}

/**
 * Each generator's parameter sets in turn, with the generator's own `template` when it has one and where it is written:
 * a generator's template lies in its kind (`generators[i].git.template`; GetTemplate of each generator), and only a
 * generator of the ApplicationSet's list has one that counts (generator_spec_processor.go, mergeGeneratorTemplate).
 */
function parameterSets(generators: unknown[], renderer: Renderer, repo: RepositoryView, limits: ExpansionLimits):
{ readonly params: { params: Params; template?: Manifest; generator: string }[] } | { readonly stop: string } {
  const all: { params: Params; template?: Manifest; generator: string }[] = [];
  for (const [index, generator] of generators.entries()) {
    const generated = generate(generator, renderer, repo, limits, 0, undefined);
    if ('stop' in generated) {
      return generated;
    }
    const kind = isObject(generator) ? Object.keys(generator).sort().find((k) => GENERATORS.includes(k) && isObject(generator[k])) : undefined;
    const own = kind === undefined ? undefined : at(generator as Manifest, kind, 'template');
    for (const p of generated.params) {
      all.push({ params: p, generator: `/spec/generators/${index}/${kind}/template`, ...(isObject(own) ? { template: own } : {}) });
    }
    if (all.length > limits.maxApplications) {
      return { stop: `too large: its generators give more than ${limits.maxApplications} Applications` };
    }
  }
  return { params: all };
}

/**
 * A generator's own `template` merged over the ApplicationSet's: its set fields win, empty ones are filled from
 * the ApplicationSet's (mergo.Merge in generator_spec_processor.go).
 */
function fillEmpty(own: unknown, base: unknown): Manifest {
  if (isObject(own) && isObject(base)) {
    const out = params(Object.entries(base));
    for (const [k, v] of Object.entries(own)) {
      out[k] = isObject(v) && isObject(base[k]) ? fillEmpty(v, base[k]) : (isEmpty(v) ? base[k] : v);
    }
    return out;
  }
  return (isEmpty(own) ? base : own) as Manifest;
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === false || v === 0 || (Array.isArray(v) && v.length === 0);
}

/** What rendering needs: the mode, `missingkey`, the shared budget, and what git generators read. */
interface Renderer {
  readonly goTemplate: boolean;
  readonly missingKey?: 'default' | 'invalid' | 'zero' | 'error';
  readonly budget: RenderBudget;
  readonly git: GitCache;
  /** Parameter sets generated so far, by every generator at every level (see {@link WORK_PER_APPLICATION}). */
  readonly work: { sets: number };
}

/**
 * What the git generators of one ApplicationSet have read: a matrix runs its second generator once per parameter
 * set of its first, and each run would otherwise parse the same files and scan the folders again.
 */
interface GitCache {
  /** The folders or files a list of path patterns matches, by the patterns. */
  readonly matched: Map<string, readonly string[]>;
  /** Each file read: its data, prototype-free (undefined when it is not YAML), and how deep it nests when it could not be read. */
  readonly parsed: Map<string, { readonly data: unknown; readonly depth?: number }>;
}

function gitCache(): GitCache {
  return { matched: new Map(), parsed: new Map() };
}

/** `compute()` the first time `key` is asked for, the same value after. */
function cached<T>(cache: Map<string, T>, key: string, compute: () => T): T {
  if (!cache.has(key)) {
    cache.set(key, compute());
  }
  return cache.get(key) as T;
}

type Rendered = { readonly value: unknown } | { readonly error: string } | { readonly tooLarge: true };

/** Every string and map key of `value` rendered with `p` (deeplyReplace of utils.go); unknown strings stay as written. */
function renderValue(value: unknown, p: Params, r: Renderer): Rendered {
  if (typeof value === 'string') {
    return renderString(value, p, r);
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const rendered = renderValue(item, p, r);
      if (!('value' in rendered)) {
        return rendered;
      }
      out.push(rendered.value);
    }
    return { value: out };
  }
  if (isObject(value)) {
    const out = params();
    for (const [k, v] of Object.entries(value)) {
      const key = renderString(k, p, r);
      const rendered = renderValue(v, p, r);
      if (!('value' in key)) {
        return key;
      }
      if (!('value' in rendered)) {
        return rendered;
      }
      out[key.value as string] = rendered.value;
    }
    return { value: out };
  }
  return { value };
}

function renderString(s: string, p: Params, r: Renderer): Rendered {
  if (r.goTemplate) {
    const result = renderGoTemplate(s, p, { missingKey: r.missingKey, budget: r.budget });
    switch (result.kind) {
      case 'text': return { value: result.text };
      case 'unknown': return { value: s };
      case 'tooLarge': return { tooLarge: true };
      default: return { error: result.reason };
    }
  }
  // Argo CD renders a string only when a line of it holds `{{` before `}}` (isTemplatedRegex of utils.go).
  if (!isTemplated(s)) {
    return { value: s };
  }
  return renderFast(s, p, r.budget);
}

/**
 * fasttemplate as utils.go calls it: `{{tag}}` becomes the string parameter named by the trimmed tag; a tag
 * without a string parameter stays as written; `{{` without `}}` is an error.
 */
function renderFast(s: string, p: Params, budget: RenderBudget): Rendered {
  let out = '';
  let pos = 0;
  for (;;) {
    const open = s.indexOf('{{', pos);
    if (open < 0) {
      out += s.slice(pos);
      break;
    }
    const close = s.indexOf('}}', open + 2);
    if (close < 0) {
      return { error: `cannot find end tag="}}" in the template ${JSON.stringify(s)}` };
    }
    const tag = s.slice(open + 2, close);
    const value = p[tag.trim()];
    out += s.slice(pos, open) + (tag.trim() !== '' && typeof value === 'string' ? value : `{{${tag}}}`);
    pos = close + 2;
    if (out.length > budget.chars) {
      return { tooLarge: true };
    }
  }
  budget.chars -= out.length;
  return budget.chars < 0 ? { tooLarge: true } : { value: out };
}

/** The parameter sets of one generator; `inherited` are a matrix's first generator's, interpolated into the second. */
function generate(
  generator: unknown, r: Renderer, repo: RepositoryView, limits: ExpansionLimits, depth: number, inherited: Params | undefined,
): Generated {
  if (!isObject(generator)) {
    return { stop: 'a generator is not a mapping' };
  }
  const kinds = GENERATORS.filter((k) => generator[k] !== undefined && generator[k] !== null);
  if (kinds.length !== 1) {
    const others = Object.keys(generator).filter((k) => k !== 'selector' && k !== 'template').sort(compareStrings);
    return {
      stop: kinds.length === 0 ? `a generator of a kind Argo CD does not know (${others.join(', ') || 'empty'})` : `a generator sets ${kinds.join(' and ')} at once`,
    };
  }
  const kind = kinds[0];
  if (NOT_OFFLINE[kind] !== undefined) {
    return { stop: `${NOT_OFFLINE[kind]}, which is not known offline` };
  }
  let spec = generator[kind];
  if (inherited !== undefined) {
    const interpolated = renderValue(spec, inherited, r);
    if (!('value' in interpolated)) {
      return { stop: 'error' in interpolated ? `its generator cannot be interpolated (${interpolated.error})` : 'too large: its generators render too much' };
    }
    spec = interpolated.value;
  }
  if (!isObject(spec)) {
    return { stop: `its ${kind} generator is not a mapping` };
  }
  let generated: Generated;
  switch (kind) {
    case 'list': generated = listParams(spec, r, limits); break;
    case 'clusters': generated = clusterParams(spec, r); break;
    case 'git': generated = gitParams(spec, r, repo, limits); break;
    default:
      if (depth >= MAX_NESTING) {
        return { stop: `its ${kind} generators nest more than ${MAX_NESTING} deep` };
      }
      generated = kind === 'matrix' ? matrixParams(spec, r, repo, limits, depth) : mergeParams(spec, r, repo, limits, depth);
  }
  if ('stop' in generated) {
    return generated;
  }
  r.work.sets += generated.params.length;
  const maxWork = Math.max(1, limits.maxApplications) * WORK_PER_APPLICATION;
  if (r.work.sets > maxWork) {
    return { stop: `too large: its generators produce more than ${maxWork} parameter sets in all` };
  }
  if (generated.params.length > limits.maxApplications) {
    return { stop: `too large: its ${kind} generator gives more than ${limits.maxApplications} Applications` };
  }
  const selector = at(generator, 'selector');
  return isObject(selector) ? select(generated.params, selector) : generated;
}

/** list.go: each element is a parameter set; without goTemplate its values must be strings, `values` one level deep. */
function listParams(spec: Manifest, r: Renderer, limits: ExpansionLimits): Generated {
  const out: Params[] = [];
  const elements = [...listAt(spec, 'elements')];
  if (typeof spec.elementsYaml === 'string') {
    const parsed = readYaml(spec.elementsYaml);
    if (!Array.isArray(parsed)) {
      return { stop: 'its list generator\'s elementsYaml is not a list' };
    }
    elements.push(...parsed);
  }
  // Before copying any: a list of a million elements is refused, not copied.
  if (elements.length > limits.maxApplications) {
    return { stop: `too large: its list generator has more than ${limits.maxApplications} elements` };
  }
  for (const element of elements) {
    if (!isObject(element)) {
      return { stop: 'an element of its list generator is not a mapping (Argo CD fails)' };
    }
    if (r.goTemplate) {
      out.push(copyDeep(element) as Params);
      continue;
    }
    const p = params();
    for (const [k, v] of Object.entries(element)) {
      if (k === 'values' && isObject(v)) {
        for (const [vk, vv] of Object.entries(v)) {
          if (typeof vv !== 'string') {
            return { stop: `its list element's values.${vk} is not a string (Argo CD fails without goTemplate)` };
          }
          p[`values.${vk}`] = vv;
        }
      } else if (typeof v === 'string') {
        p[k] = v;
      } else {
        return { stop: `its list element's ${k} is not a string (Argo CD fails without goTemplate)` };
      }
    }
    out.push(p);
  }
  return { params: out };
}

/**
 * cluster.go: one parameter set stands for every cluster Argo CD knows. Its name, server, project and metadata
 * are symbolic: without goTemplate they are left out, so `{{name}}` stays as written, as Argo CD leaves a tag it
 * has no string for; with goTemplate they are {@link Symbolic}. Both leave the fields that read them unjudged.
 */
function clusterParams(spec: Manifest, r: Renderer): Generated {
  const p = params();
  if (r.goTemplate) {
    for (const k of ['name', 'nameNormalized', 'server', 'project', 'metadata']) {
      p[k] = new Symbolic(`the cluster's ${k}`);
    }
  }
  return appendValues(p, at(spec, 'values'), r);
}

/** value_interpolation.go: `values` rendered with the generator's own parameters, as `values` (goTemplate) or `values.<key>`. */
function appendValues(p: Params, values: unknown, r: Renderer): Generated {
  if (!isObject(values)) {
    return { params: [p] };
  }
  const rendered = params();
  for (const [k, v] of Object.entries(values)) {
    const result = typeof v === 'string' ? renderString(v, p, r) : { value: v };
    if (!('value' in result)) {
      return { stop: 'error' in result ? `its generator's values.${k} does not render (${result.error})` : 'too large: its generators render too much' };
    }
    const text = result.value;
    // A value that reads a symbolic parameter stays symbolic.
    const known = !(typeof text === 'string' && text.includes('{{'));
    if (r.goTemplate) {
      rendered[k] = known ? text : new Symbolic(`values.${k}`);
    } else if (known) {
      p[`values.${k}`] = text;
    }
  }
  if (r.goTemplate) {
    p.values = rendered;
  }
  return { params: [p] };
}

/**
 * git.go over the audited files: directories matched with Go's path.Match, files with `git ls-files` pathspecs, or with
 * doublestar globs when the controller runs with the new git file globbing.
 */
function gitParams(spec: Manifest, r: Renderer, repo: RepositoryView, limits: ExpansionLimits): Generated {
  const repoURL = typeof spec.repoURL === 'string' ? spec.repoURL : '';
  if (!repo.isAudited(repoURL)) {
    return { stop: `a git generator reads ${repoURL === '' ? 'no repoURL' : repoURL}, which is not the audited repository (no Application source in the audited files names it)` };
  }
  const prefix = typeof spec.pathParamPrefix === 'string' ? spec.pathParamPrefix : '';
  const items = (key: string) => listAt(spec, key).filter(isObject)
    .map((i) => ({ path: typeof i.path === 'string' ? i.path : '', exclude: i.exclude === true }));
  const directories = items('directories');
  const files = items('files');
  const out: Params[] = [];
  if (directories.length > 0) {
    const matchedDirectories = cached(r.git.matched, `directories\u0000${JSON.stringify(directories)}`, () => repo.directories.filter((dir) =>
      directories.some((d) => !d.exclude && pathMatch(d.path, dir)) && !directories.some((d) => d.exclude && pathMatch(d.path, dir))));
    for (const dir of matchedDirectories) {
      if (out.length >= limits.maxApplications) {
        return { stop: `too large: its git generator matches more than ${limits.maxApplications} folders` };
      }
      const withValues = appendValues(pathParams(dir, undefined, prefix, r.goTemplate), spec.values, r);
      if ('stop' in withValues) {
        return withValues;
      }
      out.push(...withValues.params);
    }
    return { params: out };
  }
  if (files.length === 0) {
    return { stop: 'a git generator has neither directories nor files (Argo CD fails)' };
  }
  // `git ls-files -- <pattern>` for each pattern: a pathspec, whose `*` also crosses `/`; or a doublestar glob, whose `*` does not.
  const matches = repo.newGitFileGlobbing ? doublestarMatches : pathspecMatches;
  const matched = cached(r.git.matched, `files\u0000${JSON.stringify(files)}`, () => repo.files.filter((f) => files.some((i) => !i.exclude && matches(i.path, f))
    && !files.some((i) => i.exclude && matches(i.path, f))));
  if (matched.length > limits.maxApplications) {
    return { stop: `too large: its git generator matches more than ${limits.maxApplications} files` };
  }
  for (const file of matched) {
    const { data, depth } = cached(r.git.parsed, file, () => {
      const content = repo.read(file);
      const text = content === undefined ? undefined : Buffer.from(content).toString('utf8');
      const read = text === undefined ? undefined : readYaml(text);
      // Copied once, without prototypes: every parameter set made from it shares what it does not change.
      return read === undefined && text !== undefined ? { data: read, depth: nestingDepth(text) } : { data: copyDeep(read) };
    });
    // An empty file is an empty mapping to sigs.k8s.io/yaml: one set of the path parameters alone.
    const objects = Array.isArray(data) ? data : [data === null ? {} : data];
    if (depth !== undefined && depth > MAX_READ_DEPTH) {
      // The YAML reader recurses: valid data nested this deep exhausts its stack, which says nothing of Argo CD.
      return { stop: `its git generator reads ${file}, which nests ${depth} levels deep, too deep for the audit to read` };
    }
    if (!objects.every(isObject)) {
      return { stop: `its git generator reads ${file}, which is not a YAML or JSON mapping or list of mappings (Argo CD fails)` };
    }
    for (const object of objects) {
      const own = r.goTemplate ? params(Object.entries(object)) : flatten(object);
      const withPath = Object.assign(own, pathParams(path.posix.dirname(file), path.posix.basename(file), prefix, r.goTemplate));
      const withValues = appendValues(withPath, spec.values, r);
      if ('stop' in withValues) {
        return withValues;
      }
      out.push(...withValues.params);
      if (out.length > limits.maxApplications) {
        return { stop: `too large: its git generator's files give more than ${limits.maxApplications} Applications` };
      }
    }
  }
  return { params: out };
}

/** The `path` parameters of a folder (and of a file in it, for the files generator), as git.go names them. */
function pathParams(dir: string, filename: string | undefined, prefix: string, goTemplate: boolean): Params {
  const basename = path.posix.basename(dir);
  if (goTemplate) {
    const p = params([['path', dir], ['basename', basename], ['basenameNormalized', sanitizeName(basename)], ['segments', dir.split('/')]]);
    if (filename !== undefined) {
      p.filename = filename;
      p.filenameNormalized = sanitizeName(filename);
    }
    return prefix !== '' ? params([[prefix, params([['path', p]])]]) : params([['path', p]]);
  }
  const name = prefix !== '' ? `${prefix}.path` : 'path';
  const p = params([[name, dir], [`${name}.basename`, basename], [`${name}.basenameNormalized`, sanitizeName(basename)]]);
  if (filename !== undefined) {
    p[`${name}.filename`] = filename;
    p[`${name}.filenameNormalized`] = sanitizeName(filename);
  }
  dir.split('/').forEach((segment, i) => {
    if (segment !== '') {
      p[`${name}[${i}]`] = segment;
    }
  });
  return p;
}

/** jeremywohl/flatten in DotStyle, values printed with %v: what a git file gives without goTemplate. */
function flatten(object: Manifest, into: Params = params(), prefix = ''): Params {
  for (const [k, v] of Object.entries(object)) {
    const key = prefix === '' ? k : `${prefix}.${k}`;
    if (v instanceof Symbolic) {
      into[key] = v;
    } else if (isObject(v) && Object.keys(v).length > 0) {
      flatten(v, into, key);
    } else if (Array.isArray(v) && v.length > 0) {
      flatten(params(v.map((item, i) => [String(i), item])), into, key);
    } else {
      into[key] = v === null ? '<nil>' : Array.isArray(v) ? '[]' : isObject(v) ? 'map[]' : String(v);
    }
  }
  return into;
}

/** matrix.go: every pair of the two generators' sets; the second is interpolated with the first's parameters. */
function matrixParams(spec: Manifest, r: Renderer, repo: RepositoryView, limits: ExpansionLimits, depth: number): Generated {
  const children = listAt(spec, 'generators');
  if (children.length !== 2) {
    return { stop: `its matrix generator has ${children.length} generators, not two (Argo CD fails)` };
  }
  const first = generate(children[0], r, repo, limits, depth + 1, undefined);
  if ('stop' in first) {
    return first;
  }
  const out: Params[] = [];
  for (const a of first.params) {
    const second = generate(children[1], r, repo, limits, depth + 1, a);
    if ('stop' in second) {
      return second;
    }
    if (out.length + second.params.length > limits.maxApplications) {
      return { stop: `too large: its matrix generator gives more than ${limits.maxApplications} Applications` };
    }
    for (const b of second.params) {
      if (r.goTemplate) {
        // mergeOverride builds new maps where it merges and changes neither set.
        out.push(mergeOverride(b, a));
        continue;
      }
      // utils.CombineStringMaps: the same key with two values is an error.
      const conflict = Object.keys(b).find((k) => k in a && a[k] !== b[k]);
      if (conflict !== undefined) {
        return { stop: `its matrix generator gives the parameter ${conflict} two values (Argo CD fails)` };
      }
      out.push(params([...Object.entries(a), ...Object.entries(b)]));
    }
  }
  return { params: out };
}

/** merge.go: the first generator's sets, each overridden by the sets of the others with the same merge keys. */
function mergeParams(spec: Manifest, r: Renderer, repo: RepositoryView, limits: ExpansionLimits, depth: number): Generated {
  const children = listAt(spec, 'generators');
  const keys = [...new Set(listAt(spec, 'mergeKeys').filter((k): k is string => typeof k === 'string'))].sort(compareStrings);
  if (children.length < 2 || keys.length === 0) {
    return { stop: 'its merge generator needs two generators and mergeKeys (Argo CD fails)' };
  }
  const byKey: Map<string, Params>[] = [];
  for (const child of children) {
    const generated = generate(child, r, repo, limits, depth + 1, undefined);
    if ('stop' in generated) {
      return generated;
    }
    const map = new Map<string, Params>();
    for (const p of generated.params) {
      const key = JSON.stringify(keys.map((k) => (p[k] instanceof Symbolic ? '{{symbolic}}' : p[k] ?? null)));
      if (map.has(key)) {
        return { stop: `its merge generator's sets are not unique by ${keys.join(', ')} (Argo CD fails)` };
      }
      map.set(key, p);
    }
    byKey.push(map);
  }
  const out: Params[] = [];
  for (const key of [...byKey[0].keys()].sort(compareStrings)) {
    let merged = byKey[0].get(key)!;
    for (const other of byKey.slice(1)) {
      const override = other.get(key);
      if (override !== undefined) {
        merged = r.goTemplate ? mergeOverride(merged, override) : params([...Object.entries(merged), ...Object.entries(override)]);
      }
    }
    out.push(merged);
  }
  return { params: out };
}

/** A generator's `selector` (matchLabels, matchExpressions) over its flattened parameters (generator_spec_processor.go). */
function select(sets: Params[], selector: Manifest): Generated {
  const labels = at(selector, 'matchLabels');
  const expressions = listAt(selector, 'matchExpressions').filter(isObject);
  const out: Params[] = [];
  for (const p of sets) {
    const flat = flatten(p);
    const value = (k: string) => (typeof flat[k] === 'string' ? flat[k] as string : undefined);
    // A symbolic parameter (a cluster's label) may match or not: the set is kept.
    const symbolic = (k: string) => flat[k] instanceof Symbolic;
    const byLabels = !isObject(labels) || Object.entries(labels).every(([k, v]) => symbolic(k) || value(k) === String(v));
    const byExpressions = expressions.every((e) => {
      const key = String(e.key);
      if (symbolic(key)) {
        return true;
      }
      const values = listAt(e, 'values').map(String);
      switch (e.operator) {
        case 'In': return values.includes(value(key) ?? '\u0000');
        case 'NotIn': return !values.includes(value(key) ?? '\u0000');
        case 'Exists': return key in flat;
        case 'DoesNotExist': return !(key in flat);
        default: return true;
      }
    });
    if (byLabels && byExpressions) {
      out.push(p);
    }
  }
  return { params: out };
}

/** The first YAML document of a text as data (what sigs.k8s.io/yaml reads): null when there is none, undefined when it is not YAML. */
function readYaml(text: string): unknown {
  try {
    const [doc] = parseYamlDocuments(text, { prettyErrors: false });
    if (doc === undefined) {
      return null;
    }
    if (!('errors' in doc) || doc.errors.length > 0) {
      return undefined;
    }
    return doc.toJS({ maxAliasCount: 100 });
  } catch {
    return undefined;
  }
}
