/**
 * The ways Argo CD's git generators match paths, each in time linear in the path for a given pattern (the pattern
 * becomes a row of elements, and every position in it is tracked at once, so nothing backtracks):
 *
 * - the directories generator: Go's `path.Match` (applicationset/generators/git.go);
 * - the files generator: a pathspec of `git ls-files -- <pattern>`, which the repo server runs; or, when the
 *   ApplicationSet controller runs with `applicationsetcontroller.enable.new.git.file.globbing`, a doublestar glob.
 *
 * Only the doublestar glob knows `{a,b}` and `**`; to the other two they are literal text and no more than `*`.
 */

/**
 * One element of a pattern: a run of any characters (`*`), one character of a set, or, in a doublestar glob, the two
 * halves of a `**` folder (`gs`, where it starts, which it may skip; `gs-in`, inside a folder name, which ends at `/`).
 */
type Element =
  | { readonly k: 'star'; readonly slash: boolean }
  | { readonly k: 'one'; readonly test: (c: number) => boolean }
  | { readonly k: 'gs' }
  | { readonly k: 'gs-in' };

const SLASH = 0x2f;

/**
 * Whether `name` matches `pattern` as Go's path.Match says: `*` any run of characters but `/`, `?` one character
 * but `/`, `[abc]`, `[a-z]` one of a set (`[^...]` none of it; `!` is an ordinary character), `\x` the character x.
 * A malformed pattern (an unclosed or empty `[`, a trailing `\`) matches nothing: Argo CD logs the error and
 * skips the pattern.
 */
export function pathMatch(pattern: string, name: string): boolean {
  const elements = compile(codePoints(pattern), GO);
  return elements !== undefined && run(elements, codePoints(name));
}

/**
 * Whether `file` (a path from the repository's root) is listed by `git ls-files -- <pattern>`: the pattern
 * names the file or a folder above it, or it matches the whole path as a glob whose `*` and `?` also cross `/`,
 * with `[...]` sets (`[!...]` or `[^...]` negated, `[:alpha:]` classes) and `\` escapes, byte by byte.
 */
