/**
 * What an ApplicationSet's `templatePatch` may do to the Applications it generates, read from its text alone, for
 * when the audit cannot apply it. The controller renders the patch with each Application's parameters and merges it
 * into the Application with a strategic merge patch (applicationset/controllers/template: template.go, patch.go).
 */

/** A Go template action that prints (not a comment, a control keyword or a variable assignment). */
const PRINTING_ACTION = /\{\{(?!-?\s*(?:\/\*|(?:if|else|end|range|with|define|block|break|continue)\b|\$\w*\s*:?=))/;

/**
 * Whether the patch may set the field at `path` (keys from the Application's root, e.g. `['spec', 'syncPolicy']`):
 * its text names the field's key, or prints a template action where a key of the field or of a map above it stands
 * (`spec: {{ .spec | toJson }}` passes the whole spec of a git file through; `{{ .patch }}` on a line of its own may
 * print any key).
 */
export function templatePatchMaySet(patch: string, path: readonly string[]): boolean {
  const text = patch.replace(/\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}/g, '');
  if (path.length === 0 || text.includes(path[path.length - 1])) {
    return true;
  }
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    // An action at the start of a line prints there whatever it gives: keys of any level.
    if (trimmed.startsWith('{{') && PRINTING_ACTION.exec(trimmed)?.index === 0) {
      return true;
    }
    for (const key of path.slice(0, -1)) {
      const value = new RegExp(`^(?:-\\s+)?["']?${key}["']?\\s*:(.*)$`).exec(trimmed);
      if (value && PRINTING_ACTION.test(value[1])) {
        return true;
      }
    }
  }
  return false;
}

/**
 * Whether the patch may take finalizers away. `metadata.finalizers` merges in a strategic merge patch (ObjectMeta's
 * `patchStrategy:"merge"`): the finalizers a patch lists are added to those the Application has, so only a directive
 * (`$patch`, `$deleteFromPrimitiveList/finalizers`, `$retainKeys`, `$setElementOrder/finalizers`) or a null removes any.
 */
export function templatePatchMayRemoveFinalizers(patch: string): boolean {
  if (/\$(?:patch|deleteFromPrimitiveList|retainKeys|setElementOrder)\b/.test(patch)) {
    return true;
  }
  return /finalizers["']?\s*:\s*(?:null|~)\s*(?:$|[,}])/m.test(patch);
}
