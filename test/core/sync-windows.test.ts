import { Manifest } from '../../src/core/manifest';
import { alwaysActive, cronScheduleProblem, manualSyncBlocked, SyncWindowFacts, syncWindowsOf, windowApplies } from '../../src/core/sync-windows';

/** A window read from YAML with `fields` set. */
function windowOf(fields: { [key: string]: unknown }): SyncWindowFacts {
  const project: Manifest = { apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata: { name: 'payments' }, spec: { syncWindows: [fields] } };
  return syncWindowsOf(project)[0];
}

const CHECKOUT = { name: 'checkout', namespace: 'payments', server: 'https://prod-eu.acme.internal:6443' };

describe('syncWindowsOf', () => {
  test('reads missing fields as Argo CD does: no lists, UTC, manualSync and andOperator off', () => {
    expect(windowOf({ kind: 'deny', schedule: '0 22 * * 5', duration: '1h' })).toEqual({
      index: 0,
      kind: 'deny',
      schedule: '0 22 * * 5',
      duration: '1h',
      timeZone: 'UTC',
      applications: [],
      namespaces: [],
      clusters: [],
      manualSync: false,
      andOperator: false,
    });
  });

  test('skips entries that are not objects, keeping the index Argo CD gives each window, and list items that are not strings', () => {
    const project: Manifest = { kind: 'AppProject', spec: { syncWindows: ['junk', { kind: 'allow', applications: ['web', 7], manualSync: 'true' }] } };
    const [w] = syncWindowsOf(project);
    expect([w.index, w.applications, w.manualSync]).toEqual([1, ['web'], false]);
  });
});

describe('windowApplies', () => {
  test('one list that matches is enough: application name, cluster server or name, namespace', () => {
    expect(windowApplies(windowOf({ applications: ['check*'] }), CHECKOUT)).toBe(true);
    expect(windowApplies(windowOf({ clusters: ['https://prod-*'] }), CHECKOUT)).toBe(true);
    expect(windowApplies(windowOf({ clusters: ['prod-eu'] }), { ...CHECKOUT, server: undefined, clusterName: 'prod-eu' })).toBe(true);
    expect(windowApplies(windowOf({ namespaces: ['pay*'], applications: ['ledger'] }), CHECKOUT)).toBe(true);
    expect(windowApplies(windowOf({ namespaces: ['ledger'], clusters: ['prod-us'] }), CHECKOUT)).toBe(false);
  });

  test('a window without lists applies to nothing', () => {
    expect(windowApplies(windowOf({}), CHECKOUT)).toBe(false);
    expect(windowApplies(windowOf({ andOperator: true }), CHECKOUT)).toBe(false);
  });

  test('with andOperator each non-empty list must match, unless the release does not read it', () => {
    const both = windowOf({ applications: ['check*'], namespaces: ['ledger'], andOperator: true });
    expect(windowApplies(both, CHECKOUT)).toBe(false);
    expect(windowApplies(both, { ...CHECKOUT, namespace: 'ledger' })).toBe(true);
    expect(windowApplies(both, CHECKOUT, false)).toBe(true);
  });
});

describe('cronScheduleProblem and manualSyncBlocked', () => {
  test.each([
    ['0 0 ? * ?', undefined],
    ['? 0 * * *', 'has "?" as its minute, which is documented only for day of month and day of week: use "*"'],
    ['0 0 L * *', 'has "L" as its day of month, which is not a number from 1 to 31'],
  ])('reads %j as Argo CD\'s parser does', (schedule, problem) => {
    expect(cronScheduleProblem(schedule)).toBe(problem);
  });

  test('a window of an unknown kind blocks nothing', () => {
    expect(manualSyncBlocked({ kind: 'block', schedule: '* * * * *', manualSync: false })).toBeUndefined();
  });
});

describe('alwaysActive: windows that have no outside', () => {
  test.each([
    ['* * * * *', '24h', true],
    ['* * * * *', '1m', true],
    ['* * * * *', '59s', false],
    ['0 * * * *', '1h', true],
    ['0 * * * *', '59m', false],
    ['0,30 * * * *', '30m', true],
    ['*/20 * * * *', '20m', true],
    ['10/20 * * * *', '20m', true],
    ['10/25 * * * *', '25m', false],
    ['10/25 * * * *', '35m', true],
    ['0 0 * * *', '24h', true],
    ['0 0 * * *', '1440m', true],
    ['0 0 * * *', '23h59m', false],
    ['0 6,18 * * *', '12h', true],
    ['0 6,20 * * *', '12h', false],
    ['0 0 * * 0-6', '24h', true],
    ['0 0 ? * ?', '24h', true],
    ['0 0 * * 1-5', '72h', false],
    ['0 0 1 * *', '744h', false],
    ['* * * * *', 'forever', false],
    ['* * * * *', '.5h', true],
    ['* * * * *', '1.h', true],
    ['* * * * *', '.h', false],
    ['* * * * *', `${'9'.repeat(200_000)}x`, false],
    ['* * * * *', '-1h', false],
    ['not a schedule', '24h', false],
  ])('%j for %j: %p', (schedule, duration, expected) => {
    // GIVEN / WHEN / THEN active at every moment exactly when no gap between starts is longer than the duration
    expect(alwaysActive(schedule, duration)).toBe(expected);
  });

  test('an always-open allow window blocks no manual sync; a deny window that is always active blocks all', () => {
    // GIVEN windows without manualSync, open around the clock
    const allow = { kind: 'allow', schedule: '* * * * *', duration: '24h', manualSync: false };
    // WHEN / THEN the allow window has no outside, the deny window no inside to wait out
    expect(manualSyncBlocked(allow)).toBeUndefined();
    expect(manualSyncBlocked({ ...allow, duration: '30s' })).toMatch(/^the allow window "\* \* \* \* \*" blocks manual syncs outside it/);
    expect(manualSyncBlocked({ ...allow, kind: 'deny' })).toMatch(/^the deny window/);
  });
});
