import { IConstruct } from 'constructs';
import { badValue, ErrorCode } from '../core/errors';

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

/** Whether a string holds a template action, i.e. the controller would render it. */
export function hasAction(value: string): boolean {
  return value.includes('{{');
}

/**
 * The top-level parameters an action reads: `name` for `.name`, `$.name` and `.name | upper`, `metadata`
 * for `.metadata.labels.env` and `index .metadata.labels "env"`. String literals and comments are skipped;
 * fields of variables (`$x.name`) and of results (`(f).name`) are not parameters.
 */
export function parametersOf(action: string): string[] {
  const code = action
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/`[^`]*`/g, '""');
  const found: string[] = [];
  for (const m of code.matchAll(/(?:^|[^\w)\].$])(\$?)\.([A-Za-z_]\w*)/g)) {
    if (!found.includes(m[2])) {
      found.push(m[2]);
    }
  }
  return found;
}

/** The parameter of an action that only prints one top-level parameter (`.name`, `$.name`), else undefined. */
export function simpleParameter(action: string): string | undefined {
  return /^\$?\.([A-Za-z_]\w*)$/.exec(action)?.[1];
}

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
      literal = literal.replace(/\s+$/, '');
    }
    out += literal + params[param];
    pos = close + 2;
    if (value.startsWith(' -}}', close - 2)) {
      const rest = value.slice(pos);
      pos += rest.length - rest.trimStart().length;
    }
  }
}

/**
 * `value` parsed as a Go template, or a [SAFE-040] naming `where` and `prop`.
 */
export function checkTemplateSyntax(where: IConstruct | string, prop: string, value: string): ParsedTemplate {
  const parsed = parseTemplate(value);
  if (typeof parsed === 'string') {
    throw badValue(ErrorCode.INVALID_TEMPLATE, where, prop, value, `is not a valid Go template: ${parsed}`, 'write each parameter as {{.name}}');
  }
  return parsed;
}
