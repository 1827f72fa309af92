import * as path from 'path';
import { groupOf, isClusterScoped } from '../core/kinds';
import { isWithin, REMOTE } from '../core/kustomization';
import { isObject, listAt, LocatedManifest, Manifest, stringAt } from '../core/manifest';

/**
 * What Kustomize builds of a folder whose kustomizations only list files and folders and set a namespace, the most
 * common kustomization there is (an app's folder listing its manifests): the objects of those files, in the order
 * listed, with the namespace set on those that have one. Such a folder needs no rendering to be audited as what Argo
 * CD applies. Anything more (patches, generators, Helm charts, images, replicas, name prefixes, labels, remote bases)
 * is not built here: the folder then needs `--rendered`.
 */

/** The fields of a kustomization built here; any other makes the folder one this build leaves to `--rendered`. */
const PLAIN_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'bases', 'namespace', 'metadata']);

/** What the build is given. */
export interface PlainBuildInput {
  /** Each kustomization read, by its folder. */
  readonly kustomizations: ReadonlyMap<string, LocatedManifest>;
  /** The objects each file holds, in document order (files that hold none are not there). */
  readonly objects: ReadonlyMap<string, readonly LocatedManifest[]>;
  /** Whether a file of the repository is there (one with no object, or one that is no manifest, may be). */
  readonly isFile: (file: string) => boolean;
  /** Why a file could not be read as manifests (a template, a syntax error), if it could not: its objects are unknown. */
  readonly problemOf: (file: string) => string | undefined;
  /** Objects another build made already (Argo CD's, see kustomize-build.ts): taken as they are. */
  readonly builtElsewhere?: (manifest: Manifest) => boolean;
}

/** An object of the build: as written, or its own copy with the namespace the build sets. */
export interface PlainBuilt {
  readonly source: LocatedManifest;
  readonly manifest: Manifest;
}

/** Deeper nesting than any repository has; a cycle is found before. */
const MAX_NESTING = 50;
/** At most this many objects a build (a repository's largest folders hold a few thousand). */
const MAX_OBJECTS = 50_000;

/** What the kustomization of `dir` builds, or why this build leaves it to a rendering. */
export function buildPlainFolder(input: PlainBuildInput, dir: string): { objects: PlainBuilt[] } | { notPlain: string } {
  try {
    const objects = build(input, dir, []);
    const seen = new Set<string>();
    for (const { manifest } of objects) {
      const group = groupOf(String(manifest.apiVersion ?? ''));
      const id = JSON.stringify([group, manifest.kind, stringAt(manifest, 'metadata', 'namespace') ?? '', stringAt(manifest, 'metadata', 'name') ?? '']);
      if (seen.has(id)) {
        // Kustomize refuses an object listed twice ("may not add resource with an already registered id").
        throw new NotPlain(`it lists ${String(manifest.kind)} ${stringAt(manifest, 'metadata', 'name') ?? ''} twice, which Kustomize refuses`);
      }
      seen.add(id);
    }
    return { objects };
  } catch (e) {
    if (e instanceof NotPlain) {
      return { notPlain: e.message };
    }
    throw e;
  }
}

class NotPlain extends Error {}

