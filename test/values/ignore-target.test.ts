import { ApiObject, Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { IgnoreTarget, ResourceCoordinates } from '../../src/values/ignore-target';

function paymentsChart(): Chart {
  return new Chart(Testing.app(), 'payments', { namespace: 'payments' });
}

describe('IgnoreTarget.fromApiObject', () => {
  test('takes group, kind, name and namespace from a cdk8s-plus Deployment', () => {
    // GIVEN a Deployment in a chart with namespace "payments"
    const chart = paymentsChart();
    const web = new kplus.Deployment(chart, 'web', { containers: [{ image: 'nginx:1.27' }] });
    // WHEN a target is made from the construct (not its ApiObject)
    const target = IgnoreTarget.fromApiObject(web);
    // THEN it names that one object
    expect(target.group).toBe('apps');
    expect(target.kind).toBe('Deployment');
    expect(target.name).toBe(web.name);
    expect(target.namespace).toBe('payments');
    expect(target.key).toBe(`apps/Deployment/payments/${web.name}`);
  });

  test('uses the empty group for a core Service', () => {
    // GIVEN a Service in a namespaced chart
    const chart = paymentsChart();
    const svc = new kplus.Service(chart, 'svc', { ports: [{ port: 80 }] });
    // WHEN a target is made from it
    const target = IgnoreTarget.fromApiObject(svc);
    // THEN the group is the core group
    expect(target.group).toBe('');
    expect(target.kind).toBe('Service');
    expect(target.name).toBe(svc.name);
    expect(target.namespace).toBe('payments');
  });

  test('drops the chart namespace for a cluster-scoped object', () => {
    // GIVEN a MutatingWebhookConfiguration in a chart that has a namespace
    const chart = paymentsChart();
    const webhook = new ApiObject(chart, 'x', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'istio-sidecar-injector' },
    });
    // WHEN a target is made from it
    const target = IgnoreTarget.fromApiObject(webhook);
    // THEN it has no namespace, as Argo CD sees no namespace on the live object
    expect(target.group).toBe('admissionregistration.k8s.io');
    expect(target.kind).toBe('MutatingWebhookConfiguration');
    expect(target.name).toBe('istio-sidecar-injector');
    expect(target.namespace).toBeUndefined();
    expect(target.key).toBe('admissionregistration.k8s.io/MutatingWebhookConfiguration//istio-sidecar-injector');
  });

  test('keeps the namespace for a kind it does not know (a namespaced custom resource)', () => {
    // GIVEN a custom resource of an unknown kind in a namespaced chart
    const chart = paymentsChart();
    const rollout = new ApiObject(chart, 'r', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'web' },
    });
    // WHEN a target is made from it
    const target = IgnoreTarget.fromApiObject(rollout);
    // THEN the namespace is kept
    expect(target.namespace).toBe('payments');
    expect(target.group).toBe('argoproj.io');
  });
});

describe('IgnoreTarget.resource', () => {
  const good: ResourceCoordinates = { group: 'apps', kind: 'Deployment', name: 'web', namespace: 'payments' };

  test('accepts concrete coordinates', () => {
    // GIVEN the coordinates of one Deployment
    // WHEN a target is made
    const target = IgnoreTarget.resource(good);
    // THEN they are kept as given
    expect([target.group, target.kind, target.name, target.namespace]).toEqual(['apps', 'Deployment', 'web', 'payments']);
    expect(target.key).toBe('apps/Deployment/payments/web');
  });

  test('defaults the group to the core group', () => {
    // GIVEN coordinates without a group
    // WHEN a target is made
    const target = IgnoreTarget.resource({ kind: 'ConfigMap', name: 'settings', namespace: 'payments' });
    // THEN the group is empty
    expect(target.group).toBe('');
    expect(target.key).toBe('/ConfigMap/payments/settings');
  });

  test('accepts a cluster-scoped object without a namespace and a dotted name', () => {
    // GIVEN a cluster-scoped object whose name is a DNS-1123 subdomain
    // WHEN a target is made
    const target = IgnoreTarget.resource({ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', name: 'rollouts.argoproj.io' });
    // THEN it has no namespace
    expect(target.namespace).toBeUndefined();
    expect(target.name).toBe('rollouts.argoproj.io');
  });

  test.each([
    ['core', 'leave the group out for the core group'],
    ['v1', 'leave the group out for the core group'],
  ])('refuses the group %p, which Argo CD matches with no object, and says what to write', (group, fix) => {
    // GIVEN a core-group object named with a group Argo CD never compares equal / WHEN a target is made / THEN the error names the fix
    expect(() => IgnoreTarget.resource({ group, kind: 'Secret', name: 'web', namespace: 'payments' }))
      .toThrow(new RegExp(`IgnoreTarget\\.resource: group is "${group}"; it must be the API group as the API server names it.*Fix: ${fix}`, 's'));
  });

  test.each([
    ['group', { ...good, group: '*' }],
    ['group', { ...good, group: 'apps*' }],
    ['group', { ...good, group: 'app?' }],
    ['group', { ...good, group: '{apps,batch}' }],
    ['group', { ...good, group: 'Apps' }],
    ['kind', { ...good, kind: '*' }],
    ['kind', { ...good, kind: 'Deploy*' }],
    ['kind', { ...good, kind: '' }],
    ['kind', { ...good, kind: '[D]eployment' }],
    ['name', { ...good, name: '' }],
    ['name', { ...good, name: '*' }],
    ['name', { ...good, name: 'Web' }],
    ['namespace', { ...good, namespace: '' }],
    ['namespace', { ...good, namespace: 'Payments' }],
    ['namespace', { ...good, namespace: 'pay_ments' }],
    ['namespace', { ...good, namespace: '*' }],
    ['namespace', { ...good, namespace: 'team.payments' }],
    ['namespace', { ...good, namespace: 'a'.repeat(64) }],
    ['namespace', { group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration', name: 'istio-sidecar-injector', namespace: 'istio-system' }],
  ])('fails when %s is not concrete: %j', (prop, coordinates) => {
    // GIVEN coordinates with one glob, empty or malformed part
    // WHEN a target is made
    const make = () => IgnoreTarget.resource(coordinates);
    // THEN it is refused with the ignore-target code and the prop is named
    expect(make).toThrow(/\[SAFE-008\]/);
    expect(make).toThrow(new RegExp(`IgnoreTarget\\.resource: ${prop} `));
  });
});
