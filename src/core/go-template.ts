import { stringify as stringifyYaml } from 'yaml';
import { compareStrings } from './order';

/**
 * Just enough of Go's text/template syntax to check the template strings of an ApplicationSet before the
 * ApplicationSet controller renders them: where the actions are, which parameters they read, and what a
 * field can look like once rendered. It is not a Go template parser; anything it does not understand is
 * left for the controller (with `missingkey=error`) to reject.
 */

/** A template string split into its literal text and its actions. */
export interface ParsedTemplate {
  /** The inner text of each `{{ }}` action, without trim markers and surrounding whitespace. */
  readonly actions: readonly string[];
  /** The text with every action replaced by `x`: the shape of the rendered value. */
  readonly skeleton: string;
}

/** The value split into literal text and actions, or a sentence saying why it is malformed. */
export function parseTemplate(value: string): ParsedTemplate | string {
  const actions: string[] = [];
  let skeleton = '';
  let pos = 0;
  for (;;) {
    const open = value.indexOf('{{', pos);
    if (open < 0) {
      skeleton += value.slice(pos);
      break;
    }
    const close = value.indexOf('}}', open + 2);
    if (close < 0) {
      return `the action opened at character ${open + 1} is never closed with "}}"`;
    }
    const inner = value.slice(open + 2, close).replace(/^-\s/, '').replace(/\s-$/, '').trim();
    if (inner.includes('{{')) {
      return `the action opened at character ${open + 1} contains another "{{"`;
    }
    if (inner === '') {
      return `the action at character ${open + 1} is empty`;
    }
    skeleton += `${value.slice(pos, open)}x`;
    actions.push(inner);
    pos = close + 2;
  }
  return { actions, skeleton };
}

/**
 * Whether a line of `value` holds `{{` and, after it, `}}`: what the regex `\{\{.*\}\}` finds (its `.` crosses no
 * line terminator), which Argo CD uses to decide whether to render a string without goTemplate. Scans each line
 * once, where the regex, on a line of many `{{` and no `}}`, takes time quadratic in the line.
 */
export function isTemplated(value: string): boolean {
  let opened = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) {
      opened = false;
    } else if (!opened && c === 0x7b && value.charCodeAt(i + 1) === 0x7b) {
      opened = true;
      i++;
    } else if (opened && c === 0x7d && value.charCodeAt(i + 1) === 0x7d) {
      return true;
    }
  }
  return false;
}

/** Whether a string holds a template action, i.e. the controller would render it. */
export function hasAction(value: string): boolean {
  return value.includes('{{');
}

/** An action without its comments, and with its string literals emptied (`""`). */
function codeOf(action: string): string {
  return blankQuoted(action.replace(/\/\*[\s\S]*?\*\//g, ' ')).replace(/`[^`]*`/g, '""');
}

/**
 * Each double-quoted string of `code` as `""`: what `code.replace(/"(?:[^"\\]|\\.)*"/g, '""')` gives, in one pass. The
 * regex scans to the end again from every quote of an unclosed string (`"\"\"\"...`), quadratic in its length.
 * A scan that fails fails the same way from every quote it passed, all escaped; the next try is after it.
 */
function blankQuoted(code: string): string {
  let out = '';
  let pos = 0;
  let from = 0;
  for (;;) {
    const open = code.indexOf('"', from);
    if (open < 0) {
      break;
    }
    let i = open + 1;
    while (i < code.length && code[i] !== '"') {
      if (code[i] === '\\') {
        // `\\.`: an escape of anything but a line terminator.
        if (i + 1 >= code.length || '\n\r\u2028\u2029'.includes(code[i + 1])) {
          break;
        }
        i += 2;
      } else {
        i++;
      }
    }
    if (code[i] === '"') {
      out += `${code.slice(pos, open)}""`;
      pos = i + 1;
      from = pos;
    } else {
      from = i + 1;
    }
  }
  return out + code.slice(pos);
}

/**
 * The top-level parameters an action reads: `name` for `.name`, `$.name` and `.name | upper`, `metadata`
 * for `.metadata.labels.env` and `index .metadata.labels "env"`. String literals and comments are skipped;
 * fields of variables (`$x.name`) and of results (`(f).name`) are not parameters.
 */
export function parametersOf(action: string): string[] {
  const code = codeOf(action);
  const found: string[] = [];
  for (const m of code.matchAll(/(?:^|[^\w)\].$])(\$?)\.([A-Za-z_]\w*)/g)) {
    if (!found.includes(m[2])) {
      found.push(m[2]);
    }
  }
  return found;
}

/**
 * The fields an action reads from the parameters, each as its chain of keys: `['path', 'basename']` for
 * `.path.basename`, `['metadata', 'labels']` for `index .metadata.labels "env"`. Skipped as in {@link parametersOf}.
 */
