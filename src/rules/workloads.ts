import { HELM_HOOK_WEIGHT_ANNOTATION, SYNC_WAVE_ANNOTATION } from '../core/annotations';
import { ArgoCdVersion } from '../core/argocd-version';
import { HookReading, readHook } from '../core/hooks';
import { groupOf } from '../core/kinds';
import { at, isObject, Manifest, stringAt } from '../core/manifest';

/** The namespace an object lands in: its own, else the Application's destination namespace. */
export function effectiveNamespace(obj: Manifest, application: Manifest | undefined): string {
  return stringAt(obj, 'metadata', 'namespace') ?? stringAt(application, 'spec', 'destination', 'namespace') ?? '';
}

/** An autoscaler (HPA or KEDA ScaledObject) and the workload it scales. */
export interface ScaleTarget {
  readonly owner: Manifest;
  readonly group: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
}

/**
 * The workloads whose replica count a controller among `resources` owns: `autoscaling/*` HorizontalPodAutoscalers
 * and `keda.sh/*` ScaledObjects scale their `scaleTargetRef` (a ScaledObject's defaults to an apps/v1 Deployment;
 * either may name an argoproj.io Rollout), and an `argoproj.io` Rollout whose `workloadRef` has `scaleDown`
 * `onsuccess` or `progressively` scales the Deployment it references down (`never`, the default, leaves it alone).
 */
export function scaleTargets(resources: readonly Manifest[], application: Manifest | undefined): ScaleTarget[] {
  const found: ScaleTarget[] = [];
  for (const r of resources) {
    const apiVersion = stringAt(r, 'apiVersion') ?? '';
    const isHpa = r.kind === 'HorizontalPodAutoscaler' && groupOf(apiVersion) === 'autoscaling';
    const isKeda = r.kind === 'ScaledObject' && groupOf(apiVersion) === 'keda.sh';
    const isRollout = r.kind === 'Rollout' && groupOf(apiVersion) === 'argoproj.io';
    const ref = isRollout ? at(r, 'spec', 'workloadRef') : at(r, 'spec', 'scaleTargetRef');
    if ((!isHpa && !isKeda && !isRollout) || !isObject(ref) || typeof ref.name !== 'string') {
      continue;
    }
    if (isRollout && !ROLLOUT_SCALES_DOWN.has(String(ref.scaleDown))) {
      continue;
    }
    const kind = typeof ref.kind === 'string' ? ref.kind : (isKeda ? 'Deployment' : '');
    const refApiVersion = typeof ref.apiVersion === 'string' ? ref.apiVersion : (isKeda ? 'apps/v1' : '');
    found.push({ owner: r, group: groupOf(refApiVersion), kind, name: ref.name, namespace: effectiveNamespace(r, application) });
  }
  return found;
}

/** The `workloadRef.scaleDown` values with which Argo Rollouts writes the referenced Deployment's replicas. */
const ROLLOUT_SCALES_DOWN = new Set(['onsuccess', 'progressively']);

/** Whether the owner of a scale target is an Argo Rollout scaling down the Deployment of its `workloadRef`. */
export function isRolloutWorkloadRef(target: ScaleTarget): boolean {
  return target.owner.kind === 'Rollout';
}

/** Whether `obj` is the workload a scale target names. */
export function isTargetOf(obj: Manifest, target: ScaleTarget, application: Manifest | undefined): boolean {
  return obj.kind === target.kind
    && groupOf(stringAt(obj, 'apiVersion') ?? '') === target.group
    && stringAt(obj, 'metadata', 'name') === target.name
    && effectiveNamespace(obj, application) === target.namespace;
}

/**
 * The first scale target that names `obj`, found by kind, group, name and namespace in a map built once:
 * linear in the resources however many autoscalers there are. The same answer as `targets.find(isTargetOf)`.
 */
export class ScaleTargetIndex {
  /** Kind, then group, name and namespace: no key string is built for each of many resources. */
  private readonly byKey = new Map<string, Map<string, Map<string, Map<string, ScaleTarget>>>>();
  private readonly empty: boolean;

  constructor(targets: readonly ScaleTarget[], private readonly application: Manifest | undefined) {
    for (const t of targets) {
      const byNamespace = level(level(level(this.byKey, t.kind), t.group), t.name);
      if (!byNamespace.has(t.namespace)) {
        byNamespace.set(t.namespace, t);
      }
    }
    this.empty = targets.length === 0;
  }

  /** The first target that scales `obj`, or undefined. */
  public targetOf(obj: Manifest): ScaleTarget | undefined {
    if (this.empty || typeof obj.kind !== 'string') {
      return undefined;
    }
    const name = stringAt(obj, 'metadata', 'name');
    const byGroup = this.byKey.get(obj.kind);
    if (name === undefined || byGroup === undefined) {
      return undefined;
    }
    return byGroup.get(groupOf(stringAt(obj, 'apiVersion') ?? ''))?.get(name)?.get(effectiveNamespace(obj, this.application));
  }
}

