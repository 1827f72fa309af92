import { clone, deepEqual, hasOwn, isMap, Json, JsonMap, own, put } from './json';
import { typedRoundTrip } from './typed-round-trip';
import { groupOf } from '../core/kinds';

function groupKind(obj: JsonMap): string {
  return `${groupOf(String(obj.apiVersion ?? ''))}/${String(obj.kind ?? '')}`;
}

/**
 * The normalizations gitops-engine gives every object, desired, live and last-applied alike, before
 * comparing (gitops-engine pkg/diff/diff.go, Normalize): the top-level `metadata.creationTimestamp` goes,
 * a Secret's `stringData` is folded into `data` and empty values become `""`, a Role's empty `rules` is
 * no rules, an Endpoints' ports get protocol TCP and its subsets a fixed order; and Argo CD's known-type
 * normalizer reads an Argo Rollout's pod template as a PodSpec (util/argo/normalizers/knowntypes_normalizer.go).
 * Changes `obj` in place and returns it.
 */
export function normalizeKnownKinds(obj: Json): Json {
  if (!isMap(obj)) {
    return obj;
  }
  const metadata = own(obj, 'metadata');
  if (isMap(metadata)) {
    delete metadata.creationTimestamp;
  }
  switch (groupKind(obj)) {
    case '/Secret':
      normalizeSecret(obj);
      break;
    case 'rbac.authorization.k8s.io/Role':
    case 'rbac.authorization.k8s.io/ClusterRole':
      if (Array.isArray(own(obj, 'rules')) && (obj.rules as Json[]).length === 0) {
        delete obj.rules;
      }
      break;
    case '/Endpoints':
      normalizeEndpoints(obj);
      break;
    case 'argoproj.io/Rollout': {
      const template = isMap(obj.spec) && isMap(obj.spec.template) ? obj.spec.template : undefined;
      if (template && isMap(template.spec)) {
        template.spec = typedRoundTrip(template.spec);
      }
      break;
    }
  }
  return obj;
}

/** stringData folded into data as base64, and a missing or null value read as `""` (NormalizeSecret). */
function normalizeSecret(secret: JsonMap): void {
  const stringData = own(secret, 'stringData');
  if (isMap(stringData)) {
    const data: JsonMap = isMap(own(secret, 'data')) ? secret.data as JsonMap : {};
    for (const [key, value] of Object.entries(stringData)) {
      put(data, key, typeof value === 'string' ? Buffer.from(value, 'utf8').toString('base64') : value);
    }
    secret.data = data;
    delete secret.stringData;
  }
  const data = own(secret, 'data');
  if (isMap(data)) {
    for (const [key, value] of Object.entries(data)) {
      if (value === null) {
        put(data, key, '');
      }
    }
  }
}

const byJson = (a: Json, b: Json) => {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * Endpoints: protocol TCP for ports without one, and addresses, ports and subsets sorted (normalizeEndpoint).
 * Argo CD sorts ports and subsets by a hash; any fixed order gives the same verdict, since both sides are sorted.
 */
function normalizeEndpoints(endpoints: JsonMap): void {
  const subsets = own(endpoints, 'subsets');
  if (!Array.isArray(subsets)) {
    return;
  }
  for (const subset of subsets) {
    if (!isMap(subset)) {
      continue;
    }
    if (Array.isArray(subset.ports)) {
      for (const port of subset.ports) {
        if (isMap(port) && !port.protocol) {
          port.protocol = 'TCP';
        }
      }
      subset.ports.sort(byJson);
    }
    for (const list of ['addresses', 'notReadyAddresses']) {
      const addresses = own(subset, list);
      if (Array.isArray(addresses)) {
        addresses.sort((a, b) => {
          const [ia, ib] = [isMap(a) ? String(a.ip ?? '') : '', isMap(b) ? String(b.ip ?? '') : ''];
          return ia < ib ? -1 : ia > ib ? 1 : byJson(a, b);
        });
      }
    }
  }
  subsets.sort(byJson);
}

/**
 * What the three-way diff removes from last-applied and from desired before building the patch
 * (gitops-engine pkg/diff/diff.go, removeNamespaceAnnotation): the namespace, and `annotations` when it is
 * empty or null. `kubectl apply` writes both into last-applied (`"annotations":{}` when Git has none).
 * Returns a copy.
 */
export function withoutNamespaceAndEmptyAnnotations(obj: Json): Json {
  const copy = clone(obj);
  if (isMap(copy) && isMap(own(copy, 'metadata'))) {
    const metadata = copy.metadata as JsonMap;
    delete metadata.namespace;
    if (hasOwn(metadata, 'annotations')) {
      const annotations = metadata.annotations;
      if (annotations === null || (isMap(annotations) && Object.keys(annotations).length === 0)) {
        delete metadata.annotations;
      }
    }
  }
  return copy;
}

/**
 * The live list reduced to the fields the last-applied list has, item by item by index; items beyond it stay
 * whole (gitops-engine pkg/utils/json, RemoveListFields / RemoveMapFields). Used where the diff compares a
 * list as a whole: custom resources' lists, and a StatefulSet's volumeClaimTemplates.
 */
export function reducedTo(original: Json | undefined, live: Json | undefined): Json | undefined {
  if (isMap(original) && isMap(live)) {
    const out: JsonMap = {};
    for (const key of Object.keys(original)) {
      if (hasOwn(live, key)) {
        const value = live[key];
        put(out, key, value === null ? null : reducedTo(original[key], value) as Json);
      }
    }
    return out;
  }
  if (Array.isArray(original) && Array.isArray(live)) {
    return live.map((item, i) => (i < original.length && item !== null ? reducedTo(original[i], item) as Json : item));
  }
  return live;
}

/** Whether `modified` equals live reduced to the fields of `original`: the patch then leaves live's value. */
export function unchangedAgainstReduced(original: Json | undefined, modified: Json, live: Json | undefined): boolean {
  return deepEqual(modified, reducedTo(original, live));
}
