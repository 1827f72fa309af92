import { artifactLocation } from './escape';
import { ruleAnchor } from '../../rules/docs';
import { Severity } from '../../rules/severity';
import { Rule } from '../../rules/types';
import { AuditFinding, AuditResult } from '../types';

const LEVEL: Record<Severity, string> = { [Severity.ERROR]: 'error', [Severity.WARNING]: 'warning', [Severity.NOTE]: 'note' };

/**
 * GitHub code scanning's `security-severity`, a number from 0.0 to 10.0 as a string, which it shows as critical
 * (9.0+), high (7.0+), medium (4.0+) or low: an error is high, a warning medium, a note low.
 */
export const SECURITY_SEVERITY: Record<Severity, string> = { [Severity.ERROR]: '8.0', [Severity.WARNING]: '5.0', [Severity.NOTE]: '2.0' };

function result(f: AuditFinding, ruleIndex: number): Record<string, unknown> {
  return {
    ruleId: f.ruleId,
    ruleIndex,
    level: LEVEL[f.severity],
    message: { text: `${f.object}${f.application ? ` (Application ${f.application})` : ''}${f.pointer ? ` ${f.pointer}` : ''}: ${f.message}` },
    locations: [{
      physicalLocation: {
        artifactLocation: artifactLocation(f.location.file),
        region: { startLine: f.location.line, startColumn: f.location.column },
      },
    }],
    partialFingerprints: { objectPointer: `${f.ruleId}:${f.object}:${f.pointer}` },
    ...(f.suppression ? { suppressions: [{ kind: f.suppression.source === 'annotation' ? 'inSource' : 'external', justification: f.suppression.reason }] } : {}),
  };
}

/**
 * SARIF 2.1.0 for code scanning: one run, the rules with their help text, a `helpUri` into `rulesDoc` (the
 * address of RULES.md, when known) and a `security-severity`, one result per finding (suppressed ones carry a
 * suppression; baselined ones are left out, as known), regions with line and column relative to the repository root.
 */
export function formatSarif(audit: AuditResult, rules: readonly Rule[], version: string, rulesDoc?: string): string {
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'safe-argocd',
          version,
          ...(rulesDoc ? { informationUri: rulesDoc } : {}),
          rules: rules.map((r) => ({
            id: r.id,
            name: r.name,
            shortDescription: { text: r.summary },
            fullDescription: { text: r.explanation },
            help: { text: `${r.explanation}\n\nFix: ${r.fix}`, markdown: `${r.explanation}\n\n**Fix:** ${r.fix}` },
            defaultConfiguration: { level: LEVEL[r.severity] },
            ...(rulesDoc ? { helpUri: `${rulesDoc}#${ruleAnchor(r)}` } : {}),
            // Code scanning reads security-severity only on rules tagged security.
            properties: { 'tags': ['security', 'argo-cd'], 'security-severity': SECURITY_SEVERITY[r.severity] },
          })),
        },
      },
      originalUriBaseIds: { SRCROOT: { description: { text: 'The root of the audited repository' } } },
      results: [...audit.findings, ...audit.suppressed].map((f) => result(f, index.get(f.ruleId) ?? 0)),
      invocations: [{
        executionSuccessful: audit.problems.length === 0,
        toolExecutionNotifications: audit.problems.map((p) => ({
          level: 'error',
          message: { text: `${p.file}: ${p.message}` },
          locations: [{ physicalLocation: { artifactLocation: artifactLocation(p.file) } }],
        })),
      }],
    }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
