import { isObject } from './manifest';

/** A map without a prototype: a key such as `__proto__` read from YAML is a key like any other. */
type Bare = { [key: string]: unknown };

function bare(entries: Iterable<[string, unknown]>): Bare {
  const out: Bare = Object.create(null);
  for (const [k, v] of entries) {
    out[k] = v;
  }
  return out;
}

/**
 * `target` with `patch` merged in, as a strategic merge patch merges into an object whose fields have no merge key
 * (a custom resource such as an Application): maps merge, null deletes a key, anything else replaces. With
 * `mergeFinalizers`, `metadata.finalizers` merges as ObjectMeta's patch strategy says (Go's strategicpatch given the
 * Application type, as the ApplicationSet controller patches): the patch's finalizers are added to the others;
 * without it they are replaced too (Kustomize, which knows no schema of Argo CD's kinds). Neither argument is
 * changed; the maps it makes have no prototype.
 */
export function mergePatch(target: unknown, patch: unknown, mergeFinalizers: boolean, pointer: string = ''): unknown {
  if (mergeFinalizers && pointer === '/metadata/finalizers' && Array.isArray(target) && Array.isArray(patch)) {
    return [...target, ...patch.filter((f) => !target.includes(f))];
  }
  if (!isObject(patch)) {
    return patch;
  }
  const out = bare(isObject(target) ? Object.entries(target) : []);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete out[k];
    } else {
      out[k] = mergePatch(out[k], v, mergeFinalizers, `${pointer}/${k}`);
    }
  }
  return out;
}

/** Whether a patch holds a strategic merge directive (`$patch`, `$retainKeys`, `$setElementOrder/...`), which {@link mergePatch} does not model. */
export function holdsDirective(value: unknown): boolean {
  if (Array.isArray(value)) {
    return value.some(holdsDirective);
  }
  return isObject(value) && Object.entries(value).some(([k, v]) => k.startsWith('$') || holdsDirective(v));
}
