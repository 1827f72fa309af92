import * as path from 'path';
import * as jsyaml from 'js-yaml';
import { Alias, Document, isAlias, isMap, isScalar, isSeq, LineCounter, Node, parseAllDocuments } from 'yaml';
import { keysFromPointer } from './json-pointer';
import { isObject, LocatedManifest, Manifest, SourceLocation } from './manifest';
import { KUSTOMIZATION_FILES } from './source-paths';
import { parseYamlDocuments } from './yaml-text';

/** Deeper than any real manifest; deeper input is refused before it can exhaust the stack. */
const MAX_DEPTH = 200;
/** Aliases expanded per document; billion-laughs input exceeds this at once. */
const MAX_ALIASES = 1000;

/** The objects of one file, how many documents were not Kubernetes objects, or why the file was refused. */
export interface ParsedFile {
  readonly objects: LocatedManifest[];
  readonly skipped: number;
  readonly problem?: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

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
    if (/(^|[:\-]\s*)[|>][+-]?\d*\s*$/.test(unquoted.trimEnd())) {
      blockIndent = indent;
    }
  }
  return false;
}

/**
 * Parses one YAML or JSON file (several documents, comments, anchors) into located Kubernetes objects.
 * Never throws: binary, invalid UTF-8, templates, syntax errors, alias bombs and excessive nesting
 * come back as a problem.
 */
export function parseManifests(file: string, content: Uint8Array): ParsedFile {
  if (content.subarray(0, 8192).includes(0)) {
    return { objects: [], skipped: 0, problem: 'binary file (contains NUL bytes), not YAML or JSON' };
  }
  let text: string;
  try {
    text = decoder.decode(content);
  } catch {
    return { objects: [], skipped: 0, problem: 'not valid UTF-8' };
  }
  if (hasTemplateExpressions(text)) {
    return { objects: [], skipped: 0, problem: 'contains template expressions ({{ }}): this is a template, not a manifest; audit its rendered output (e.g. helm template ... > rendered.yaml)' };
  }
  // js-yaml bounds its own depth; the careful path's parser recurses without a bound, so only it needs the pre-check.
  const parsed = parseFast(file, text) ?? tooDeep(text) ?? parseCareful(file, text);
  // A FreeMarker template is no YAML where its directives stand: say what the file is, not where YAML gave up.
  if (parsed.problem === undefined || !FREEMARKER_DIRECTIVE.test(text)) {
    return parsed;
  }
  const problem = `contains FreeMarker directives (<#if>, <#list>, ...): this is a template, not a manifest (${parsed.problem}); audit its rendered output`;
  return { objects: [], skipped: 0, problem };
}

/** A line that is a FreeMarker directive or comment (`<#if ...>`, `</#list>`, `<#-- ... -->`), which YAML cannot read there. */
const FREEMARKER_DIRECTIVE = /^[ \t]*<\/?#(?:--|(?:if|else|elseif|list|items|sep|assign|local|global|include|import|macro|function|return|switch|case|on|default|break|compress|noparse|attempt|recover|ftl|setting|nested)\b)/m;

/** The problem of a file nested deeper than any Kubernetes object, if it is. */
function tooDeep(text: string): ParsedFile | undefined {
  const depth = nestingDepth(text);
  return depth > MAX_DEPTH ? { objects: [], skipped: 0, problem: `nests deeper than ${MAX_DEPTH} levels (${depth}); no Kubernetes object does` } : undefined;
}

/** What may be an anchor or an alias (`&name`, `*name`): such files are checked node by node, and take the careful path, which bounds alias expansion, when one is. */
const ANCHOR_OR_ALIAS = /(^|[\s,[{:-])[&*][^\s,\]}]/m;
const DOCUMENT_MARKER = /^---(?=\s|$)/;
/**
 * YAML 1.2's core schema, as Kubernetes and Argo CD read manifests (an unquoted `2024-05-01` stays a
 * string), plus `<<` merge keys.
 */
const FAST_SCHEMA = jsyaml.CORE_SCHEMA.extend([(jsyaml as unknown as { types: { merge: jsyaml.Type } }).types.merge]);

/**
 * The common case, about ten times faster: no anchors or aliases, no `...` end markers. Values come from
 * js-yaml (its default schema has no executable types); each document's line is where its first content
 * line is. Returns undefined to hand anything unusual, or any error, to the careful path.
 */
