import { Alias, Document, isAlias, isMap, isScalar, isSeq, LineCounter, Node, parseAllDocuments } from 'yaml';
import { keysFromPointer } from './json-pointer';
import { isKubernetesObject, isObject, LocatedManifest, Manifest, SourceLocation } from './manifest';
import { decodeUtf8, DOCUMENT_MARKER, firstLine, readManifestValues, templateProblem } from './manifest-values';
import { isKustomizationFile } from './source-paths';
import { parseYamlDocuments } from './yaml-text';

/** Aliases expanded per document; billion-laughs input exceeds this at once. */
const MAX_ALIASES = 1000;

/** The objects of one file, how many documents were not Kubernetes objects, or why the file was refused. */
export interface ParsedFile {
  readonly objects: LocatedManifest[];
  readonly skipped: number;
  readonly problem?: string;
}

/**
 * Parses one YAML or JSON file (several documents, comments, anchors) into located Kubernetes objects.
 * Never throws: binary, invalid UTF-8, templates, syntax errors, alias bombs and excessive nesting
 * come back as a problem.
 */
export function parseManifests(file: string, content: Uint8Array): ParsedFile {
  const values = readManifestValues(file, content);
  if ('problem' in values) {
    return { objects: [], skipped: 0, problem: values.problem };
  }
  if (values.documents === undefined) {
    const parsed = parseCareful(file, values.text);
    return parsed.problem === undefined ? parsed : { objects: [], skipped: 0, problem: templateProblem(values.text, parsed.problem) };
  }
  const objects: LocatedManifest[] = [];
  let skipped = 0;
  // The bytes, not the text, are kept for placing findings: they lie outside the JavaScript heap, which the garbage
  // collector copies, and the text of a file without findings is never made again.
  const source = new FastSource(file, content);
  values.documents.forEach(({ value, start, itemStarts }, index) => {
    const document = new FastDocument(source, index, start, itemStarts);
    skipped += collect(value, { file, line: start.line, column: start.column }, objects, itemStarts,
      (manifest, location, item) => new FastLocated(manifest, location, document, item));
  });
  return { objects, skipped };
}

/**
 * The lines of the file a field was last located in: the next field asked for is most often in the same file. One
 * file's only: the lines of every file with a finding, held until the audit ends, would be copied by each garbage
 * collection meanwhile, which costs more than splitting a file again.
 */
let recentLines: { readonly source: FastSource; readonly lines: string[] } | undefined;

/**
 * A file the fast path read, for locating fields in it: js-yaml keeps no positions, so a finding's field is found
 * by scanning the document's lines; what the scan is unsure of, the file is read again for, with positions, once.
 * The lines are split when a field is asked for, and kept only while fields of the same file are (see recentLines):
 * most files get no finding.
 */
class FastSource {
  private reread?: { docs: Document.Parsed[]; lineCounter: LineCounter };

  constructor(readonly file: string, private readonly content: Uint8Array) {}

  linesOf(): string[] {
    if (recentLines?.source !== this) {
      recentLines = { source: this, lines: decodeUtf8(this.content).split('\n') };
    }
    return recentLines.lines;
  }

  /** The document `i` as the careful reader sees it, if it is the same document the fast path saw (it starts on `line`). */
  documentAt(i: number, line: number): { doc: Document.Parsed; lineCounter: LineCounter } | undefined {
    const reread = (this.reread ??= readAgain(decodeUtf8(this.content)));
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
  } else if (isObject(value) && isKustomizationFile(location.file)) {
    // A kustomization file may leave out its apiVersion and kind; it is still one, and SA203 reads its secretGenerator.
    objects.push(place({ apiVersion: KUSTOMIZE_API_VERSION, kind: 'Kustomization', ...value }, location, undefined));
  } else {
    skipped++;
  }
  return skipped;
}

/** What Kustomize takes a kustomization file without apiVersion and kind to be. */
const KUSTOMIZE_API_VERSION = 'kustomize.config.k8s.io/v1beta1';

/** The line before which the document whose content starts on line `first` (0-based) ends: the next marker, or the file's end. */
function endOfDocument(lines: readonly string[], first: number): number {
  let end = first + 1;
  // Only a line that starts with `---` or `...` may end it: the others are passed over without a regex.
  while (end < lines.length && !(isMarkerStart(lines[end]) && (DOCUMENT_MARKER.test(lines[end]) || /^\.\.\.(\s|$)/.test(lines[end])))) {
    end++;
  }
  return end;
}

