import { ArgoCdVersion } from './argocd-version';

/** A Kubernetes object as plain JSON: `apiVersion`, `kind`, `metadata`, and the rest. */
export type Manifest = { readonly [key: string]: unknown };

/** Where an object starts in a file: 1-based line and column. */
export interface SourceLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** One Kubernetes object read from a file, with where it starts. */
export interface LocatedManifest {
  readonly manifest: Manifest;
  readonly location: SourceLocation;
  /**
   * Where the field at an RFC 6901 pointer into the object is written: its key (or, in a list, its item), else
   * the nearest enclosing field that is written, else the object's start. Computed on demand, for findings only.
   */
  readonly locate?: (pointer: string) => SourceLocation;
}

/** Whether `value` is an Argo CD object (`argoproj.io/...`) of `kind`. */
function isArgoObject(value: unknown, kind: string): boolean {
  return isObject(value) && value.kind === kind && typeof value.apiVersion === 'string' && value.apiVersion.startsWith('argoproj.io/');
}

/** Whether a manifest is an Argo CD Application. */
export function isApplication(value: unknown): boolean {
  return isArgoObject(value, 'Application');
}

/** Whether a manifest is an Argo CD ApplicationSet. */
export function isApplicationSet(value: unknown): boolean {
  return isArgoObject(value, 'ApplicationSet');
}

/** Whether a manifest is an Argo CD AppProject. */
export function isAppProject(value: unknown): boolean {
  return isArgoObject(value, 'AppProject');
}

/** The Application (first) and those of `resources` that `test` accepts, without copying `resources`: rules run over every object. */
export function objectsWhere(application: Manifest | undefined, resources: readonly Manifest[], test: (value: unknown) => boolean): Manifest[] {
  const found: Manifest[] = [];
  if (application !== undefined && test(application)) {
    found.push(application);
  }
  for (const r of resources) {
    if (test(r)) {
      found.push(r);
    }
  }
  return found;
}

/** Whether a value is a plain JSON object. */
export function isObject(value: unknown): value is Manifest {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value is a Kubernetes object: a plain object with a string `apiVersion` and `kind`. */
export function isKubernetesObject(value: unknown): value is Manifest {
  return isObject(value) && typeof value.apiVersion === 'string' && typeof value.kind === 'string';
}

const hasOwnProperty = Object.prototype.hasOwnProperty;

/** The value at a key path, or undefined when any step is missing or not an object; only own keys (input is data). */
export function at(value: unknown, ...keys: string[]): unknown {
  return atKeys(value, keys);
}

/** {@link at} with the keys as one array: the helpers below pass theirs on without spreading them into a second one. */
function atKeys(value: unknown, keys: readonly string[]): unknown {
  let current: unknown = value;
  for (let i = 0; i < keys.length; i++) {
    if (!isObject(current) || !hasOwnProperty.call(current, keys[i])) {
      return undefined;
    }
    current = current[keys[i]];
  }
  return current;
}

/** The list at a key path; anything that is not a list counts as empty. */
export function listAt(value: unknown, ...keys: string[]): unknown[] {
  const found = atKeys(value, keys);
  return Array.isArray(found) ? found : [];
}

/** The string at a key path, or undefined. */
export function stringAt(value: unknown, ...keys: string[]): string | undefined {
  const found = atKeys(value, keys);
  return typeof found === 'string' ? found : undefined;
}

/** `Kind namespace/name` for messages. */
export function describeObject(obj: Manifest): string {
  const kind = stringAt(obj, 'kind') ?? '<no kind>';
  const generated = stringAt(obj, 'metadata', 'generateName');
  const name = stringAt(obj, 'metadata', 'name') ?? (generated ? `${generated}*` : '<no name>');
  const namespace = stringAt(obj, 'metadata', 'namespace');
  return `${kind} ${namespace ? `${namespace}/` : ''}${name}`;
}

/** The sources of an Application: `spec.source` and every `spec.sources[]`, with their pointers. */
export function sourcesOf(application: Manifest): { source: Manifest; path: string }[] {
  const found: { source: Manifest; path: string }[] = [];
  const single = at(application, 'spec', 'source');
  if (isObject(single)) {
    found.push({ source: single, path: '/spec/source' });
  }
  listAt(application, 'spec', 'sources').forEach((s, i) => {
    if (isObject(s)) {
      found.push({ source: s, path: `/spec/sources/${i}` });
    }
  });
  return found;
}

/**
 * The sources Argo CD reads (HasMultipleSources): every `spec.sources[]` when the list holds anything, and then
 * `spec.source` not at all; else `spec.source`. Unlike {@link sourcesOf}, which lists every source written.
 */
export function readSourcesOf(application: Manifest): { source: Manifest; path: string }[] {
  const many = listAt(application, 'spec', 'sources');
  const written = many.length > 0
    ? many.map((source, i) => ({ source, path: `/spec/sources/${i}` }))
    : [{ source: at(application, 'spec', 'source'), path: '/spec/source' }];
  return written.filter((s): s is { source: Manifest; path: string } => isObject(s.source));
}

/**
 * Whether automated sync is on: `automated` present and, on releases that have the field (3.1+), not
 * switched off with `enabled: false`. Older releases do not read `enabled`, so there it changes nothing.
 */
export function isAutoSync(application: Manifest, argoCdVersion: ArgoCdVersion): boolean {
  const automated = at(application, 'spec', 'syncPolicy', 'automated');
  return isObject(automated) && (automated.enabled !== false || !argoCdVersion.hasAutomatedEnabled);
}

/** The sync options as strings, as Argo CD reads them (`Name=value`). */
export function syncOptionsOf(application: Manifest): string[] {
  return listAt(application, 'spec', 'syncPolicy', 'syncOptions').filter((o): o is string => typeof o === 'string');
}