function parseFast(file: string, text: string): ParsedFile | undefined {
  if (/^\.\.\.(\s|$)/m.test(text)) {
    return undefined;
  }
  // The quick test also fires on `*` and `&` in cron strings, globs and comments: then js-yaml, which keeps an alias
  // as a reference to its anchor's value rather than a copy, says whether any node really carries an anchor (no alias
  // can be without one). A file that does takes the careful path.
  let anchored = false;
  const listener = ANCHOR_OR_ALIAS.test(text)
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
      return tooDeep(text) ?? { objects: [], skipped: 0, problem: `nests too deeply: ${firstLine(e)}` };
    }
    return syntaxError(e);
  }
  if (anchored) {
    return undefined;
  }
  const { starts, lineCount } = documentStarts(text);
  let documents = 0;
  for (const value of values) {
    documents += value === null || value === undefined ? 0 : 1;
  }
  if (starts.length !== documents) {
    return undefined;
  }
  const objects: LocatedManifest[] = [];
  let skipped = 0;
  let index = 0;
  const source = new FastSource(file, text);
  let listLines: Int32Array | undefined;
  for (const value of values) {
    if (value === null || value === undefined) {
      continue;
    }
    const start = starts[index];
    let itemStarts: readonly SourceLocation[] = NO_ITEMS;
    if (isObject(value) && value.kind === 'List' && Array.isArray(value.items)) {
      // A List's items are located by their `- ` lines; anything less plain takes the careful path.
      listLines ??= lineStarts(text, lineCount);
      const found = blockItemStarts(file, text, listLines, start, starts[index + 1]?.line ?? lineCount + 1, value.items.length);
      if (!found) {
        return undefined;
      }
      itemStarts = found;
    }
    const document = new FastDocument(source, index, start, itemStarts);
    index++;
    skipped += collect(value, { file, line: start.line, column: start.column }, objects, itemStarts,
      (manifest, location, item) => new FastLocated(manifest, location, document, item));
  }
  return { objects, skipped };
}

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
function syntaxError(e: unknown): ParsedFile | undefined {
  const { reason, mark } = e as { reason?: unknown; mark?: { line?: unknown; column?: unknown } };
  if (!(e instanceof jsyaml.YAMLException) || typeof reason !== 'string' || !UNAMBIGUOUS_SYNTAX_ERRORS.has(reason)
    || typeof mark?.line !== 'number' || typeof mark.column !== 'number') {
    return undefined;
  }
  return { objects: [], skipped: 0, problem: `YAML error at line ${mark.line + 1}, column ${mark.column + 1}: ${reason}` };
}

/** The item starts of a document that is no List: one array for all of them. */
const NO_ITEMS: readonly SourceLocation[] = [];

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
 * A file the fast path read, for locating fields in it: js-yaml keeps no positions, so a finding's field is found
 * by scanning the document's lines; what the scan is unsure of, the file is read again for, with positions, once.
 * The lines are split when a field is first asked for: most files get no finding, and holding the lines of every
 * file until the findings are placed costs more in garbage collection than splitting the few that do.
 */
class FastSource {
  private lines?: string[];
  private reread?: { docs: Document.Parsed[]; lineCounter: LineCounter };

  constructor(readonly file: string, private readonly text: string) {}

  linesOf(): string[] {
    return (this.lines ??= this.text.split('\n'));
  }

  /** The document `i` as the careful reader sees it, if it is the same document the fast path saw (it starts on `line`). */
  documentAt(i: number, line: number): { doc: Document.Parsed; lineCounter: LineCounter } | undefined {
    const reread = (this.reread ??= readAgain(this.text));
    const doc = reread.docs[i];
    // The same document the fast path saw, or none: then the finding stays at the object's start.
    return doc && reread.lineCounter.linePos(doc.contents!.range![0]).line === line ? { doc, lineCounter: reread.lineCounter } : undefined;
  }
}

/** One document the fast path read: what locating a field of its object (or its List's items) needs. */
class FastDocument {
  private end?: number;

  constructor(
    private readonly source: FastSource,
    private readonly index: number,
    private readonly start: { line: number; column: number },
    private readonly itemStarts: readonly SourceLocation[],
  ) {}

