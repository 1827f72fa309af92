import { applyApiDefaults, applyDeletionDefaults } from './defaults';
import { DriftReport } from './drift-report';
import { entriesFor, ignoreEntriesOf, resourceKeyOf } from './ignore-entries';
import { clone, deepEqual, hasOwn, isMap, Json, JsonMap, valueAt } from './json';
import { normalizeKnownKinds, withoutNamespaceAndEmptyAnnotations } from './known-kinds';
import { normalizeManagedFields } from './managed-fields';
import { merge3, mergeContextFor, restoreIgnored } from './merge';
import { JqRunner, normalizeIgnored, remarshal } from './normalize';
import { differingPointers } from './pointers';
import { hasTrackingMetadata, normalizeTracking, stampTracking, TrackingOptions } from './tracking';
import { DEFAULT_INSTANCE_LABEL, LAST_APPLIED_ANNOTATION } from '../core/annotations';
import { readHook } from '../core/hooks';
import { keysFromPointer } from '../core/json-pointer';

const LAST_APPLIED_POINTER = '/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration';

/**
 * What Argo CD would see, and do, for one resource: the public report, with the live object after the apply
 * as JSON instead of its text.
 */
export type DriftResult = Omit<DriftReport, 'liveAfterApply'> & {
  /** Live after the apply, with the API server's defaults for deleted fields. */
  readonly liveAfterApply: Json;
};

function syncOptions(application: Json): string[] {
  const options = valueAt(application, ['spec', 'syncPolicy', 'syncOptions']);
  return Array.isArray(options) ? options.filter((o): o is string => typeof o === 'string') : [];
}

function selfHeals(application: Json): boolean {
  const automated = valueAt(application, ['spec', 'syncPolicy', 'automated']);
  return isMap(automated) && automated.enabled !== false && automated.selfHeal === true;
}

function lastAppliedOf(live: Json, warnings: string[]): Json | undefined {
  const text = valueAt(live, ['metadata', 'annotations', LAST_APPLIED_ANNOTATION]);
  if (typeof text !== 'string') {
    return undefined;
  }
  try {
    return JSON.parse(text) as Json;
  } catch {
    warnings.push(`the ${LAST_APPLIED_ANNOTATION} annotation is not JSON; the diff is two-way`);
    return undefined;
  }
}

/** How the engine models what the controller does besides the diff itself. */
export interface SimulateOptions {
  /**
   * How Argo CD tracks the Application's resources.
   *
   * @default - annotation tracking (Argo CD 3.x), with the instance label `app.kubernetes.io/instance`
   */
  readonly tracking?: TrackingOptions;
  /**
   * Whether the tracking metadata is stamped only when the live object carries some (a live object built
   * without knowing the Application, for example by LiveScenario, is then compared as it is).
   *
   * @default true when `tracking` is not given, false when it is
   */
  readonly trackingOnlyWhenLiveTracked?: boolean;
}

/**
 * Models Argo CD's default comparison (a client-side three-way diff, gitops-engine pkg/diff/diff.go) and
 * the `kubectl apply` that a sync performs, for one resource.
 */