/** Whether a line starts with `---` or `...`. */
function isMarkerStart(line: string): boolean {
  const c = line.charCodeAt(0);
  return (c === 45 || c === 46) && line.charCodeAt(1) === c && line.charCodeAt(2) === c;
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

/** Not yet worked out, in {@link indentsOf}'s arrays. */
const UNKNOWN_INDENT = -2;

/**
 * What {@link contentIndent} found in the lines last scanned (a file's findings scan the same lines again and again),
 * in one array used for every file of up to {@link REUSED_INDENTS} lines rather than one made for each.
 */
let indentsFor: readonly string[] | undefined;
let currentIndents = new Int32Array(0);
let reusedIndents = new Int32Array(256);
const REUSED_INDENTS = 65536;

function indentsOf(lines: readonly string[]): Int32Array {
  if (indentsFor !== lines) {
    // A longer file than the array holds gets a larger one, which is kept for the next files unless it is very long.
    const array = lines.length <= reusedIndents.length ? reusedIndents : new Int32Array(Math.max(lines.length, 2 * reusedIndents.length));
    if (array.length <= REUSED_INDENTS) {
      reusedIndents = array;
    }
    currentIndents = array.fill(UNKNOWN_INDENT, 0, lines.length);
    indentsFor = lines;
  }
  return currentIndents;
}

/** The indentation of line `i` when it holds more than blanks and a comment, else -1; worked out once a line. */
function contentIndent(lines: readonly string[], indents: Int32Array, i: number): number {
  let indent = indents[i];
  if (indent === UNKNOWN_INDENT) {
    indent = isContent(lines[i]) ? indentOf(lines[i]) : -1;
    indents[i] = indent;
  }
  return indent;
}

/** The first line with content in [from, end), or -1. */
function nextContent(lines: readonly string[], from: number, end: number): number {
  const indents = indentsOf(lines);
  for (let i = from; i < end; i++) {
    if (contentIndent(lines, indents, i) !== -1) {
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
  const indents = indentsOf(lines);
  const plain = isPlainToken(token);
  for (let k = 0, li = node.li; li !== -1; k++, li = entryAfter(lines, indents, li, node.end, c, isSequence)) {
    if (isSequence) {
      if (k === wanted) {
        const itemEnd = entryAfter(lines, indents, li, node.end, c, isSequence);
        const child = blockValue(lines, li, c + 1, itemEnd === -1 ? node.end : itemEnd, false);
        return child === 'unsure' ? 'unsure' : child ? { at: { li: child.li, col: child.col }, child } : 'absent';
      }
      continue;
    }
    const line = lines[li];
    // The common case without a regex: a plain key that is the token, then `:`.
    const plainEnd = plain ? plainKeyEnd(line, c, token) : undefined;
    if (plainEnd !== undefined) {
      const entryEnd = entryAfter(lines, indents, li, node.end, c, isSequence);
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
      const entryEnd = entryAfter(lines, indents, li, node.end, c, isSequence);
      const child = blockValue(lines, li, c + m[0].length, entryEnd === -1 ? node.end : entryEnd, true);
      return child === 'unsure' ? 'unsure' : { at: { li, col: c }, child };
    }
  }
  return 'absent';
}

/**
 * The line of the entry after the one on line `after` of a block mapping or sequence at column `c`, before line `end`;
 * -1 when there is none. A mapping's entries are its keys; a sequence at the same indentation under a key belongs to that key.
 */
function entryAfter(lines: readonly string[], indents: Int32Array, after: number, end: number, c: number, isSequence: boolean): number {
  for (let j = after + 1; j < end; j++) {
    const indent = contentIndent(lines, indents, j);
    if (indent === -1) {
      continue;
    }
    if (indent < c) {
      break;
    }
    if (indent === c && isDashAt(lines[j], c) === isSequence) {
      return j;
    }
  }
  return -1;
}

/**
 * Where the value starts when `line` holds, from column `c`, the plain key `token` (blanks, `:`, then a blank or
 * the end); undefined otherwise. Asked only for a token a plain key could spell ({@link isPlainToken}): the others the
 * regex reads.
 */
function plainKeyEnd(line: string, c: number, token: string): number | undefined {
  if (!line.startsWith(token, c)) {
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

/** Whether a plain key could spell `token` as it is: not empty, no indicator first, no `#` or `:`, no blank at the end. */
function isPlainToken(token: string): boolean {
  return token !== '' && !/^[\s#'"{[\]}&*!|>%@`?,-]|[#:]|\s$/.test(token);
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
