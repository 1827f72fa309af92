import { applyDeletionDefaultsForAbsent } from './defaults';
import { clone, isMap, Json, JsonMap, own, setAt, valueAt } from './json';
import { mergeContextFor, mergeKeyFor } from './merge';
import { readOneManifest } from './read-manifest';
import { LAST_APPLIED_ANNOTATION } from '../core/annotations';
import { badValue, ErrorCode } from '../core/errors';
import { keysFromPointer, pointerProblem } from '../core/json-pointer';

const FIXED_TIME = '2026-01-01T00:00:00Z';

/** A change made to a live object by one field manager. */
interface Mutation {
  readonly manager: string;
  readonly subresource?: string;
  /** Changes the object in place and returns the key paths it wrote. */
  apply(live: JsonMap): string[][];
}

/**
 * Something that changes a live object after Argo CD applied it: a controller doing its job, or a human
 * at 2 a.m. `liveFrom` builds the live object a cluster would return (last-applied annotation,
 * managedFields, API defaults) and applies the change, for `DriftSimulator.simulateDrift`.
 */
export class LiveScenario {
  /** Nothing changed since Argo CD applied the object. */
  public static unchanged(): LiveScenario {
    return new LiveScenario('nothing changed', []);
  }

  /**
   * The HorizontalPodAutoscaler scales the workload (manager `kube-controller-manager`, subresource `scale`).
   *
   * @param replicas the new replica count
   */
  public static hpaScales(replicas: number): LiveScenario {
    return new LiveScenario(`HPA scales to ${replicas}`, [setField('kube-controller-manager', ['spec', 'replicas'], replicas, 'scale')]);
  }

  /** KEDA scales an idle workload to zero (manager `keda-operator`, subresource `scale`). */
  public static kedaScalesToZero(): LiveScenario {
    return new LiveScenario('KEDA scales to 0', [setField('keda-operator', ['spec', 'replicas'], 0, 'scale')]);
  }

  /**
   * Argo Rollouts scales the Deployment a Rollout references (`workloadRef`, scaleDown `onsuccess` or
   * `progressively`) down to zero (manager `rollouts-controller`, the name of its binary).
   *
   * @see https://argoproj.github.io/argo-rollouts/migrating/#reference-deployment-from-rollout
   */
  public static argoRolloutsScalesDown(): LiveScenario {
    return new LiveScenario('Argo Rollouts scales the referenced Deployment to 0', [setField('rollouts-controller', ['spec', 'replicas'], 0)]);
  }

  /**
   * An injector adds a sidecar container to the workload's pod template.
   *
   * @param containerName the injected container, e.g. `istio-proxy`
   * @param manager the injector's field manager name
   */
  public static sidecarInjected(containerName: string, manager: string): LiveScenario {
    return new LiveScenario(`${manager} injects container ${containerName}`, [{
      manager,
      apply: (live) => {
        const containers = valueAt(live, ['spec', 'template', 'spec', 'containers']);
        if (!Array.isArray(containers)) {
          return [];
        }
        containers.push({ name: containerName, image: `injected/${containerName}:1.0.0` });
        return [['spec', 'template', 'spec', 'containers', String(containers.length - 1)]];
      },
    }]);
  }

  /**
   * cert-manager's cainjector writes the CA bundle: into every webhook of a webhook configuration, a
   * CRD's conversion webhook, or an APIService (manager `cainjector`).
   */
  public static caBundleWritten(): LiveScenario {
    const bundle = 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==';
    return new LiveScenario('cainjector writes caBundle', [{
      manager: 'cainjector',
      apply: (live) => {
        const written: string[][] = [];
        const webhooks = live.webhooks;
        if (Array.isArray(webhooks)) {
          webhooks.forEach((w, i) => {
            if (isMap(w)) {
              setAt(w, ['clientConfig', 'caBundle'], bundle);
              written.push(['webhooks', String(i), 'clientConfig', 'caBundle']);
            }
          });
        } else if (live.kind === 'CustomResourceDefinition') {
          setAt(live, ['spec', 'conversion', 'webhook', 'clientConfig', 'caBundle'], bundle);
          written.push(['spec', 'conversion', 'webhook', 'clientConfig', 'caBundle']);
        } else if (live.kind === 'APIService') {
          setAt(live, ['spec', 'caBundle'], bundle);
          written.push(['spec', 'caBundle']);
        }
        return written;
      },
    }]);
  }

