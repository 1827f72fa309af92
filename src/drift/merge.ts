import { clone, deepEqual, hasOwn, isMap, Json, JsonMap, own, put } from './json';
import { unchangedAgainstReduced } from './known-kinds';
import { groupOf } from '../core/kinds';

/**
 * API groups whose types Argo CD knows, and patches with strategic merge; any other kind (custom
 * resources) gets an RFC 7386 JSON merge patch, where every list is replaced whole.
 */
const STRATEGIC_GROUPS = new Set([
  '', 'apps', 'batch', 'autoscaling', 'policy', 'networking.k8s.io', 'rbac.authorization.k8s.io',
  'admissionregistration.k8s.io', 'storage.k8s.io', 'scheduling.k8s.io', 'coordination.k8s.io',
  'discovery.k8s.io', 'node.k8s.io', 'certificates.k8s.io',
]);

/** Lists merged item by item, keyed by one field (the Kubernetes API types' patchMergeKey tags). */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  imagePullSecrets: 'name',
  env: 'name',
  resourceClaims: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  hostAliases: 'ip',
  ownerReferences: 'uid',
  topologySpreadConstraints: 'topologyKey',
};

const POD_CONTAINER_LISTS = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/** How one object is merged: strategic (with merge keys) or JSON merge. */
export interface MergeContext {
  readonly strategic: boolean;
  readonly kind: string;
  /** Pointers (as key lists) of fields the merge deleted: a field that left Git but was in last-applied. */
  readonly deleted: string[][];
  /**
   * Whether lists replaced whole are compared with live reduced to the fields last-applied has, as Argo CD's
   * diff does (not `kubectl apply`): every list of a custom resource, a StatefulSet's volumeClaimTemplates.
   */
  readonly reduceLists?: boolean;
}

/**
 * @param forDiff the context of Argo CD's diff rather than of `kubectl apply` (see MergeContext.reduceLists)
 */
export function mergeContextFor(obj: Json, forDiff = false): MergeContext {
  const m = isMap(obj) ? obj : {};
  const apiVersion = typeof m.apiVersion === 'string' ? m.apiVersion : '';
  const ctx = { strategic: STRATEGIC_GROUPS.has(groupOf(apiVersion)), kind: typeof m.kind === 'string' ? m.kind : '', deleted: [] };
  return forDiff ? { ...ctx, reduceLists: true } : ctx;
}

/** Maps a strategic merge replaces whole (`patchStrategy:"replace"` in the Kubernetes API types). */
function replacedWhole(path: readonly string[], ctx: MergeContext): boolean {
  return ctx.strategic && ctx.kind === 'PodDisruptionBudget' && path.length === 2 && path[0] === 'spec' && path[1] === 'selector';
}

/** Lists the diff compares against reduced live (gitops-engine pkg/diff/diff.go, threeWayMergePatch). */
function comparedReduced(path: readonly string[], ctx: MergeContext): boolean {
  if (!ctx.reduceLists) {
    return false;
  }
  // statefulSetWorkaround: the API server fills each claim template (kind, apiVersion, volumeMode, status).
  return !ctx.strategic || (ctx.kind === 'StatefulSet' && path.length === 2 && path[0] === 'spec' && path[1] === 'volumeClaimTemplates');
}

/** The merge key of the list at `path`, or undefined when the list is replaced whole. */
export function mergeKeyFor(path: readonly string[], ctx: MergeContext): string | undefined {
  if (!ctx.strategic) {
    return undefined;
  }
  const field = path[path.length - 1];
  if (field === 'ports') {
    if (path.some((p) => POD_CONTAINER_LISTS.has(p))) {
      return 'containerPort';
    }
    return ctx.kind === 'Service' && path.length === 2 && path[0] === 'spec' ? 'port' : undefined;
  }
  if (field === 'webhooks' && /WebhookConfiguration$/.test(ctx.kind)) {
    return 'name';
  }
  // Own keys only: a field named `constructor` or `toString` has no merge key.
  return hasOwn(MERGE_KEYS, field) ? MERGE_KEYS[field] : undefined;
}

function keyOf(item: Json, key: string): string | undefined {
  const value = isMap(item) ? own(item, key) : undefined;
  return value !== undefined && value !== null ? JSON.stringify(value) : undefined;
}

/**
 * The object a three-way patch produces: `original` (last-applied) to `modified` (Git), applied to
 * `current` (live), as `kubectl apply` and Argo CD's diff compute it.
 *
 * - a field or list item only `current` has is kept (someone else added it);
 * - a field `modified` declares is set to Git's value;
 * - a field `original` has and `modified` no longer has is deleted (it falls back to its default);
 * - lists with a merge key are merged item by item; other lists are replaced whole.
 *
 * Simplification: merged list items keep live's order, and new items are appended (the real patch also
 * carries `$setElementOrder`); an order-only difference is never reported.
 */