export function fieldChainsOf(action: string): string[][] {
  const code = codeOf(action);
  const found = new Map<string, string[]>();
  for (const m of code.matchAll(/(?:^|[^\w)\].$])\$?\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)/g)) {
    found.set(m[1], m[1].split('.'));
  }
  return [...found.values()];
}

/** The parameter of an action that only prints one top-level parameter (`.name`, `$.name`), else undefined. */
export function simpleParameter(action: string): string | undefined {
  return /^\$?\.([A-Za-z_]\w*)$/.exec(action)?.[1];
}

/** What a trim marker removes: spaces, tabs and line breaks (not every Unicode space). */
const GO_SPACE = ' \t\r\n';

/**
 * The value rendered with `params`, when every action only prints one top-level parameter that `params`
 * has; undefined when some action does more (a function, a pipeline, a nested field) and only the
 * controller can tell.
 */
export function renderSimple(value: string, params: { readonly [key: string]: string }): string | undefined {
  let out = '';
  let pos = 0;
  for (;;) {
    const open = value.indexOf('{{', pos);
    if (open < 0) {
      return out + value.slice(pos);
    }
    const close = value.indexOf('}}', open + 2);
    const inner = value.slice(open + 2, close).replace(/^-\s/, '').replace(/\s-$/, '').trim();
    const param = close < 0 ? undefined : simpleParameter(inner);
    if (param === undefined || !Object.prototype.hasOwnProperty.call(params, param)) {
      return undefined;
    }
    // Trim markers also remove the whitespace next to the action.
    let literal = value.slice(pos, open);
    if (value.startsWith('{{- ', open)) {
      literal = trimSpaceEnd(literal);
    }
    out += literal + params[param];
    pos = close + 2;
    if (value.startsWith(' -}}', close - 2)) {
      while (pos < value.length && GO_SPACE.includes(value[pos])) {
        pos++;
      }
    }
  }
}


/**
 * A value only Argo CD knows when it renders (a cluster's name or labels, from its cluster Secrets): a field
 * that reads it is left as written, unjudged.
 */
export class Symbolic {
  public constructor(public readonly what: string) {}
}

/** A character budget shared by several renders; rendering stops with `tooLarge` once it is spent. */
export interface RenderBudget {
  chars: number;
}

/** How to render: the `goTemplateOptions` that matter here, and the budget. */
export interface GoRenderOptions {
  /** `missingkey=` of `goTemplateOptions` (default `default`: a missing key prints `<no value>`). */
  readonly missingKey?: 'default' | 'invalid' | 'zero' | 'error';
  readonly budget?: RenderBudget;
}

/**
 * A rendered string; or `unknown` when only the controller can tell (a construct or function not modelled here,
 * or a {@link Symbolic} value); `error` when the controller fails too; `tooLarge` when the budget ran out.
 */
export type GoRenderResult =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'unknown' | 'error'; readonly reason: string }
  | { readonly kind: 'tooLarge' };

/** Why a render stopped. */
class Stop extends Error {
  public constructor(public readonly kind: 'unknown' | 'error' | 'tooLarge', reason: string) {
    super(reason);
  }
}

const unknown = (reason: string) => new Stop('unknown', reason);
const failed = (reason: string) => new Stop('error', reason);

/** A template node: literal text, a printed pipeline, or an if/with block. */
type TemplateNode =
  | { readonly k: 'text'; readonly text: string }
  | { readonly k: 'print'; readonly pipe: Command[] }
  | { readonly k: 'if' | 'with'; readonly pipe: Command[]; readonly then: TemplateNode[]; readonly otherwise: TemplateNode[] };

type Operand =
  | { readonly k: 'field'; readonly root: boolean; readonly path: readonly string[] }
  | { readonly k: 'literal'; readonly value: unknown }
  | { readonly k: 'function'; readonly name: string }
  | { readonly k: 'group'; readonly pipe: Command[]; readonly path: readonly string[] };

type Command = Operand[];

/** Deeper nesting than this of if/with blocks or parentheses is left to the controller. */
const MAX_NESTING = 50;

/**
 * `template` executed the way Go's text/template does with the ApplicationSet controller's functions (a subset
 * of sprig and Argo CD's own, see applicationset/utils/utils.go), with `data` as dot. Covers what templates
 * of ApplicationSets are made of: fields, `index`, pipelines of string functions, `printf`, comparisons,
 * `if`/`else`/`with`, trim markers and comments. Anything else (`range`, variables, `define`, a function not
 * listed here) is `unknown`, never guessed.
 */