  /**
   * A human runs `kubectl scale --replicas=<n>` (manager `kubectl`, subresource `scale`).
   */
  public static kubectlScale(replicas: number): LiveScenario {
    return new LiveScenario(`kubectl scale --replicas=${replicas}`, [setField('kubectl', ['spec', 'replicas'], replicas, 'scale')]);
  }

  /**
   * A human runs `kubectl set image` on one container of the pod template (manager `kubectl-set`).
   */
  public static kubectlSetImage(containerName: string, image: string): LiveScenario {
    return new LiveScenario(`kubectl set image ${containerName}=${image}`, [{
      manager: 'kubectl-set',
      apply: (live) => {
        const containers = valueAt(live, ['spec', 'template', 'spec', 'containers']);
        const index = Array.isArray(containers) ? containers.findIndex((c) => isMap(c) && c.name === containerName) : -1;
        if (index === -1) {
          return [];
        }
        (containers as JsonMap[])[index].image = image;
        return [['spec', 'template', 'spec', 'containers', String(index), 'image']];
      },
    }]);
  }

  /**
   * A human runs `kubectl edit` and sets one field (manager `kubectl-edit`).
   *
   * @param pointer the field, as an RFC 6901 pointer, e.g. `/spec/template/spec/containers/0/resources/limits/memory`
   * @param valueJson the new value, as JSON, e.g. `"4Gi"`
   */
  public static kubectlEdit(pointer: string, valueJson: string): LiveScenario {
    const problem = pointerProblem(pointer);
    let value: Json;
    try {
      value = JSON.parse(valueJson) as Json;
    } catch {
      value = undefined as unknown as Json;
    }
    if (problem || value === undefined) {
      throw badValue(problem ? ErrorCode.INVALID_POINTER : ErrorCode.UNREADABLE_INPUT, 'LiveScenario.kubectlEdit', problem ? 'pointer' : 'valueJson', problem ? pointer : valueJson,
        problem ? `is not a valid RFC 6901 pointer: ${problem}` : 'must be JSON', 'e.g. kubectlEdit(\'/spec/template/spec/containers/0/image\', \'"app:2.0.0"\')');
    }
    const keys = keysFromPointer(pointer);
    return new LiveScenario(`kubectl edit ${pointer}`, [{
      manager: 'kubectl-edit',
      apply: (live) => {
        const parent = valueAt(live, keys.slice(0, -1));
        const last = keys[keys.length - 1];
        if (Array.isArray(parent) && /^\d+$/.test(last)) {
          parent[Number(last)] = clone(value);
        } else {
          setAt(live, keys, clone(value));
        }
        return [keys];
      },
    }]);
  }

  /** What happens, in words. */
  public readonly description: string;
  private readonly mutations: Mutation[];

  private constructor(description: string, mutations: Mutation[]) {
    this.description = description;
    this.mutations = mutations;
  }

  /**
   * The live object, as JSON, that a cluster returns after Argo CD applied `desired` (client-side apply:
   * the last-applied annotation, managedFields of `argocd-controller`, API defaults such as replicas 1)
   * and this scenario then changed it.
   *
   * @param desired the resource as Git renders it, YAML or JSON
   * @throws [SAFE-102] when `desired` is not exactly one readable Kubernetes object
   */
  public liveFrom(desired: string): string {
    const obj = readOneManifest('LiveScenario.liveFrom: desired', desired);
    return JSON.stringify(this._liveFromObject(obj));
  }

