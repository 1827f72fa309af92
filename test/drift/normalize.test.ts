import { deployment, edited, jqPerFile } from './support';
import { IgnoreEntry } from '../../src/drift/ignore-entries';
import { JsonMap } from '../../src/drift/json';
import { normalizeIgnored } from '../../src/drift/normalize';

// Source: util/argo/normalizers/diff_normalizer.go. Each jsonPointer becomes a JSON patch
// `[{"op":"remove","path":<pointer>}]`, each jqPathExpression is compiled as `del(<expr>)`; a patch that
// fails to apply (a missing path, a jq error) is skipped and the document is left as it was.
// Status: Argo CD 3.0+ ignores `status` of every resource by default (ARGO-FACTS, ignoreDifferences).

const jq = jqPerFile();

function pointers(...jsonPointers: string[]): IgnoreEntry[] {
  return [{ group: '*', kind: '*', name: '', namespace: '', jsonPointers, jqPathExpressions: [], managedFieldsManagers: [] }];
}

function jqPaths(...jqPathExpressions: string[]): IgnoreEntry[] {
  return [{ group: '*', kind: '*', name: '', namespace: '', jsonPointers: [], jqPathExpressions, managedFieldsManagers: [] }];
}

function annotated(annotations: Record<string, string>): JsonMap {
  return edited(deployment(3), (d) => { d.metadata.annotations = annotations; });
}