export function renderGoTemplate(template: string, data: unknown, options: GoRenderOptions = {}): GoRenderResult {
  try {
    const nodes = parseNodes(template);
    const out: string[] = [];
    execute(nodes, data, data, options, out);
    return { kind: 'text', text: out.join('') };
  } catch (e) {
    if (e instanceof Stop) {
      return e.kind === 'tooLarge' ? { kind: 'tooLarge' } : { kind: e.kind, reason: e.message };
    }
    // A string longer than the engine holds, built without a budget.
    if (e instanceof RangeError && /Invalid string length/.test(e.message)) {
      return { kind: 'tooLarge' };
    }
    throw e;
  }
}

/** The text and actions of a template, trim markers applied, comments dropped. */
function lexActions(template: string): { text?: string; action?: string }[] {
  const items: { text?: string; action?: string }[] = [];
  let pos = 0;
  let trimNext = false;
  while (pos <= template.length) {
    const open = template.indexOf('{{', pos);
    let text = template.slice(pos, open < 0 ? template.length : open);
    if (trimNext) {
      text = text.replace(/^[ \t\r\n]+/, '');
    }
    if (open < 0) {
      items.push({ text });
      break;
    }
    let start = open + 2;
    if (/^-[ \t\r\n]/.test(template.slice(start, start + 2))) {
      text = trimSpaceEnd(text);
      start += 1;
    }
    items.push({ text });
    const close = closingOf(template, start);
    if (close < 0) {
      throw failed(`unclosed action at character ${open + 1}`);
    }
    let end = close;
    trimNext = /[ \t\r\n]-$/.test(template.slice(close - 2, close));
    if (trimNext) {
      end -= 1;
    }
    const inner = template.slice(start, end).trim();
    if (!(inner.startsWith('/*') && inner.endsWith('*/'))) {
      items.push({ action: inner });
    }
    pos = close + 2;
  }
  return items;
}

/**
 * `text` without the spaces, tabs and line breaks it ends with, as a left trim marker removes them. A loop from the
 * end: the regex `/[ \t\r\n]+$/` tries every run of spaces from its start, quadratic on a long run not at the end.
 */
function trimSpaceEnd(text: string): string {
  let end = text.length;
  while (end > 0 && GO_SPACE.includes(text[end - 1])) {
    end--;
  }
  return text.slice(0, end);
}

/** Where the `}}` closing an action that starts at `start` is, skipping quoted text; -1 when there is none. */
function closingOf(template: string, start: number): number {
  let i = start;
  while (i < template.length) {
    const c = template[i];
    if (c === '}' && template[i + 1] === '}') {
      return i;
    }
    if (c === '"' || c === '\'') {
      i++;
      while (i < template.length && template[i] !== c && template[i] !== '\n') {
        i += template[i] === '\\' ? 2 : 1;
      }
    } else if (c === '`') {
      const end = template.indexOf('`', i + 1);
      if (end < 0) {
        return -1;
      }
      i = end;
    } else if (c === '/' && template[i + 1] === '*') {
      const end = template.indexOf('*/', i + 2);
      if (end < 0) {
        return -1;
      }
      i = end + 1;
    }
    i++;
  }
  return -1;
}

type Token = { readonly t: 'literal'; readonly value: unknown } | { readonly t: 'field'; readonly root: boolean; readonly path: string[] }
| { readonly t: 'ident'; readonly name: string } | { readonly t: '(' | ')' | '|' };

function tokenize(action: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < action.length) {
    const c = action[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === '|') {
      tokens.push({ t: c });
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < action.length && action[j] !== '"') {
        j += action[j] === '\\' ? 2 : 1;
      }
      if (j >= action.length) {
        throw failed('unterminated quoted string');
      }
      let value: unknown;
      try {
        value = JSON.parse(action.slice(i, j + 1));
      } catch {
        throw unknown(`the string ${action.slice(i, j + 1)} uses an escape not modelled here`);
      }
      tokens.push({ t: 'literal', value });
      i = j + 1;
    } else if (c === '`') {
      const j = action.indexOf('`', i + 1);
      tokens.push({ t: 'literal', value: action.slice(i + 1, j) });
      i = j + 1;
    } else if (c === '.' || c === '$') {
      const m = /^(\$[A-Za-z0-9_]*)?((?:\.[A-Za-z_][A-Za-z0-9_]*)*)(\.)?/.exec(action.slice(i))!;
      if (m[1] !== undefined && m[1] !== '$') {
        throw unknown(`variables (${m[1]}) are not modelled here`);
      }
      const path = m[2] === '' ? [] : m[2].slice(1).split('.');
      tokens.push({ t: 'field', root: m[1] === '$', path });
      i += m[0].length;
      if (m[2] === '' && m[3] === undefined && m[1] === undefined) {
        throw failed(`unexpected "${c}"`);
      }
    } else if (/[0-9+-]/.test(c)) {
      const m = /^[+-]?(0x[0-9a-fA-F]+|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)/.exec(action.slice(i));
      if (!m) {
        throw failed(`bad number syntax at "${action.slice(i, i + 10)}"`);
      }
      tokens.push({ t: 'literal', value: Number(m[0]) });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(action.slice(i))![0];
      i += name.length;
      if (action[i] === '.' && /[A-Za-z_]/.test(action[i + 1] ?? '')) {
        throw unknown(`fields of ${name} are not modelled here`);
      }
      tokens.push(name === 'true' || name === 'false' ? { t: 'literal', value: name === 'true' }
        : name === 'nil' ? { t: 'literal', value: null } : { t: 'ident', name });
    } else if (c === ':' || c === '=') {
      throw unknown('variables are not modelled here');
    } else {
      throw unknown(`the character ${JSON.stringify(c)} in an action is not modelled here`);
    }
  }
  return tokens;
}

