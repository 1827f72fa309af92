import { expectFindings, safeApplication } from './support';
import { ArgoCdVersion } from '../../src';
import { Manifest } from '../../src/core/manifest';
import { runRules } from '../../src/rules/engine';
import { expiredBreakGlass } from '../../src/rules/sa204-expired-break-glass';
import { Finding } from '../../src/rules/types';
import { newApp } from '../support/app';

const POINTER = '/metadata/annotations/safe-argocd~1break-glass-expires';
const TODAY = '2026-06-15';

/** A suspended Application (no automated) with a break-glass record; `expires` undefined leaves that annotation out. */
function suspended(expires: string | undefined, reason = 'INC-42: ledger migration fixed by hand'): Manifest {
  return safeApplication({
    metadata: {
      annotations: {
        'safe-argocd/break-glass-reason': reason,
        ...(expires === undefined ? {} : { 'safe-argocd/break-glass-expires': expires }),
      },
    },
    spec: { syncPolicy: { automated: undefined } },
  });
}

/** What SA204 reports, through the engine, for one Application on `today` (or without a date). */
function findingsOn(application: Manifest | undefined, today?: string): Finding[] {
  return runRules({ application, resources: [], argoCdVersion: ArgoCdVersion.LATEST, today }, [expiredBreakGlass]);
}

describe('SA204 expired-break-glass', () => {
  test('passes when the break-glass expires after today', () => {
    // GIVEN
    const app = suspended('2026-06-16');
    // WHEN
    const findings = findingsOn(app, TODAY);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes on its expiry day', () => {
    // GIVEN
    const app = suspended(TODAY);
    // WHEN
    const findings = findingsOn(app, TODAY);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the Application has no break-glass record', () => {
    // GIVEN
    const app = safeApplication();
    // WHEN
    const findings = findingsOn(app, TODAY);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when only an expiry is recorded, without a reason (no record: SA206 is the rule for that)', () => {
    // GIVEN
    const app = safeApplication({ metadata: { annotations: { 'safe-argocd/break-glass-expires': '2000-01-01' } } });
    // WHEN
    const findings = findingsOn(app, TODAY);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when there is no Application', () => {
    // GIVEN WHEN
    const findings = findingsOn(undefined, TODAY);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes without today when the expiry is a valid date, even a long-past one', () => {
    // GIVEN
    const app = suspended('2000-01-01');
    // WHEN
    const findings = findingsOn(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the break-glass expired before today', () => {
    // GIVEN
    const app = suspended('2026-06-14');
    // WHEN
    const findings = findingsOn(app, TODAY);
    // THEN
    expectFindings(findings, app, [`SA204 ${POINTER}`]);
    expect(findings[0].value).toBe('2026-06-14');
    expect(findings[0].message).toBe('the break-glass expired on 2026-06-14 (today is 2026-06-15): INC-42: ledger migration fixed by hand');
  });

  test.each([TODAY, undefined])('fails when the record has no expiry (today: %s)', (today) => {
    // GIVEN
    const app = suspended(undefined);
    // WHEN
    const findings = findingsOn(app, today);
    // THEN
    expectFindings(findings, app, [`SA204 ${POINTER}`]);
    expect(findings[0].value).toBeUndefined();
    expect(findings[0].message).toBe('the break-glass has no valid expiry date (YYYY-MM-DD)');
  });

  test.each(['next friday', '2026-6-1', '2026-06-15T00:00:00Z', ''])('fails without today when the expiry is not YYYY-MM-DD (%j)', (expires) => {
    // GIVEN
    const app = suspended(expires);
    // WHEN
    const findings = findingsOn(app);
    // THEN
    expectFindings(findings, app, [`SA204 ${POINTER}`]);
    expect(findings[0].value).toBe(expires);
  });

  test('fails on what a SafeApplication renders for a break-glass that has expired', () => {
    // GIVEN the real Application (the synth would refuse it; the rule is run directly)
    const { app } = newApp({ breakGlass: { reason: 'INC-42: ledger migration fixed by hand', expires: '2026-06-01', ticket: 'INC-42' } });
    const application = app.resource.toJson() as Manifest;
    // WHEN
    const before = findingsOn(application, '2026-06-01');
    const after = findingsOn(application, '2026-06-02');
    // THEN
    expect(before).toEqual([]);
    expectFindings(after, application, [`SA204 ${POINTER}`]);
  });
});
