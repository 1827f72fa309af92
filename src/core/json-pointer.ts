/**
 * RFC 6901 JSON pointers, as Argo CD's ignoreDifferences.jsonPointers reads them.
 */

/** Why a pointer is malformed, or undefined when it is well formed. */
export function pointerProblem(pointer: string): string | undefined {
  if (pointer === '') {
    return 'the empty pointer names the whole document, which would ignore every field';
  }
  if (!pointer.startsWith('/')) {
    return 'a JSON pointer starts with "/"';
  }
  if (/~[^01]|~$/.test(pointer)) {
    return '"~" must be escaped as "~0" ("/" inside a key is "~1")';
  }
  return undefined;
}

/** Escapes one key for use in a pointer: `~` becomes `~0`, `/` becomes `~1`. */
export function escapeToken(key: string): string {
  // Nearly every key has neither character: it is its own token, without two regular expressions tried on it.
  if (!key.includes('~') && !key.includes('/')) {
    return key;
  }
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Reverses {@link escapeToken}. */
export function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Builds a pointer from unescaped keys. */
export function pointerFromKeys(keys: readonly string[]): string {
  return keys.map((k) => `/${escapeToken(k)}`).join('');
}

/** Splits a pointer into unescaped keys. The pointer must be well formed. */
export function keysFromPointer(pointer: string): string[] {
  if (pointer === '') {
    return [];
  }
  const keys = pointer.slice(1).split('/');
  // Most pointers have no escapes: the split alone is the answer (audit locates one per finding).
  return pointer.includes('~') ? keys.map(unescapeToken) : keys;
}
