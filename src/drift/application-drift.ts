import { ApplicationDriftReport, ManifestSource, ResourceDrift, ResourceSyncStatus } from './application-drift-report';
import { DriftReport } from './drift-report';
import { hookOf, SimulateOptions } from './engine';
import { ResourceKey, resourceKeyOf } from './ignore-entries';
import { isMap, Json, JsonMap, own, valueAt } from './json';
import { COMPARE_OPTIONS_ANNOTATION, TRACKING_ID_ANNOTATION } from '../core/annotations';
import { ErrorCode, failure } from '../core/errors';
import { isApplication } from '../core/manifest';
import { compareStrings } from '../core/order';
import { parseManifests } from '../core/parse-manifests';

/** One object read from a source, with where it came from. */
interface Sourced {
  readonly manifest: Json;
  readonly where: string;
}

/** The objects of the sources, `List`s unpacked; a source that cannot be read is refused whole. */
function readObjects(role: string, sources: readonly ManifestSource[]): Sourced[] {
  const found: Sourced[] = [];
  for (const source of sources) {
    const parsed = parseManifests(source.name, Buffer.from(source.text, 'utf8'));
    if (parsed.problem !== undefined) {
      throw failure(ErrorCode.UNREADABLE_INPUT, `${role} ${source.name}: ${parsed.problem}`);
    }
    if (parsed.skipped > 0) {
      throw failure(ErrorCode.UNREADABLE_INPUT, `${role} ${source.name}: ${parsed.skipped} document(s) or List item(s) are not Kubernetes objects `
        + '(with apiVersion and kind). Fix: pass only manifests, e.g. the output of kubectl get -o yaml as it is.');
    }
    for (const { manifest, location } of parsed.objects) {
      const where = `${source.name}:${location.line}`;
      // `kubectl get -o yaml` prints a List (unpacked while parsing); the API returns e.g. a DeploymentList.
      if (/.List$/.test(String(manifest.kind)) && Array.isArray(manifest.items)) {
        manifest.items.forEach((item: unknown, i: number) => {
          if (!isMap(item as Json) || typeof own(item as JsonMap, 'kind') !== 'string' || typeof own(item as JsonMap, 'apiVersion') !== 'string') {
            throw failure(ErrorCode.UNREADABLE_INPUT, `${role} ${where}: item ${i} of the ${String(manifest.kind)} is not a Kubernetes object `
              + '(with apiVersion and kind). Fix: pass only manifests, e.g. the output of kubectl get -o yaml as it is.');
          }
          found.push({ manifest: item as Json, where: `${where} item ${i}` });
        });
      } else {
        found.push({ manifest: manifest as Json, where });
      }
    }
  }
  return found;
}

function keyText(key: ResourceKey): string {
  return `${key.group}/${key.kind} ${key.namespace ? `${key.namespace}/` : ''}${key.name}`;
}

/**
 * The objects by key; two objects with the same key are refused, naming both. Hooks are left out: they are run
 * (and named by generateName), never paired with live.
 */
function byKey(role: string, objects: readonly Sourced[], defaultNamespace: string): Map<string, Sourced & { key: ResourceKey }> {
  const keyed = new Map<string, Sourced & { key: ResourceKey }>();
  for (const object of objects) {
    if (hookOf(object.manifest) !== undefined) {
      continue;
    }
    const key = resourceKeyOf(object.manifest, defaultNamespace);
    if (key.name === '') {
      throw failure(ErrorCode.UNREADABLE_INPUT, `${role} ${object.where}: ${key.kind} has no metadata.name. Fix: give every object a name.`);
    }
    const text = keyText(key);
    const other = keyed.get(text);
    if (other) {
      throw failure(ErrorCode.DUPLICATE, `${role} ${object.where}: ${text} is also at ${other.where}; `
        + 'Argo CD pairs Git and the cluster by group, kind, namespace and name, so each may appear once. Fix: remove one of them.');
    }
    keyed.set(text, { ...object, key });
  }
  return keyed;
}

/**
 * Whether a left-over live object belongs to the Application, and whether its tracking names the object itself
 * (controller/state.go, isSelfReferencedObj): label tracking cannot tell, an annotation copied onto another
 * object names a different one.
 */