  locate(item: number | undefined, fallback: SourceLocation, pointer: string): SourceLocation {
    const lines = this.source.linesOf();
    this.end ??= endOfDocument(lines, this.start.line - 1);
    // A List item is scanned from its own start to the next item's: linear in the item, not the List.
    const next = item === undefined ? undefined : this.itemStarts[item + 1];
    const scanned = item === undefined
      ? scanPointer(lines, this.start, this.end, keysFromPointer(pointer))
      : scanPointer(lines, this.itemStarts[item], next ? next.line - 1 : this.end, keysFromPointer(pointer));
    if (scanned !== undefined) {
      return scanned === 'start' ? fallback : { file: this.source.file, line: scanned.li + 1, column: scanned.col + 1 };
    }
    const found = this.source.documentAt(this.index, this.start.line);
    return found ? positionOf(found.doc, found.lineCounter, `${item === undefined ? '' : `/items/${item}`}${pointer}`, fallback) : fallback;
  }
}

/** An object the fast path read. `locate` is a method, not a closure made per object: a file may hold 100,000 objects. */
class FastLocated implements LocatedManifest {
  constructor(
    readonly manifest: Manifest,
    readonly location: SourceLocation,
    private readonly document: FastDocument,
    private readonly item: number | undefined,
  ) {}

  locate(pointer: string): SourceLocation {
    return this.document.locate(this.item, this.location, pointer);
  }
}

/** The documents of a file the fast path read, with positions, for locating fields; empty documents left out as the fast path does. */
function readAgain(text: string): { docs: Document.Parsed[]; lineCounter: LineCounter } {
  const lineCounter = new LineCounter();
  try {
    // Only positions are wanted: the fast path already found no repeated key.
    const all = parseAllDocuments(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
    const docs = (Array.isArray(all) ? all : [all]).filter((d) => d.contents !== null && !(isScalar(d.contents) && d.contents.value === null));
    return { docs, lineCounter };
  } catch {
    return { docs: [], lineCounter };
  }
}

/**
 * Where the field at `pointer` is written in `doc`: the key of each mapping entry (through `<<` merges and
 * aliases), the item of each sequence; the last step found when the rest is not written; `fallback` when
 * nothing is. Walks at most as many steps as the pointer has.
 */
function positionOf(doc: Document.Parsed, lineCounter: LineCounter, pointer: string, fallback: SourceLocation): SourceLocation {
  let node: unknown = doc.contents;
  let offset = (node as Node | null)?.range?.[0];
  for (const token of keysFromPointer(pointer)) {
    const step = childOf(doc, node, token);
    if (!step) {
      break;
    }
    node = step.node;
    offset = step.offset ?? offset;
  }
  if (offset === undefined) {
    return fallback;
  }
  const p = lineCounter.linePos(offset);
  return { file: fallback.file, line: p.line, column: p.col };
}

/** Resolved aliases, per alias node: resolving one searches the whole document, and many findings may pass one. */
const resolvedAliases = new WeakMap<object, unknown>();

function resolveAlias(doc: Document.Parsed, alias: Alias): unknown {
  if (!resolvedAliases.has(alias)) {
    resolvedAliases.set(alias, alias.resolve(doc));
  }
  return resolvedAliases.get(alias);
}

/** The child of a mapping or sequence node named by one pointer token, and where it is written. */
function childOf(doc: Document.Parsed, parent: unknown, token: string, depth: number = 0): { node: unknown; offset?: number } | undefined {
  const node = isAlias(parent) ? resolveAlias(doc, parent) : parent;
  if (isSeq(node)) {
    if (!/^(0|[1-9]\d*)$/.test(token)) {
      return undefined;
    }
    const item = node.items[Number(token)] as Node | undefined;
    return item === undefined ? undefined : { node: item, offset: item?.range?.[0] };
  }
  if (!isMap(node)) {
    return undefined;
  }
  let merged: unknown;
  for (const pair of node.items) {
    // With merge keys on, the parser gives `<<` a symbol as its value.
    const isMerge = isScalar(pair.key) && (typeof pair.key.value === 'symbol' || pair.key.value === '<<');
    const key = isScalar(pair.key) && !isMerge ? String(pair.key.value) : undefined;
    if (key === token) {
      return { node: pair.value, offset: (pair.key as Node).range?.[0] };
    }
    if (isMerge && merged === undefined) {
      merged = pair.value;
    }
  }
  // A field that came in through `<<`: where the merged mapping writes it (merges nest only a few levels in practice).
  if (merged !== undefined && depth < 10) {
    const sources = isSeq(merged) ? merged.items : [merged];
    for (const source of sources) {
      const found = childOf(doc, source, token, depth + 1);
      if (found) {
        return found;
      }
    }
  }
  return undefined;
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

/** The careful path: the `yaml` library, with exact positions and a bound on alias expansion. */
function parseCareful(file: string, text: string): ParsedFile {
  const lineCounter = new LineCounter();
  let docs;
  try {
    docs = parseYamlDocuments(text, { lineCounter, uniqueKeys: true, prettyErrors: false, merge: true });
  } catch (e) {
    return { objects: [], skipped: 0, problem: `cannot be parsed: ${firstLine(e)}` };
  }
  const list = Array.isArray(docs) ? docs : [docs];
  const objects: LocatedManifest[] = [];
  let skipped = 0;
  for (const doc of list) {
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      const pos = lineCounter.linePos(e.pos[0]);
      return { objects: [], skipped: 0, problem: `YAML error at line ${pos.line}, column ${pos.col}: ${firstLine(e.message)}` };
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIASES });
    } catch (e) {
      return { objects: [], skipped: 0, problem: `cannot be read: ${firstLine(e)}` };
    }
    if (value === null || value === undefined) {
      continue;
    }
    const pos = lineCounter.linePos(doc.contents?.range?.[0] ?? 0);
    const items = isMap(doc.contents) ? doc.contents.get('items', true) : undefined;
    const itemStarts = isSeq(items) ? items.items.map((node) => {
      const p = lineCounter.linePos((node as { range?: [number] })?.range?.[0] ?? 0);
      return { file, line: p.line, column: p.col };
    }) : [];
    const parsedDoc = doc;
    const locator: Locator = (item, fallback) => (pointer) =>
      positionOf(parsedDoc, lineCounter, `${item === undefined ? '' : `/items/${item}`}${pointer}`, fallback);
    skipped += collect(value, { file, line: pos.line, column: pos.col }, objects, itemStarts,
      (manifest, location, item) => ({ manifest, location, locate: locator(item, location) }));
  }
  return { objects, skipped };
}