/** A pipeline from tokens `[from, to)`. */
function parsePipe(tokens: Token[], depth: number): Command[] {
  if (depth > MAX_NESTING) {
    throw unknown('nesting too deep');
  }
  const commands: Command[] = [];
  let current: Command = [];
  let i = 0;
  while (i < tokens.length) {
    const tok = tokens[i];
    if (tok.t === '|') {
      if (current.length === 0) {
        throw failed('missing command before "|"');
      }
      commands.push(current);
      current = [];
      i++;
    } else if (tok.t === '(') {
      let level = 1;
      let j = i + 1;
      for (; j < tokens.length && level > 0; j++) {
        level += tokens[j].t === '(' ? 1 : tokens[j].t === ')' ? -1 : 0;
      }
      if (level !== 0) {
        throw failed('unclosed left paren');
      }
      const inner = parsePipe(tokens.slice(i + 1, j - 1), depth + 1);
      let path: string[] = [];
      // `(f x).field`: the tokenizer gives the chain as a field right after the parenthesis.
      const after = tokens[j];
      if (after?.t === 'field' && !after.root && after.path.length > 0) {
        path = after.path;
        j++;
      }
      current.push({ k: 'group', pipe: inner, path });
      i = j;
    } else if (tok.t === ')') {
      throw failed('unexpected right paren');
    } else if (tok.t === 'ident') {
      current.push({ k: 'function', name: tok.name });
      i++;
    } else if (tok.t === 'field') {
      current.push({ k: 'field', root: tok.root, path: tok.path });
      i++;
    } else if (tok.t === 'literal') {
      current.push({ k: 'literal', value: tok.value });
      i++;
    }
  }
  if (current.length === 0) {
    throw failed('missing value for command');
  }
  commands.push(current);
  return commands;
}

const KEYWORDS = new Set(['range', 'define', 'template', 'block', 'break', 'continue']);

function parseNodes(template: string): TemplateNode[] {
  const items = lexActions(template);
  let index = 0;
  // Returns the nodes up to an `else` or `end`, and which one closed them.
  const parseList = (depth: number): { nodes: TemplateNode[]; closer?: string } => {
    if (depth > MAX_NESTING) {
      throw unknown('nesting too deep');
    }
    const nodes: TemplateNode[] = [];
    while (index < items.length) {
      const item = items[index++];
      if (item.text !== undefined) {
        if (item.text !== '') {
          nodes.push({ k: 'text', text: item.text });
        }
        continue;
      }
      const action = item.action!;
      const word = /^[A-Za-z]+/.exec(action)?.[0] ?? '';
      const rest = action.slice(word.length);
      if (KEYWORDS.has(word) && (rest === '' || /^\s/.test(rest))) {
        throw unknown(`{{${word}}} is not modelled here`);
      }
      if (word === 'end' && rest.trim() === '') {
        return { nodes, closer: 'end' };
      }
      if (word === 'else' && (rest === '' || /^\s/.test(rest))) {
        return { nodes, closer: action };
      }
      if ((word === 'if' || word === 'with') && /^\s/.test(rest)) {
        nodes.push(parseBlock(word, rest, depth));
        continue;
      }
      nodes.push({ k: 'print', pipe: parsePipe(tokenize(action), 0) });
    }
    return { nodes };
  };
  const parseBlock = (word: 'if' | 'with', condition: string, depth: number): TemplateNode => {
    const pipe = parsePipe(tokenize(condition), 0);
    const then = parseList(depth + 1);
    let otherwise: TemplateNode[] = [];
    if (then.closer === undefined) {
      throw failed(`unexpected EOF: {{${word}}} has no {{end}}`);
    }
    if (then.closer !== 'end') {
      const chained = /^else\s+(if|with)(\s[\s\S]*)$/.exec(then.closer);
      if (chained) {
        // `else if c` is `else` holding one `if c ... end` that shares the outer `end`.
        otherwise = [parseBlock(chained[1] as 'if' | 'with', chained[2], depth + 1)];
      } else if (then.closer.trim() === 'else') {
        const tail = parseList(depth + 1);
        if (tail.closer !== 'end') {
          throw failed(`{{${word}}} has no {{end}} after its {{else}}`);
        }
        otherwise = tail.nodes;
      } else {
        throw failed(`unexpected {{${then.closer}}}`);
      }
    }
    return { k: word, pipe, then: then.nodes, otherwise };
  };
  const top = parseList(0);
  if (top.closer !== undefined) {
    throw failed(`unexpected {{${top.closer.split(/\s/)[0]}}}`);
  }
  return top.nodes;
}