function trackingOf(live: Json, app: string, tracking: SimulateOptions['tracking']): 'other-app' | 'self' | 'copied' {
  const annotation = valueAt(live, ['metadata', 'annotations', TRACKING_ID_ANNOTATION]);
  const label = tracking ? valueAt(live, ['metadata', 'labels', tracking.labelKey]) : undefined;
  if (tracking?.method === 'label') {
    return label === app ? 'self' : 'other-app';
  }
  if (typeof annotation !== 'string') {
    // Annotation tracking reads a live object that has only the instance label as tracked by it (resource_tracking.go).
    return tracking?.method !== 'none' && label === app ? 'self' : 'other-app';
  }
  const match = /^([^:]*):([^/]*)\/([^:]*):([^/]*)\/(.*)$/.exec(annotation);
  if (!match || match[1] !== app) {
    return 'other-app';
  }
  const key = resourceKeyOf(live, '');
  const [, , group, kind, namespace, name] = match;
  const namespaceMatches = key.namespace === namespace || key.namespace === '';
  return namespaceMatches && key.name === name && key.group === group && key.kind === kind ? 'self' : 'copied';
}

function hasCompareOption(obj: Json, option: string): boolean {
  const value = valueAt(obj, ['metadata', 'annotations', COMPARE_OPTIONS_ANNOTATION]);
  return typeof value === 'string' && value.split(',').map((o) => o.trim()).includes(option);
}


/**
 * Simulates Argo CD's comparison of a whole Application: Git's objects and the cluster's paired by group, kind,
 * namespace (the destination's for a namespaced object without one) and name, as gitops-engine's reconciliation
 * pairs them (pkg/sync/reconcile.go), each pair compared by `simulate`, and the Application OutOfSync when any
 * resource that counts is (controller/state.go).
 *
 * @throws [SAFE-102] when a source cannot be read, [SAFE-011] when two objects of one side have the same key
 */
export function simulateApplication(
  simulateOne: (desired: Json, live: Json | undefined) => DriftReport,
  application: Json,
  desiredSources: readonly ManifestSource[],
  liveSources: readonly ManifestSource[],
  tracking: SimulateOptions['tracking'],
): ApplicationDriftReport {
  if (!isApplication(application)) {
    const { kind } = resourceKeyOf(application, '');
    throw failure(ErrorCode.SWAPPED_INPUT, `application: is a ${kind || 'object without a kind'}, not an Argo CD Application (argoproj.io). `
      + 'Fix: give the Application that deploys the desired objects.');
  }
  const appName = String(valueAt(application, ['metadata', 'name']) ?? '');
  const destination = valueAt(application, ['spec', 'destination', 'namespace']);
  const defaultNamespace = typeof destination === 'string' ? destination : '';
  const desiredObjects = readObjects('desired', desiredSources);
  const desired = byKey('desired', desiredObjects, defaultNamespace);
  // Live objects are as the cluster returns them: a namespaced object always has its namespace.
  const live = byKey('live', readObjects('live', liveSources), '');

  const resources: ResourceDrift[] = [];
  for (const [text, target] of desired) {
    const found = live.get(text);
    const report = simulateOne(target.manifest, found?.manifest);
    resources.push({
      ...target.key,
      status: report.outOfSync ? ResourceSyncStatus.OUT_OF_SYNC : ResourceSyncStatus.SYNCED,
      missing: found === undefined,
      requiresPruning: false,
      affectsApplication: true,
      report,
    });
  }
  for (const hook of desiredObjects.filter((o) => hookOf(o.manifest) !== undefined)) {
    const key = resourceKeyOf(hook.manifest, defaultNamespace);
    const generated = valueAt(hook.manifest, ['metadata', 'generateName']);
    resources.push({
      ...key,
      name: key.name || `${typeof generated === 'string' ? generated : ''}*`,
      status: ResourceSyncStatus.NOT_COMPARED,
      missing: false,
      requiresPruning: false,
      affectsApplication: false,
      report: simulateOne(hook.manifest, undefined),
    });
  }
  for (const [text, object] of live) {
    if (desired.has(text)) {
      continue;
    }
    const owner = trackingOf(object.manifest, appName, tracking);
    // A live hook is deleted by its delete policy, not pruned, and never compared.
    if (owner === 'other-app' || hookOf(object.manifest) !== undefined) {
      continue;
    }
    const counted = owner === 'self' && !hasCompareOption(object.manifest, 'IgnoreExtraneous');
    resources.push({
      ...object.key,
      status: owner === 'self' ? ResourceSyncStatus.OUT_OF_SYNC : ResourceSyncStatus.NOT_COMPARED,
      missing: false,
      requiresPruning: owner === 'self',
      affectsApplication: counted,
    });
  }
  resources.sort((a, b) => compareStrings(a.group, b.group) || compareStrings(a.kind, b.kind)
    || compareStrings(a.namespace, b.namespace) || compareStrings(a.name, b.name));
  return {
    application: appName,
    outOfSync: resources.some((r) => r.affectsApplication && r.status === ResourceSyncStatus.OUT_OF_SYNC),
    resources,
  };
}
