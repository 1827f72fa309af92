import { Duration, Testing } from 'cdk8s';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { renderSyncOptions, renderSyncPolicy, resolveRetry } from '../../src/private/sync-policy';

describe('renderSyncPolicy', () => {
  const retry = resolveRetry(Testing.app(), {});

  test('renders the hardened policy, with enabled only where the release has it', () => {
    // GIVEN the default retry and no ignore rules
    // WHEN rendered for 3.5 and 3.0
    // THEN automated is complete, and enabled appears only on 3.5
    expect(renderSyncPolicy({ argoCdVersion: ArgoCdVersion.V3_5, hasIgnoreRules: false, retry })).toEqual({
      automated: { enabled: true, prune: true, selfHeal: true, allowEmpty: false },
      syncOptions: ['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true'],
      retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } },
    });
    expect(renderSyncPolicy({ argoCdVersion: ArgoCdVersion.V3_0, hasIgnoreRules: false, retry }).automated)
      .toEqual({ enabled: undefined, prune: true, selfHeal: true, allowEmpty: false });
  });

  test('leaves automated out only when asked to', () => {
    expect(renderSyncPolicy({ argoCdVersion: ArgoCdVersion.V3_5, hasIgnoreRules: false, retry, automated: false }).automated).toBeUndefined();
  });

  test('sync options follow ignore rules and sync waves', () => {
    expect(renderSyncOptions({ hasIgnoreRules: true })).toEqual(['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true', 'RespectIgnoreDifferences=true']);
    expect(renderSyncOptions({ hasIgnoreRules: false, usesSyncWaves: true })).toEqual(['CreateNamespace=true', 'PruneLast=true']);
  });
});

describe('resolveRetry', () => {
  test('fills in the defaults and keeps given bounds', () => {
    const resolved = resolveRetry(Testing.app(), { limit: 3, backoffMaxDuration: Duration.minutes(10) });
    expect(resolved.limit).toBe(3);
    expect(resolved.backoffDuration.toSeconds()).toBe(5);
    expect(resolved.backoffFactor).toBe(2);
    expect(resolved.backoffMaxDuration.toSeconds()).toBe(600);
  });

  test('fails when a bound is out of range, naming the construct', () => {
    expect(() => resolveRetry(Testing.app(), { backoffDuration: Duration.seconds(10), backoffMaxDuration: Duration.seconds(5) }))
      .toThrow(/^\[SAFE-006\] <root>: retry\.backoffMaxDuration is "5s"/);
  });
});