function execute(nodes: readonly TemplateNode[], dot: unknown, root: unknown, options: GoRenderOptions, out: string[]): void {
  for (const node of nodes) {
    if (node.k === 'text') {
      emit(node.text, options, out);
    } else if (node.k === 'print') {
      const value = evalPipe(node.pipe, dot, root, options);
      if (value instanceof Symbolic) {
        throw unknown(`${value.what} is known only to Argo CD`);
      }
      emit(value === undefined ? '<no value>' : formatValue(value, true), options, out);
    } else {
      const value = evalPipe(node.pipe, dot, root, options);
      if (value instanceof Symbolic) {
        throw unknown(`${value.what} is known only to Argo CD`);
      }
      const chosen = truth(value) ? node.then : node.otherwise;
      execute(chosen, node.k === 'with' && truth(value) ? value : dot, root, options, out);
    }
  }
}

function emit(text: string, options: GoRenderOptions, out: string[]): void {
  charge(text.length, options);
  out.push(text);
}

/** Spends `chars` of the budget, if there is one; stops the render once it is spent. */
function charge(chars: number, options: GoRenderOptions): void {
  if (options.budget) {
    options.budget.chars -= chars;
    if (options.budget.chars < 0) {
      throw new Stop('tooLarge', 'the rendered text is too large');
    }
  }
}

/** The characters of a function's result: its string, or the strings of its list (splitList). */
function sizeOf(value: unknown): number {
  if (typeof value === 'string') {
    return value.length;
  }
  return Array.isArray(value) ? value.reduce((n: number, v) => n + (typeof v === 'string' ? v.length : 0), 0) : 0;
}

function evalPipe(pipe: readonly Command[], dot: unknown, root: unknown, options: GoRenderOptions): unknown {
  let value: unknown;
  pipe.forEach((command, i) => {
    value = evalCommand(command, dot, root, options, i > 0 ? [value] : []);
  });
  return value;
}

function evalCommand(command: Command, dot: unknown, root: unknown, options: GoRenderOptions, piped: unknown[]): unknown {
  const [head, ...args] = command;
  if (head.k === 'function' && (head.name === 'and' || head.name === 'or')) {
    return shortCircuit(head.name, [...args.map((a) => () => evalOperand(a, dot, root, options)), ...piped.map((p) => () => p)]);
  }
  if (head.k === 'function') {
    const values = [...args.map((a) => evalOperand(a, dot, root, options)), ...piped];
    return callFunction(head.name, values, options);
  }
  if (args.length > 0 || piped.length > 0) {
    throw failed('can\'t give argument to non-function');
  }
  return evalOperand(head, dot, root, options);
}

/**
 * `and` and `or` as Go (since 1.18) runs them: the arguments in turn, stopping at the first false one (`and`) or true
 * one (`or`), whose value is the result; the ones after it are not evaluated, so a guarded `index` does not fail.
 * An argument known only to Argo CD stops it too: its truth is not known here.
 */
function shortCircuit(name: 'and' | 'or', args: (() => unknown)[]): unknown {
  if (args.length === 0) {
    throw failed(`wrong number of args for ${name}: want at least 1 got 0`);
  }
  let value: unknown;
  for (const arg of args) {
    value = arg();
    if (value instanceof Symbolic || truth(value) === (name === 'or')) {
      return value;
    }
  }
  return value;
}

function evalOperand(operand: Operand, dot: unknown, root: unknown, options: GoRenderOptions): unknown {
  switch (operand.k) {
    case 'literal': return operand.value;
    case 'function': return callFunction(operand.name, [], options);
    case 'field': return fieldOf(operand.root ? root : dot, operand.path, options);
    case 'group': return fieldOf(evalPipe(operand.pipe, dot, root, options), operand.path, options);
  }
}

function fieldOf(value: unknown, path: readonly string[], options: GoRenderOptions): unknown {
  let v = value;
  for (const key of path) {
    if (v instanceof Symbolic) {
      return v;
    }
    if (v === undefined || v === null) {
      throw failed(`nil pointer evaluating interface {}.${key}`);
    }
    if (!isMap(v)) {
      throw failed(`can't evaluate field ${key} in type ${goType(v)}`);
    }
    if (Object.prototype.hasOwnProperty.call(v, key)) {
      v = v[key];
    } else if (options.missingKey === 'error') {
      throw failed(`map has no entry for key "${key}"`);
    } else {
      v = undefined;
    }
  }
  return v;
}