/** Makes the `locate` of a document's object, or of the List item of that index (its pointers lie under `/items/<item>`). */
type Locator = (item: number | undefined, fallback: SourceLocation) => (pointer: string) => SourceLocation;

/** Makes the located object of a manifest of a document: the document's own, or its List's item of that index. */
type Place = (manifest: Manifest, location: SourceLocation, item: number | undefined) => LocatedManifest;

/** Adds the Kubernetes objects of one document (a `List` gives its items) and returns how many documents were skipped. */
function collect(value: unknown, location: SourceLocation, objects: LocatedManifest[], itemStarts: readonly SourceLocation[], place: Place): number {
  let skipped = 0;
  if (isObject(value) && value.kind === 'List' && Array.isArray(value.items)) {
    const items: unknown[] = value.items;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (isKubernetesObject(item)) {
        objects.push(place(item, itemStarts[i] ?? location, i));
      } else {
        skipped++;
      }
    }
  } else if (isKubernetesObject(value)) {
    objects.push(place(value, location, undefined));
  } else if (isObject(value) && KUSTOMIZATION_FILES.includes(path.posix.basename(location.file))) {
    // A kustomization file may leave out its apiVersion and kind; it is still one, and SA203 reads its secretGenerator.
    objects.push(place({ apiVersion: KUSTOMIZE_API_VERSION, kind: 'Kustomization', ...value }, location, undefined));
  } else {
    skipped++;
  }
  return skipped;
}

/** What Kustomize takes a kustomization file without apiVersion and kind to be. */
const KUSTOMIZE_API_VERSION = 'kustomize.config.k8s.io/v1beta1';

function isKubernetesObject(value: unknown): value is Manifest {
  return isObject(value) && typeof value.apiVersion === 'string' && typeof value.kind === 'string';
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

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0];
}

