import { clone, isMap, Json, JsonMap, put } from './json';
import { canonicalQuantity } from './quantity';

/** Go maps with omitempty: an empty one disappears when the object is decoded and encoded. */
const OMITTED_EMPTY_MAPS = new Set([
  'labels', 'annotations', 'matchLabels', 'nodeSelector', 'data', 'binaryData', 'stringData', 'selector',
  'limits', 'requests', 'hard', 'capacity', 'parameters',
]);
/** Maps whose values are data (a label's `""` is a value, not an omitted field). */
const FREE_FORM_MAPS = new Set([...OMITTED_EMPTY_MAPS, 'allocatable', 'overhead', 'used']);
/** Non-pointer scalars with omitempty in the common built-in kinds: their zero value disappears. */
const OMITTED_ZERO_SCALARS = new Set([
  'hostNetwork', 'hostPID', 'hostIPC', 'minReadySeconds', 'paused', 'stdin', 'stdinOnce', 'tty', 'publishNotReadyAddresses',
  'readOnly', 'nodePort',
]);
/** String fields without omitempty: `""` stays. */
const KEPT_EMPTY_STRINGS = new Set(['key', 'path', 'name', 'kind', 'apiGroup', 'mountPath']);
/** Maps whose values are quantities (ResourceList and friends). */
const QUANTITY_MAPS = new Set(['limits', 'requests', 'hard', 'capacity', 'allocatable', 'overhead', 'used']);
const LIMIT_RANGE_QUANTITY_MAPS = new Set(['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']);
/** Scalar fields that are quantities. */
const QUANTITY_FIELDS = new Set(['sizeLimit', 'averageValue']);

/**
 * The typed round trip gitops-engine gives built-in kinds before comparing (gitops-engine pkg/diff/diff.go,
 * remarshal): the object is decoded into its Go type and encoded again, keeping only the fields it had. So
 * `null` fields vanish, omitempty zero values vanish (`[]`, `value: ""`, empty label maps, `hostNetwork:
 * false`), a pod template's `creationTimestamp: null` vanishes, and quantities become canonical (`1000m` is
 * `1`, `2048Mi` is `2Gi`). A pointer field keeps its value (`replicas: 0`, `emptyDir: {}`). Returns a copy.
 */
export function typedRoundTrip(obj: Json): Json {
  const kind = isMap(obj) ? String(obj.kind ?? '') : '';
  const walk = (value: Json, path: readonly string[]): Json | undefined => {
    const key = path[path.length - 1] ?? '';
    const parent = path[path.length - 2] ?? '';
    if (value === null) {
      // A null value in a Go map decodes to the zero value: `""` (a Secret's `[]byte` comes back as `""` too).
      return FREE_FORM_MAPS.has(parent) && path.length >= 2 ? '' : undefined;
    }
    if (Array.isArray(value)) {
      if (value.length === 0) {
        return undefined;
      }
      return value.map((v) => walk(v, [...path, '0']) ?? (isMap(v) ? {} : v));
    }
    if (isMap(value)) {
      if (OMITTED_EMPTY_MAPS.has(key) && Object.keys(value).length === 0) {
        return undefined;
      }
      const out: JsonMap = {};
      for (const [k, child] of Object.entries(value)) {
        const v = walk(child, [...path, k]);
        if (v !== undefined) {
          put(out, k, v);
        }
      }
      return OMITTED_EMPTY_MAPS.has(key) && Object.keys(out).length === 0 ? undefined : out;
    }
    const isQuantity = QUANTITY_MAPS.has(parent) || QUANTITY_FIELDS.has(key)
      || (kind === 'LimitRange' && LIMIT_RANGE_QUANTITY_MAPS.has(parent))
      || (key === 'value' && parent === 'target' && kind === 'HorizontalPodAutoscaler');
    if (isQuantity) {
      return canonicalQuantity(value) ?? value;
    }
    if (FREE_FORM_MAPS.has(parent) && path.length >= 2) {
      return value;
    }
    if (value === '' && !KEPT_EMPTY_STRINGS.has(key)) {
      return undefined;
    }
    if (OMITTED_ZERO_SCALARS.has(key) && (value === false || value === 0)) {
      return undefined;
    }
    return value;
  };
  return walk(clone(obj), []) ?? {};
}