function isMap(v: unknown): v is { readonly [key: string]: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Symbolic);
}

function goType(v: unknown): string {
  return typeof v === 'string' ? 'string' : typeof v === 'number' ? 'float64' : typeof v === 'boolean' ? 'bool'
    : Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}';
}

/** Go's truth: false, 0, nil and empty strings, lists and maps are false. */
function truth(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === '') {
    return false;
  }
  if (Array.isArray(v)) {
    return v.length > 0;
  }
  return isMap(v) ? Object.keys(v).length > 0 : true;
}

/** A value as Go's fmt prints it with %v (a float64 from JSON without exponent below 1e21). */
export function formatValue(v: unknown, top = false): string {
  if (v === undefined || v === null) {
    return top ? '<no value>' : '<nil>';
  }
  if (typeof v === 'string') {
    return v;
  }
  if (typeof v === 'number') {
    return Number.isInteger(v) && Math.abs(v) < 1e21 ? v.toFixed(0) : String(v);
  }
  if (typeof v === 'boolean') {
    return String(v);
  }
  if (Array.isArray(v)) {
    return `[${v.map((x) => formatValue(x)).join(' ')}]`;
  }
  if (isMap(v)) {
    return `map[${Object.keys(v).sort().map((k) => `${k}:${formatValue(v[k])}`).join(' ')}]`;
  }
  throw unknown('a value not modelled here');
}

/** Argo CD's `normalize` (SanitizeName, applicationset/utils/template_functions.go): a DNS-1123 subdomain. */
export function sanitizeName(name: string): string {
  return name.toLowerCase().replace(/[^-a-z0-9.]/g, '-').slice(0, 253).replace(/^[-.]+|[-.]+$/g, '');
}

function str(name: string, v: unknown, position: number): string {
  if (typeof v !== 'string') {
    throw failed(`error calling ${name}: wrong type for value; expected string; got ${v === undefined || v === null ? 'nil' : goType(v)} (argument ${position})`);
  }
  return v;
}

function arity(name: string, args: unknown[], n: number): void {
  if (args.length !== n) {
    throw failed(`wrong number of args for ${name}: want ${n} got ${args.length}`);
  }
}

function empty(v: unknown): boolean {
  return !truth(v);
}

function compare(name: string, a: unknown, b: unknown): number {
  if (a === undefined || a === null || b === undefined || b === null) {
    // Go's answer for a missing value depends on its release: leave it to the controller.
    throw unknown(`${name} of a missing value is not modelled here`);
  }
  if (typeof a === 'number' && typeof b === 'number') {
    return a - b;
  }
  if (typeof a === 'string' && typeof b === 'string') {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'boolean' && typeof b === 'boolean' && (name === 'eq' || name === 'ne')) {
    return a === b ? 0 : 1;
  }
  throw failed(`error calling ${name}: incompatible types for comparison`);
}

