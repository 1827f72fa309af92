import * as jsyaml from 'js-yaml';
import { isKubernetesObject, isObject, SourceLocation } from './manifest';
import { isKustomizationFile } from './source-paths';

/**
 * The first half of reading a manifest file, which needs no more than js-yaml: whether the file can be read at all,
 * and, for the common file without anchors, its values and where each document starts. parse-manifests.ts places the
 * objects, and takes the careful path (the `yaml` library, with positions) where this half cannot decide.
 */

/** Deeper than any real manifest; deeper input is refused before it can exhaust the stack. */
const MAX_DEPTH = 200;

/** What {@link readManifestValues} found: why the file cannot be audited, or its text, with its documents when the fast path read them. */
export type ManifestValues = { readonly problem: string } | { readonly text: string; readonly documents?: readonly ValuesDocument[] };

/** One document the fast path read (empty documents are left out). */
export interface ValuesDocument {
  readonly value: unknown;
  /** Where its first content line is: 1-based line and column. */
  readonly start: { readonly line: number; readonly column: number };
  /** Where each item of a List starts; empty for any other document. */
  readonly itemStarts: readonly SourceLocation[];
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The text of bytes that are UTF-8 (a byte order mark dropped); throws on bytes that are not. */
export function decodeUtf8(content: Uint8Array): string {
  return decoder.decode(content);
}

/**
 * Reads one YAML or JSON file as far as js-yaml can: a binary, invalid UTF-8, templated, malformed or too deeply
 * nested file comes back as a problem; a file with anchors, aliases or `...` markers, or one js-yaml refuses where
 * YAML 1.2 may not, as its text without documents, for the careful path. Never throws.
 */
export function readManifestValues(file: string, content: Uint8Array): ManifestValues {
  if (content.subarray(0, 8192).includes(0)) {
    return { problem: 'binary file (contains NUL bytes), not YAML or JSON' };
  }
  let text: string;
  try {
    text = decodeUtf8(content);
  } catch {
    return { problem: 'not valid UTF-8' };
  }
  if (hasTemplateExpressions(text)) {
    return { problem: 'contains template expressions ({{ }}): this is a template, not a manifest; audit its rendered output (e.g. helm template ... > rendered.yaml)' };
  }
  // js-yaml bounds its own depth; the careful path's parser recurses without a bound, so only it needs the pre-check.
  const read = readFast(file, text) ?? tooDeep(text);
  if (read === undefined) {
    return { text };
  }
  return 'problem' in read ? { problem: templateProblem(text, read.problem) } : { text, documents: read.documents };
}

/**
 * The problem of a file that could not be parsed, as it is, or, for a FreeMarker template (which YAML cannot read where
 * its directives stand), what the file is rather than where YAML gave up.
 */
export function templateProblem(text: string, problem: string): string {
  return FREEMARKER_DIRECTIVE.test(text) ? `contains FreeMarker directives (<#if>, <#list>, ...): this is a template, not a manifest (${problem}); audit its rendered output` : problem;
}

/**
 * The common case, about ten times faster: no anchors or aliases, no `...` end markers. Values come from
 * js-yaml (its default schema has no executable types); each document's line is where its first content
 * line is. Returns undefined to hand anything unusual, or any error, to the careful path.
 */
function readFast(file: string, text: string): { documents: ValuesDocument[] } | { problem: string } | undefined {
  // Each test looks for its character first: a search for it is many times faster than a regular expression tried at
  // every position of a file that, as nearly every file does, holds none.
  if (text.includes('...') && /^\.\.\.(\s|$)/m.test(text)) {
    return undefined;
  }
  // The quick test also fires on `*` and `&` in cron strings, globs and comments: then js-yaml, which keeps an alias
  // as a reference to its anchor's value rather than a copy, says whether any node really carries an anchor (no alias
  // can be without one). A file that does takes the careful path.
  let anchored = false;
  const listener = (text.includes('&') || text.includes('*')) && ANCHOR_OR_ALIAS.test(text)
    ? (event: string, state: { anchor: string | null }) => {
      anchored ||= event === 'close' && state.anchor !== null;
    }
    : undefined;
  let values: unknown[];
  try {
    // js-yaml's own limit (100 by default) would refuse on this path what the careful path accepts.
    const options = { schema: FAST_SCHEMA, maxDepth: MAX_DEPTH + 2, ...listener ? { listener } : {} };
    values = jsyaml.loadAll(text, undefined, options as jsyaml.LoadOptions) as unknown[];
  } catch (e) {
    // Too deep for js-yaml is too deep for anyone: do not hand it to a recursive parser.
    if (/depth|nest/i.test(String((e as Error).message))) {
      return tooDeep(text) ?? { problem: `nests too deeply: ${firstLine(e)}` };
    }
    return syntaxError(e);
  }
  // An anchor in a file that holds no Kubernetes object (a CI pipeline, a values file): every document is skipped
  // whatever its aliases expand to, so the careful path, which would place and expand them, has nothing to do.
  if (anchored && (isKustomizationFile(file) || values.some((value) => isKubernetesObject(value) || isList(value)))) {
    return undefined;
  }
  const { starts, lineCount } = documentStarts(text);
  const present = values.filter((value) => value !== null && value !== undefined);
  if (starts.length !== present.length) {
    return undefined;
  }
  const documents: ValuesDocument[] = [];
  let listLines: Int32Array | undefined;
  for (let index = 0; index < present.length; index++) {
    const value = present[index];
    const start = starts[index];
    let itemStarts: readonly SourceLocation[] = NO_ITEMS;
    if (isList(value)) {
      // A List's items are located by their `- ` lines; anything less plain takes the careful path.
      listLines ??= lineStarts(text, lineCount);
      const found = blockItemStarts(file, text, listLines, start, starts[index + 1]?.line ?? lineCount + 1, value.items.length);
      if (!found) {
        return undefined;
      }
      itemStarts = found;
    }
    documents.push({ value, start, itemStarts });
  }
  return { documents };
}

/** Whether a document is a `List` of items (`kind: List`, `items: [...]`). */
function isList(value: unknown): value is { items: unknown[] } {
  return isObject(value) && value.kind === 'List' && Array.isArray(value.items);
}

/** The item starts of a document that is no List: one array for all of them. */
const NO_ITEMS: readonly SourceLocation[] = [];

/**
 * Whether a file holds Go template actions where YAML would read them (a Helm template, not a manifest):
 * `{{` where a value starts, outside quotes, comments and block scalars. Quoted, block-scalar or mid-scalar
 * `{{ }}` (ApplicationSet parameters, Prometheus alert annotations) is ordinary string content.
 */
export function hasTemplateExpressions(text: string): boolean {
  if (!text.includes('{{')) {
    return false;
  }
  let blockIndent = -1;
  for (const line of text.split('\n')) {
    // Outside a block scalar, a line with no `{{`, no comment and no block indicator at its end can neither hold an
    // action nor open a block scalar: most lines of a file are passed over without a regular expression.
    if (blockIndent < 0 && !line.includes('{{') && !line.includes('#') && !mayOpenBlock(line)) {
      continue;
    }
    const indent = line.length - line.trimStart().length;
    const trimmed = line.trim();
    if (blockIndent >= 0) {
      if (trimmed === '' || indent > blockIndent) {
        continue;
      }
      blockIndent = -1;
    }
    if (trimmed.startsWith('#')) {
      continue;
    }
    const unquoted = line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'/g, '""').replace(/\s#.*$/, '');
    // Where a value starts, `{{` is a template action; inside a plain scalar (`web-{{cluster}}`) it is text.
    if (/(^\s*|:\s+|-\s+|[[,{]\s*)\{\{/.test(unquoted)) {
      return true;
    }
    // A block scalar (`key: |`, `- >-`) holds text on the more indented lines that follow.
    if (BLOCK_HEADER.test(unquoted.trimEnd())) {
      blockIndent = indent;
    }
  }
  return false;
}

/** The end of a line that opens a block scalar (`key: |`, `- >-`, `key: |2+`). */
const BLOCK_HEADER = /(^|[:\-]\s*)[|>][+-]?\d*\s*$/;

/**
 * Whether a line may end as {@link BLOCK_HEADER} does: its last character before trailing white space is `|`, `>`, `+`,
 * `-` or a digit. Replacing quoted strings never makes a line end in one of those (a comment removed may, which is why a
 * line with `#` is never passed over), so a line without `#` for which this is false opens no block scalar.
 */
function mayOpenBlock(line: string): boolean {
  const trimmed = line.trimEnd();
  const c = trimmed.charCodeAt(trimmed.length - 1);
  return c === 124 || c === 62 || c === 43 || c === 45 || (c >= 48 && c <= 57);
}

/** A line that is a FreeMarker directive or comment (`<#if ...>`, `</#list>`, `<#-- ... -->`), which YAML cannot read there. */
const FREEMARKER_DIRECTIVE = /^[ \t]*<\/?#(?:--|(?:if|else|elseif|list|items|sep|assign|local|global|include|import|macro|function|return|switch|case|on|default|break|compress|noparse|attempt|recover|ftl|setting|nested)\b)/m;

/** The problem of a file nested deeper than any Kubernetes object, if it is. */
function tooDeep(text: string): { problem: string } | undefined {
  const depth = nestingDepth(text);
  return depth > MAX_DEPTH ? { problem: `nests deeper than ${MAX_DEPTH} levels (${depth}); no Kubernetes object does` } : undefined;
}

/** What may be an anchor or an alias (`&name`, `*name`): such files are checked node by node, and take the careful path, which bounds alias expansion, when one is. */
const ANCHOR_OR_ALIAS = /(^|[\s,[{:-])[&*][^\s,\]}]/m;
export const DOCUMENT_MARKER = /^---(?=\s|$)/;
/**
 * YAML 1.2's core schema, as Kubernetes and Argo CD read manifests (an unquoted `2024-05-01` stays a
 * string), plus `<<` merge keys.
 */
// Implicit, as a `<<` key is resolved without a tag: given as a list, js-yaml takes it as an explicit type, which only a
// `!!merge` tag selects, and keeps `<<` as an ordinary key.
const FAST_SCHEMA = jsyaml.CORE_SCHEMA.extend({ implicit: [(jsyaml as unknown as { types: { merge: jsyaml.Type } }).types.merge] });

/**
 * js-yaml's errors that every YAML parser agrees on, at the place they are: a key with no colon, a missing comma, a
 * line indented where nothing can start. A file that fails with one of them is refused at js-yaml's position without
 * being read a second time. Every other error is handed to the careful path, which decides: an unknown tag or a
 * duplicate key, anything js-yaml may refuse where YAML 1.2 does not, and an unclosed bracket or quote (js-yaml
 * places it at the end of the file, the careful path where it was opened).
 */
const UNAMBIGUOUS_SYNTAX_ERRORS: ReadonlySet<string> = new Set([
  'missed comma between flow collection entries',
  'bad indentation of a mapping entry',
  'can not read an implicit mapping pair; a colon is missed',
  'can not read a block mapping entry; a multiline key may not be an implicit key',
  'end of the stream or a document separator is expected',
]);

/** The problem of a file js-yaml refused with an error in {@link UNAMBIGUOUS_SYNTAX_ERRORS}, else undefined (the careful path decides). */
function syntaxError(e: unknown): { problem: string } | undefined {
  const { reason, mark } = e as { reason?: unknown; mark?: { line?: unknown; column?: unknown } };
  if (!(e instanceof jsyaml.YAMLException) || typeof reason !== 'string' || !UNAMBIGUOUS_SYNTAX_ERRORS.has(reason)
    || typeof mark?.line !== 'number' || typeof mark.column !== 'number') {
    return undefined;
  }
  return { problem: `YAML error at line ${mark.line + 1}, column ${mark.column + 1}: ${reason}` };
}

/**
 * Where each document of a file starts: the first line with content after each `---` (or at the top), and how many
 * lines the file has. Only a marker line, or a line while a start is still wanted, is looked at closely.
 */
function documentStarts(text: string): { starts: { line: number; column: number }[]; lineCount: number } {
  const starts: { line: number; column: number }[] = [];
  let pending = true;
  let i = 0;
  for (let lineStart = 0; lineStart <= text.length; i++) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) {
      lineEnd = text.length;
    }
    if (pending || text.startsWith('---', lineStart)) {
      const line = text.slice(lineStart, lineEnd);
      if (DOCUMENT_MARKER.test(line)) {
        pending = true;
        const rest = line.slice(3).trim();
        if (rest && !rest.startsWith('#')) {
          starts.push({ line: i + 1, column: 3 + line.slice(3).search(/\S/) + 1 });
          pending = false;
        }
      } else {
        const trimmed = line.trim();
        if (trimmed && !trimmed.startsWith('#') && !trimmed.startsWith('%')) {
          starts.push({ line: i + 1, column: line.length - line.trimStart().length + 1 });
          pending = false;
        }
      }
    }
    lineStart = lineEnd + 1;
  }
  return { starts, lineCount: i };
}

/**
 * Where each item of a block-style `items:` sequence starts, for a List document whose mapping starts at
 * column 1 on `start.line` and ends before line `end`: each `- ` line at the items' indentation, the item at
 * the first character after the dash. Undefined unless exactly `count` such lines are found, each with the
 * item on the dash's line (so that the careful path would place them there too).
 */
function blockItemStarts(
  file: string, text: string, lineStart: Int32Array, start: { line: number; column: number }, end: number, count: number,
): SourceLocation[] | undefined {
  if (start.column !== 1) {
    return undefined;
  }
  let i = start.line - 1;
  while (i < end - 1 && !/^items:[ \t]*(#.*)?$/.test(text.slice(lineStart[i], lineStart[i + 1] - 1))) {
    i++;
  }
  const found: SourceLocation[] = [];
  let indent = -1;
  // Positions in the text rather than a string for each line: a List may have hundreds of thousands of items.
  for (i++; i < end - 1; i++) {
    const from = lineStart[i];
    const to = lineStart[i + 1] - 1;
    const first = skipWhitespace(text, from, to);
    const lineIndent = first - from;
    if (first === to || text.charCodeAt(first) === HASH) {
      continue;
    }
    const dash = text.charCodeAt(first) === DASH && first + 1 < to && text.charCodeAt(first + 1) === SPACE;
    if (indent === -1) {
      indent = dash ? lineIndent : -2;
    }
    if (indent < 0 || lineIndent < indent || (lineIndent === indent && !dash)) {
      break;
    }
    if (lineIndent === indent) {
      const rest = skipWhitespace(text, first + 2, to);
      if (rest === to || text.charCodeAt(rest) === HASH) {
        return undefined;
      }
      found.push({ file, line: i + 1, column: rest - from + 1 });
    }
  }
  return found.length === count && count > 0 ? found : undefined;
}

/** Where each of the `count` lines of `text` starts, and after them `text.length + 1`: lines by position, without a string each. */
function lineStarts(text: string, count: number): Int32Array {
  const starts = new Int32Array(count + 1);
  let position = 0;
  for (let line = 1; line < count; line++) {
    position = text.indexOf('\n', position) + 1;
    starts[line] = position;
  }
  starts[count] = text.length + 1;
  return starts;
}

/**
 * The deepest nesting of flow collections and block indentation, measured in one pass without recursion.
 * Brackets count only where YAML reads them as structure: not inside quoted scalars (which may span lines),
 * comments, block scalars (`key: |` and the more indented lines after it) or a plain scalar (`a[1]`); so a
 * script with ANSI colour codes or a regex is text, not nesting. Block nesting is two columns of
 * indentation a level plus each compact `- `, `? ` or `: ` that opens a line.
 */
export function nestingDepth(text: string): number {
  // Character codes rather than one-character strings: this runs over every byte of every file.
  let flow = 0;
  let max = 0;
  /** The quote a quoted scalar opened (`"` or `'`), or 0 outside one. */
  let quote = 0;
  /** The indentation of the line that opened a block scalar, or -1 outside one. */
  let blockIndent = -1;
  /** Whether the next non-blank character starts a value (where `[`, `{`, quotes and block indicators mean something). */
  let valueStart = true;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) {
      lineEnd = text.length;
    }
    let i = lineStart;
    while (i < lineEnd && isSpaceOrTab(text.charCodeAt(i))) {
      i++;
    }
    const indent = i - lineStart;
    const blank = i === lineEnd || text.charCodeAt(i) === CR;
    if (quote === 0 && flow === 0 && blockIndent >= 0) {
      if (blank || indent > blockIndent) {
        lineStart = lineEnd + 1;
        continue;
      }
      blockIndent = -1;
    }
    if (quote === 0 && flow === 0 && !blank) {
      valueStart = true;
      // Block nesting: indentation, then each compact indicator followed by a blank.
      let levels = Math.floor(indent / 2);
      let j = i;
      while (j + 1 < lineEnd && isCompactIndicator(text.charCodeAt(j)) && isSpaceOrTab(text.charCodeAt(j + 1))) {
        levels++;
        j += 2;
        while (j < lineEnd && isSpaceOrTab(text.charCodeAt(j))) {
          j++;
        }
      }
      if (levels > max) {
        max = levels;
      }
    }
    for (; i < lineEnd; i++) {
      const c = text.charCodeAt(i);
      if (quote === DOUBLE_QUOTE) {
        if (c === BACKSLASH) {
          i++;
        } else if (c === DOUBLE_QUOTE) {
          quote = 0;
        }
        continue;
      }
      if (quote === SINGLE_QUOTE) {
        if (c === SINGLE_QUOTE) {
          if (text.charCodeAt(i + 1) === SINGLE_QUOTE) {
            i++;
          } else {
            quote = 0;
          }
        }
        continue;
      }
      if (c === SPACE || c === TAB || c === CR) {
        continue;
      }
      if (c === HASH && (i === lineStart || isSpaceOrTab(text.charCodeAt(i - 1)))) {
        break;
      }
      const next = i + 1 < lineEnd ? text.charCodeAt(i + 1) : SPACE;
      const blankAfter = next === SPACE || next === TAB || next === CR;
      if (flow > 0) {
        if (c === OPEN_BRACKET || c === OPEN_BRACE) {
          flow++;
          max = Math.max(max, flow);
          valueStart = true;
        } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
          flow--;
          valueStart = false;
        } else if ((c === DOUBLE_QUOTE || c === SINGLE_QUOTE) && valueStart) {
          quote = c;
          valueStart = false;
        } else {
          valueStart = c === COMMA || c === COLON || (valueStart && (c === QUESTION || c === DASH) && blankAfter);
        }
        continue;
      }
      if (!valueStart) {
        // Inside a plain scalar or key: `: ` starts the value.
        if (c === COLON && blankAfter) {
          valueStart = true;
        }
        continue;
      }
      if (c === OPEN_BRACKET || c === OPEN_BRACE) {
        flow = 1;
        max = Math.max(max, flow);
      } else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
        quote = c;
        valueStart = false;
      } else if (isCompactIndicator(c) && blankAfter) {
        // Another indicator: still at the start of a value.
      } else if (c === AMPERSAND || c === BANG || c === STAR) {
        // An anchor, tag or alias: the value (if any) comes after it.
        while (i + 1 < lineEnd && !isSpaceOrTab(text.charCodeAt(i + 1))) {
          i++;
        }
      } else if ((c === PIPE || c === GREATER) && /^[|>][0-9+-]*[ \t\r]*(#.*)?$/.test(text.slice(i, lineEnd))) {
        blockIndent = indent;
        break;
      } else {
        valueStart = false;
      }
    }
    lineStart = lineEnd + 1;
  }
  return max;
}

const SPACE = 32;
const TAB = 9;
const CR = 13;
const HASH = 35;
const DOUBLE_QUOTE = 34;
const SINGLE_QUOTE = 39;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const COMMA = 44;
const COLON = 58;
const QUESTION = 63;
const DASH = 45;
const AMPERSAND = 38;
const BANG = 33;
const STAR = 42;
const PIPE = 124;
const GREATER = 62;

/** Where the first character `trimStart` would keep is in `text` from `from` on, or `to`. */
function skipWhitespace(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && isWhitespace(text.charCodeAt(i))) {
    i++;
  }
  return i;
}

/** JavaScript's white space and line terminators, which `trimStart` and `\s` remove. */
function isWhitespace(code: number): boolean {
  return code === SPACE || (code >= TAB && code <= CR) || (code > 127 && /\s/.test(String.fromCharCode(code)));
}

function isSpaceOrTab(code: number): boolean {
  return code === SPACE || code === TAB;
}

/** `-`, `?` or `:`, which open a compact nested node when a blank follows. */
function isCompactIndicator(code: number): boolean {
  return code === DASH || code === QUESTION || code === COLON;
}

export function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0];
}
