/**
 * Control characters (C0, DEL, C1) and the Unicode bidirectional overrides, which a file name or a value
 * from audited YAML could hold to forge lines, colours or reordered text in a terminal or a review.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** The same characters, to test for: nearly every text holds none, and a test is cheaper than a replace that finds none. */
const HAS_UNSAFE = new RegExp(UNSAFE.source);
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `text` with every control character written as an escape (`\n`, `\t`, `\x1b`, `\u202e`), so it prints as one plain line. */
export function escapeControl(text: string): string {
  if (!HAS_UNSAFE.test(text)) {
    return text;
  }
  return text.replace(UNSAFE, (c) => {
    if (Object.prototype.hasOwnProperty.call(NAMED, c)) {
      return NAMED[c];
    }
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Markdown's inline syntax: escapes, code, emphasis, strikethrough, links and images, tables, headings. */
const MARKDOWN_SYNTAX = /[\\`*_~[\]|#]/g;
const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * `text` as literal Markdown text: `&`, `<` and `>` as HTML entities (no tag, comment or entity of the text is
 * read), the characters of emphasis, code, links, images and tables escaped with a backslash, and a list marker at
 * its start too. Text from the audited files (names, values, reasons) goes into a pull-request comment this way, so
 * that it can neither close the report's `<details>` nor embed an image or a link.
 */
export function markdownText(text: string): string {
  return text.replace(/[&<>]/g, (c) => HTML[c])
    .replace(MARKDOWN_SYNTAX, '\\$&')
    .replace(/^([-+]|\d+[.)])/, (m) => `${m.slice(0, -1)}\\${m.slice(-1)}`);
}

/**
 * A Markdown code span holding `text` literally: fenced by one backtick more than the longest run of
 * backticks inside, padded with a space when the text starts or ends with one (CommonMark code spans).
 */
export function codeSpan(text: string): string {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === '`' ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * A SARIF artifactLocation for a file as the audit names it: a path relative to the repository root, each
 * segment percent-encoded (so `#`, `?`, `:` and `%` stay part of the name), against the SRCROOT base; a path
 * outside the root (absolute) as a `file:` URI without a base, as SARIF 2.1.0 wants for absolute URIs.
 */
export function artifactLocation(file: string): { uri: string; uriBaseId?: string } {
  const segments = file.split('/');
  if (file.startsWith('/')) {
    return { uri: `file://${segments.map(encodeURIComponent).join('/')}` };
  }
  if (/^[A-Za-z]:$/.test(segments[0]) && segments.length > 1) {
    return { uri: `file:///${segments[0]}/${segments.slice(1).map(encodeURIComponent).join('/')}` };
  }
  return { uri: segments.map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' };
}
