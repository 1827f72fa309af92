import { IgnoreTarget, JqPath, KnownFieldOwner } from '../../src';

const FLAGS = IgnoreTarget.resource({ kind: 'ConfigMap', name: 'flags', namespace: 'payments' });

describe('KnownFieldOwner refusals, in full', () => {
  test('fails when a custom pointer is not RFC 6901, saying why and how to write one', () => {
    expect(() => KnownFieldOwner.custom({ name: 'operator', jsonPointers: ['spec/replicas'] })).toThrow(
      /^\[SAFE-007\] KnownFieldOwner\.custom: jsonPointers is "spec\/replicas"; it is not a valid RFC 6901 pointer: .+\. Fix: write pointers like "\/spec\/replicas"$/);
  });

  test('fails when a custom owner names no field, saying how to fix it', () => {
    expect(() => KnownFieldOwner.custom({ name: 'operator' })).toThrow(
      '[SAFE-008] KnownFieldOwner.custom: jsonPointers is missing; it or jqPaths must name at least one field. Fix: list the fields the owner writes');
  });

  test('the refusal of a kind names the group of the object and every kind the owner writes', () => {
    // GIVEN an owner of four scalable kinds and a Service of the core group, a DaemonSet of apps
    const owner = KnownFieldOwner.horizontalPodAutoscaler('web');
    const daemonSet = IgnoreTarget.resource({ group: 'apps', kind: 'DaemonSet', name: 'agent', namespace: 'payments' });
    // WHEN the owner is asked for rules THEN the message spells the object as group/Kind name, and lists the kinds
    expect(() => owner.ignoreRulesFor(daemonSet)).toThrow(
      '[SAFE-022] KnownFieldOwner.ignoreRulesFor: target is "apps/DaemonSet agent"; it is not a kind HorizontalPodAutoscaler web writes '
      + '(it writes apps/Deployment, apps/StatefulSet, apps/ReplicaSet, argoproj.io/Rollout). Fix: apply the owner to the resource it actually changes');
  });

  test.each([
    ['horizontalPodAutoscaler', () => KnownFieldOwner.horizontalPodAutoscaler('Web_HPA')],
    ['argoRolloutsWorkloadRef', () => KnownFieldOwner.argoRolloutsWorkloadRef('Web_HPA')],
  ])('%s fails on a name that is not an object name, saying how to fix it', (label, make) => {
    expect(make).toThrow(
      `[SAFE-001] KnownFieldOwner.${label}: name is "Web_HPA"; it must be the metadata.name of the owning object. Fix: copy the name from the owning object's manifest`);
  });

  test('fails with the library error, not a TypeError, when a JavaScript caller gives no name', () => {
    expect(() => KnownFieldOwner.kedaScaledObject(undefined as unknown as string)).toThrow(/^\[SAFE-001\] KnownFieldOwner\.kedaScaledObject: name is missing; it /);
  });

  test('fails when an injector is not said, saying how to fix it', () => {
    expect(() => KnownFieldOwner.injectedContainer('istio-proxy', 'ab')).toThrow(
      '[SAFE-018] KnownFieldOwner.injectedContainer: injector is "ab"; it must say who writes the fields. Fix: name the controller, e.g. "the vault agent injector"');
  });

  test('fails with the library error, not a TypeError, when a JavaScript caller gives no injector', () => {
    expect(() => KnownFieldOwner.injectedInitContainer('vault-agent-init', undefined as unknown as string))
      .toThrow(/^\[SAFE-018\] KnownFieldOwner\.injectedInitContainer: injector is missing; it /);
  });
});

describe('KnownFieldOwner names', () => {
  test('three characters are enough to say who writes', () => {
    // GIVEN the shortest accepted name WHEN a custom owner is made THEN it is kept
    expect(KnownFieldOwner.custom({ name: 'ops', jsonPointers: ['/data/a'] }).name).toBe('ops');
  });

  test('the name is trimmed, in the owner and in the reason of every rule', () => {
    // GIVEN names padded with spaces (as read from a config file)
    const custom = KnownFieldOwner.custom({ name: '  the vault-config-operator \n', jqPaths: [JqPath.field(['data', 'b'])] });
    const injected = KnownFieldOwner.injectedContainer('vault-agent', ' the vault agent injector ');
    // THEN the owner and its rules carry the trimmed text
    expect(custom.name).toBe('the vault-config-operator');
    expect(custom.ignoreRulesFor(FLAGS).map((r) => r.reason)).toEqual(['written by the vault-config-operator']);
    expect(injected.name).toBe('the vault agent injector');
  });
});
