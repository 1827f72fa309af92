import {
  Document, DocumentOptions, EmptyStream, isMap, isPair, isScalar, isSeq, parseAllDocuments, parseDocument, ParseOptions, SchemaOptions,
  ToJSOptions, YAMLParseError,
} from 'yaml';

/** The options of the `yaml` package's parse functions that the project uses. */
export type YamlOptions = ParseOptions & DocumentOptions & SchemaOptions;

/**
 * The `yaml` package's parseAllDocuments, with its duplicate-key check done in one pass. The package compares each key
 * of a mapping with every key before it: a mapping of 60,000 keys takes minutes. Here it parses without that check and
 * each mapping's keys are then looked up in a set, with the same verdict (scalar keys equal by value, a repeated `<<`
 * included) and the same error (`DUPLICATE_KEY`, "Map keys must be unique", at the repeated key), among the document's
 * errors in the order of the text.
 */
export function parseYamlDocuments(text: string, options: YamlOptions = {}): Array<Document.Parsed> | EmptyStream {
  const docs = parseAllDocuments(text, { ...options, uniqueKeys: false });
  if (options.uniqueKeys !== false) {
    for (const doc of Array.isArray(docs) ? docs : []) {
      addDuplicateKeyErrors(doc);
    }
  }
  return docs;
}

/** The `yaml` package's parseDocument with the one-pass duplicate-key check of {@link parseYamlDocuments}. */
export function parseYamlDocument(text: string, options: YamlOptions = {}): Document.Parsed {
  const doc = parseDocument(text, { ...options, uniqueKeys: false });
  if (options.uniqueKeys !== false) {
    addDuplicateKeyErrors(doc);
  }
  return doc;
}

/**
 * The value of one YAML document, as the `yaml` package's parse gives it (null for an empty text), with the one-pass
 * duplicate-key check; throws the document's first error. Warnings (an unknown tag, say) are not printed.
 */
export function parseYamlValue(text: string, options: YamlOptions & ToJSOptions = {}): unknown {
  // The package prints its warnings with process.emitWarning unless told to log errors only (a map key stringified, say).
  const doc = parseYamlDocument(text, { logLevel: 'error', ...options });
  if (doc.errors.length > 0) {
    throw doc.errors[0];
  }
  return doc.toJS(options);
}

/** Adds an error for each key a mapping of `doc` repeats, walking its nodes (a tree: an alias is a node of its own) without recursion. */
function addDuplicateKeyErrors(doc: Document.Parsed): void {
  const found: YAMLParseError[] = [];
  const pending: unknown[] = [doc.contents];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isMap(node)) {
      const keys = new Set<unknown>();
      for (const pair of node.items) {
        const key = pair.key;
        // As the package compares them: scalars by value (NaN equals nothing), anything else only to itself.
        const id = isScalar(key) ? key.value : key;
        if (!(typeof id === 'number' && Number.isNaN(id))) {
          if (keys.has(id)) {
            const at = (key as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
            found.push(new YAMLParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
          }
          keys.add(id);
        }
        pending.push(key, pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        pending.push(isPair(item) ? item.value : item);
      }
    }
  }
  if (found.length > 0) {
    // One by one: tens of thousands spread into push() would overflow the stack.
    for (const error of found) {
      doc.errors.push(error);
    }
    doc.errors.sort((a, b) => a.pos[0] - b.pos[0]);
  }
}
