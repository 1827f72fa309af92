import { applicationYaml, configMapYaml } from './support';
import { auditFiles } from '../../src/audit/audit';
import { formatMarkdown } from '../../src/audit/report/markdown';
import { formatText } from '../../src/audit/report/text';
import { AuditResult } from '../../src/audit/types';
import { ArgoCdVersion } from '../../src/core/argocd-version';

/** Application `web` with SA001 (error) and SA006 (warning), SA006 suppressed by config with `reason`. */
function result(reason: string): AuditResult {
  const files = {
    'apps/web.yaml': applicationYaml('web', { syncPolicy: { automated: { prune: true, selfHeal: false }, retry: undefined } }),
    'workloads/web/configmap.yaml': configMapYaml('settings', 'web'),
  };
  return auditFiles(Object.entries(files).map(([path, text]) => ({ path, content: Buffer.from(text) })), {
    argoCdVersion: ArgoCdVersion.LATEST,
    suppressions: [{ ruleId: 'SA006', reason, paths: [], applications: [] }],
  });
}

describe('audit reports', () => {
  test('text is coloured by severity only when asked', () => {
    // GIVEN a result with an error
    const audit = result('retries are done by the pipeline');

    // WHEN it is formatted with and without colour
    const coloured = formatText(audit, true);
    const plain = formatText(audit, false);

    // THEN only the coloured one has escape codes, around the severity
    expect(coloured).toContain('\u001b[31merror  \u001b[0m');
    expect(plain).not.toContain('\u001b[');
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(plain);
  });

  test('Markdown escapes pipes so that a reason cannot break the table', () => {
    // GIVEN a suppression reason with a pipe and a newline
    const audit = result('retries | are done\nby the pipeline');

    // WHEN it is formatted as Markdown
    const row = formatMarkdown(audit).split('\n').find((l) => l.startsWith('| SA006 |'))!;

    // THEN the row keeps four cells
    expect(row).toBe('| SA006 | Application argocd/web | `apps/web.yaml:1` | retries \\| are done by the pipeline (config) |');
    expect(row.split(/(?<!\\)\|/).slice(1, -1)).toHaveLength(4);
  });
});
