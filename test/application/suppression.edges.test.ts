import { ApiObject, Chart, Testing } from 'cdk8s';
import { Suppressions } from '../../src/application/suppression';

function configMap(): ApiObject {
  const chart = new Chart(Testing.app(), 'payments', { namespace: 'payments' });
  return new ApiObject(chart, 'settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
}

function reasonRefused(shown: string): string {
  return `[SAFE-012] payments/settings: reason ${shown} must say, in at least 10 characters, why the finding is acceptable here. `
    + 'Fix: write the reason a reviewer would need, e.g. { ruleId: \'SA008\', reason: \'retries are handled by the release pipeline\' }';
}

describe('Suppressions.add reasons at the boundary', () => {
  test.each([
    ['exactly 10 characters', 'pinned tag', 'pinned tag'],
    ['10 characters padded with whitespace', '  pinned tag \n', 'pinned tag'],
  ])('accepts a reason of %s, written trimmed', (_label, reason, written) => {
    const obj = configMap();
    Suppressions.add(obj, { ruleId: 'SA008', reason });
    expect(obj.toJson().metadata.annotations).toEqual({ 'safe-argocd/suppress.SA008': written });
  });

  test.each([
    ['9 characters', 'pinned ta', 'is "pinned ta"; it'],
    ['9 characters padded to 13', '  pinned ta  ', 'is "  pinned ta  "; it'],
    ['missing', undefined, 'is missing; it'],
    ['not a string', 1234567890, 'is 1234567890; it'],
  ])('fails when the reason is %s, with the whole message and nothing written', (_label, reason, shown) => {
    const obj = configMap();
    expect(() => Suppressions.add(obj, { ruleId: 'SA008', reason: reason as never })).toThrow(reasonRefused(shown));
    expect(obj.toJson().metadata.annotations).toBeUndefined();
  });

  test('fails when the same rule is suppressed twice, with the whole message', () => {
    const obj = configMap();
    Suppressions.add(obj, { ruleId: 'SA008', reason: 'this app is meant to be empty at times' });
    expect(() => Suppressions.add(obj, { ruleId: 'SA008', reason: 'this app is meant to be empty at times' })).toThrow(
      '[SAFE-011] payments/settings: ruleId is "SA008"; it is already suppressed on this object. Fix: suppress each rule once per object, with one reason',
    );
  });
});
