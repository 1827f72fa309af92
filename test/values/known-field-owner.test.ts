import { ApiObject } from 'cdk8s';
import { IgnoreRuleKind, IgnoreTarget, JqPath, KnownFieldOwner, SafeApplication } from '../../src';
import { compileJq } from '../../src/private/jq';
import { applicationOf, newApp } from '../support/app';
import { crdErrors } from '../support/crd';

const REASONS = 'safe-argocd/ignore-reasons';

/** A kind an owner may be applied to, and how to make one inside an app. */
interface KindCase {
  readonly key: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly clusterScoped: boolean;
}

const KINDS: KindCase[] = [
  { key: 'apps/Deployment', apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', clusterScoped: false },
  { key: 'apps/StatefulSet', apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', clusterScoped: false },
  { key: 'apps/ReplicaSet', apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-rs', clusterScoped: false },
  { key: 'apps/DaemonSet', apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', clusterScoped: false },
  { key: 'argoproj.io/Rollout', apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'web-rollout', clusterScoped: false },
  { key: 'batch/Job', apiVersion: 'batch/v1', kind: 'Job', name: 'nightly', clusterScoped: false },
  { key: '/ConfigMap', apiVersion: 'v1', kind: 'ConfigMap', name: 'flags', clusterScoped: false },
  {
    key: 'admissionregistration.k8s.io/MutatingWebhookConfiguration',
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    name: 'sidecar-injector',
    clusterScoped: true,
  },
  {
    key: 'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    name: 'config-validator',
    clusterScoped: true,
  },
  {
    key: 'apiextensions.k8s.io/CustomResourceDefinition',
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    name: 'widgets.acme.internal',
    clusterScoped: true,
  },
  { key: 'apiregistration.k8s.io/APIService', apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', name: 'v1beta1.metrics.k8s.io', clusterScoped: true },
];

/** The fields an owner is documented to write on one kind. */
interface Fields {
  readonly jsonPointers?: string[];
  readonly jqPathExpressions?: string[];
}

const REPLICAS: Fields = { jsonPointers: ['/spec/replicas'] };
const CA_BUNDLE = '.webhooks[]? | .clientConfig.caBundle';
const WEBHOOK_CA: Fields = { jqPathExpressions: [CA_BUNDLE] };
const ISTIO_PROXY: Fields = { jqPathExpressions: ['.spec.template.spec.containers[]? | select(.name == "istio-proxy")'] };
const VAULT_INIT: Fields = { jqPathExpressions: ['.spec.template.spec.initContainers[]? | select(.name == "vault-agent-init")'] };

function onPodTemplates(fields: Fields): Record<string, Fields> {
  return Object.fromEntries(['apps/Deployment', 'apps/StatefulSet', 'apps/DaemonSet', 'apps/ReplicaSet', 'batch/Job', 'argoproj.io/Rollout'].map((k) => [k, fields]));
}

/** Every factory, who it says writes, and the fields it writes per kind, as documented in the source. */
const OWNERS: [string, () => KnownFieldOwner, string, Record<string, Fields>][] = [
  ['horizontalPodAutoscaler', () => KnownFieldOwner.horizontalPodAutoscaler('web-hpa'), 'HorizontalPodAutoscaler web-hpa', {
    'apps/Deployment': REPLICAS, 'apps/StatefulSet': REPLICAS, 'apps/ReplicaSet': REPLICAS, 'argoproj.io/Rollout': REPLICAS,
  }],
  ['kedaScaledObject', () => KnownFieldOwner.kedaScaledObject('web-so'), 'KEDA ScaledObject web-so', {
    'apps/Deployment': REPLICAS, 'apps/StatefulSet': REPLICAS, 'apps/ReplicaSet': REPLICAS, 'argoproj.io/Rollout': REPLICAS,
  }],
  ['argoRolloutsWorkloadRef', () => KnownFieldOwner.argoRolloutsWorkloadRef('web-rollout'), 'Argo Rollout web-rollout (workloadRef)', {
    'apps/Deployment': REPLICAS,
  }],
  ['certManagerCaInjector', () => KnownFieldOwner.certManagerCaInjector(), 'cert-manager cainjector', {
    'admissionregistration.k8s.io/MutatingWebhookConfiguration': WEBHOOK_CA,
    'admissionregistration.k8s.io/ValidatingWebhookConfiguration': WEBHOOK_CA,
    'apiextensions.k8s.io/CustomResourceDefinition': { jsonPointers: ['/spec/conversion/webhook/clientConfig/caBundle'] },
    'apiregistration.k8s.io/APIService': { jsonPointers: ['/spec/caBundle'] },
  }],
  ['istioWebhooks', () => KnownFieldOwner.istioWebhooks(), 'istiod', {
    'admissionregistration.k8s.io/MutatingWebhookConfiguration': WEBHOOK_CA,
    'admissionregistration.k8s.io/ValidatingWebhookConfiguration': { jqPathExpressions: [CA_BUNDLE, '.webhooks[]? | .failurePolicy'] },
  }],
  ['linkerdWebhooks', () => KnownFieldOwner.linkerdWebhooks(), 'Linkerd control plane', {
    'admissionregistration.k8s.io/MutatingWebhookConfiguration': WEBHOOK_CA,
    'admissionregistration.k8s.io/ValidatingWebhookConfiguration': WEBHOOK_CA,
  }],
  ['injectedContainer', () => KnownFieldOwner.injectedContainer('istio-proxy', 'the istio sidecar injector'), 'the istio sidecar injector', onPodTemplates(ISTIO_PROXY)],
  ['injectedInitContainer', () => KnownFieldOwner.injectedInitContainer('vault-agent-init', 'the vault agent injector'), 'the vault agent injector', onPodTemplates(VAULT_INIT)],
];

/** A raw object of one kind inside the app, named as the case says. */
function addObject(app: SafeApplication, k: KindCase): ApiObject {
  return new ApiObject(app, `${k.kind}-${k.name}`, { apiVersion: k.apiVersion, kind: k.kind, metadata: { name: k.name } });
}

/** The entry Argo CD needs for exactly this object: its group, kind and name, and its namespace unless cluster-scoped. */
function expectedEntry(k: KindCase, fields: Fields): Record<string, unknown> {
  const group = k.apiVersion.includes('/') ? k.apiVersion.split('/')[0] : undefined;
  return {
    ...(group ? { group } : {}),
    kind: k.kind,
    name: k.name,
    ...(k.clusterScoped ? {} : { namespace: 'payments' }),
    ...fields,
  };
}

/** Asserts that no entry could match more than one object. */
function expectNoGlob(entries: any[]): void {
  for (const e of entries) {
    for (const field of ['group', 'kind', 'name', 'namespace']) {
      expect(String(e[field] ?? '')).not.toMatch(/[*?[\]{}]/);
    }
    expect(typeof e.name).toBe('string');
  }
}

const supported = OWNERS.flatMap(([label, make, who, table]) => KINDS
  .filter((k) => k.key in table)
  .map((k) => [label, k.key, make, who, k, table[k.key]] as const));
const unsupported = OWNERS.flatMap(([label, make, , table]) => KINDS.filter((k) => !(k.key in table)).map((k) => [label, k.key, make, k] as const));

describe('KnownFieldOwner on the kinds it writes', () => {
  test.each(supported)('%s on %s yields rules for exactly that resource', (_label, _key, make, who, k, fields) => {
    // GIVEN an app with one object of the kind
    const { app, gitops } = newApp();
    const obj = addObject(app, k);
    // WHEN the owner is declared for it
    app.addFieldOwner(IgnoreTarget.fromApiObject(obj), make());
    const application = applicationOf(app);
    const entries = application.spec.ignoreDifferences;
    // THEN one entry names that one object (no namespace when cluster-scoped), with the documented fields
    expect(entries).toEqual([expectedEntry(k, fields)]);
    expectNoGlob(entries);
    expect(application.spec.syncPolicy.syncOptions).toContain('RespectIgnoreDifferences=true');
    expect(application.metadata.annotations[REASONS]).toContain(`: written by ${who}`);
    // AND the Application is valid for Argo CD 3.5 and the app synthesizes
    expect(crdErrors('application', '3.5', application)).toEqual([]);
    expect(() => gitops.renderFiles()).not.toThrow();
  });

  test.each(OWNERS)('%s lists the kinds it writes', (_label, make, _who, table) => {
    expect(make().kinds.sort()).toEqual(Object.keys(table).sort());
  });

  test('a cluster-scoped object keeps the chart namespace in its manifest, but its rule has none', () => {
    // GIVEN a webhook configuration in a namespaced app (cdk8s stamps the chart namespace on it)
    const { app } = newApp();
    const webhook = addObject(app, KINDS.find((k) => k.kind === 'MutatingWebhookConfiguration')!);
    // WHEN cert-manager is declared as its CA owner
    app.addFieldOwner(IgnoreTarget.fromApiObject(webhook), KnownFieldOwner.certManagerCaInjector());
    // THEN the rule has no namespace, as Argo CD sees none on the live object
    expect(webhook.toJson().metadata.namespace).toBe('payments');
    const [entry] = applicationOf(app).spec.ignoreDifferences;
    expect('namespace' in entry).toBe(false);
  });

  test('two owners of the same field of one object give one entry listing the field once', () => {
    const { app } = newApp();
    const webhook = addObject(app, KINDS.find((k) => k.kind === 'ValidatingWebhookConfiguration')!);
    const target = IgnoreTarget.fromApiObject(webhook);
    app.addFieldOwner(target, KnownFieldOwner.certManagerCaInjector());
    app.addFieldOwner(target, KnownFieldOwner.istioWebhooks());
    const application = applicationOf(app);
    expect(application.spec.ignoreDifferences).toEqual([{
      group: 'admissionregistration.k8s.io',
      kind: 'ValidatingWebhookConfiguration',
      name: 'config-validator',
      jqPathExpressions: [CA_BUNDLE, '.webhooks[]? | .failurePolicy'],
    }]);
    expect(application.metadata.annotations[REASONS]).toContain(`${CA_BUNDLE}: written by cert-manager cainjector; written by istiod`);
  });

  test('ignoreRulesFor returns typed rules that need no compile step', () => {
    const target = IgnoreTarget.resource({ group: 'apps', kind: 'Deployment', name: 'web', namespace: 'payments' });
    const [rule] = KnownFieldOwner.injectedContainer('istio-proxy', 'the istio sidecar injector').ignoreRulesFor(target);
    expect(rule.kind).toBe(IgnoreRuleKind.JQ_PATH_EXPRESSION);
    expect(rule.target).toBe(target);
    expect(rule.needsJqCompile).toBe(false);
    expect(rule.reason).toBe('written by the istio sidecar injector');
  });
});

describe('KnownFieldOwner on kinds it does not write', () => {
  test.each(unsupported)('fails when %s is applied to %s', (_label, _key, make, k) => {
    // GIVEN an app with an object the owner never changes
    const { app } = newApp();
    const obj = addObject(app, k);
    // WHEN the owner is declared for it THEN it is refused, and nothing is added
    expect(() => app.addFieldOwner(IgnoreTarget.fromApiObject(obj), make())).toThrow(/^\[SAFE-022\] KnownFieldOwner\.ignoreRulesFor: target /);
    expect(app.ignoreRules).toEqual([]);
  });

  test('the refusal names the object and the kinds the owner writes', () => {
    const target = IgnoreTarget.resource({ kind: 'ConfigMap', name: 'flags', namespace: 'payments' });
    expect(() => KnownFieldOwner.argoRolloutsWorkloadRef('web').ignoreRulesFor(target))
      .toThrow('target is "ConfigMap flags"; it is not a kind Argo Rollout web (workloadRef) writes (it writes apps/Deployment)');
  });
});

describe('KnownFieldOwner.custom', () => {
  const custom = () => KnownFieldOwner.custom({
    name: 'the vault-config-operator',
    jsonPointers: ['/data/token', '/metadata/annotations/vault.acme.internal~1rotated-at'],
    jqPaths: [JqPath.listItem(['spec', 'rules'], 'name', 'generated')],
  });

  test.each(KINDS)('applies to $key with its pointers and jq paths', (k) => {
    // GIVEN an app with an object of any kind
    const { app, gitops } = newApp();
    const obj = addObject(app, k);
    // WHEN a custom owner is declared for it
    app.addFieldOwner(IgnoreTarget.fromApiObject(obj), custom());
    const application = applicationOf(app);
    // THEN the entry names exactly that object with the owner's fields
    expect(application.spec.ignoreDifferences).toEqual([expectedEntry(k, {
      jsonPointers: ['/data/token', '/metadata/annotations/vault.acme.internal~1rotated-at'],
      jqPathExpressions: ['.spec.rules[]? | select(.name == "generated")'],
    })]);
    expectNoGlob(application.spec.ignoreDifferences);
    expect(crdErrors('application', '3.5', application)).toEqual([]);
    expect(() => gitops.renderFiles()).not.toThrow();
  });

  test('lists "*" as its kinds, and records its name as the reason', () => {
    expect(custom().kinds).toEqual(['*']);
    expect(custom().name).toBe('the vault-config-operator');
  });

  test('with pointers only, or jq paths only', () => {
    const target = IgnoreTarget.resource({ kind: 'ConfigMap', name: 'flags', namespace: 'payments' });
    expect(KnownFieldOwner.custom({ name: 'operator', jsonPointers: ['/data/a'] }).ignoreRulesFor(target).map((r) => r.value)).toEqual(['/data/a']);
    expect(KnownFieldOwner.custom({ name: 'operator', jqPaths: [JqPath.field(['data', 'b'])] }).ignoreRulesFor(target).map((r) => r.value)).toEqual(['.data.b']);
  });

  test.each([
    ['a pointer without a leading slash', ['spec/replicas']],
    ['a pointer with a bad escape', ['/metadata/annotations/a~2b']],
  ])('fails when given %s', (_label, jsonPointers) => {
    expect(() => KnownFieldOwner.custom({ name: 'operator', jsonPointers })).toThrow(/^\[SAFE-007\] KnownFieldOwner\.custom: jsonPointers /);
  });

  test.each([
    ['no field list', {}],
    ['two empty field lists', { jsonPointers: [], jqPaths: [] }],
  ])('fails when given %s', (_label, fields) => {
    expect(() => KnownFieldOwner.custom({ name: 'operator', ...fields })).toThrow(/^\[SAFE-008\] KnownFieldOwner\.custom: jsonPointers .*or jqPaths must name at least one field/);
  });

  test('fails when the name does not say who writes', () => {
    expect(() => KnownFieldOwner.custom({ name: ' x ', jsonPointers: ['/data/a'] })).toThrow(/^\[SAFE-018\] KnownFieldOwner\.custom: name /);
  });
});

describe('KnownFieldOwner factory arguments', () => {
  test.each([
    ['horizontalPodAutoscaler', () => KnownFieldOwner.horizontalPodAutoscaler('Web_HPA')],
    ['kedaScaledObject', () => KnownFieldOwner.kedaScaledObject('')],
    ['argoRolloutsWorkloadRef', () => KnownFieldOwner.argoRolloutsWorkloadRef('-web')],
  ])('fails when %s is given a name that is not an object name', (label, make) => {
    expect(make).toThrow(new RegExp(`^\\[SAFE-001\\] KnownFieldOwner\\.${label}: name `));
  });

  test.each([
    ['injectedContainer', () => KnownFieldOwner.injectedContainer('istio-proxy', '')],
    ['injectedInitContainer', () => KnownFieldOwner.injectedInitContainer('vault-agent-init', 'ab')],
  ])('fails when %s does not say who injects', (label, make) => {
    expect(make).toThrow(new RegExp(`^\\[SAFE-018\\] KnownFieldOwner\\.${label}: injector `));
  });
});

describe('KnownFieldOwner jq expressions', () => {
  test('every jq expression any owner produces compiles as Argo CD runs it, del(<expression>)', () => {
    // GIVEN every owner applied to every kind it writes, and a custom owner with tricky keys
    const expressions = new Set<string>();
    const collect = (owner: KnownFieldOwner, k: KindCase) => {
      const target = IgnoreTarget.resource({ group: k.apiVersion.includes('/') ? k.apiVersion.split('/')[0] : '', kind: k.kind, name: k.name, namespace: k.clusterScoped ? undefined : 'payments' });
      for (const rule of owner.ignoreRulesFor(target)) {
        if (rule.kind === IgnoreRuleKind.JQ_PATH_EXPRESSION) {
          expressions.add(rule.value);
        }
      }
    };
    for (const [, make, , table] of OWNERS) {
      for (const k of KINDS.filter((kc) => kc.key in table)) {
        collect(make(), k);
      }
    }
    collect(KnownFieldOwner.injectedContainer('we"ird\\name', 'an injector'), KINDS[0]);
    collect(KnownFieldOwner.custom({ name: 'operator', jqPaths: [JqPath.field(['metadata', 'annotations', 'acme.internal/x'])] }), KINDS[0]);
    // WHEN compiled with jq THEN every one compiles (null means no error)
    const list = [...expressions];
    expect(list.length).toBeGreaterThanOrEqual(6);
    expect(compileJq(list)).toEqual(list.map(() => null));
  });
});
