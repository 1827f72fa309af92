import { renderIgnoreDifferences, renderIgnoreReasons } from '../../src/private/ignore-differences';
import { IgnoreRule } from '../../src/values/ignore-rule';
import { IgnoreTarget } from '../../src/values/ignore-target';
import { JqPath } from '../../src/values/jq-path';

const web = IgnoreTarget.resource({ group: 'apps', kind: 'Deployment', name: 'web', namespace: 'payments' });
const svc = IgnoreTarget.resource({ kind: 'Service', name: 'web', namespace: 'payments' });
const injector = IgnoreTarget.resource({ group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration', name: 'istio-sidecar-injector' });

describe('renderIgnoreDifferences', () => {
  test('merges every rule on one target into one entry, by list', () => {
    // GIVEN a pointer, a typed jq path, a raw jq expression and a manager on one Deployment
    const rules = [
      IgnoreRule.jsonPointer(web, '/spec/replicas', 'owned by HPA web'),
      IgnoreRule.jq(web, JqPath.podTemplateContainer('istio-proxy'), 'injected by istio'),
      IgnoreRule.rawJq(web, '.spec.template.spec.volumes[] | select(.name == "istio-envoy")', 'injected by istio'),
      IgnoreRule.managedFieldsManager(web, 'rollouts-controller', 'scaled down by Argo Rollouts'),
      IgnoreRule.jsonPointer(web, '/metadata/annotations/deployment.kubernetes.io~1revision', 'set by the controller'),
    ];
    // WHEN they are rendered
    const entries = renderIgnoreDifferences(rules);
    // THEN there is one entry, each list in insertion order
    expect(entries).toEqual([{
      group: 'apps',
      kind: 'Deployment',
      name: 'web',
      namespace: 'payments',
      jsonPointers: ['/spec/replicas', '/metadata/annotations/deployment.kubernetes.io~1revision'],
      jqPathExpressions: [
        '.spec.template.spec.containers[]? | select(.name == "istio-proxy")',
        '.spec.template.spec.volumes[] | select(.name == "istio-envoy")',
      ],
      managedFieldsManagers: ['rollouts-controller'],
    }]);
  });

  test('lists each value once, even with different reasons', () => {
    // GIVEN the same pointer twice and the same manager twice
    const rules = [
      IgnoreRule.jsonPointer(web, '/spec/replicas', 'owned by HPA web'),
      IgnoreRule.jsonPointerFromKeys(web, ['spec', 'replicas'], 'also scaled by KEDA'),
      IgnoreRule.managedFieldsManager(web, 'kube-controller-manager', 'owned by the HPA controller'),
      IgnoreRule.managedFieldsManager(web, 'kube-controller-manager', 'owned by the HPA controller'),
    ];
    // WHEN they are rendered
    const [entry] = renderIgnoreDifferences(rules);
    // THEN duplicates are dropped
    expect(entry.jsonPointers).toEqual(['/spec/replicas']);
    expect(entry.managedFieldsManagers).toEqual(['kube-controller-manager']);
  });

  test('keeps one entry per target, in the order targets were first named', () => {
    // GIVEN rules on three targets, interleaved
    const rules = [
      IgnoreRule.jsonPointer(svc, '/spec/clusterIP', 'assigned by the API server'),
      IgnoreRule.jsonPointer(web, '/spec/replicas', 'owned by HPA web'),
      IgnoreRule.jsonPointer(injector, '/webhooks/0/clientConfig/caBundle', 'injected by istiod'),
      IgnoreRule.jsonPointer(svc, '/spec/clusterIPs', 'assigned by the API server'),
    ];
    // WHEN they are rendered
    const entries = renderIgnoreDifferences(rules);
    // THEN the Service comes first and carries both its pointers
    expect(entries.map((e) => e.kind)).toEqual(['Service', 'Deployment', 'MutatingWebhookConfiguration']);
    expect(entries[0].jsonPointers).toEqual(['/spec/clusterIP', '/spec/clusterIPs']);
  });

  test('omits the group for the core group and the namespace when undefined', () => {
    // GIVEN a core Service and a cluster-scoped webhook configuration
    const rules = [
      IgnoreRule.jsonPointer(svc, '/spec/clusterIP', 'assigned by the API server'),
      IgnoreRule.jsonPointer(injector, '/webhooks/0/clientConfig/caBundle', 'injected by istiod'),
    ];
    // WHEN they are rendered
    const [service, webhook] = renderIgnoreDifferences(rules);
    // THEN the keys are absent, not empty or undefined, and unused lists are absent too
    expect(Object.keys(service)).toEqual(['kind', 'name', 'namespace', 'jsonPointers']);
    expect(Object.keys(webhook)).toEqual(['group', 'kind', 'name', 'jsonPointers']);
    expect(webhook).toEqual({
      group: 'admissionregistration.k8s.io',
      kind: 'MutatingWebhookConfiguration',
      name: 'istio-sidecar-injector',
      jsonPointers: ['/webhooks/0/clientConfig/caBundle'],
    });
  });

  test('keeps same-named objects of different kinds or namespaces apart', () => {
    // GIVEN a Deployment and a Service both named web, and a Deployment web in another namespace
    const other = IgnoreTarget.resource({ group: 'apps', kind: 'Deployment', name: 'web', namespace: 'staging' });
    const rules = [
      IgnoreRule.jsonPointer(web, '/spec/replicas', 'owned by HPA web'),
      IgnoreRule.jsonPointer(svc, '/spec/clusterIP', 'assigned by the API server'),
      IgnoreRule.jsonPointer(other, '/spec/replicas', 'owned by HPA web'),
    ];
    // WHEN they are rendered
    const entries = renderIgnoreDifferences(rules);
    // THEN there are three entries
    expect(entries.map((e) => `${e.kind}/${e.namespace}/${e.name}`)).toEqual(['Deployment/payments/web', 'Service/payments/web', 'Deployment/staging/web']);
  });

  test('renders nothing for no rules', () => {
    // GIVEN / WHEN no rules are rendered
    // THEN there are no entries and no reasons
    expect(renderIgnoreDifferences([])).toEqual([]);
    expect(renderIgnoreReasons([])).toBe('');
  });
});

describe('renderIgnoreReasons', () => {
  test('writes one line per target and field', () => {
    // GIVEN rules on a Deployment, a core Service and a cluster-scoped object
    const rules = [
      IgnoreRule.jsonPointer(web, '/spec/replicas', 'owned by HPA web'),
      IgnoreRule.jsonPointer(svc, '/spec/clusterIP', 'assigned by the API server'),
      IgnoreRule.jsonPointer(injector, '/webhooks/0/clientConfig/caBundle', 'injected by istiod'),
      IgnoreRule.managedFieldsManager(web, 'kube-controller-manager', 'owned by the HPA controller'),
    ];
    // WHEN the reasons are rendered
    const text = renderIgnoreReasons(rules);
    // THEN each line names group/kind, namespace/name, the field and the reason
    expect(text.split('\n')).toEqual([
      'apps/Deployment payments/web /spec/replicas: owned by HPA web',
      'Service payments/web /spec/clusterIP: assigned by the API server',
      'admissionregistration.k8s.io/MutatingWebhookConfiguration istio-sidecar-injector /webhooks/0/clientConfig/caBundle: injected by istiod',
      'apps/Deployment payments/web kube-controller-manager: owned by the HPA controller',
    ]);
  });

  test('joins two different reasons for the same field, and lists a repeated reason once', () => {
    // GIVEN one field ignored three times, with two distinct reasons
    const rules = [
      IgnoreRule.jsonPointer(web, '/spec/replicas', 'owned by HPA web'),
      IgnoreRule.jsonPointerFromKeys(web, ['spec', 'replicas'], 'scaled to zero by KEDA at night'),
      IgnoreRule.jsonPointer(web, '/spec/replicas', '  owned by   HPA web '),
    ];
    // WHEN the reasons are rendered
    const text = renderIgnoreReasons(rules);
    // THEN there is one line with both reasons
    expect(text).toBe('apps/Deployment payments/web /spec/replicas: owned by HPA web; scaled to zero by KEDA at night');
  });
});
