import { Rule } from './types';
import { suppressionKey } from '../core/suppressions';

/**
 * The anchor of a rule's section in RULES.md, as GitHub derives it from the heading `## SA001 half-enforced-sync-policy`:
 * lower case, the space a hyphen. Reports link to it (SARIF `helpUri`).
 */
export function ruleAnchor(rule: Pick<Rule, 'id' | 'name'>): string {
  return `${rule.id.toLowerCase()}-${rule.name}`;
}

/**
 * RULES.md, rendered from the rules' own metadata. A test fails when the committed file differs.
 */
export function renderRulesMarkdown(rules: readonly Rule[]): string {
  const lines: string[] = [
    '# Rules',
    '',
    '<!-- Generated from src/rules by `npx projen rules-doc`. Do not edit by hand. -->',
    '',
    'Every SafeApplication runs these rules over its own rendered manifests when it is synthesized (all but those',
    'marked audit only), and `safe-argocd audit` runs them all over any GitOps repository. A finding is silenced only by a',
    'reasoned suppression written on the object it is about:',
    '',
    '```yaml',
    'metadata:',
    '  annotations:',
    `    ${suppressionKey('SA006')}: "retries are handled by the release pipeline"`,
    '```',
    '',
    '| id | name | severity | summary |',
    '|---|---|---|---|',
    ...rules.map((r) => `| [${r.id}](#${ruleAnchor(r)}) | ${r.name} | ${r.severity}${r.auditOnly ? ' (audit only)' : ''} | ${r.summary} |`),
    '',
  ];
  for (const r of rules) {
    lines.push(
      `## ${r.id} ${r.name}`,
      '',
      `Severity: **${r.severity}**${r.auditOnly ? '; run by `safe-argocd audit` only, not at synth' : ''}`,
      '',
      r.summary,
      '',
      r.explanation,
      '',
      `**Fix:** ${r.fix}`,
      '',
    );
  }
  return lines.join('\n');
}
