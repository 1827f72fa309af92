/**
 * Glob matching with the syntax Argo CD reads (its util/glob wraps gobwas/glob), in time linear in the
 * value for a given pattern: the pattern becomes a small automaton that is run over the value one
 * character at a time, tracking every state at once, so no pattern and value can make it backtrack.
 *
 * Syntax: `*` any run of characters other than a separator, `**` any run of characters, `?` one character
 * other than a separator, `[abc]` / `[a-z]` one of a set or range (`[!...]` none of it), `{a,b}` one of the
 * alternatives (which may hold any of the above), `\x` the character x; everything else literally. A
 * pattern that does not compile (an unclosed `[`, an empty or reversed class, a trailing `\`) matches
 * nothing, as Argo CD logs and refuses it. A `{` left open is closed at the end of the pattern.
 */

/** One state of the automaton. `next` are the states that follow without reading a character. */
interface State {
  /** What the state reads: a set of characters, anything (`any`, separators excluded unless `all`), or nothing (an epsilon state). */
  kind: 'char' | 'class' | 'any' | 'epsilon' | 'accept';
  char?: string;
  negated?: boolean;
  chars?: ReadonlySet<string>;
  lo?: number;
  hi?: number;
  /** `**`: separators too. */
  all?: boolean;
  /** After reading: where to go. For epsilon: where to go without reading. */
  out: number[];
}

/**
 * A compiled pattern: its states and the start state; and what most patterns are, answered without running it: the
 * literal characters it starts with (every value it matches starts with them), and whether it is only those (`team-a`)
 * or those and one `*` or `**` at the end (`*`, `https://git.example.com/org/*`).
 */
interface Automaton {
  readonly states: State[];
  readonly start: number;
  readonly prefix: string;
  readonly shape: 'literal' | 'prefix-star' | 'prefix-all' | 'other';
}

/** A pattern of characters that stand for themselves, which only the same text matches. */
const PLAIN = /^[\w.\-/:@]*$/;

const CACHE_LIMIT = 1000;
const cache = new Map<string, Automaton | null>();

/**
 * Whether `pattern` matches all of `value`, as Argo CD's glob.Match does. `separators` are the characters
 * `*` and `?` do not cross (Argo CD passes `/` for project source repositories, none elsewhere).
 */
export function globMatches(pattern: string, value: string, separators: string = ''): boolean {
  // Most patterns are plain names (`apps`, `Deployment`): equal or not, without building the cache's key.
  if (PLAIN.test(pattern)) {
    return pattern === value;
  }
  const key = `${separators}\u0000${pattern}`;
  let automaton = cache.get(key);
  if (automaton === undefined) {
    automaton = compile(pattern, separators);
    if (cache.size >= CACHE_LIMIT) {
      cache.clear();
    }
    cache.set(key, automaton);
  }
  return automaton !== null && matches(automaton, value, separators);
}

/** Whether the compiled pattern matches all of `value`. */
function matches(automaton: Automaton, value: string, separators: string): boolean {
  const { prefix, shape } = automaton;
  if (shape === 'literal') {
    return value === prefix;
  }
  if (!value.startsWith(prefix)) {
    return false;
  }
  if (shape === 'prefix-all') {
    return true;
  }
  if (shape === 'prefix-star') {
    for (let i = prefix.length; i < value.length; i++) {
      if (separators.includes(value[i])) {
        return false;
      }
    }
    return true;
  }
  return run(automaton, value, separators);
}

/**
 * `pattern` compiled once into a matcher of whole values, for callers that match many values against many patterns
 * (exclude lists), which the shared cache of {@link globMatches} would thrash. A pattern that does not compile
 * matches nothing. The automaton is built on the first value that starts with the pattern's literal prefix: a list
 * of thousands of patterns of which a path matches the prefixes of few holds thousands of strings, not automata.
 */
