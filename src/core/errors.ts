import { IConstruct } from 'constructs';

/**
 * Stable error codes. A code never changes meaning once released; tests match on it.
 */
export const ErrorCode = {
  INVALID_NAME: 'SAFE-001',
  DEFAULT_PROJECT: 'SAFE-002',
  INVALID_URL: 'SAFE-003',
  INVALID_NAMESPACE: 'SAFE-004',
  UNKNOWN_VERSION: 'SAFE-005',
  RETRY_OUT_OF_BOUNDS: 'SAFE-006',
  INVALID_POINTER: 'SAFE-007',
  INVALID_IGNORE_TARGET: 'SAFE-008',
  INVALID_JQ: 'SAFE-009',
  WRONG_SCOPE: 'SAFE-010',
  DUPLICATE: 'SAFE-011',
  INVALID_SUPPRESSION: 'SAFE-012',
  SOURCE_CONFLICT: 'SAFE-013',
  NOTHING_TO_DEPLOY: 'SAFE-014',
  UNOWNED_OBJECT: 'SAFE-015',
  INVALID_REVISION: 'SAFE-016',
  INVALID_OUTPUT_LAYOUT: 'SAFE-017',
  INVALID_REASON: 'SAFE-018',
  SCALING_OUT_OF_BOUNDS: 'SAFE-019',
  HOOK_OUT_OF_BOUNDS: 'SAFE-020',
  HOOK_ORDER: 'SAFE-021',
  NOT_OWNED_BY: 'SAFE-022',
  INVALID_SYNC_WAVE: 'SAFE-023',
  PROJECT_WILDCARD: 'SAFE-030',
  DESTINATION_NOT_ALLOWED: 'SAFE-031',
  BREAK_GLASS: 'SAFE-032',
  RULE_VIOLATIONS: 'SAFE-100',
  WRITE_FAILED: 'SAFE-101',
  UNREADABLE_INPUT: 'SAFE-102',
  /** A `safe-argocd` command line (or `.safe-argocd.yaml`) that cannot be used. */
  USAGE: 'SAFE-103',
  /** `safe-argocd simulate` inputs in the wrong places: `--app` not an Application, `--live` not the `--desired` kind. */
  SWAPPED_INPUT: 'SAFE-104',
  /** An error the CLI did not expect: a bug, or the environment failing. */
  UNEXPECTED: 'SAFE-105',
  INVALID_GROUP: 'SAFE-024',
  HUMAN_WRITE_ACCESS: 'SAFE-025',
  INVALID_SECRET_DATA: 'SAFE-026',
  REFRESH_OUT_OF_BOUNDS: 'SAFE-027',
  INVALID_SECRET_STORE: 'SAFE-028',
  INVALID_TEMPLATE: 'SAFE-040',
  INVALID_GENERATOR: 'SAFE-041',
  INVALID_SCAFFOLD_OPTION: 'SAFE-033',
  SCAFFOLD_TARGET_EXISTS: 'SAFE-034',
  INVALID_NOTIFICATION: 'SAFE-035',
  INVALID_SYNC_WINDOW: 'SAFE-036',
  NO_STATEFUL_SET_SERVICE: 'SAFE-037',
  INVALID_HELM_SOURCE: 'SAFE-038',
  INVALID_KUSTOMIZE_SOURCE: 'SAFE-042',
  UNNOTIFIED_MIGRATION: 'SAFE-043',
  INVALID_KEDA_TRIGGER: 'SAFE-044',
  INVALID_ROLLOUT: 'SAFE-045',
} as const;

export type ErrorCodeValue = typeof ErrorCode[keyof typeof ErrorCode];

/**
 * The one way this library reports a bad prop or argument, in one or two lines at the call site:
 * `throw badValue(code, where, prop, value, allowed, fix)`.
 *
 * @param where the construct that received the value, or a label such as `IgnoreRule.jsonPointer` outside the tree
 * @param prop the prop or argument name
 * @param allowed what is allowed, as a sentence fragment: "must be ..."
 * @param fix how to fix it
 */
export function badValue(code: ErrorCodeValue, where: IConstruct | string, prop: string, value: unknown, allowed: string, fix: string): Error {
  const place = typeof where === 'string' ? where : where.node.path || '<root>';
  return new Error(`[${code}] ${place}: ${prop} ${describe(value)} ${allowed}. Fix: ${fix}`);
}

/**
 * A failure that is not about one value (a synth with violations, a failed write).
 */
export function failure(code: ErrorCodeValue, message: string): Error {
  return new Error(`[${code}] ${message}`);
}

/** Renders a received value for an error message, short and unambiguous. */
export function describe(value: unknown): string {
  if (value === undefined) {
    return 'is missing; it';
  }
  let text: string;
  try {
    // JSON would print NaN and Infinity as null.
    text = typeof value === 'number' ? String(value) : JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  if (text.length > 120) {
    text = `${text.slice(0, 117)}...`;
  }
  return `is ${text}; it`;
}
