import { badValue, ErrorCode } from '../core/errors';
import { isDns1123Label, isLabelValue, isQualifiedName, suggestDns1123Label } from '../core/names';
import { parseYamlDocument } from '../core/yaml-text';

/**
 * One image override, as `kustomize edit set image` takes it: the image named `name` in the manifests is
 * deployed as `newName`, at `newTag` or at `digest`. This is how a promotion changes what runs without a
 * commit to the kustomization.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/kustomize/
 */
export interface KustomizeImage {
  /**
   * The image as the manifests name it, without tag or digest, e.g. `ghcr.io/acme/payments-api`.
   */
  readonly name: string;

  /**
   * The image to deploy instead, without tag or digest, e.g. a mirror: `registry.acme.internal/payments-api`.
   *
   * @default - the image keeps its name
   */
  readonly newName?: string;

  /**
   * The tag to deploy, e.g. `1.4.2`. Not together with `digest`.
   *
   * @default - the tag the manifests give, unless `digest` is set
   */
  readonly newTag?: string;

  /**
   * The digest to deploy, e.g. `sha256:` and 64 hexadecimal digits: the exact image, whatever a tag later points to.
   * Not together with `newTag`.
   *
   * @default - the tag or digest the manifests give, unless `newTag` is set
   */
  readonly digest?: string;
}

/**
 * Which objects a Kustomize patch changes; every field given must match.
 *
 * @see https://kubectl.docs.kubernetes.io/references/kustomize/kustomization/patches/
 */
export interface KustomizePatchTarget {
  /**
   * The API group, e.g. `apps`.
   *
   * @default - any group
   */
  readonly group?: string;

  /**
   * The API version, e.g. `v1`.
   *
   * @default - any version
   */
  readonly version?: string;

  /**
   * The kind, e.g. `Deployment`.
   *
   * @default - any kind
   */
  readonly kind?: string;

  /**
   * The object's name (a regular expression to Kustomize).
   *
   * @default - any name
   */
  readonly name?: string;

  /**
   * The object's namespace.
   *
   * @default - any namespace
   */
  readonly namespace?: string;

  /**
   * A label selector, e.g. `app.kubernetes.io/component=api`.
   *
   * @default - any labels
   */
  readonly labelSelector?: string;

  /**
   * An annotation selector.
   *
   * @default - any annotations
   */
  readonly annotationSelector?: string;
}

/**
 * One patch written in the Application: a strategic merge patch (a map naming `kind` and `metadata.name`, or
 * any map with a `target`) or a JSON 6902 patch (a list of operations, which needs a `target`).
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/kustomize/
 */
export interface KustomizePatch {
  /**
   * The patch as YAML (or JSON) text. Never a password, token or private key: the Application is readable by
   * everyone who can read the app in Argo CD.
   */
  readonly patch: string;

  /**
   * The objects it changes.
   *
   * @default - the object the patch names by `kind` and `metadata.name` (a strategic merge patch only)
   */
  readonly target?: KustomizePatchTarget;
}

/**
 * What Argo CD asks Kustomize to change in a folder's kustomization before it builds it: the options a
 * promotion sets per environment. Every option needs a `kustomization.yaml` in the folder.
 *
 * @see https://argo-cd.readthedocs.io/en/stable/user-guide/kustomize/
 */
export interface KustomizeOptions {
  /**
   * Image overrides, rendered as Argo CD's `name=newName:newTag` or `name=newName@digest` strings. Names must differ.
   *
   * @default - none: the images the manifests name
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/kustomize/
   */
  readonly images?: KustomizeImage[];

  /**
   * Put before the name of every object: lowercase letters, digits and `-`, starting with a letter or digit.
   * Changing it later renames (and makes Argo CD recreate) every object.
   *
   * @default - none
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/kustomize/
   */
  readonly namePrefix?: string;

  /**
   * Put after the name of every object: lowercase letters, digits and `-`, ending with a letter or digit.
   * Changing it later renames (and makes Argo CD recreate) every object.
   *
   * @default - none
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/kustomize/
   */
  readonly nameSuffix?: string;

  /**
   * The namespace Kustomize sets on every namespaced object: a DNS-1123 label.
   *
   * @default - the namespaces the manifests give; objects without one go to the Application's destination namespace
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/kustomize/
   */
  readonly namespace?: string;

  /**
   * Labels added to every object. Kustomize also adds them to selectors, which Kubernetes never lets change on a
   * Deployment or StatefulSet: choose them once. Keys and values as Kubernetes accepts them.
   *
   * @default - none
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/kustomize/
   */
  readonly commonLabels?: { [key: string]: string };

