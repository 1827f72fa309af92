import { IConstruct } from 'constructs';
import { badValue, ErrorCode } from '../core/errors';
import { parseTemplate, ParsedTemplate } from '../core/go-template';

// The parsing is pure and shared with the audit: it lives in core/go-template.ts.
export { fieldChainsOf, hasAction, parametersOf, parseTemplate, renderSimple, simpleParameter } from '../core/go-template';
export type { ParsedTemplate } from '../core/go-template';

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