function withSidecar(): JsonMap {
  return edited(deployment(3), (d) => {
    d.spec.template.spec.containers.push({ name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.22.0' });
  });
}

describe('status', () => {
  test('is removed even when no entry matches (Argo CD 3.0+ ignores status for all resources)', () => {
    // GIVEN a Deployment with a status
    const obj = edited(deployment(3), (d) => { d.status = { replicas: 3, readyReplicas: 2 }; });
    const warnings: string[] = [];

    // WHEN it is normalized without entries
    const result = normalizeIgnored(obj, [], jq(), warnings) as JsonMap;

    // THEN status is gone, everything else stays, nothing is reported
    expect(result.status).toBeUndefined();
    expect(result.spec).toEqual(deployment(3).spec);
    expect(warnings).toEqual([]);
  });

  test('the input object is not changed: a normalized copy is returned', () => {
    const obj = edited(deployment(3), (d) => { d.status = { replicas: 3 }; });
    normalizeIgnored(obj, pointers('/spec/replicas'), jq(), []);
    expect(obj.status).toEqual({ replicas: 3 });
    expect((obj.spec as JsonMap).replicas).toBe(3);
  });
});

describe('jsonPointers (diff_normalizer.go: one JSON patch "remove" per pointer)', () => {
  test('/spec/replicas removes the replica count and nothing else', () => {
    const result = normalizeIgnored(deployment(3), pointers('/spec/replicas'), jq(), []);
    expect(result).toEqual(edited(deployment(3), (d) => { delete d.spec.replicas; }));
  });

  test('"~1" in a pointer is a "/" inside a key: /metadata/annotations/acme.internal~1owner removes that annotation only', () => {
    // GIVEN two annotations, one with a "/" in its key
    const obj = annotated({ 'acme.internal/owner': 'team-a', 'acme.internal': 'kept' });

    // WHEN the escaped pointer is removed
    const result = normalizeIgnored(obj, pointers('/metadata/annotations/acme.internal~1owner'), jq(), []) as any;

    // THEN only the slashed key is gone
    expect(result.metadata.annotations).toEqual({ 'acme.internal': 'kept' });
  });

  test('"~0" in a pointer is a "~" inside a key', () => {
    const obj = annotated({ 'a~b': 'removed', 'a~0b': 'kept' });
    const result = normalizeIgnored(obj, pointers('/metadata/annotations/a~0b'), jq(), []) as any;
    expect(result.metadata.annotations).toEqual({ 'a~0b': 'kept' });
  });

  test('a pointer into a list item (/spec/template/spec/containers/0/image) removes that field of the first container only', () => {
    // GIVEN two containers
    const obj = withSidecar();

    // WHEN the image of container 0 is removed
    const result = normalizeIgnored(obj, pointers('/spec/template/spec/containers/0/image'), jq(), []) as any;

    // THEN the first container keeps its name, ports and env but has no image; the second is untouched
    const [web, sidecar] = result.spec.template.spec.containers;
    expect(web).toEqual({ name: 'web', ports: [{ containerPort: 8080 }], env: [{ name: 'MODE', value: 'prod' }] });
    expect(sidecar).toEqual({ name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.22.0' });
  });

  test('a pointer to a field that does not exist changes nothing, throws nothing and is not reported (shouldLogError skips it)', () => {
    // GIVEN a Deployment without replicas and pointers to missing fields, one past the end of a list
    const obj = deployment();
    const warnings: string[] = [];

    // WHEN they are applied
    const result = normalizeIgnored(obj, pointers('/spec/replicas', '/metadata/annotations/missing', '/spec/template/spec/containers/5/image'), jq(), warnings);

    // THEN the object is unchanged and nothing is reported
    expect(result).toEqual(deployment());
    expect(warnings).toEqual([]);
  });

  test('a malformed pointer is skipped with a warning and the object is left as it was', () => {
    const warnings: string[] = [];
    const result = normalizeIgnored(deployment(3), pointers('spec/replicas'), jq(), warnings);
    expect(result).toEqual(deployment(3));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('spec/replicas');
  });

  test('every pointer of every entry is applied', () => {
    const entries = [...pointers('/spec/replicas'), ...pointers('/metadata/labels')];
    const result = normalizeIgnored(deployment(3), entries, jq(), []) as any;
    expect(result.spec.replicas).toBeUndefined();
    expect(result.metadata.labels).toBeUndefined();
  });
});

describe('jqPathExpressions, run by a real jq engine as del(<expr>)', () => {
  test('the documented container selector removes just the istio-proxy container (docs/user-guide/diffing.md)', () => {
    // GIVEN a pod template with web and an injected istio-proxy
    const obj = withSidecar();
    const warnings: string[] = [];

    // WHEN the expression selecting istio-proxy is deleted
    const result = normalizeIgnored(obj, jqPaths('.spec.template.spec.containers[]? | select(.name == "istio-proxy")'), jq(), warnings) as any;

    // THEN only web remains, unchanged
    expect(result.spec.template.spec.containers).toEqual((deployment(3) as any).spec.template.spec.containers);
    expect(warnings).toEqual([]);
  });

  test('an expression that selects nothing leaves the object as it was, without a warning', () => {
    const warnings: string[] = [];
    const result = normalizeIgnored(withSidecar(), jqPaths('.spec.template.spec.containers[]? | select(.name == "linkerd-proxy")'), jq(), warnings);
    expect(result).toEqual(withSidecar());
    expect(warnings).toEqual([]);
  });

  test('`[]?` on a list the object does not have selects nothing instead of failing', () => {
    const warnings: string[] = [];
    const result = normalizeIgnored(deployment(3), jqPaths('.webhooks[]?.clientConfig.caBundle'), jq(), warnings);
    expect(result).toEqual(deployment(3));
    expect(warnings).toEqual([]);
  });

  test('a field of every list item: .webhooks[]?.clientConfig.caBundle removes each webhook\'s caBundle', () => {
    // GIVEN a webhook configuration with two webhooks that carry a CA bundle
    const obj: JsonMap = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'injector' },
      webhooks: [
        { name: 'a.acme.internal', clientConfig: { caBundle: 'Cg==', service: { name: 'a', namespace: 'x' } } },
        { name: 'b.acme.internal', clientConfig: { caBundle: 'Cg==', url: 'https://b.acme.internal' } },
      ],
    };

    // WHEN the expression is deleted
    const result = normalizeIgnored(obj, jqPaths('.webhooks[]?.clientConfig.caBundle'), jq(), []) as any;

    // THEN no webhook has a caBundle, and the rest of each clientConfig stays
    expect(result.webhooks).toEqual([
      { name: 'a.acme.internal', clientConfig: { service: { name: 'a', namespace: 'x' } } },
      { name: 'b.acme.internal', clientConfig: { url: 'https://b.acme.internal' } },
    ]);
  });

  test('an expression that fails at run time gives a warning and leaves the object unchanged (diff_normalizer.go skips the failed patch)', () => {
    // GIVEN an expression that indexes a number (.spec.replicas is 3)
    const warnings: string[] = [];

    // WHEN it is run
    const result = normalizeIgnored(deployment(3), jqPaths('.spec.replicas.count'), jq(), warnings);

    // THEN the object is unchanged and the failure is reported with the expression and the resource
    expect(result).toEqual(deployment(3));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('.spec.replicas.count');
    expect(warnings[0]).toContain('Deployment web');
  });

  test('a failing expression does not stop the pointers and expressions around it', () => {
    // GIVEN a failing expression between a pointer and a working expression
    const entries: IgnoreEntry[] = [{
      group: '*',
      kind: '*',
      name: '',
      namespace: '',
      jsonPointers: ['/spec/replicas'],
      jqPathExpressions: ['.spec.selector.matchLabels.app.x', '.metadata.labels'],
      managedFieldsManagers: [],
    }];
    const warnings: string[] = [];

    // WHEN they are applied
    const result = normalizeIgnored(deployment(3), entries, jq(), warnings) as any;

    // THEN the pointer and the working expression took effect, the failing one is reported
    expect(result.spec.replicas).toBeUndefined();
    expect(result.metadata.labels).toBeUndefined();
    expect(warnings).toHaveLength(1);
  });
});