  /** @internal */
  public _liveFromObject(desired: Json): JsonMap {
    const live = clone(desired) as JsonMap;
    const metadata = isMap(live.metadata) ? live.metadata : (live.metadata = {});
    const annotations = isMap(metadata.annotations) ? metadata.annotations : (metadata.annotations = {});
    annotations[LAST_APPLIED_ANNOTATION] = JSON.stringify(desired);
    metadata.uid = '00000000-0000-4000-8000-000000000000';
    metadata.resourceVersion = '1';
    metadata.generation = 1;
    metadata.creationTimestamp = FIXED_TIME;
    applyDeletionDefaultsForAbsent(live);
    const apiVersion = String(live.apiVersion ?? '');
    const managedFields: Json[] = [{
      manager: 'argocd-controller',
      operation: 'Update',
      apiVersion,
      time: FIXED_TIME,
      fieldsType: 'FieldsV1',
      fieldsV1: fieldsV1Of(desired, [], mergeContextFor(desired)),
    }];
    for (const mutation of this.mutations) {
      const written = mutation.apply(live);
      if (written.length > 0) {
        const fields: JsonMap = {};
        for (const keys of written) {
          addFieldPath(fields, live, keys, mergeContextFor(live));
        }
        managedFields.push({
          manager: mutation.manager,
          operation: 'Update',
          apiVersion,
          time: FIXED_TIME,
          fieldsType: 'FieldsV1',
          fieldsV1: fields,
          ...(mutation.subresource ? { subresource: mutation.subresource } : {}),
        });
      }
    }
    metadata.managedFields = managedFields;
    return live;
  }
}

function setField(manager: string, keys: string[], value: Json, subresource?: string): Mutation {
  return { manager, subresource, apply: (live) => { setAt(live, keys, value); return [keys]; } };
}

/** The fieldsV1 set of every leaf of an object: `f:` for fields, `k:` for items of keyed lists. */
function fieldsV1Of(value: Json, path: string[], ctx: ReturnType<typeof mergeContextFor>): JsonMap {
  const out: JsonMap = {};
  if (isMap(value)) {
    for (const [key, child] of Object.entries(value)) {
      if (path.length === 0 && (key === 'apiVersion' || key === 'kind' || key === 'status')) {
        continue;
      }
      const childPath = [...path, key];
      if (isMap(child)) {
        out[`f:${key}`] = { '.': {}, ...fieldsV1Of(child, childPath, ctx) };
      } else if (Array.isArray(child) && mergeKeyFor(childPath, ctx)) {
        const mk = mergeKeyFor(childPath, ctx)!;
        const items: JsonMap = {};
        for (const item of child) {
          if (isMap(item)) {
            items[`k:${JSON.stringify({ [mk]: item[mk] })}`] = { '.': {}, ...fieldsV1Of(item, [...childPath, '0'], ctx) };
          }
        }
        out[`f:${key}`] = items;
      } else {
        out[`f:${key}`] = {};
      }
    }
  }
  return out;
}

/** Adds one written path to a fieldsV1 set, as field names and list item keys. */
function addFieldPath(fields: JsonMap, live: Json, keys: readonly string[], ctx: ReturnType<typeof mergeContextFor>): void {
  let node = fields;
  let value: Json | undefined = live;
  const path: string[] = [];
  keys.forEach((key, i) => {
    const last = i === keys.length - 1;
    if (Array.isArray(value)) {
      const item = value[Number(key)];
      const mk = mergeKeyFor(path, ctx);
      const element = mk && isMap(item) ? `k:${JSON.stringify({ [mk]: item[mk] })}` : `i:${key}`;
      node = (node[element] = isMap(node[element]) ? node[element] : (last ? { '.': {} } : {})) as JsonMap;
      value = item;
      path.push('0');
    } else {
      const element = `f:${key}`;
      node = (node[element] = isMap(node[element]) ? node[element] : {}) as JsonMap;
      value = isMap(value) ? own(value, key) : undefined;
      path.push(key);
    }
  });
}
