/**
 * Compares two strings by UTF-16 code unit, the same in every locale, so sorted output is byte-for-byte the
 * same on every machine (`localeCompare` is not).
 */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
