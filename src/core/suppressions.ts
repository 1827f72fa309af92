import { SUPPRESSION_PREFIX } from './annotations';
import { at, isObject, Manifest } from './manifest';

/** The annotation key that suppresses `ruleId`. */
export function suppressionKey(ruleId: string): string {
  return `${SUPPRESSION_PREFIX}${ruleId}`;
}

/** The reasoned suppressions on an object, rule id to reason. */
export function suppressionsOf(obj: Manifest): Map<string, string> {
  const found = new Map<string, string>();
  const annotations = at(obj, 'metadata', 'annotations');
  if (!isObject(annotations)) {
    return found;
  }
  for (const [key, value] of Object.entries(annotations)) {
    if (key.startsWith(SUPPRESSION_PREFIX) && typeof value === 'string' && value.trim().length > 0) {
      found.set(key.slice(SUPPRESSION_PREFIX.length), value.trim());
    }
  }
  return found;
}