  /**
   * Annotations added to every object. Keys as Kubernetes accepts them; values are any text.
   *
   * @default - none
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/kustomize/
   */
  readonly commonAnnotations?: { [key: string]: string };

  /**
   * Patches applied after the folder's own, in order. A patch here is not in the folder: prefer the overlay's
   * kustomization for anything that is not a per-environment value.
   *
   * @default - none
   * @see https://argo-cd.readthedocs.io/en/stable/user-guide/kustomize/
   */
  readonly patches?: KustomizePatch[];
}

const WHERE = 'ExternalSource.gitPath';
/** Names Kubernetes checks as DNS labels (a Service's, for one) are at most this long. */
const MAX_AFFIX = 62;

/** The options, checked and copied (a caller changing its objects later does not change the source); undefined when empty. */
export function checkKustomizeOptions(options: KustomizeOptions): KustomizeOptions | undefined {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw refuse('options.kustomize', options, 'must be an object of KustomizeOptions', 'give e.g. { images: [{ name: \'ghcr.io/acme/api\', newTag: \'1.4.2\' }] }');
  }
  const images = checkImages(options.images);
  const namePrefix = checkAffix(options.namePrefix, 'namePrefix', /^[a-z0-9][-a-z0-9]*$/, 'starting with a letter or digit');
  const nameSuffix = checkAffix(options.nameSuffix, 'nameSuffix', /^[-a-z0-9]*[a-z0-9]$/, 'ending with a letter or digit');
  if (namePrefix !== undefined && nameSuffix !== undefined && namePrefix.length + nameSuffix.length > MAX_AFFIX) {
    throw refuse('options.kustomize.nameSuffix', nameSuffix, `leaves no room for a name after namePrefix "${namePrefix}": together they must be at most ${MAX_AFFIX} characters`,
      'shorten the prefix or the suffix');
  }
  const namespace = checkNamespace(options.namespace);
  const commonLabels = checkMap(options.commonLabels, 'commonLabels', true);
  const commonAnnotations = checkMap(options.commonAnnotations, 'commonAnnotations', false);
  const patches = checkPatches(options.patches);
  const checked: KustomizeOptions = { images, namePrefix, nameSuffix, namespace, commonLabels, commonAnnotations, patches };
  return Object.values(checked).some((v) => v !== undefined) ? Object.freeze(checked) : undefined;
}

/** An image override in the one string form Argo CD passes to `kustomize edit set image`. */
export function kustomizeImageOverride(image: KustomizeImage): string {
  const to = image.newName ?? image.name;
  const version = image.digest !== undefined ? `@${image.digest}` : image.newTag !== undefined ? `:${image.newTag}` : '';
  return `${image.name}=${to}${version}`;
}

function refuse(prop: string, value: unknown, allowed: string, fix: string): Error {
  return badValue(ErrorCode.INVALID_KUSTOMIZE_SOURCE, WHERE, prop, value, allowed, fix);
}

/** An image reference without tag or digest: no spaces, no `=` (it ends the name in Argo CD's form), no `@`, no tag after the last `/`. */
function isImageName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._/:-]*$/.test(name) && !name.slice(name.lastIndexOf('/') + 1).includes(':') && !name.endsWith('/');
}

function checkImages(images: KustomizeImage[] | undefined): KustomizeImage[] | undefined {
  if (images === undefined) {
    return undefined;
  }
  if (!Array.isArray(images)) {
    throw refuse('options.kustomize.images', images, 'must be a list', 'give e.g. [{ name: \'ghcr.io/acme/api\', newTag: \'1.4.2\' }]');
  }
  const seen = new Set<string>();
  const checked = images.map((image, i) => {
    const prop = `options.kustomize.images[${i}]`;
    const one = checkImage(image, prop);
    if (seen.has(one.name)) {
      throw badValue(ErrorCode.DUPLICATE, WHERE, `${prop}.name`, one.name, 'is given twice', 'override each image once; the last one would silently win');
    }
    seen.add(one.name);
    return one;
  });
  return checked.length > 0 ? Object.freeze(checked) as KustomizeImage[] : undefined;
}

