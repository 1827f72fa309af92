import { HELM_HOOK_ANNOTATION, HOOK_ANNOTATION } from './annotations';
import { ArgoCdFeature, hasFeature, NEWEST_RELEASE, Release } from './argocd-features';

/** How Argo CD treats one object in a sync, read from its hook annotations. */
export interface HookReading {
  /** Argo CD runs or keeps the object as a hook, never applies it with the other resources. */
  readonly hook: boolean;
  /** Argo CD never applies the object in a sync (`argocd.argoproj.io/hook: Skip` alone). */
  readonly skipped: boolean;
  /** The phases the hook runs in, in annotation order: sync phases, then PreDelete and PostDelete. */
  readonly types: readonly string[];
}

/** The hook types gitops-engine knows (common.NewHookType); any other value is ignored. */
const ENGINE_TYPES = new Set(['PreSync', 'Sync', 'PostSync', 'SyncFail', 'Skip']);
/** Helm's hook types that gitops-engine runs, and the phase each becomes (hook/helm). */
const HELM_TYPES: Record<string, string> = {
  'pre-install': 'PreSync',
  'pre-upgrade': 'PreSync',
  'post-install': 'PostSync',
  'post-upgrade': 'PostSync',
};
/**
 * Deletion hooks, which Argo CD's controller reads from either annotation (controller/hook.go), and the
 * feature that brings each (PreDelete from 3.3).
 */
const DELETE_TYPES: ReadonlyArray<readonly [string, string, ArgoCdFeature]> = [
  ['PreDelete', 'pre-delete', 'preDeleteHooks'],
  ['PostDelete', 'post-delete', 'postDeleteHooks'],
];

/** What an object without hook annotations reads as: one frozen answer, not two new objects for each of many objects. */
const NO_HOOK: HookReading = Object.freeze({ hook: false, skipped: false, types: Object.freeze([]) });

/**
 * An annotation's comma-separated values, trimmed, each once (resource.GetAnnotationCSVs). An empty value
 * is kept: it is no hook type, so every reader below passes over it.
 */
function csv(value: string | undefined): string[] {
  return [...new Set((value ?? '').split(',').map((v) => v.trim()))];
}

/**
 * Reads an object's annotations as Argo CD does. gitops-engine (pkg/sync/hook): any
 * `argocd.argoproj.io/hook` key, even empty or naming no known type, makes a hook unless its only type is
 * Skip; without that key, any `helm.sh/hook` but exactly `crd-install` does. Its types are the known Argo CD
 * types, else the Helm ones mapped to phases. The controller also counts the deletion hooks `release` has:
 * PostDelete, and from 3.3 PreDelete; before 3.3 only an annotation whose whole value is the type counts.
 * `annotations` is undefined when the object has none or when any value is not a string (Kubernetes'
 * unstructured objects then read no annotations at all).
 *
 * @param release the Argo CD release that reads the object; default the newest known one
 */
export function readHook(annotations: Readonly<Record<string, unknown>> | undefined, release: Release = NEWEST_RELEASE): HookReading {
  // Most objects carry neither key: then nothing below can make a hook, and the answer is the same for every release.
  if (annotations === undefined || (annotations[HOOK_ANNOTATION] === undefined && annotations[HELM_HOOK_ANNOTATION] === undefined)) {
    return NO_HOOK;
  }
  // Several rules ask about the same hook: it is read once for each release that reads it.
  let byRelease = readings.get(annotations);
  if (byRelease === undefined) {
    byRelease = new Map();
    readings.set(annotations, byRelease);
  }
  let reading = byRelease.get(release);
  if (reading === undefined) {
    reading = readAnnotations(annotations, release);
    byRelease.set(release, reading);
  }
  return reading;
}

/** What {@link readHook} found, per annotations object (manifests are data: never changed once read) and release. */
const readings = new WeakMap<object, Map<Release, HookReading>>();

function readAnnotations(annotations: Readonly<Record<string, unknown>>, release: Release): HookReading {
  const strings = Object.values(annotations).every((v) => typeof v === 'string')
    ? annotations as Readonly<Record<string, string>>
    : {};
  const argoValue = strings[HOOK_ANNOTATION];
  const helmValue = strings[HELM_HOOK_ANNOTATION];
  const argo = csv(argoValue);
  const helm = csv(helmValue);
  let engineTypes = argo.filter((t) => ENGINE_TYPES.has(t));
  if (engineTypes.length === 0) {
    engineTypes = [...new Set(helm.filter((t) => Object.prototype.hasOwnProperty.call(HELM_TYPES, t)).map((t) => HELM_TYPES[t]))];
  }
  const skipped = engineTypes.length === 1 && engineTypes[0] === 'Skip';
  const lists = hasFeature(release, 'deleteHookLists');
  const deleteTypes = DELETE_TYPES
    .filter(([, , feature]) => hasFeature(release, feature))
    .filter(([type, helmType]) => (lists ? argo.includes(type) || helm.includes(helmType) : argoValue === type || helmValue === helmType))
    .map(([type]) => type);
  const engineHook = argoValue !== undefined ? !skipped : helmValue !== undefined && helmValue !== 'crd-install';
  // Frozen: one reading is handed to every caller.
  return Object.freeze({
    hook: engineHook || deleteTypes.length > 0,
    skipped,
    types: Object.freeze([...engineTypes.filter((t) => t !== 'Skip'), ...deleteTypes]),
  });
}
