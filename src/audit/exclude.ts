import { compileGlob, isValidGlob } from '../core/glob';
import { stripTrailing } from '../core/text';

/**
 * Whether `exclude` leaves out `file` (a path relative to the repository root, with `/`). A pattern is a glob
 * over that path: `*` and `?` stay within one folder name, `**` crosses folders, `[a-z]` and `{a,b}` as usual.
 * A pattern that matches a folder leaves out everything below it (`vendor`, `charts/*`), and a pattern that
 * starts with `**` + `/` also matches at the root (`**` + `/testdata` leaves out `testdata/` too).
 * To match many files, compile the patterns once with {@link excludeMatcher}.
 */
export function isExcluded(file: string, exclude: readonly string[]): boolean {
  return excludeMatcher(exclude)(file);
}

/**
 * The patterns of `exclude` compiled once into one test of a path, as {@link isExcluded} reads them: a run matches
 * every file against every pattern, and recompiling them (or a shared cache they overflow) would cost each time.
 */
export function excludeMatcher(exclude: readonly string[]): (file: string) => boolean {
  const matchers: ((file: string) => boolean)[] = [];
  for (const raw of exclude) {
    const pattern = stripTrailing(raw.startsWith('./') ? raw.slice(2) : raw, '/');
    const patterns = pattern.startsWith('**/') ? [pattern, pattern.slice(3)] : [pattern];
    // `p/**` is everything below what `p` matches: one linear match each, however deep the path.
    for (const p of patterns) {
      matchers.push(compileGlob(p, '/'), compileGlob(`${p}/**`, '/'));
    }
  }
  return (file) => matchers.some((m) => m(file));
}

/** Why an exclude pattern cannot be used, or undefined: it is empty, or not a glob that compiles. */
export function excludeProblem(pattern: string): string | undefined {
  if (pattern.trim() === '' || stripTrailing(pattern, '/') === '') {
    return 'is empty, or only "/", which would leave out nothing or everything';
  }
  if (!isValidGlob(pattern)) {
    return 'is not a valid glob (an unclosed [, an empty or reversed class, or a trailing \\)';
  }
  return undefined;
}