function checkImage(image: KustomizeImage, prop: string): KustomizeImage {
  if (typeof image !== 'object' || image === null) {
    throw refuse(prop, image, 'must be a KustomizeImage', 'give e.g. { name: \'ghcr.io/acme/api\', newTag: \'1.4.2\' }');
  }
  const { name, newName, newTag, digest } = image;
  const nameFix = 'give the image as the manifests name it, without tag or digest, e.g. "ghcr.io/acme/api"';
  if (typeof name !== 'string' || !isImageName(name)) {
    throw refuse(`${prop}.name`, name, 'must be an image name: not empty, without spaces, "=", "@", or a tag', nameFix);
  }
  if (newName !== undefined && (typeof newName !== 'string' || !isImageName(newName))) {
    throw refuse(`${prop}.newName`, newName, 'must be an image name: not empty, without spaces, "=", "@", or a tag', 'give the tag as newTag and the digest as digest');
  }
  if (newTag !== undefined && (typeof newTag !== 'string' || !/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/.test(newTag))) {
    throw refuse(`${prop}.newTag`, newTag, 'must be an image tag: at most 128 letters, digits, "_", "." and "-", not starting with "." or "-"', 'give the tag alone, e.g. "1.4.2"');
  }
  if (digest !== undefined && (typeof digest !== 'string' || !/^[a-z0-9]+([+._-][a-z0-9]+)*:[A-Za-z0-9=_-]{32,}$/.test(digest))) {
    throw refuse(`${prop}.digest`, digest, 'must be an image digest: an algorithm, ":" and the encoded hash', 'give it as the registry shows it, e.g. "sha256:" and 64 hexadecimal digits');
  }
  if (newTag !== undefined && digest !== undefined) {
    throw refuse(`${prop}.digest`, digest, `is given together with newTag "${newTag}"; Kustomize would deploy the digest and the tag would only mislead`,
      'give the digest alone (it pins the exact image), or the tag alone');
  }
  if (newName === undefined && newTag === undefined && digest === undefined) {
    throw refuse(prop, image, 'changes nothing: it has neither newName, newTag nor digest', 'give the tag or digest to deploy, or remove the override');
  }
  const checked: KustomizeImage = { name, newName, newTag, digest };
  return Object.freeze(Object.fromEntries(Object.entries(checked).filter(([, v]) => v !== undefined)) as unknown as KustomizeImage);
}

function checkAffix(value: string | undefined, prop: string, pattern: RegExp, edge: string): string | undefined {
  if (value === undefined || value === '') {
    return undefined;
  }
  if (typeof value !== 'string' || value.length > MAX_AFFIX || !pattern.test(value)) {
    const suggestion = String(value ?? '').toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(0, MAX_AFFIX);
    throw refuse(`options.kustomize.${prop}`, value,
      `would make object names Kubernetes refuses: it must be lowercase letters, digits and "-", ${edge}, at most ${MAX_AFFIX} characters`,
      `use e.g. ${JSON.stringify(prop === 'namePrefix' ? suggestion.replace(/^-+/, '') || 'prod-' : suggestion.replace(/-+$/, '') || '-prod')}`);
  }
  return value;
}

function checkNamespace(namespace: string | undefined): string | undefined {
  if (namespace === undefined) {
    return undefined;
  }
  if (typeof namespace !== 'string' || !isDns1123Label(namespace)) {
    throw refuse('options.kustomize.namespace', namespace, 'must be a DNS-1123 label: lowercase letters, digits and "-", at most 63 characters',
      `use e.g. ${JSON.stringify(suggestDns1123Label(String(namespace ?? '')))}, or leave it out`);
  }
  return namespace;
}

function checkMap(map: { [key: string]: string } | undefined, prop: string, isLabel: boolean): { [key: string]: string } | undefined {
  if (map === undefined) {
    return undefined;
  }
  if (typeof map !== 'object' || map === null || Array.isArray(map)) {
    throw refuse(`options.kustomize.${prop}`, map, 'must be a map of strings', 'give e.g. { \'app.kubernetes.io/part-of\': \'payments\' }');
  }
  const copy: { [key: string]: string } = {};
  for (const key of Object.keys(map).sort()) {
    const value = map[key];
    if (!isQualifiedName(key)) {
      throw refuse(`options.kustomize.${prop}`, key, 'has a key Kubernetes refuses: an optional DNS subdomain and "/", then at most 63 letters, digits, "-", "_" and ".", starting and ending with a letter or digit',
        'name it e.g. "app.kubernetes.io/part-of"');
    }
    if (typeof value !== 'string') {
      throw refuse(`options.kustomize.${prop}.${key}`, value, 'must be a string', `write it as text, e.g. ${JSON.stringify(String(value))}`);
    }
    if (isLabel && !isLabelValue(value)) {
      throw refuse(`options.kustomize.${prop}.${key}`, value, 'is a label value Kubernetes refuses: at most 63 letters, digits, "-", "_" and ".", starting and ending with a letter or digit',
        'shorten it, or put the text in commonAnnotations');
    }
    copy[key] = value;
  }
  return Object.keys(copy).length > 0 ? Object.freeze(copy) : undefined;
}