/** The map under `key` in `map`, added when missing. */
function level<T>(map: Map<string, Map<string, T>>, key: string): Map<string, T> {
  let found = map.get(key);
  if (found === undefined) {
    found = new Map();
    map.set(key, found);
  }
  return found;
}

/**
 * The replica count an autoscaler holds its target at when its floor and ceiling are the same, else undefined.
 * HPA: `minReplicas` (default 1) and `maxReplicas`; KEDA ScaledObject: `minReplicaCount` (default 0) and
 * `maxReplicaCount` (default 100), or the count of its `autoscaling.keda.sh/paused-replicas` annotation, which pauses it.
 */
export function fixedReplicas(target: ScaleTarget): number | undefined {
  // Argo Rollouts scales the referenced Deployment to zero, and back up when the Rollout fails: no count is fixed.
  if (isRolloutWorkloadRef(target)) {
    return undefined;
  }
  const keda = target.owner.kind === 'ScaledObject';
  // A paused ScaledObject holds its target at the count its annotation names, and scales no more.
  const paused = keda ? at(target.owner, 'metadata', 'annotations', KEDA_PAUSED_REPLICAS) : undefined;
  if (typeof paused === 'string' && /^\d{1,9}$/.test(paused.trim())) {
    return Number(paused.trim());
  }
  const min = at(target.owner, 'spec', keda ? 'minReplicaCount' : 'minReplicas') ?? (keda ? 0 : 1);
  const max = at(target.owner, 'spec', keda ? 'maxReplicaCount' : 'maxReplicas') ?? (keda ? 100 : undefined);
  return typeof min === 'number' && min === max ? min : undefined;
}

/** The annotation that pauses a KEDA ScaledObject at a replica count. */
const KEDA_PAUSED_REPLICAS = 'autoscaling.keda.sh/paused-replicas';

/** `Kind name` of an autoscaler, for messages; a Rollout says it acts through its workloadRef. */
export function ownerLabel(target: ScaleTarget): string {
  const label = `${String(target.owner.kind)} ${stringAt(target.owner, 'metadata', 'name') ?? '<no name>'}`;
  return isRolloutWorkloadRef(target) ? `${label} (workloadRef, scaleDown ${stringAt(target.owner, 'spec', 'workloadRef', 'scaleDown')})` : label;
}

function hookReading(obj: Manifest, argoCdVersion?: ArgoCdVersion): HookReading {
  const annotations = at(obj, 'metadata', 'annotations');
  return readHook(isObject(annotations) ? annotations : undefined, argoCdVersion);
}

/**
 * The phases a hook runs in, as Argo CD reads them: PreSync, Sync, PostSync, SyncFail from
 * `argocd.argoproj.io/hook` (else Helm's pre-/post-install and -upgrade), then PreDelete and PostDelete as
 * `argoCdVersion` reads them (default the newest known release).
 */
export function hookTypesOf(obj: Manifest, argoCdVersion?: ArgoCdVersion): string[] {
  return [...hookReading(obj, argoCdVersion).types];
}

/** Whether Argo CD applies the object with the other resources of its wave: neither a hook nor skipped. */
export function isApplied(obj: Manifest): boolean {
  const reading = hookReading(obj);
  return !reading.hook && !reading.skipped;
}

/**
 * The sync wave an object declares and the annotation it comes from: `argocd.argoproj.io/sync-wave`, else
 * `helm.sh/hook-weight` (pkg/sync/syncwaves); undefined when neither is set (wave 0).
 */
export function waveOf(obj: Manifest): { wave: string; annotation: string } | undefined {
  const annotations = at(obj, 'metadata', 'annotations');
  const wave = stringAt(annotations, SYNC_WAVE_ANNOTATION);
  if (wave !== undefined) {
    return { wave, annotation: SYNC_WAVE_ANNOTATION };
  }
  const weight = stringAt(annotations, HELM_HOOK_WEIGHT_ANNOTATION);
  return weight === undefined ? undefined : { wave: weight, annotation: HELM_HOOK_WEIGHT_ANNOTATION };
}

/** Whether the object is a batch/v1 Job or a core Pod. */
export function isJobOrPod(obj: Manifest): boolean {
  // The kind first: most objects are neither, and their API group is not worked out.
  const group = obj.kind === 'Job' ? 'batch' : obj.kind === 'Pod' ? '' : undefined;
  return group !== undefined && groupOf(stringAt(obj, 'apiVersion') ?? '') === group;
}
