import * as jsyaml from 'js-yaml';
import { isMap, isSeq, LineCounter, parseAllDocuments } from 'yaml';
import { isObject, LocatedManifest, Manifest } from './manifest';

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
  const depth = nestingDepth(text);
  if (depth > MAX_DEPTH) {
    return { objects: [], skipped: 0, problem: `nests deeper than ${MAX_DEPTH} levels (${depth}); no Kubernetes object does` };
  }
  const fast = parseFast(file, text);
  return fast ?? parseCareful(file, text);
}

/** Anchors or aliases (`&name`, `*name`) outside quotes: such files take the careful path, which bounds alias expansion. */
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
  if (ANCHOR_OR_ALIAS.test(text) || /^\.\.\.(\s|$)/m.test(text)) {
    return undefined;
  }
  let values: unknown[];
  try {
    // js-yaml's own limit (100 by default) would refuse on this path what the careful path accepts.
    values = jsyaml.loadAll(text, undefined, { schema: FAST_SCHEMA, maxDepth: MAX_DEPTH + 2 } as jsyaml.LoadOptions) as unknown[];
  } catch (e) {
    // Too deep for js-yaml is too deep for anyone: do not hand it to a recursive parser.
    if (/depth|nest/i.test(String((e as Error).message))) {
      return { objects: [], skipped: 0, problem: `nests too deeply: ${firstLine(e)}` };
    }
    return undefined;
  }
  // Where each document starts: the first line with content after each `---` (or at the top).
  const starts: { line: number; column: number }[] = [];
  let pending = true;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (DOCUMENT_MARKER.test(line)) {
      if (!pending) {
        pending = true;
      }
      const rest = line.slice(3).trim();
      if (rest && !rest.startsWith('#')) {
        starts.push({ line: i + 1, column: 3 + line.slice(3).search(/\S/) + 1 });
        pending = false;
      }
      continue;
    }
    const trimmed = line.trim();
    if (pending && trimmed && !trimmed.startsWith('#') && !trimmed.startsWith('%')) {
      starts.push({ line: i + 1, column: line.length - line.trimStart().length + 1 });
      pending = false;
    }
  }
  if (starts.length !== values.filter((v) => v !== null && v !== undefined).length) {
    return undefined;
  }
  const objects: LocatedManifest[] = [];
  let skipped = 0;
  let index = 0;
  for (const value of values) {
    if (value === null || value === undefined) {
      continue;
    }
    const start = starts[index];
    let itemStarts: LocatedManifest['location'][] = [];
    if (isObject(value) && value.kind === 'List' && Array.isArray(value.items)) {
      // A List's items are located by their `- ` lines; anything less plain takes the careful path.
      const found = blockItemStarts(lines, start, starts[index + 1]?.line ?? lines.length + 1, value.items.length);
      if (!found) {
        return undefined;
      }
      itemStarts = found.map((p) => ({ file, ...p }));
    }
    index++;
    skipped += collect(value, { file, line: start.line, column: start.column }, objects, itemStarts);
  }
  return { objects, skipped };
}

/**
 * Where each item of a block-style `items:` sequence starts, for a List document whose mapping starts at
 * column 1 on `start.line` and ends before line `end`: each `- ` line at the items' indentation, the item at
 * the first character after the dash. Undefined unless exactly `count` such lines are found, each with the
 * item on the dash's line (so that the careful path would place them there too).
 */
function blockItemStarts(
  lines: readonly string[], start: { line: number; column: number }, end: number, count: number,
): { line: number; column: number }[] | undefined {
  if (start.column !== 1) {
    return undefined;
  }
  let i = start.line - 1;
  while (i < end - 1 && !/^items:[ \t]*(#.*)?$/.test(lines[i])) {
    i++;
  }
  const found: { line: number; column: number }[] = [];
  let indent = -1;
  for (i++; i < end - 1; i++) {
    const line = lines[i];
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) {
      continue;
    }
    const lineIndent = line.length - trimmed.length;
    if (indent === -1) {
      indent = trimmed.startsWith('- ') ? lineIndent : -2;
    }
    if (indent < 0 || lineIndent < indent || (lineIndent === indent && !trimmed.startsWith('- '))) {
      break;
    }
    if (lineIndent === indent) {
      const rest = trimmed.slice(2).trimStart();
      if (rest === '' || rest.startsWith('#')) {
        return undefined;
      }
      found.push({ line: i + 1, column: line.length - rest.length + 1 });
    }
  }
  return found.length === count && count > 0 ? found : undefined;
}

