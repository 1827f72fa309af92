import { readFileSync } from 'fs';
import { join } from 'path';
import { parse } from 'yaml';
import { parseAuditConfig } from '../../src/audit/config';
import { findRule } from '../../src/rules/registry';

const ROOT = join(__dirname, '..', '..');

describe('docs', () => {
  test('the incidents page names only rules that exist, and every rule-bearing row cites at least one', () => {
    const page = readFileSync(join(ROOT, 'docs', 'incidents.md'), 'utf8');
    const ids = [...page.matchAll(/\bSA\d{3}\b/g)].map((m) => m[0]);
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) {
      expect(findRule(id)).toBeDefined();
    }
  });

  test('the README\'s .safe-argocd.yaml is one the audit reads, with the suppression it shows', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /project-wide ones live in `\.safe-argocd\.yaml`:\n\n```yaml\n([\s\S]*?)```/.exec(readme);
    expect(block).not.toBeNull();
    const config = parseAuditConfig(block![1]);
    expect(config.failOn).toBe('warning');
    expect(config.suppressions.map((s) => s.ruleId)).toEqual(['SA007']);
  });

  test('the CI recipe synthesizes, fails on a stale tree, audits and uploads SARIF', () => {
    const workflow = parse(readFileSync(join(ROOT, 'examples', 'ci', 'github-actions.yaml'), 'utf8'));
    const steps: { run?: string; uses?: string; with?: Record<string, string> }[] = workflow.jobs.gitops.steps;
    const runs = steps.map((s) => s.run ?? '').join('\n');
    expect(runs).toContain('npm ci');
    expect(runs).toContain('git diff --exit-code -- dist');
    expect(runs).toMatch(/safe-argocd audit \. --format sarif --output safe-argocd\.sarif/);
    const upload = steps.find((s) => s.uses?.includes('upload-sarif'));
    expect(upload?.with?.sarif_file).toBe('safe-argocd.sarif');
    expect(workflow.permissions['security-events']).toBe('write');
  });
});