/** The line before which the document whose content starts on line `first` (0-based) ends: the next marker, or the file's end. */
function endOfDocument(lines: readonly string[], first: number): number {
  let end = first + 1;
  while (end < lines.length && !DOCUMENT_MARKER.test(lines[end]) && !/^\.\.\.(\s|$)/.test(lines[end])) {
    end++;
  }
  return end;
}

/** A place in a file's lines, 0-based. */
interface LinePos {
  readonly li: number;
  readonly col: number;
}

/** A node to step into: where it starts, the line before which it ends, and whether it lies inside a flow collection. */
interface ScanNode extends LinePos {
  readonly end: number;
  readonly flow: boolean;
}

/** A block mapping's key where `lastIndex` points (sticky: no copy of the rest of the line). */
const BLOCK_KEY = /(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^\s#'"{[\]}&*!|>%@`?,-][^#]*?|-[^\s#][^#]*?))[ \t]*:(?:[ \t\r]+|$)/y;

/**
 * Where the field at `tokens` is written, found in the lines of a plain document (no anchors: the fast path's
 * files) from `start` to the line `end`, without building a tree: block mappings and sequences by indentation, flow collections by brackets.
 * The key of the last field found (the nearest written ancestor when the rest is absent), `'start'` when not
 * even the first is written, or undefined when the text is beyond this scan (complex keys, tags, merges).
 */
function scanPointer(
  lines: readonly string[], start: { line: number; column: number }, end: number, tokens: readonly string[],
): LinePos | 'start' | undefined {
  const first = start.line - 1;
  let node: ScanNode | undefined = { li: first, col: start.column - 1, end, flow: false };
  let found: LinePos | 'start' = 'start';
  for (const token of tokens) {
    if (node === undefined) {
      return found;
    }
    const step: Step = node.flow || /^[[{]/.test(lines[node.li].slice(node.col)) ? flowStep(lines, node, token) : blockStep(lines, node, token);
    if (step === 'unsure') {
      return undefined;
    }
    if (step === 'absent') {
      return found;
    }
    found = step.at;
    node = step.child;
  }
  return found;
}

/** Whether a line holds more than blanks and a comment. Without allocating: it runs over every line a finding's document has. */
function isContent(line: string): boolean {
  let i = 0;
  while (i < line.length && isBlank(line.charCodeAt(i))) {
    i++;
  }
  return i < line.length && line.charCodeAt(i) !== 35;
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 13;
}

function indentOf(line: string): number {
  let i = 0;
  while (i < line.length && line.charCodeAt(i) === 32) {
    i++;
  }
  return i;
}

/** Whether a block sequence entry (`-` and a blank, or `-` alone) starts at column `c`. */
function isDashAt(line: string, c: number): boolean {
  return line.charCodeAt(c) === 45 && (c + 1 >= line.length || isBlank(line.charCodeAt(c + 1)));
}

/** The first line with content in [from, end), or -1. */
function nextContent(lines: readonly string[], from: number, end: number): number {
  for (let i = from; i < end; i++) {
    if (isContent(lines[i])) {
      return i;
    }
  }
  return -1;
}

/**
 * The value of a key (`afterKey`) or item written from `col` of line `li` to the rest of the entry (before
 * `end`): undefined for a scalar after a key, which has no fields; `'unsure'` for a tag or anchor.
 */
function blockValue(lines: readonly string[], li: number, col: number, end: number, afterKey: boolean): ScanNode | undefined | 'unsure' {
  const line = lines[li];
  let valueCol = col;
  while (valueCol < line.length && isBlank(line.charCodeAt(valueCol))) {
    valueCol++;
  }
  if (valueCol < line.length && line.charCodeAt(valueCol) !== 35) {
    const first = line.charAt(valueCol);
    if (afterKey && first !== '{' && first !== '[') {
      return first === '!' || first === '&' || first === '*' ? 'unsure' : undefined;
    }
    return { li, col: valueCol, end, flow: false };
  }
  const next = nextContent(lines, li + 1, end);
  return next === -1 ? undefined : { li: next, col: indentOf(lines[next]), end, flow: false };
}

type Step = { at: LinePos; child: ScanNode | undefined } | 'absent' | 'unsure';

/** One step into a block mapping or sequence starting at `node`. */
function blockStep(lines: readonly string[], node: ScanNode, token: string): Step {
  const head = lines[node.li].charAt(node.col);
  if ('!&*?|>'.includes(head)) {
    return 'unsure';
  }
  const c = node.col;
  const isSequence = isDashAt(lines[node.li], c);
  const wanted = isSequence ? (/^(0|[1-9]\d*)$/.test(token) ? Number(token) : -1) : -1;
  if (isSequence && wanted < 0) {
    return 'absent';
  }
  /** The entries, one by one: a mapping's are its keys; a sequence at the same indentation under a key belongs to that key. */
  let next = node.li;
  const nextEntry = (): number => {
    for (let j = next + 1; j < node.end; j++) {
      const line = lines[j];
      if (!isContent(line)) {
        continue;
      }
      const indent = indentOf(line);
      if (indent < c) {
        break;
      }
      if (indent === c && isDashAt(line, c) === isSequence) {
        return j;
      }
    }
    return -1;
  };
  for (let k = 0, li = node.li; li !== -1; k++, li = nextEntry()) {
    next = li;
    if (isSequence) {
      if (k === wanted) {
        const itemEnd = nextEntry();
        const child = blockValue(lines, li, c + 1, itemEnd === -1 ? node.end : itemEnd, false);
        return child === 'unsure' ? 'unsure' : child ? { at: { li: child.li, col: child.col }, child } : 'absent';
      }
      continue;
    }
    const line = lines[li];
    // The common case without a regex: a plain key that is the token, then `:`.
    const plainEnd = plainKeyEnd(line, c, token);
    if (plainEnd !== undefined) {
      const entryEnd = nextEntry();
      const child = blockValue(lines, li, plainEnd, entryEnd === -1 ? node.end : entryEnd, true);
      return child === 'unsure' ? 'unsure' : { at: { li, col: c }, child };
    }
    BLOCK_KEY.lastIndex = c;
    const m = BLOCK_KEY.exec(line);
    if (!m) {
      return 'unsure';
    }
    const key = m[1] !== undefined ? unescapeDouble(m[1]) : m[2] !== undefined ? m[2].replace(/''/g, "'") : m[3];
    if (key === undefined || key === '<<') {
      return 'unsure';
    }
    if (key === token) {
      const entryEnd = nextEntry();
      const child = blockValue(lines, li, c + m[0].length, entryEnd === -1 ? node.end : entryEnd, true);
      return child === 'unsure' ? 'unsure' : { at: { li, col: c }, child };
    }
  }
  return 'absent';
}

/**
 * Where the value starts when `line` holds, from column `c`, the plain key `token` (blanks, `:`, then a blank or
 * the end); undefined otherwise, and for a token a plain key could not spell, which the regex reads instead.
 */
function plainKeyEnd(line: string, c: number, token: string): number | undefined {
  if (token === '' || !line.startsWith(token, c) || /^[\s#'"{[\]}&*!|>%@`?,-]|[#:]|\s$/.test(token)) {
    return undefined;
  }
  let i = c + token.length;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) {
    i++;
  }
  if (line.charCodeAt(i) !== 58 || (i + 1 < line.length && !isBlank(line.charCodeAt(i + 1)))) {
    return undefined;
  }
  return i + 1;
}

function unescapeDouble(raw: string): string | undefined {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

/** A cursor over lines, for flow collections, which may span lines. */
class FlowCursor {
  constructor(private readonly lines: readonly string[], public li: number, public col: number, private readonly end: number) {}
  /** The character here; '\n' at a line's end; '' past the document. */
  peek(): string {
    if (this.li >= this.end) {
      return '';
    }
    return this.col < this.lines[this.li].length ? this.lines[this.li][this.col] : '\n';
  }
  advance(): void {
    if (this.col < this.lines[this.li].length) {
      this.col++;
    } else {
      this.li++;
      this.col = 0;
    }
  }
  /** Skips blanks, line ends and comments. */
  skipSpace(): void {
    for (let c = this.peek(); c !== ''; c = this.peek()) {
      if (c === '#' && (this.col === 0 || /\s/.test(this.lines[this.li][this.col - 1]))) {
        this.col = this.lines[this.li].length;
      } else if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
        this.advance();
      } else {
        return;
      }
    }
  }
  here(): LinePos {
    return { li: this.li, col: this.col };
  }
  /** Reads a quoted scalar starting at its quote; undefined when it does not close. */
  readQuoted(): string | undefined {
    const q = this.peek();
    // The common case at once: closed on its own line, with no escape, and (in double quotes) no control character.
    const line = this.lines[this.li];
    const close = line.indexOf(q, this.col + 1);
    if (close !== -1) {
      const raw = line.slice(this.col + 1, close);
      const plain = q === '"' ? !/[\\\u0000-\u001f]/.test(raw) : line.charCodeAt(close + 1) !== 39;
      if (plain) {
        this.col = close + 1;
        return raw;
      }
    }
    let raw = '';
    this.advance();
    for (let c = this.peek(); c !== ''; c = this.peek()) {
      this.advance();
      if (q === '"' && c === '\\') {
        raw += c + this.peek();
        this.advance();
      } else if (c === q) {
        if (q === "'" && this.peek() === "'") {
          raw += "'";
          this.advance();
        } else {
          return q === '"' ? unescapeDouble(raw.replace(/\n/g, ' ')) : raw;
        }
      } else {
        raw += c;
      }
    }
    return undefined;
  }
  /** Skips one value (a scalar or a nested collection) up to the `,` or closing bracket after it. */
  skipValue(): boolean {
    let depth = 0;
    for (let c = this.peek(); c !== ''; c = this.peek()) {
      if (c === '"' || c === "'") {
        if (this.readQuoted() === undefined) {
          return false;
        }
        continue;
      }
      if (c === '#' && (this.col === 0 || /\s/.test(this.lines[this.li][this.col - 1]))) {
        this.col = this.lines[this.li].length;
        continue;
      }
      if (c === '[' || c === '{') {
        depth++;
      } else if (c === ']' || c === '}') {
        if (depth === 0) {
          return true;
        }
        depth--;
      } else if (c === ',' && depth === 0) {
        return true;
      }
      this.advance();
    }
    return false;
  }
}

/** A plain key of a flow mapping where `lastIndex` points: up to `: `, a `,`, a closing bracket, a comment or the line's end. */
const FLOW_KEY = /[^,\]}#]*?(?=:(?:[\s,\]}]|$)|[,\]}]|\s#|$)/y;

/** One step into a flow mapping or sequence starting at `node`. */
function flowStep(lines: readonly string[], node: ScanNode, token: string): Step {
  const cur = new FlowCursor(lines, node.li, node.col, node.end);
  const open = cur.peek();
  if (open !== '{' && open !== '[') {
    return 'absent';
  }
  cur.advance();
  const wanted = open === '[' ? (/^(0|[1-9]\d*)$/.test(token) ? Number(token) : -1) : -1;
  if (open === '[' && wanted < 0) {
    return 'absent';
  }
  for (let index = 0; ; index++) {
    cur.skipSpace();
    const c = cur.peek();
    if (c === '') {
      return 'unsure';
    }
    if (c === '}' || c === ']') {
      return 'absent';
    }
    const at = cur.here();
    if (open === '[') {
      if (index === wanted) {
        return { at, child: { li: at.li, col: at.col, end: node.end, flow: true } };
      }
    } else {
      let key: string | undefined;
      if (c === '"' || c === "'") {
        key = cur.readQuoted();
      } else if (c === '?' || c === '{' || c === '[') {
        return 'unsure';
      } else {
        const line = lines[cur.li];
        FLOW_KEY.lastIndex = cur.col;
        const m = FLOW_KEY.exec(line);
        key = m ? m[0].trimEnd() : undefined;
        cur.col += m ? m[0].length : 0;
      }
      if (key === undefined) {
        return 'unsure';
      }
      cur.skipSpace();
      if (cur.peek() === ':') {
        cur.advance();
        cur.skipSpace();
      }
      if (key === token) {
        const value = cur.peek();
        return { at, child: value === ',' || value === '}' ? undefined : { li: cur.li, col: cur.col, end: node.end, flow: true } };
      }
    }
    if (!cur.skipValue()) {
      return 'unsure';
    }
    if (cur.peek() === ',') {
      cur.advance();
    }
  }
}
