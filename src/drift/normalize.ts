import { IgnoreEntry } from './ignore-entries';
import { clone, isMap, Json, put, removeAt } from './json';
import { keysFromPointer, pointerProblem } from '../core/json-pointer';

/** Runs `del(<expression>)` on a value with a real jq engine. */
export interface JqRunner {
  /** The first output of `del(expression)`; throws on a jq error. */
  del(value: Json, expression: string): Json;
}

/**
 * The normalization gitops-engine applies to desired, live and last-applied alike before comparing:
 * `status` is dropped (Argo CD 3.0+ ignores it for every resource), then each matching entry's
 * jsonPointers are removed and its jqPathExpressions run as `del(<expr>)`. A pointer that does not exist
 * and a jq expression that fails leave the object as it was (the failure is reported in `warnings`).
 * Returns a normalized copy.
 */
export function normalizeIgnored(obj: Json, entries: readonly IgnoreEntry[], jq: JqRunner, warnings: string[], application?: string): Json {
  let result = clone(obj);
  if (isMap(result)) {
    delete result.status;
  }
  for (const entry of entries) {
    for (const pointer of entry.jsonPointers) {
      if (pointerProblem(pointer)) {
        warnings.push(`jsonPointer ${JSON.stringify(pointer)} is not a valid RFC 6901 pointer; Argo CD ignores it`);
        continue;
      }
      removeAt(result, keysFromPointer(pointer));
    }
    for (const expression of entry.jqPathExpressions) {
      try {
        result = jq.del(result, expression);
      } catch (e) {
        if ((e as { bounded?: boolean } | null)?.bounded === true) {
          // A time or memory bound: the message names the expression and says what to do.
          warnings.push(`${firstLine(e)} [${kindName(obj)}${application ? `, Application ${application}` : ''}]`);
          continue;
        }
        warnings.push((e as { exitCode?: number } | null)?.exitCode === 3
          ? `jqPathExpression ${JSON.stringify(expression)} does not compile; Argo CD reports a ComparisonError for the whole app: ${firstLine(e)}`
          : `jqPathExpression ${JSON.stringify(expression)} failed on ${kindName(obj)}: ${firstLine(e)}`);
      }
    }
  }
  return result;
}

function kindName(obj: Json): string {
  if (!isMap(obj)) {
    return 'the object';
  }
  const metadata = isMap(obj.metadata) ? obj.metadata : {};
  return `${String(obj.kind)} ${String(metadata.name ?? metadata.generateName ?? '')}`.trimEnd();
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0];
}

/** Map-typed fields (Go maps with omitempty): an empty one disappears when the object is decoded and encoded. */
const OMITTED_EMPTY_MAPS = new Set(['labels', 'annotations', 'matchLabels', 'nodeSelector', 'data', 'binaryData', 'stringData', 'selector']);
/** Non-pointer scalar fields with omitempty in the common built-in kinds: their zero value disappears the same way. */
const OMITTED_ZERO_SCALARS = new Set(['hostNetwork', 'hostPID', 'hostIPC', 'minReadySeconds', 'paused', 'stdin', 'stdinOnce', 'tty', 'publishNotReadyAddresses']);

/**
 * gitops-engine decodes and re-encodes built-in kinds through their Go types before comparing
 * (pkg/diff/diff.go, remarshal), which drops omitempty zero values: empty lists, empty label and annotation
 * maps, and zero scalars such as `hostNetwork: false`. This models the common cases; a pointer field
 * (`replicas: 0`, `automountServiceAccountToken: false`, `emptyDir: {}`) keeps its value, as it does there.
 * Returns a copy.
 */
export function remarshal(obj: Json): Json {
  const walk = (value: Json): Json | undefined => {
    if (Array.isArray(value)) {
      return value.length === 0 ? undefined : value.map((v) => walk(v) ?? v);
    }
    if (isMap(value)) {
      const out: { [key: string]: Json } = {};
      for (const [key, child] of Object.entries(value)) {
        if (OMITTED_ZERO_SCALARS.has(key) && (child === false || child === 0)) {
          continue;
        }
        if (OMITTED_EMPTY_MAPS.has(key) && isMap(child) && Object.keys(child).length === 0) {
          continue;
        }
        const v = walk(child);
        if (v !== undefined) {
          put(out, key, v);
        }
      }
      return out;
    }
    return value;
  };
  return walk(clone(obj)) ?? {};
}