function build(input: PlainBuildInput, dir: string, stack: readonly string[]): PlainBuilt[] {
  const located = input.kustomizations.get(dir);
  if (located === undefined) {
    throw new NotPlain(`the kustomization of ${dir} is not among the audited files`);
  }
  const { manifest: kustomization, location: { file } } = located;
  if (stack.includes(dir) || stack.length > MAX_NESTING) {
    throw new NotPlain(`${file} lists ${dir} again (a cycle)`);
  }
  if (Object.keys(kustomization).every((field) => field === 'apiVersion' || field === 'kind')) {
    throw new NotPlain(`${file} is empty, which Kustomize refuses`);
  }
  const other = Object.keys(kustomization).filter((field) => !PLAIN_FIELDS.has(field));
  if (other.length > 0) {
    throw new NotPlain(`${file} sets ${other.sort().join(', ')}`);
  }
  const objects: PlainBuilt[] = [];
  for (const field of ['resources', 'bases']) {
    for (const entry of listAt(kustomization, field)) {
      if (typeof entry !== 'string' || entry.trim() === '' || REMOTE.test(entry)) {
        throw new NotPlain(`${file} lists ${JSON.stringify(entry)}, which is no file or folder of the repository`);
      }
      const target = path.posix.normalize(path.posix.join(dir, entry));
      if (input.kustomizations.has(target)) {
        objects.push(...build(input, target, [...stack, dir]));
      } else if (!isWithin(target, dir)) {
        throw new NotPlain(`${file} lists ${entry}, a file outside its folder, which Kustomize refuses (its load restrictor)`);
      } else if (input.problemOf(target) !== undefined) {
        throw new NotPlain(`${file} lists ${entry}, which cannot be read as manifests (${input.problemOf(target)})`);
      } else if (input.isFile(target)) {
        for (const source of input.objects.get(target) ?? []) {
          objects.push({ source, manifest: withoutEmptyMetadata(source.manifest) });
        }
      } else {
        throw new NotPlain(`${file} lists ${entry}, which is not among the audited files`);
      }
      if (objects.length > MAX_OBJECTS) {
        throw new NotPlain(`${file} builds more than ${MAX_OBJECTS} objects`);
      }
    }
  }
  const namespace = stringAt(kustomization, 'namespace');
  if (namespace === undefined || namespace === '') {
    return objects;
  }
  // The ServiceAccounts of the build, by the namespace they had and their name: a binding's subject that names one
  // follows it to the new namespace (Kustomize's name references), as does one named `default`.
  const accounts = new Set(objects.filter((o) => o.manifest.kind === 'ServiceAccount' && groupOf(String(o.manifest.apiVersion ?? '')) === '')
    .map((o) => JSON.stringify([stringAt(o.manifest, 'metadata', 'namespace') ?? '', stringAt(o.manifest, 'metadata', 'name') ?? ''])));
  return objects.map((o) => {
    if (input.builtElsewhere?.(o.manifest)) {
      return o;
    }
    const group = groupOf(String(o.manifest.apiVersion ?? ''));
    const kind = String(o.manifest.kind ?? '');
    let manifest = o.manifest;
    // Kustomize knows only the built-in kinds that are cluster-scoped: any other kind is given the namespace.
    if (!(isClusterScoped(group, kind) && isBuiltIn(group)) && stringAt(manifest, 'metadata', 'namespace') !== namespace) {
      manifest = { ...manifest, metadata: { ...isObject(manifest.metadata) ? manifest.metadata : {}, namespace } };
    }
    // A Namespace of the build becomes the one the kustomization names.
    if (group === '' && kind === 'Namespace' && stringAt(manifest, 'metadata', 'name') !== namespace) {
      manifest = { ...manifest, metadata: { ...isObject(manifest.metadata) ? manifest.metadata : {}, name: namespace } };
    }
    if (group === 'rbac.authorization.k8s.io' && (kind === 'RoleBinding' || kind === 'ClusterRoleBinding') && Array.isArray(manifest.subjects)) {
      const subjects = manifest.subjects.map((subject: unknown) => {
        if (!isObject(subject) || subject.kind !== 'ServiceAccount' || typeof subject.name !== 'string') {
          return subject;
        }
        const follows = subject.name === 'default' || accounts.has(JSON.stringify([typeof subject.namespace === 'string' ? subject.namespace : '', subject.name]));
        return follows ? { ...subject, namespace } : subject;
      });
      manifest = { ...manifest, subjects };
    }
    return manifest === o.manifest ? o : { source: o.source, manifest };
  });
}

/** Whether an API group is Kubernetes' own (the core group, `apps`, `*.k8s.io`), whose kinds Kustomize knows. */
function isBuiltIn(group: string): boolean {
  return !group.includes('.') || group.endsWith('.k8s.io');
}

/**
 * The object as Kustomize writes it out: annotations that are empty (or null) are dropped (its own build annotations
 * are removed from every object, and an empty map with them); labels are left as written.
 */
function withoutEmptyMetadata(manifest: Manifest): Manifest {
  const metadata = manifest.metadata;
  if (!isObject(metadata) || !Object.prototype.hasOwnProperty.call(metadata, 'annotations')) {
    return manifest;
  }
  const annotations = metadata.annotations;
  if (!(annotations === null || (isObject(annotations) && Object.keys(annotations).length === 0))) {
    return manifest;
  }
  return { ...manifest, metadata: Object.fromEntries(Object.entries(metadata).filter(([field]) => field !== 'annotations')) };
}