export function merge3(
  original: Json | undefined, modified: Json | undefined, current: Json | undefined, ctx: MergeContext, path: string[] = [],
): Json | undefined {
  if (modified === undefined) {
    return clone(current);
  }
  if (isMap(modified)) {
    if (replacedWhole(path, ctx)) {
      return clone(modified);
    }
    const result: JsonMap = isMap(current) ? { ...current } : {};
    const o = isMap(original) ? original : {};
    const c = isMap(current) ? current : {};
    for (const [key, value] of Object.entries(modified)) {
      if (value === null && !ctx.strategic) {
        // A JSON merge patch reads null as "absent": only a deletion of what last-applied had.
        if (hasOwn(o, key) && o[key] !== null && hasOwn(result, key)) {
          delete result[key];
          ctx.deleted.push([...path, key]);
        }
        continue;
      }
      const merged = merge3(own(o, key), value, own(c, key), ctx, [...path, key]);
      if (merged !== undefined) {
        put(result, key, merged);
      }
    }
    for (const key of Object.keys(o)) {
      if (!hasOwn(modified, key) && hasOwn(result, key)) {
        delete result[key];
        ctx.deleted.push([...path, key]);
      }
    }
    return result;
  }
  if (Array.isArray(modified)) {
    const key = mergeKeyFor(path, ctx);
    if (key && modified.every((item) => keyOf(item, key) !== undefined)) {
      return mergeKeyedList(Array.isArray(original) ? original : [], modified, Array.isArray(current) ? current : [], key, ctx, path);
    }
    if (comparedReduced(path, ctx) && current !== undefined && unchangedAgainstReduced(original, modified, current)) {
      return clone(current);
    }
    if (ctx.strategic && path.length === 2 && path[0] === 'metadata' && path[1] === 'finalizers') {
      return mergeSet(Array.isArray(original) ? original : [], modified, Array.isArray(current) ? current : []);
    }
    return clone(modified);
  }
  return modified;
}

function mergeKeyedList(original: Json[], modified: Json[], current: Json[], key: string, ctx: MergeContext, path: string[]): Json[] {
  const byKey = (items: Json[]) => new Map(items.map((item) => [keyOf(item, key), item] as const).filter(([k]) => k !== undefined));
  const o = byKey(original);
  const m = byKey(modified);
  const c = byKey(current);
  const result: Json[] = [];
  current.forEach((item, index) => {
    const k = keyOf(item, key);
    if (k !== undefined && m.has(k)) {
      result.push(merge3(o.get(k), m.get(k), item, ctx, [...path, String(index)]) as Json);
    } else if (k !== undefined && o.has(k)) {
      ctx.deleted.push([...path, String(index)]);
    } else {
      result.push(clone(item));
    }
  });
  for (const item of modified) {
    const k = keyOf(item, key);
    if (k !== undefined && !c.has(k)) {
      result.push(merge3(o.get(k), item, undefined, ctx, [...path, String(result.length)]) as Json);
    }
  }
  return result;
}

function mergeSet(original: Json[], modified: Json[], current: Json[]): Json[] {
  const removed = original.filter((x) => !modified.some((y) => deepEqual(x, y)));
  const result = current.filter((x) => !removed.some((y) => deepEqual(x, y)));
  for (const item of modified) {
    if (!result.some((y) => deepEqual(item, y))) {
      result.push(clone(item));
    }
  }
  return result;
}

/**
 * RespectIgnoreDifferences: puts the live values of ignored fields back into the normalized desired
 * object before it is applied (controller/sync.go, normalizeTargetResources). `normalizedLive` is live
 * without the ignored fields; whatever live has beyond it is copied into the target, list items by key.
 */
export function restoreIgnored(
  target: Json | undefined, normalizedLive: Json | undefined, live: Json | undefined, ctx: MergeContext, path: string[] = [],
): Json | undefined {
  if (isMap(live)) {
    const result: JsonMap = isMap(target) ? { ...target } : {};
    const nl = isMap(normalizedLive) ? normalizedLive : {};
    for (const [key, value] of Object.entries(live)) {
      const current = own(result, key);
      if (!hasOwn(nl, key)) {
        // The patch from normalized live to live adds the whole value; a map merges into the target's map.
        put(result, key, isMap(value) && isMap(current) ? restoreIgnored(current, {}, value, ctx, [...path, key]) as Json : clone(value));
      } else if (!deepEqual(nl[key], value)) {
        const restored = restoreIgnored(current, nl[key], value, ctx, [...path, key]);
        if (restored !== undefined) {
          put(result, key, restored);
        }
      }
    }
    return result;
  }
  if (Array.isArray(live)) {
    const key = mergeKeyFor(path, ctx);
    if (key && Array.isArray(normalizedLive) && live.every((item) => keyOf(item, key) !== undefined)) {
      const result: Json[] = Array.isArray(target) ? [...target] : [];
      for (const item of live) {
        const k = keyOf(item, key);
        const nlItem = normalizedLive.find((x) => keyOf(x, key) === k);
        const index = result.findIndex((x) => keyOf(x, key) === k);
        if (nlItem === undefined) {
          if (index === -1) {
            result.push(clone(item));
          } else {
            result[index] = clone(item);
          }
        } else if (index !== -1 && !deepEqual(nlItem, item)) {
          result[index] = restoreIgnored(result[index], nlItem, item, ctx, [...path, String(index)]) as Json;
        }
      }
      return result;
    }
    return clone(live);
  }
  return live;
}