/** The functions modelled here, with Go's or sprig's argument order (the piped value comes last). */
const FUNCTIONS: { readonly [name: string]: (args: unknown[], room: number) => unknown } = {
  index: (args) => {
    let v = args[0];
    for (const k of args.slice(1)) {
      if (Array.isArray(v) && typeof k === 'number') {
        if (k < 0 || k >= v.length || !Number.isInteger(k)) {
          throw failed(`error calling index: index out of range: ${k}`);
        }
        v = v[k];
      } else if (isMap(v) && typeof k === 'string') {
        v = Object.prototype.hasOwnProperty.call(v, k) ? v[k] : undefined;
      } else if (v === undefined || v === null) {
        throw failed('error calling index: index of untyped nil');
      } else {
        throw failed(`error calling index: cannot index ${goType(v)} with ${goType(k)}`);
      }
    }
    return v;
  },
  len: (args) => {
    arity('len', args, 1);
    const v = args[0];
    if (typeof v === 'string') {
      return new TextEncoder().encode(v).length;
    }
    if (Array.isArray(v)) {
      return v.length;
    }
    if (isMap(v)) {
      return Object.keys(v).length;
    }
    throw failed(`error calling len: len of type ${goType(v)}`);
  },
  not: (args) => {
    arity('not', args, 1);
    return !truth(args[0]);
  },
  and: (args) => shortCircuit('and', args.map((a) => () => a)),
  or: (args) => shortCircuit('or', args.map((a) => () => a)),
  eq: (args) => args.slice(1).some((b) => compare('eq', args[0], b) === 0),
  ne: (args) => {
    arity('ne', args, 2);
    return compare('ne', args[0], args[1]) !== 0;
  },
  lt: (args) => compare('lt', args[0], args[1]) < 0,
  le: (args) => compare('le', args[0], args[1]) <= 0,
  gt: (args) => compare('gt', args[0], args[1]) > 0,
  ge: (args) => compare('ge', args[0], args[1]) >= 0,
  print: (args) => args.map((a, i) => (i > 0 && typeof a !== 'string' && typeof args[i - 1] !== 'string' ? ' ' : '') + formatValue(a)).join(''),
  printf: (args) => {
    const format = str('printf', args[0], 1);
    let n = 1;
    return format.replace(/%([%a-zA-Z]?)/g, (whole, verb: string) => {
      if (verb === '%') {
        return '%';
      }
      if (!['s', 'v', 'd'].includes(verb)) {
        throw unknown(`printf ${whole} is not modelled here`);
      }
      if (n >= args.length) {
        return `%!${verb}(MISSING)`;
      }
      const value = args[n++];
      if (verb === 'd' && !(typeof value === 'number' && Number.isInteger(value))) {
        throw unknown('printf %d of a value that is not an integer is not modelled here');
      }
      return formatValue(value);
    });
  },
  default: (args) => (args.length < 2 || empty(args[args.length - 1]) ? args[0] : args[args.length - 1]),
  empty: (args) => empty(args[0]),
  lower: (args) => str('lower', args[0], 1).toLowerCase(),
  upper: (args) => str('upper', args[0], 1).toUpperCase(),
  trim: (args) => str('trim', args[0], 1).trim(),
  trimPrefix: (args) => {
    const [prefix, s] = [str('trimPrefix', args[0], 1), str('trimPrefix', args[1], 2)];
    return s.startsWith(prefix) ? s.slice(prefix.length) : s;
  },
  trimSuffix: (args) => {
    const [suffix, s] = [str('trimSuffix', args[0], 1), str('trimSuffix', args[1], 2)];
    return suffix !== '' && s.endsWith(suffix) ? s.slice(0, s.length - suffix.length) : s;
  },
  replace: (args, room) => replaceAll(str('replace', args[2], 3), str('replace', args[0], 1), str('replace', args[1], 2), room),
  trunc: (args) => {
    const [n, s] = [args[0], str('trunc', args[1], 2)];
    if (typeof n !== 'number') {
      throw failed('error calling trunc: wrong type for value; expected int');
    }
    return n >= 0 ? s.slice(0, n) : s.slice(Math.max(0, s.length + n));
  },
  quote: (args) => args.filter((a) => a !== undefined && a !== null).map((a) => JSON.stringify(formatValue(a))).join(' '),
  squote: (args) => args.filter((a) => a !== undefined && a !== null).map((a) => `'${formatValue(a)}'`).join(' '),
  normalize: (args) => sanitizeName(str('normalize', args[0], 1)),
  toString: (args: unknown[]) => formatValue(args[0]),
  contains: (args) => str('contains', args[1], 2).includes(str('contains', args[0], 1)),
  hasPrefix: (args) => str('hasPrefix', args[1], 2).startsWith(str('hasPrefix', args[0], 1)),
  hasSuffix: (args) => str('hasSuffix', args[1], 2).endsWith(str('hasSuffix', args[0], 1)),
  join: (args, room) => {
    const list = args[1];
    if (!Array.isArray(list)) {
      throw unknown('join of a value that is not a list is not modelled here');
    }
    const separator = str('join', args[0], 1);
    const items = list.map((x) => formatValue(x));
    if (sizeOf(items) + separator.length * Math.max(0, items.length - 1) > room) {
      throw new Stop('tooLarge', 'join gives too large a string');
    }
    return items.join(separator);
  },
  splitList: (args) => str('splitList', args[1], 2).split(str('splitList', args[0], 1)),
  // sprig's dict functions take a map[string]interface{}: anything else fails the call, a case left to the controller here.
  hasKey: (args) => {
    arity('hasKey', args, 2);
    return Object.prototype.hasOwnProperty.call(mapOf('hasKey', args[0]), str('hasKey', args[1], 2));
  },
  omit: (args) => {
    const dict = mapOf('omit', args[0]);
    const keys = new Set(args.slice(1).map((k, i) => str('omit', k, i + 2)));
    return Object.fromEntries(Object.entries(dict).filter(([k]) => !keys.has(k)));
  },
  // sprig's toJson is encoding/json's Marshal, its error dropped: map keys sorted, <, > and & escaped.
  toJson: (args) => {
    arity('toJson', args, 1);
    return goJson(args[0]);
  },
  // sprig's toYaml is sigs.k8s.io/yaml's Marshal, its error dropped and its last newline trimmed: keys sorted, block style.
  toYaml: (args, room) => {
    arity('toYaml', args, 1);
    const text = goYaml(args[0]);
    if (text.length > room) {
      throw new Stop('tooLarge', 'toYaml gives too large a string');
    }
    return text;
  },
  // sprig's indent pads every line of the text; nindent puts a line break first.
  indent: (args, room) => indentText('indent', args, room),
  nindent: (args, room) => `\n${indentText('nindent', args, room)}`,
  first: (args) => listOf('first', args[0])[0],
  last: (args) => {
    const list = listOf('last', args[0]);
    return list[list.length - 1];
  },
};

