import { AuditResult } from '../types';

/** The whole result as stable, indented JSON. */
export function formatJson(result: AuditResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
