import { LineCounter, parseAllDocuments } from 'yaml';
import { isObject } from '../rules/manifest';
import { Manifest } from '../rules/types';
import { LocatedManifest } from './types';

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

/** Whether a file holds Go template expressions (a Helm template, not YAML). */
export function hasTemplateExpressions(text: string): boolean {
  return /\{\{[\s\S]*?\}\}/.test(text.replace(/^\s*#.*$/gm, ''));
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
  const depth = maxBracketDepth(text);
  if (depth > MAX_DEPTH) {
    return { objects: [], skipped: 0, problem: `nests deeper than ${MAX_DEPTH} levels (${depth}); no Kubernetes object does` };
  }
  const lineCounter = new LineCounter();
  let docs;
  try {
    docs = parseAllDocuments(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
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
    const start = doc.contents?.range?.[0] ?? 0;
    const pos = lineCounter.linePos(start);
    const location = { file, line: pos.line, column: pos.col };
    if (isObject(value) && value.kind === 'List' && Array.isArray(value.items)) {
      for (const item of value.items) {
        if (isKubernetesObject(item)) {
          objects.push({ manifest: item, location });
        } else {
          skipped++;
        }
      }
    } else if (isKubernetesObject(value)) {
      objects.push({ manifest: value, location });
    } else if (value !== null && value !== undefined) {
      skipped++;
    }
  }
  return { objects, skipped };
}

function isKubernetesObject(value: unknown): value is Manifest {
  return isObject(value) && typeof value.apiVersion === 'string' && typeof value.kind === 'string';
}

/** The deepest nesting of flow brackets and block indentation, measured without recursion. */
function maxBracketDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) { // [ {
      depth++;
      if (depth > max) {
        max = depth;
      }
    } else if (c === 93 || c === 125) { // ] }
      depth = Math.max(0, depth - 1);
    }
  }
  let maxIndent = 0;
  for (const m of text.matchAll(/^( *)\S/gm)) {
    maxIndent = Math.max(maxIndent, m[1].length);
  }
  // Two spaces a level is the common minimum: a block nesting this deep is over the limit too.
  return Math.max(max, Math.floor(maxIndent / 2));
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0];
}
