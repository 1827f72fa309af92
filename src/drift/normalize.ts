import { IgnoreEntry } from './ignore-entries';
import { clone, isMap, Json, removeAt } from './json';
import { typedRoundTrip } from './typed-round-trip';
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

/**
 * gitops-engine decodes and re-encodes built-in kinds through their Go types before comparing
 * (pkg/diff/diff.go, remarshal); see typedRoundTrip. Returns a copy.
 */
export function remarshal(obj: Json): Json {
  return typedRoundTrip(obj);
}