export function simulate(
  jq: JqRunner, application: Json, desiredAsRendered: Json, live: Json | undefined, options: SimulateOptions = {},
): DriftResult {
  const warnings: string[] = [];
  const destinationNamespace = valueAt(application, ['spec', 'destination', 'namespace']);
  const appName = valueAt(application, ['metadata', 'name']);
  const named = typeof appName === 'string' ? appName : undefined;
  const tracking: TrackingOptions = options.tracking ?? { method: 'annotation', labelKey: DEFAULT_INSTANCE_LABEL };
  const onlyWhenTracked = options.trackingOnlyWhenLiveTracked ?? options.tracking === undefined;
  const stamps = named !== undefined && tracking.method !== 'none'
    && (!onlyWhenTracked || hasTrackingMetadata(live, tracking.labelKey));
  // The controller compares and applies the target with its tracking metadata (controller/state.go).
  const desired = stamps
    ? stampTracking(desiredAsRendered, named, typeof destinationNamespace === 'string' ? destinationNamespace : '', tracking)
    : desiredAsRendered;
  const key = resourceKeyOf(desired, typeof destinationNamespace === 'string' ? destinationNamespace : '');
  const entries = entriesFor(ignoreEntriesOf(application), key);
  const managers = [...new Set(entries.flatMap((e) => e.managedFieldsManagers))];
  const respect = syncOptions(application).includes('RespectIgnoreDifferences=true');
  const selfHeal = selfHeals(application);

  const hook = hookOf(desired);
  if (hook !== undefined) {
    // Hooks are run, not compared; a lone Skip is neither applied nor compared. Argo CD stores no sync status
    // for either (controller/state.go), so neither makes the app OutOfSync or is reverted by self-heal.
    return {
      outOfSync: false,
      differences: [],
      selfHeal,
      selfHealReverts: [],
      applyReverts: [],
      keptIgnored: [],
      liveAfterApply: hook === 'skip' ? clone(live ?? null) : clone(live ?? desired),
      respectIgnoreDifferences: respect,
      warnings: [hook === 'skip'
        ? 'the resource is marked argocd.argoproj.io/hook: Skip: Argo CD neither applies nor compares it'
        : 'the resource is a sync hook: Argo CD runs hooks and never compares them'],
    };
  }

  if (live === undefined) {
    // Missing: OutOfSync, and the sync creates Git's object as it is (RespectIgnoreDifferences has nothing to copy).
    const created = clone(desired);
    return {
      outOfSync: true,
      differences: [''],
      selfHeal,
      selfHealReverts: selfHeal ? [''] : [],
      applyReverts: [''],
      keptIgnored: [],
      liveAfterApply: created,
      respectIgnoreDifferences: respect,
      warnings,
    };
  }

  // 1. Built-in kinds are decoded and re-encoded (omitempty zero values drop), then managedFieldsManagers
  //    (both objects exist here), then the ignore normalizer on all three.
  const strategic = mergeContextFor(desired).strategic;
  const config = (strategic ? remarshal(desired) : clone(desired)) as JsonMap;
  const liveCopy = (strategic ? remarshal(live) : clone(live)) as JsonMap;
  if (stamps) {
    normalizeTracking(config, liveCopy, tracking);
  }
  if (isMap(config) && isMap(liveCopy)) {
    normalizeManagedFields(liveCopy, config, managers, mergeContextFor(desired));
  }
  const rawLastApplied = lastAppliedOf(live, warnings);
  const configN = normalizeIgnored(normalizeKnownKinds(config), entries, jq, warnings, named);
  const liveN = normalizeIgnored(normalizeKnownKinds(liveCopy), entries, jq, warnings, named);
  // The last-applied annotation is normalized but not re-encoded (gitops-engine pkg/diff Diff).
  const originalN = rawLastApplied === undefined ? configN : normalizeIgnored(normalizeKnownKinds(rawLastApplied), entries, jq, warnings, named);

  // 2. Predict live: the three-way patch (two-way without last-applied) applied to live, both with the API
  //    server's defaults (gitops-engine pkg/diff/diff.go, ThreeWayDiff and applyPatch); compare.
  const merged = merge3(withoutNamespaceAndEmptyAnnotations(originalN), withoutNamespaceAndEmptyAnnotations(configN), liveN,
    mergeContextFor(desired, true));
  const predicted = strategic ? applyApiDefaults(clone(merged) as Json) : clone(merged);
  const differences = differingPointers(predicted, strategic ? applyApiDefaults(clone(liveN)) : liveN);

  // 3. The apply a sync performs: Git's object as rendered (the sync path does not re-encode it), with live's
  //    ignored values copied in under RespectIgnoreDifferences (controller/sync.go, normalizeTargetResources).
  const ctx = mergeContextFor(desired);
  const applyConfig = clone(desired) as JsonMap;
  const applyLive = stripStatus(clone(live)) as JsonMap;
  if (isMap(applyConfig) && isMap(applyLive)) {
    normalizeManagedFields(applyLive, applyConfig, managers, ctx);
  }
  const applyLiveN = normalizeIgnored(applyLive, entries, jq, []);
  let target: Json = clone(desired);
  if (respect) {
    target = restoreIgnored(normalizeIgnored(applyConfig, entries, jq, []), applyLiveN, applyLive, ctx) as Json;
    // managedFieldsManagers removed fields from live too: copy those back as well.
    target = restoreIgnored(target, applyLive, stripStatus(live), ctx) as Json;
  }
  // merge3 shares unchanged subtrees with live: copy before writing the new annotation.
  const applied = clone(merge3(rawLastApplied ?? {}, stripStatus(target), live, ctx) as Json);
  if (isMap(applied)) {
    const metadata = isMap(applied.metadata) ? applied.metadata : (applied.metadata = {});
    const annotations = isMap(metadata.annotations) ? metadata.annotations : (metadata.annotations = {});
    annotations[LAST_APPLIED_ANNOTATION] = JSON.stringify(stripStatus(target));
  }
  // The API server stores built-in kinds without their omitempty zero values, as it did for live.
  const stored = (obj: Json) => (strategic ? remarshal(stripStatus(obj)) : stripStatus(obj));
  const liveAfterApply = stored(applyDeletionDefaults(applied, ctx.deleted));
  const applyReverts = differingPointers(liveAfterApply, stored(live)).filter((p) => p !== LAST_APPLIED_POINTER);

  const ignoredInLive = differingPointers(applyLiveN, applyLive).concat(differingPointers(applyLive, stripStatus(live)));
  const keptIgnored = [...new Set(ignoredInLive)].filter((p) => {
    const keys = keysFromPointer(p);
    return valueAt(live, keys) !== undefined && deepEqual(valueAt(liveAfterApply, keys), valueAt(live, keys));
  });

  const outOfSync = differences.length > 0;
  return {
    outOfSync,
    differences,
    selfHeal,
    selfHealReverts: outOfSync && selfHeal ? applyReverts : [],
    applyReverts,
    keptIgnored,
    liveAfterApply,
    respectIgnoreDifferences: respect,
    // Desired, live and last-applied are normalized alike: an expression that fails on all three is one warning.
    warnings: [...new Set(warnings)],
  };
}

/**
 * `hook` for a resource Argo CD runs as a hook, `skip` for one it leaves alone, undefined for one it applies
 * and compares (see readHook).
 */
export function hookOf(obj: Json): 'hook' | 'skip' | undefined {
  const annotations = valueAt(obj, ['metadata', 'annotations']);
  const reading = readHook(isMap(annotations) ? annotations : undefined);
  return reading.hook ? 'hook' : reading.skipped ? 'skip' : undefined;
}

function stripStatus(obj: Json): Json {
  if (!isMap(obj) || !hasOwn(obj, 'status')) {
    return obj;
  }
  const { status: _status, ...rest } = obj;
  return rest;
}
