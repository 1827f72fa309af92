import { applicationYaml, configMapYaml } from './support';
import { auditFiles } from '../../src/audit/audit';
import { applyBaseline, inBaselineScope, parseBaseline, renderBaseline } from '../../src/audit/baseline';
import { AuditResult } from '../../src/audit/types';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Severity } from '../../src/rules/severity';

function audit(files: Record<string, string>): AuditResult {
  return auditFiles(Object.entries(files).map(([path, text]) => ({ path, content: Buffer.from(text) })), { argoCdVersion: ArgoCdVersion.LATEST });
}

/** Application `web` with selfHeal off (SA001) and no retry (SA006); `padding` lines of comments above it. */
function repo(padding: number = 0): Record<string, string> {
  return {
    'apps/web.yaml': '# note\n'.repeat(padding) + applicationYaml('web', { syncPolicy: { automated: { prune: true, selfHeal: false }, retry: undefined } }),
    'workloads/web/configmap.yaml': configMapYaml('settings', 'web'),
  };
}

describe('audit baselines', () => {
  test('a baseline is stable JSON keyed on rule, file, object and pointer, without line numbers', () => {
    // GIVEN a result with two findings
    const text = renderBaseline(audit(repo()));

    // WHEN it is written / THEN it names each finding without a line, sorted, and is the same when written again
    expect(JSON.parse(text)).toEqual({
      version: 1,
      findings: [
        { ruleId: 'SA001', file: 'apps/web.yaml', object: 'Application argocd/web', pointer: '/spec/syncPolicy/automated/selfHeal' },
        { ruleId: 'SA006', file: 'apps/web.yaml', object: 'Application argocd/web', pointer: '/spec/syncPolicy/retry' },
      ],
    });
    expect(text).not.toMatch(/"line"/);
    expect(renderBaseline(audit(repo()))).toBe(text);
  });

  test('findings the baseline holds are moved apart, even after the lines moved', () => {
    // GIVEN a baseline written, then ten lines added above the findings
    const baseline = parseBaseline(renderBaseline(audit(repo())), 'baseline.json');
    const moved = audit(repo(10));

    // WHEN the baseline is applied
    const result = applyBaseline(moved, baseline);

    // THEN nothing is new, both are baselined, nothing is stale
    expect(moved.findings.map((f) => f.location.line)).toEqual(audit(repo()).findings.map((f) => f.location.line + 10));
    expect(result.findings).toEqual([]);
    expect(result.baselined.map((f) => f.ruleId)).toEqual(['SA006', 'SA001']);
    expect(result.staleBaselineEntries).toBe(0);
  });

  test('a new finding is not in the baseline, and a fixed one makes an entry stale', () => {
    // GIVEN a baseline holding SA001 only, and a repository where SA001 is fixed but another Application is new
    const baseline = parseBaseline(renderBaseline(audit(repo())), 'b.json').filter((e) => e.ruleId === 'SA001');
    const files = {
      ...repo(),
      'apps/web.yaml': applicationYaml('web', { syncPolicy: { retry: undefined } }),
      'apps/api.yaml': applicationYaml('api', { syncPolicy: { automated: { prune: true, selfHeal: false } } }),
      'workloads/web/cm.yaml': configMapYaml('settings', 'web'),
      'workloads/api/cm.yaml': configMapYaml('settings', 'api'),
    };

    // WHEN it is applied
    const result = applyBaseline(audit(files), baseline);

    // THEN web's SA006 and api's SA001 are new, and web's SA001 entry is stale
    expect(result.findings.map((f) => `${f.ruleId} ${f.location.file}`).sort()).toEqual(['SA001 apps/api.yaml', 'SA006 apps/web.yaml']);
    expect(result.staleBaselineEntries).toBe(1);
  });

  test('only entries a narrowed run could match are stale; the others are kept when the baseline is written', () => {
    // GIVEN a baseline of SA001 (an error) and SA006 (a warning) in apps/web.yaml, and the finding of SA001 fixed
    const baseline = parseBaseline(renderBaseline(audit(repo())), 'b.json');
    const fixed = audit({ ...repo(), 'apps/web.yaml': applicationYaml('web', { syncPolicy: { retry: undefined } }) });

    // WHEN applied by runs narrowed to SA006, to errors, to workloads/, and by a whole run
    const stale = (scope: Parameters<typeof applyBaseline>[2]) => applyBaseline(fixed, baseline, scope).staleBaselineEntries;

    // THEN the fixed SA001 entry is stale only where SA001 could have been found
    expect(stale({ ruleIds: ['SA006'] })).toBe(0);
    expect(stale({ minSeverity: Severity.ERROR })).toBe(1);
    expect(stale({ paths: ['workloads'] })).toBe(0);
    expect(stale({ paths: ['apps/web.yaml'], excluded: (f) => f.startsWith('apps/') })).toBe(0);
    expect(stale({})).toBe(1);
    expect(baseline.filter((e) => !inBaselineScope(e, { minSeverity: Severity.ERROR })).map((e) => e.ruleId)).toEqual(['SA006']);
    const kept = baseline.filter((e) => !inBaselineScope(e, { ruleIds: ['SA006'] }));
    expect(JSON.parse(renderBaseline(applyBaseline(fixed, baseline), kept)).findings.map((e: { ruleId: string }) => e.ruleId)).toEqual(['SA001', 'SA006']);
  });

  test.each([
    ['not JSON', '{', /^b\.json: not JSON/],
    ['another format', '{"version": 2, "findings": []}', /^b\.json: not a safe-argocd baseline/],
    ['an entry without a pointer', '{"version": 1, "findings": [{"ruleId": "SA001", "file": "a", "object": "o"}]}', /findings\[0\] must have the strings ruleId, file, object, pointer/],
    ['a prototype key', '{"version": 1, "findings": [{"__proto__": {"ruleId": "SA001"}, "file": "a", "object": "o", "pointer": ""}]}', /findings\[0\] must have/],
  ])('fails when the baseline is %s', (_name, text, message) => {
    // GIVEN a file that is no baseline / WHEN it is read / THEN the error names the file and the problem
    expect(() => parseBaseline(text, 'b.json')).toThrow(message);
  });
});
