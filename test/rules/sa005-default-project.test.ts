import { expectFindings, findingsFor, safeApplication } from './support';

describe('SA005 default-project', () => {
  test('passes when the app names its own project', () => {
    // GIVEN
    const app = safeApplication({ spec: { project: 'payments' } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the project is "default"', () => {
    // GIVEN
    const app = safeApplication({ spec: { project: 'default' } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA005 /spec/project']);
    expect(findings[0].value).toBe('default');
    expect(findings[0].message).toContain('"default" project');
  });

  test.each([undefined, ''])('fails when the project is %j', (project) => {
    // GIVEN
    const app = safeApplication({ spec: { project } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA005 /spec/project']);
    expect(findings[0].message).toContain('names no project');
  });
});