/** The careful path: the `yaml` library, with exact positions and a bound on alias expansion. */
function parseCareful(file: string, text: string): ParsedFile {
  const lineCounter = new LineCounter();
  let docs;
  try {
    docs = parseAllDocuments(text, { lineCounter, uniqueKeys: true, prettyErrors: false, merge: true });
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
    skipped += collect(value, { file, line: pos.line, column: pos.col }, objects, itemStarts);
  }
  return { objects, skipped };
}

/** Adds the Kubernetes objects of one document (a `List` gives its items) and returns how many documents were skipped. */
function collect(value: unknown, location: LocatedManifest['location'], objects: LocatedManifest[], itemStarts: LocatedManifest['location'][] = []): number {
  let skipped = 0;
  if (isObject(value) && value.kind === 'List' && Array.isArray(value.items)) {
    for (const [i, item] of value.items.entries()) {
      if (isKubernetesObject(item)) {
        objects.push({ manifest: item, location: itemStarts[i] ?? location });
      } else {
        skipped++;
      }
    }
  } else if (isKubernetesObject(value)) {
    objects.push({ manifest: value, location });
  } else {
    skipped++;
  }
  return skipped;
}

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
  let flow = 0;
  let max = 0;
  let quote = '';
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
    while (i < lineEnd && (text[i] === ' ' || text[i] === '\t')) {
      i++;
    }
    const indent = i - lineStart;
    const blank = i === lineEnd || text[i] === '\r';
    if (quote === '' && flow === 0 && blockIndent >= 0) {
      if (blank || indent > blockIndent) {
        lineStart = lineEnd + 1;
        continue;
      }
      blockIndent = -1;
    }
    if (quote === '' && flow === 0 && !blank) {
      valueStart = true;
      // Block nesting: indentation, then each compact indicator followed by a blank.
      let levels = Math.floor(indent / 2);
      let j = i;
      while (j + 1 < lineEnd && (text[j] === '-' || text[j] === '?' || text[j] === ':') && (text[j + 1] === ' ' || text[j + 1] === '\t')) {
        levels++;
        j += 2;
        while (j < lineEnd && (text[j] === ' ' || text[j] === '\t')) {
          j++;
        }
      }
      if (levels > max) {
        max = levels;
      }
    }
    for (; i < lineEnd; i++) {
      const c = text[i];
      if (quote === '"') {
        if (c === '\\') {
          i++;
        } else if (c === '"') {
          quote = '';
        }
        continue;
      }
      if (quote === "'") {
        if (c === "'") {
          if (text[i + 1] === "'") {
            i++;
          } else {
            quote = '';
          }
        }
        continue;
      }
      if (c === ' ' || c === '\t' || c === '\r') {
        continue;
      }
      const previous = i === lineStart ? ' ' : text[i - 1];
      if (c === '#' && (previous === ' ' || previous === '\t')) {
        break;
      }
      const next = i + 1 < lineEnd ? text[i + 1] : ' ';
      const blankAfter = next === ' ' || next === '\t' || next === '\r';
      if (flow > 0) {
        if (c === '[' || c === '{') {
          flow++;
          max = Math.max(max, flow);
          valueStart = true;
        } else if (c === ']' || c === '}') {
          flow--;
          valueStart = false;
        } else if ((c === '"' || c === "'") && valueStart) {
          quote = c;
          valueStart = false;
        } else {
          valueStart = c === ',' || c === ':' || (valueStart && (c === '?' || c === '-') && blankAfter);
        }
        continue;
      }
      if (!valueStart) {
        // Inside a plain scalar or key: `: ` starts the value.
        if (c === ':' && blankAfter) {
          valueStart = true;
        }
        continue;
      }
      if (c === '[' || c === '{') {
        flow = 1;
        max = Math.max(max, flow);
      } else if (c === '"' || c === "'") {
        quote = c;
        valueStart = false;
      } else if ((c === '-' || c === '?' || c === ':') && blankAfter) {
        // Another indicator: still at the start of a value.
      } else if (c === '&' || c === '!' || c === '*') {
        // An anchor, tag or alias: the value (if any) comes after it.
        while (i + 1 < lineEnd && text[i + 1] !== ' ' && text[i + 1] !== '\t') {
          i++;
        }
      } else if ((c === '|' || c === '>') && /^[|>][0-9+-]*[ \t\r]*(#.*)?$/.test(text.slice(i, lineEnd))) {
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

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0];
}