export function pathspecMatches(pattern: string, file: string): boolean {
  let spec = pattern;
  while (spec.startsWith('./')) {
    spec = spec.slice(2);
  }
  if (spec === '' || spec === '.') {
    return true;
  }
  if (file === spec || (file.startsWith(spec) && (spec.endsWith('/') || file[spec.length] === '/'))) {
    return true;
  }
  if (!/[*?[\\]/.test(spec)) {
    return false;
  }
  const elements = compile(utf8(spec), WILDMATCH);
  return elements !== undefined && run(elements, utf8(file));
}

/** How many patterns a doublestar glob's `{a,b}` may stand for: past it, the glob matches nothing. */
const MAX_ALTERNATIVES = 64;

/**
 * Whether `file` (a path from the repository's root) is among what doublestar's FilepathGlob lists for `pattern`, as
 * the repo server globs a git files generator's path under the new git file globbing: `*` any run of characters but
 * `/`, `?` one of them, `**` as a whole folder name any number of folders (none too), and as the last name anything
 * below; `[abc]`, `[a-z]` (`[^...]` or `[!...]` none of it), `{a,b}` one of the alternatives, `\x` the character x.
 * `**` inside a name is `*`. The pattern is cleaned as a path first (`./a//b` is `a/b`). A malformed pattern (a set
 * or `{` not closed, a trailing `\`) matches nothing, as the repo server fails on it.
 */
export function doublestarMatches(pattern: string, file: string): boolean {
  let compiled = DOUBLESTAR_PATTERNS.get(pattern);
  if (compiled === undefined) {
    const alternatives = expandBraces(codePoints(cleanPath(pattern)));
    // One malformed alternative makes the pattern malformed: doublestar validates all of it before globbing.
    const elements = (alternatives ?? []).map(compileDoublestar);
    compiled = elements.every((e) => e !== undefined) ? elements as Element[][] : [];
    if (DOUBLESTAR_PATTERNS.size >= MAX_COMPILED) {
      DOUBLESTAR_PATTERNS.clear();
    }
    DOUBLESTAR_PATTERNS.set(pattern, compiled);
  }
  if (compiled.length === 0) {
    return false;
  }
  const name = codePoints(file);
  return compiled.some((elements) => run(elements, name));
}

/** Doublestar patterns compiled, by pattern: a generator's pattern is matched against every file of the repository. */
const DOUBLESTAR_PATTERNS = new Map<string, readonly Element[][]>();
const MAX_COMPILED = 256;

/** A pattern as Go's filepath.Clean leaves it: no `.` folders, no empty ones, no `/` at the end (`..` is kept). */
function cleanPath(pattern: string): string {
  const names = pattern.split('/').filter((n, i) => n !== '.' && (n !== '' || i === 0));
  return names.join('/') || '.';
}

/** The patterns `{a,b}` stands for, braces nested; undefined when one is not closed or there are too many. */
function expandBraces(p: number[]): number[][] | undefined {
  let i = 0;
  // A sequence up to `,` or `}` at this depth (or the end), as the list of patterns it stands for.
  const sequence = (depth: number): number[][] | undefined => {
    let out: number[][] = [[]];
    while (i < p.length) {
      const c = p[i];
      if (depth > 0 && (c === 0x2c || c === 0x7d)) {
        return out;
      }
      let pieces: number[][];
      if (c === 0x7b) {
        i++;
        const alternatives: number[][] = [];
        for (;;) {
          const one = sequence(depth + 1);
          if (one === undefined || i >= p.length) {
            return undefined;
          }
          alternatives.push(...one);
          if (p[i++] === 0x7d) {
            break;
          }
        }
        pieces = alternatives;
      } else {
        // An escape, or a set (whose `{`, `,` and `}` are its members), is one piece.
        const start = i;
        i += c === 0x5c ? 2 : 1;
        if (c === 0x5b) {
          while (i < p.length && p[i] !== 0x5d) {
            i += p[i] === 0x5c ? 2 : 1;
          }
          i++;
        }
        pieces = [p.slice(start, Math.min(i, p.length))];
      }
      if (out.length * pieces.length > MAX_ALTERNATIVES) {
        return undefined;
      }
      out = out.flatMap((head) => pieces.map((tail) => [...head, ...tail]));
    }
    return depth > 0 ? undefined : out;
  };
  return sequence(0);
}

/** The elements of one doublestar pattern without braces: folder by folder, `**` folders as `gs`, `gs-in`. */
function compileDoublestar(p: number[]): Element[] | undefined {
  const out: Element[] = [];
  const names: number[][] = [[]];
  for (let i = 0; i < p.length; i++) {
    if (p[i] === SLASH) {
      names.push([]);
      continue;
    }
    const name = names[names.length - 1];
    name.push(p[i]);
    // An escaped character, or a set, is never a separator.
    if (p[i] === 0x5c && i + 1 < p.length) {
      name.push(p[++i]);
    }
  }
  for (const [index, name] of names.entries()) {
    const last = index === names.length - 1;
    if (name.length === 2 && name[0] === 0x2a && name[1] === 0x2a) {
      if (last) {
        out.push({ k: 'star', slash: true });
      } else {
        // Any number of folders, each with its `/`: the `/` after `**` is theirs.
        out.push({ k: 'gs' }, { k: 'gs-in' });
      }
      continue;
    }
    const elements = compile(name, DOUBLESTAR);
    if (elements === undefined) {
      return undefined;
    }
    out.push(...elements);
    if (!last) {
      out.push(one((x) => x === SLASH));
    }
  }
  return out;
}

function codePoints(s: string): number[] {
  return Array.from(s, (c) => c.codePointAt(0)!);
}

function utf8(s: string): number[] {
  return Array.from(Buffer.from(s, 'utf8'));
}

const one = (test: (c: number) => boolean): Element => ({ k: 'one', test });

/** How a pattern reads: whether `*` and `?` cross `/`, and its `[...]` sets (read from just after the `[`). */
interface Syntax {
  readonly slash: boolean;
  readonly set: (p: number[], from: number) => { readonly test: (c: number) => boolean; readonly end: number } | undefined;
}

/** The elements of a pattern; undefined when it is malformed (a set not closed, a trailing `\`). */
function compile(p: number[], syntax: Syntax): Element[] | undefined {
  const out: Element[] = [];
  let i = 0;
  while (i < p.length) {
    const c = p[i];
    if (c === 0x2a) {
      // Stars in a row are one star.
      while (p[i] === 0x2a) {
        i++;
      }
      out.push({ k: 'star', slash: syntax.slash });
    } else if (c === 0x3f) {
      out.push(one((x) => syntax.slash || x !== SLASH));
      i++;
    } else if (c === 0x5c) {
      if (i + 1 >= p.length) {
        return undefined;
      }
      const literal = p[i + 1];
      out.push(one((x) => x === literal));
      i += 2;
    } else if (c === 0x5b) {
      const set = syntax.set(p, i + 1);
      if (set === undefined) {
        return undefined;
      }
      out.push(one(set.test));
      i = set.end;
    } else {
      out.push(one((x) => x === c));
      i++;
    }
  }
  return out;
}

/** path.Match: `*` and `?` stop at `/`. */
const GO: Syntax = { slash: false, set: goSet };

/** git's wildmatch without WM_PATHNAME: `*` and `?` cross `/`. */
const WILDMATCH: Syntax = { slash: true, set: wildClass };

/** A doublestar folder name: path.Match's, but a set is negated by `!` as well as `^`. */
const DOUBLESTAR: Syntax = {
  slash: false,
  set: (p, from) => goSet(p[from] === 0x21 ? [...p.slice(0, from), 0x5e, ...p.slice(from + 1)] : p, from),
};

/**
 * A `[...]` set of path.Match from just after its `[`: `^` negates, then one or more ranges or characters, each
 * possibly escaped; an unescaped `-` or `]` where a character is due is malformed.
 */
function goSet(p: number[], from: number): { test: (c: number) => boolean; end: number } | undefined {
  const escaped = (i: number): [number, number] | undefined => {
    if (p[i] === 0x5c) {
      return i + 1 < p.length ? [p[i + 1], i + 2] : undefined;
    }
    return i < p.length && p[i] !== 0x2d && p[i] !== 0x5d ? [p[i], i + 1] : undefined;
  };
  let i = from;
  const negated = p[i] === 0x5e;
  i += negated ? 1 : 0;
  const ranges: [number, number][] = [];
  while (!(p[i] === 0x5d && ranges.length > 0)) {
    const lo = escaped(i);
    if (lo === undefined) {
      return undefined;
    }
    let hi = lo;
    if (p[lo[1]] === 0x2d) {
      const end = escaped(lo[1] + 1);
      if (end === undefined) {
        return undefined;
      }
      hi = end;
    }
    ranges.push([lo[0], hi[0]]);
    i = hi[1];
  }
  return { test: (x) => ranges.some(([lo, hi]) => lo <= x && x <= hi) !== negated, end: i + 1 };
}

/** POSIX classes of git's wildmatch, on bytes. */
const CLASSES: { readonly [name: string]: (c: number) => boolean } = {
  alnum: (c) => /[A-Za-z0-9]/.test(String.fromCharCode(c)),
  alpha: (c) => /[A-Za-z]/.test(String.fromCharCode(c)),
  blank: (c) => c === 0x20 || c === 0x09,
  cntrl: (c) => c < 0x20 || c === 0x7f,
  digit: (c) => c >= 0x30 && c <= 0x39,
  graph: (c) => c > 0x20 && c < 0x7f,
  lower: (c) => c >= 0x61 && c <= 0x7a,
  print: (c) => c >= 0x20 && c < 0x7f,
  punct: (c) => c > 0x20 && c < 0x7f && !/[A-Za-z0-9]/.test(String.fromCharCode(c)),
  space: (c) => c === 0x20 || (c >= 0x09 && c <= 0x0d),
  upper: (c) => c >= 0x41 && c <= 0x5a,
  xdigit: (c) => /[0-9A-Fa-f]/.test(String.fromCharCode(c)),
};

/** A `[...]` set of wildmatch from just after its `[`: its test and where it ends; undefined when it is never closed. */
function wildClass(p: number[], from: number): { test: (c: number) => boolean; end: number } | undefined {
  let i = from;
  const negated = p[i] === 0x21 || p[i] === 0x5e;
  i += negated ? 1 : 0;
  const tests: ((c: number) => boolean)[] = [];
  let previous = -1;
  // The first character, even `]`, belongs to the set.
  for (let first = true; first || p[i] !== 0x5d; first = false) {
    if (i >= p.length) {
      return undefined;
    }
    const c = p[i];
    if (c === 0x5c) {
      if (i + 1 >= p.length) {
        return undefined;
      }
      const literal = p[i + 1];
      tests.push((x) => x === literal);
      previous = literal;
      i += 2;
    } else if (c === 0x2d && previous >= 0 && i + 1 < p.length && p[i + 1] !== 0x5d) {
      let hi = p[i + 1];
      i += 2;
      if (hi === 0x5c) {
        if (i >= p.length) {
          return undefined;
        }
        hi = p[i++];
      }
      const lo = previous;
      tests.push((x) => lo <= x && x <= hi);
      previous = -1;
    } else if (c === 0x5b && p[i + 1] === 0x3a) {
      const close = p.indexOf(0x5d, i + 2);
      if (close < 0) {
        return undefined;
      }
      if (close - 1 < i + 2 || p[close - 1] !== 0x3a) {
        // No `:]`: `[` is an ordinary member of the set, as wildmatch reads it.
        tests.push((x) => x === 0x5b);
        previous = 0x5b;
        i++;
      } else {
        const test = CLASSES[Buffer.from(p.slice(i + 2, close - 1)).toString('latin1')];
        if (test === undefined) {
          return undefined;
        }
        tests.push(test);
        previous = -1;
        i = close + 1;
      }
    } else {
      tests.push((x) => x === c);
      previous = c;
      i++;
    }
  }
  return { test: (x) => tests.some((t) => t(x)) !== negated, end: i + 1 };
}

/** Every position in the pattern at once, one character at a time: O(pattern) a character. */
function run(elements: readonly Element[], value: readonly number[]): boolean {
  const m = elements.length;
  const seen = new Int32Array(m + 1).fill(-1);
  let current: number[] = [];
  // A position, and those after the stars and `**` folders that follow it (which may match nothing).
  const add = (into: number[], position: number, generation: number) => {
    let at = position;
    while (seen[at] !== generation) {
      seen[at] = generation;
      into.push(at);
      if (at === m || (elements[at].k !== 'star' && elements[at].k !== 'gs')) {
        return;
      }
      at += elements[at].k === 'gs' ? 2 : 1;
    }
  };
  add(current, 0, 0);
  for (let n = 0; n < value.length; n++) {
    const c = value[n];
    const next: number[] = [];
    for (const at of current) {
      if (at === m) {
        continue;
      }
      const e = elements[at];
      if (e.k === 'star') {
        if (e.slash || c !== SLASH) {
          add(next, at, n + 1);
        }
      } else if (e.k === 'gs' || e.k === 'gs-in') {
        // Inside the folders `**` stands for: any character, and after a `/` what follows them, too.
        const inside = e.k === 'gs' ? at + 1 : at;
        add(next, inside, n + 1);
        if (c === SLASH) {
          add(next, inside + 1, n + 1);
        }
      } else if (e.test(c)) {
        add(next, at + 1, n + 1);
      }
    }
    if (next.length === 0) {
      return false;
    }
    current = next;
  }
  return current.includes(m);
}