const JSON_PATCH_OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'];
const TARGET_FIELDS = ['group', 'version', 'kind', 'name', 'namespace', 'labelSelector', 'annotationSelector'] as const;

function checkPatches(patches: KustomizePatch[] | undefined): KustomizePatch[] | undefined {
  if (patches === undefined) {
    return undefined;
  }
  if (!Array.isArray(patches)) {
    throw refuse('options.kustomize.patches', patches, 'must be a list', 'give e.g. [{ patch: \'[{"op": "replace", "path": "/spec/replicas", "value": 3}]\', target: { kind: \'Deployment\', name: \'api\' } }]');
  }
  const checked = patches.map((patch, i) => checkPatch(patch, `options.kustomize.patches[${i}]`));
  return checked.length > 0 ? Object.freeze(checked) as KustomizePatch[] : undefined;
}

function checkPatch(patch: KustomizePatch, prop: string): KustomizePatch {
  if (typeof patch !== 'object' || patch === null) {
    throw refuse(prop, patch, 'must be a KustomizePatch', 'give e.g. { patch: \'...\', target: { kind: \'Deployment\', name: \'api\' } }');
  }
  const target = patch.target === undefined ? undefined : checkTarget(patch.target, `${prop}.target`);
  const text = patch.patch;
  if (typeof text !== 'string' || text.trim() === '') {
    throw refuse(`${prop}.patch`, text, 'must be the patch as YAML or JSON text', 'give a strategic merge patch or a list of JSON 6902 operations');
  }
  const doc = parseYamlDocument(text, { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw refuse(`${prop}.patch`, `text of ${text.length} characters`, `must be YAML: ${doc.errors[0].message.split('\n')[0]}`, 'correct the YAML');
  }
  const tree: unknown = doc.toJS();
  if (Array.isArray(tree)) {
    tree.forEach((op, j) => {
      const o = op as { op?: unknown; path?: unknown } | null;
      if (typeof o !== 'object' || o === null || !JSON_PATCH_OPS.includes(String(o.op)) || typeof o.path !== 'string' || !(o.path === '' || o.path.startsWith('/'))) {
        throw refuse(`${prop}.patch[${j}]`, op, `must be a JSON 6902 operation: an op (${JSON_PATCH_OPS.join(', ')}) and a path starting with "/"`,
          'write e.g. {"op": "replace", "path": "/spec/replicas", "value": 3}');
      }
    });
    if (target === undefined) {
      throw refuse(`${prop}.target`, undefined, 'must be given for a JSON 6902 patch: the operations do not name the object they change',
        'give e.g. target: { kind: \'Deployment\', name: \'api\' }');
    }
  } else if (typeof tree === 'object' && tree !== null) {
    const named = tree as { kind?: unknown; metadata?: { name?: unknown } };
    if (target === undefined && (typeof named.kind !== 'string' || typeof named.metadata?.name !== 'string')) {
      throw refuse(`${prop}.patch`, `text of ${text.length} characters`, 'names no object: a strategic merge patch without a target must give kind and metadata.name',
        'add apiVersion, kind and metadata.name to the patch, or give a target');
    }
  } else {
    throw refuse(`${prop}.patch`, tree, 'must be a strategic merge patch (a map) or a JSON 6902 patch (a list)', 'give the patch as YAML or JSON text');
  }
  return Object.freeze(target === undefined ? { patch: text } : { patch: text, target });
}

function checkTarget(target: KustomizePatchTarget, prop: string): KustomizePatchTarget {
  if (typeof target !== 'object' || target === null || Array.isArray(target)) {
    throw refuse(prop, target, 'must be a KustomizePatchTarget', 'give e.g. { kind: \'Deployment\', name: \'api\' }');
  }
  const copy: { [field: string]: string } = {};
  for (const field of TARGET_FIELDS) {
    const value = target[field];
    if (value === undefined) {
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '') {
      throw refuse(`${prop}.${field}`, value, 'must be text that is not empty', 'leave it out to match any');
    }
    copy[field] = value;
  }
  if (Object.keys(copy).length === 0) {
    throw refuse(prop, target, 'matches every object of the folder', 'name the objects to patch, e.g. { kind: \'Deployment\', name: \'api\' }, or leave target out');
  }
  return Object.freeze(copy) as KustomizePatchTarget;
}