/**
 * Go's strings.Replace(s, old, new, -1), which sprig's `replace` calls: an empty `old` matches before each
 * character and at the end (`a` gives `xax`, the empty string `x`).
 */
function replaceAll(s: string, old: string, replacement: string, room: number): string {
  // Its length is known before it is built: a few nested replaces would otherwise build strings of gigabytes.
  let matches = old === '' ? Array.from(s).length + 1 : 0;
  for (let at = old === '' ? -1 : s.indexOf(old); at >= 0; at = s.indexOf(old, at + old.length)) {
    matches++;
  }
  if (s.length + matches * (replacement.length - old.length) > room) {
    throw new Stop('tooLarge', 'replace gives too large a string');
  }
  return old === '' ? `${replacement}${Array.from(s).join(replacement)}${s === '' ? '' : replacement}` : s.split(old).join(replacement);
}

function mapOf(name: string, v: unknown): { readonly [key: string]: unknown } {
  if (!isMap(v)) {
    throw unknown(`${name} of a value that is not a map is not modelled here`);
  }
  return v;
}

/** encoding/json's Marshal of a value read from YAML or JSON; a symbolic value anywhere in it is known only to Argo CD. */
function goJson(v: unknown): string {
  if (v instanceof Symbolic) {
    throw unknown(`${v.what} is known only to Argo CD`);
  }
  if (Array.isArray(v)) {
    return `[${v.map(goJson).join(',')}]`;
  }
  if (isMap(v)) {
    return `{${Object.keys(v).sort(compareStrings).map((k) => `${escapeJson(k)}:${goJson(v[k])}`).join(',')}}`;
  }
  if (typeof v === 'string') {
    return escapeJson(v);
  }
  // Go prints a float64 as JavaScript does: exponents below 1e-6 and from 1e21, shortest digits.
  return v === undefined ? 'null' : JSON.stringify(v);
}

/** sigs.k8s.io/yaml's Marshal of a value read from YAML or JSON, without its last newline, as sprig's toYaml gives it. */
function goYaml(v: unknown): string {
  assertKnown(v, 0);
  const text = stringifyYaml(v, { sortMapEntries: true, lineWidth: 0, indentSeq: false, aliasDuplicateObjects: false });
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** Throws when a symbolic value (known only to Argo CD) is anywhere in `v`. */
function assertKnown(v: unknown, depth: number): void {
  if (v instanceof Symbolic) {
    throw unknown(`${v.what} is known only to Argo CD`);
  }
  if (depth > 64) {
    throw unknown('a value nested this deep is not modelled here');
  }
  if (Array.isArray(v)) {
    v.forEach((item) => assertKnown(item, depth + 1));
  } else if (isMap(v)) {
    Object.values(v).forEach((item) => assertKnown(item, depth + 1));
  }
}

/** sprig's indent: `spaces` spaces before every line of the text, its size charged against `room` first. */
function indentText(name: string, args: unknown[], room: number): string {
  arity(name, args, 2);
  const [spaces, text] = [args[0], str(name, args[1], 2)];
  if (typeof spaces !== 'number' || !Number.isInteger(spaces)) {
    throw failed(`error calling ${name}: wrong type for value; expected int`);
  }
  const pad = ' '.repeat(Math.max(0, Math.min(spaces, room)));
  const lines = text.split('\n');
  if (text.length + pad.length * lines.length > room) {
    throw new Stop('tooLarge', `${name} gives too large a string`);
  }
  return pad + lines.join(`\n${pad}`);
}

function escapeJson(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function listOf(name: string, v: unknown): readonly unknown[] {
  if (!Array.isArray(v)) {
    throw unknown(`${name} of a value that is not a list is not modelled here`);
  }
  return v;
}

/**
 * The result of a function, its characters charged to the budget like printed text: a pipeline of `replace`
 * calls can multiply a string's length each step without printing it.
 */
function callFunction(name: string, args: unknown[], options: GoRenderOptions): unknown {
  const symbolic = args.find((a) => a instanceof Symbolic);
  if (symbolic !== undefined) {
    return symbolic;
  }
  if (!Object.prototype.hasOwnProperty.call(FUNCTIONS, name)) {
    throw unknown(`the function ${name} is not modelled here`);
  }
  const result = FUNCTIONS[name](args, options.budget ? options.budget.chars : Infinity);
  charge(sizeOf(result), options);
  return result;
}