export function compileGlob(pattern: string, separators: string = ''): (value: string) => boolean {
  const prefix = literalPrefix(pattern);
  if (prefix.length === pattern.length) {
    return (value) => value === prefix;
  }
  let automaton: Automaton | null | undefined;
  return (value) => {
    if (!value.startsWith(prefix)) {
      return false;
    }
    automaton ??= compile(pattern, separators);
    return automaton !== null && matches(automaton, value, separators);
  };
}

/** The characters a pattern starts with that are only themselves: up to its first `*`, `?`, `[`, `{` or `\`. */
function literalPrefix(pattern: string): string {
  const special = pattern.search(/[*?[{\\]/);
  return special === -1 ? pattern : pattern.slice(0, special);
}

/** Whether a glob compiles at all: Argo CD matches nothing with one that does not. */
export function isValidGlob(pattern: string): boolean {
  return parse(pattern) !== null;
}

/** A parsed pattern: a sequence of elements, alternatives being lists of sequences. */
type Element =
  | { type: 'char'; char: string }
  | { type: 'any'; all: boolean }
  | { type: 'single' }
  | { type: 'class'; negated: boolean; chars?: Set<string>; lo?: number; hi?: number }
  | { type: 'alt'; options: Element[][] };

/** Parses without recursion: open `{` groups are kept on an explicit stack. Null when it does not compile. */
function parse(pattern: string): Element[] | null {
  const chars = Array.from(pattern);
  const root: Element[] = [];
  // Each open group: the alternatives so far and the sequence being filled.
  const stack: { alt: { type: 'alt'; options: Element[][] }; parent: Element[] }[] = [];
  let current = root;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '\\') {
      if (i + 1 >= chars.length) {
        return null;
      }
      current.push({ type: 'char', char: chars[++i] });
    } else if (c === '*') {
      if (chars[i + 1] === '*') {
        i++;
        current.push({ type: 'any', all: true });
      } else {
        current.push({ type: 'any', all: false });
      }
    } else if (c === '?') {
      current.push({ type: 'single' });
    } else if (c === '[') {
      const parsed = parseClass(chars, i + 1);
      if (!parsed) {
        return null;
      }
      current.push(parsed.element);
      i = parsed.end;
    } else if (c === '{') {
      const alt: { type: 'alt'; options: Element[][] } = { type: 'alt', options: [[]] };
      current.push(alt);
      stack.push({ alt, parent: current });
      current = alt.options[0];
    } else if (c === ',' && stack.length > 0) {
      const top = stack[stack.length - 1];
      current = [];
      top.alt.options.push(current);
    } else if (c === '}' && stack.length > 0) {
      current = stack.pop()!.parent;
    } else {
      current.push({ type: 'char', char: c });
    }
  }
  return root;
}

/** A character class from just after `[`: `!` first negates, then one range `a-z` or a set of characters (with `\` escapes). */
function parseClass(chars: string[], from: number): { element: Element; end: number } | undefined {
  let i = from;
  let negated = false;
  if (chars[i] === '!') {
    negated = true;
    i++;
  }
  if (i < chars.length && chars[i + 1] === '-' && chars[i] !== ']') {
    const lo = chars[i].codePointAt(0)!;
    const hi = chars[i + 2]?.codePointAt(0);
    if (hi === undefined || chars[i + 3] !== ']' || hi < lo) {
      return undefined;
    }
    return { element: { type: 'class', negated, lo, hi }, end: i + 3 };
  }
  const set = new Set<string>();
  for (; i < chars.length; i++) {
    const c = chars[i];
    if (c === ']') {
      return set.size > 0 ? { element: { type: 'class', negated, chars: set }, end: i } : undefined;
    }
    if (c === '\\') {
      if (++i >= chars.length) {
        return undefined;
      }
      set.add(chars[i]);
    } else {
      set.add(c);
    }
  }
  return undefined;
}

