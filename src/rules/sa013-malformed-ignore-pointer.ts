import { Severity } from './severity';
import { Rule, Violation } from './types';
import { pointerProblem } from '../core/json-pointer';
import { isObject, listAt } from '../core/manifest';

/** The pointer meant by a malformed one, when it can be told: a leading `/` added, a jq-like path turned, a bare `~` escaped. */
export function pointerFix(pointer: string): string | undefined {
  let fixed = pointer.trim();
  if (fixed === '') {
    return undefined;
  }
  if (/^\.[\w.-]+$/.test(fixed)) {
    fixed = fixed.split('.').join('/');
  } else if (!fixed.startsWith('/')) {
    fixed = `/${fixed}`;
  }
  fixed = fixed.replace(/~(?![01])/g, '~0');
  return pointerProblem(fixed) === undefined ? fixed : undefined;
}

/** An ignoreDifferences JSON pointer that Argo CD cannot apply, so the field it means is not ignored. */
export const malformedIgnorePointer: Rule = {
  id: 'SA013',
  name: 'malformed-ignore-pointer',
  severity: Severity.ERROR,
  summary: 'An ignoreDifferences JSON pointer is malformed (no leading "/", a "~" not written as "~0" or "~1"), or empty.',
  explanation:
    'Argo CD turns each jsonPointers entry into a JSON patch "remove" (util/argo/normalizers/diff_normalizer.go). A pointer '
    + 'without its leading "/", a jq path such as ".spec.replicas" written as a pointer, or a "~" that is not an escape '
    + '("~0" is "~", "~1" is "/" inside a key such as an annotation name) cannot be applied: the field it means is not '
    + 'ignored, the app shows OutOfSync, and with self-heal the field is reverted (an HPA\'s replicas, an injected value). '
    + 'The empty pointer names the whole object, which would ignore every field.',
  fix: 'Write the pointer as RFC 6901 does: "/spec/replicas", an annotation key as "/metadata/annotations/example.com~1name" '
    + '(the finding names the corrected pointer); or use jqPathExpressions for a jq path.',
  check({ application }) {
    if (!application) {
      return [];
    }
    const found: Violation[] = [];
    listAt(application, 'spec', 'ignoreDifferences').forEach((entry, i) => {
      if (!isObject(entry)) {
        return;
      }
      listAt(entry, 'jsonPointers').forEach((pointer, j) => {
        if (typeof pointer !== 'string') {
          return;
        }
        const problem = pointerProblem(pointer);
        if (problem === undefined) {
          return;
        }
        const fixed = pointerFix(pointer);
        found.push({
          object: application,
          path: `/spec/ignoreDifferences/${i}/jsonPointers/${j}`,
          message: `the pointer ${JSON.stringify(pointer)} is malformed: ${problem}${fixed === undefined ? '' : `; write ${JSON.stringify(fixed)}`}`,
          value: pointer,
        });
      });
    });
    return found;
  },
};
