import { describeObject } from '../core/manifest';
import { Finding } from '../rules/types';

/** One finding as a synth error line: rule, object, construct path, field, value and fix. */
export function formatFinding(f: Finding, constructPath: string): string {
  const value = f.value === undefined ? '' : ` (value: ${JSON.stringify(f.value)})`;
  return `${f.rule.id} ${f.rule.name} [${f.rule.severity}] on ${describeObject(f.object)} at ${constructPath}${f.path ? ` ${f.path}` : ''}: `
    + `${f.message}${value}. Fix: ${f.rule.fix} To accept it, add a reasoned suppression for ${f.rule.id}.`;
}