/**
 * Builds the automaton (Thompson's construction) without recursion: each sequence is laid out right to
 * left, so every element already knows the state that follows it; alternatives are expanded from a work list.
 */
function compile(pattern: string, _separators: string): Automaton | null {
  const elements = parse(pattern);
  if (!elements) {
    return null;
  }
  const firstOther = elements.findIndex((e) => e.type !== 'char');
  const prefix = elements.slice(0, firstOther === -1 ? elements.length : firstOther).map((e) => (e as { char: string }).char).join('');
  const last = elements[elements.length - 1];
  const shape = firstOther === -1 ? 'literal'
    : firstOther === elements.length - 1 && last.type === 'any' ? (last.all ? 'prefix-all' : 'prefix-star') : 'other';
  const states: State[] = [{ kind: 'accept', out: [] }];
  const add = (s: State): number => states.push(s) - 1;
  // Each job: lay out `sequence` into the epsilon state `entry`, continuing at `exit`.
  const jobs: { sequence: Element[]; entry: number; exit: number }[] = [];
  const start = add({ kind: 'epsilon', out: [] });
  jobs.push({ sequence: elements, entry: start, exit: 0 });
  while (jobs.length > 0) {
    const { sequence, entry, exit } = jobs.pop()!;
    let next = exit;
    for (let k = sequence.length - 1; k >= 0; k--) {
      const e = sequence[k];
      if (e.type === 'char') {
        next = add({ kind: 'char', char: e.char, out: [next] });
      } else if (e.type === 'single') {
        next = add({ kind: 'any', all: false, out: [next] });
      } else if (e.type === 'class') {
        next = add({ kind: 'class', negated: e.negated, chars: e.chars, lo: e.lo, hi: e.hi, out: [next] });
      } else if (e.type === 'any') {
        // A loop: the split either reads one more character (and comes back) or goes on.
        const split = add({ kind: 'epsilon', out: [next] });
        const read = add({ kind: 'any', all: e.all, out: [split] });
        states[split].out.push(read);
        next = split;
      } else {
        const split = add({ kind: 'epsilon', out: [] });
        for (const option of e.options) {
          const optionEntry = add({ kind: 'epsilon', out: [] });
          states[split].out.push(optionEntry);
          jobs.push({ sequence: option, entry: optionEntry, exit: next });
        }
        next = split;
      }
    }
    states[entry].out.push(next);
  }
  return { states, start, prefix, shape };
}

/** Runs the automaton over `value`, all live states at once: O(states) per character. */
function run(automaton: Automaton, value: string, separators: string): boolean {
  const { states } = automaton;
  const seen = new Int32Array(states.length).fill(-1);
  let generation = 0;
  let current: number[] = [];
  const stack: number[] = [];
  const closure = (from: readonly number[], into: number[]): void => {
    stack.push(...from);
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (seen[s] === generation) {
        continue;
      }
      seen[s] = generation;
      if (states[s].kind === 'epsilon') {
        for (const o of states[s].out) {
          stack.push(o);
        }
      } else {
        into.push(s);
      }
    }
  };
  closure([automaton.start], current);
  for (const c of value) {
    if (current.length === 0) {
      return false;
    }
    generation++;
    const next: number[] = [];
    const isSeparator = separators.includes(c);
    for (const s of current) {
      const state = states[s];
      if (reads(state, c, isSeparator)) {
        closure(state.out, next);
      }
    }
    current = next;
  }
  return current.some((s) => states[s].kind === 'accept');
}

function reads(state: State, c: string, isSeparator: boolean): boolean {
  switch (state.kind) {
    case 'char': return state.char === c;
    case 'any': return state.all === true || !isSeparator;
    case 'class': {
      const inSet = state.chars ? state.chars.has(c) : c.codePointAt(0)! >= state.lo! && c.codePointAt(0)! <= state.hi!;
      return inSet !== state.negated;
    }
    default: return false;
  }
}
