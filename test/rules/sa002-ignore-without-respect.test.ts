import { expectFindings, findingsFor, safeApplication } from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Manifest } from '../../src/core/manifest';
import { runRules } from '../../src/rules/engine';
import { ignoreWithoutRespect } from '../../src/rules/sa002-ignore-without-respect';

const IGNORE_REPLICAS = [{ group: 'apps', kind: 'Deployment', name: 'checkout', jsonPointers: ['/spec/replicas'] }];

describe('SA002 ignore-without-respect', () => {
  test('passes when ignoreDifferences comes with RespectIgnoreDifferences=true', () => {
    // GIVEN
    const app = safeApplication({ spec: { ignoreDifferences: IGNORE_REPLICAS } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when there is nothing to ignore and no sync option', () => {
    // GIVEN
    const app = safeApplication({ spec: { ignoreDifferences: [], syncPolicy: { syncOptions: undefined } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the only ignored fields are defaulting artefacts, which a sync does not change', () => {
    // GIVEN the divisor the API server fills into env resourceFieldRefs, with no sync option
    const divisor = { group: 'apps', kind: 'Deployment', jqPathExpressions: ['.spec.template.spec.containers[].env[].valueFrom.resourceFieldRef.divisor'] };
    const app = safeApplication({ spec: { ignoreDifferences: [divisor], syncPolicy: { syncOptions: ['CreateNamespace=true'] } } });
    // WHEN / THEN nothing; with the replicas as well, SA002
    expect(findingsFor(app)).toEqual([]);
    const both = safeApplication({ spec: { ignoreDifferences: [divisor, ...IGNORE_REPLICAS], syncPolicy: { syncOptions: ['CreateNamespace=true'] } } });
    expect(findingsFor(both).map((f) => f.rule.id)).toEqual(['SA002']);
  });

  test.each([
    ['a Job\'s pod template labels (the API server adds job-name, and the template is fixed)', { group: 'batch', kind: 'Job', jsonPointers: ['/spec/template/metadata/labels'] }],
    ['a claim\'s volumeName (the binder writes it)', { kind: 'PersistentVolumeClaim', jsonPointers: ['/spec/volumeName'] }],
    ['status on every kind', { group: '*', kind: '*', jsonPointers: ['/status'] }],
    ['the generation and the Deployment controller\'s revision annotation, which only the cluster writes',
      { group: 'apps', kind: 'Deployment', jsonPointers: ['/metadata/generation', '/metadata/annotations/deployment.kubernetes.io~1revision'] }],
    ['the same as jq paths', { group: 'apps', kind: 'Deployment', jqPathExpressions: ['.metadata.resourceVersion', '.metadata.annotations["deployment.kubernetes.io/revision"]'] }],
    ['kubectl\'s last-applied copy as a JSON pointer', { group: 'apps', kind: 'Deployment', jsonPointers: ['/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration'] }],
    ['kubectl\'s last-applied copy in jq, the key in brackets', { group: 'apps', kind: 'Deployment', jqPathExpressions: ['.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]'] }],
    ['kubectl\'s last-applied copy in jq, the key quoted after the dot', { group: 'apps', kind: 'Deployment', jqPathExpressions: ['.metadata.annotations."kubectl.kubernetes.io/last-applied-configuration"'] }],
    ['an ExternalSecret\'s nullBytePolicy, which its CRD defaults', { group: 'external-secrets.io', kind: 'ExternalSecret', jqPathExpressions: ['.spec.data[]?.remoteRef.nullBytePolicy', '.spec.dataFrom[]?.extract.nullBytePolicy'] }],
  ])('passes when the entry ignores only what a sync leaves alone: %s', (_name, entry) => {
    // GIVEN no sync option
    const app = safeApplication({ spec: { ignoreDifferences: [entry], syncPolicy: { syncOptions: ['CreateNamespace=true'] } } });
    // WHEN / THEN
    expect(findingsFor(app)).toEqual([]);
  });

  test('passes when the entry\'s group is no API group ("core"): Argo CD matches it with nothing, and SA019 reports the mistake', () => {
    const entry = { group: 'core', kind: 'Secret', name: 'webhook-server-secret', jsonPointers: ['/data'] };
    const app = safeApplication({ spec: { ignoreDifferences: [entry], syncPolicy: { syncOptions: ['CreateNamespace=true'] } } });
    expect(findingsFor(app).map((f) => f.rule.id)).toEqual(['SA019']);
  });

  test.each([
    ['an annotation Git may set, in jq after the dot', { group: 'apps', kind: 'Deployment', jqPathExpressions: ['.metadata.annotations."acme.io/owner"'] }],
    ['an ExternalSecret\'s remote key', { group: 'external-secrets.io', kind: 'ExternalSecret', jqPathExpressions: ['.spec.data[]?.remoteRef.key'] }],
    ['a Secret\'s data, the core group written ""', { group: '', kind: 'Secret', name: 'webhook-server-secret', jsonPointers: ['/data'] }],
  ])('fails when the entry ignores a field Git may declare: %s', (_name, entry) => {
    const app = safeApplication({ spec: { ignoreDifferences: [entry], syncPolicy: { syncOptions: ['CreateNamespace=true'] } } });
    expect(findingsFor(app).map((f) => f.rule.id)).toContain('SA002');
  });

  test('fails when the ExternalSecret of the app declares the nullBytePolicy it ignores: Git\'s value would overwrite the live one', () => {
    const entry = { group: 'external-secrets.io', kind: 'ExternalSecret', jqPathExpressions: ['.spec.data[]?.remoteRef.nullBytePolicy'] };
    const app = safeApplication({ spec: { ignoreDifferences: [entry], syncPolicy: { syncOptions: ['CreateNamespace=true'] } } });
    const secret = {
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      metadata: { name: 'db' },
      spec: { data: [{ secretKey: 'password', remoteRef: { key: 'prod/db', nullBytePolicy: 'Fail' } }] },
    };
    expect(runRules({ application: app, resources: [secret], argoCdVersion: ArgoCdVersion.LATEST }, [ignoreWithoutRespect]).map((f) => f.rule.id)).toEqual(['SA002']);
  });

  test('fails when the entry ignores a webhook\'s caBundle that a manifest of the app declares: Git\'s value would overwrite the injected one', () => {
    // GIVEN a webhook configuration of the app that declares an empty caBundle, and one that declares none
    const caBundle = { group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration', jqPathExpressions: ['.webhooks[].clientConfig.caBundle'] };
    const app = safeApplication({ spec: { ignoreDifferences: [caBundle], syncPolicy: { syncOptions: ['CreateNamespace=true'] } } });
    const webhook = (clientConfig: Record<string, unknown>) => ({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'injector' },
      webhooks: [{ name: 'inject.acme.io', clientConfig }],
    });
    // WHEN / THEN SA002 where Git declares it; where Git declares none, or the webhooks are not in Git (a controller
    // creates them), a sync writes no caBundle
    expect(runRules({ application: app, resources: [webhook({ caBundle: '', service: { name: 'injector' } })], argoCdVersion: ArgoCdVersion.LATEST }, [ignoreWithoutRespect])
      .map((f) => f.rule.id)).toEqual(['SA002']);
    expect(runRules({ application: app, resources: [webhook({ service: { name: 'injector' } })], argoCdVersion: ArgoCdVersion.LATEST }, [ignoreWithoutRespect])).toEqual([]);
    expect(findingsFor(app)).toEqual([]);
  });

  test.each([
    ['managedFieldsManagers alone (fields other controllers own)', { group: 'external-secrets.io', kind: 'ExternalSecret', managedFieldsManagers: ['external-secrets'] }],
    ['a CRD\'s preserveUnknownFields (defaulted, never set true)', { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', jsonPointers: ['/spec/preserveUnknownFields'] }],
    ['a CRD conversion webhook\'s caBundle', { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', jqPathExpressions: ['.spec.conversion.webhook.clientConfig.caBundle'] }],
  ])('passes when the entry can cover no field Git declares: %s', (_name, entry) => {
    const app = safeApplication({ spec: { ignoreDifferences: [entry], syncPolicy: { syncOptions: ['CreateNamespace=true'] } } });
    expect(findingsFor(app)).toEqual([]);
  });

  describe('when the audit knows every manifest the app deploys', () => {
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'checkout' }, spec: { replicas: 2 } };
    const volumes = { group: 'zfs.openebs.io', kind: 'ZFSVolume', jsonPointers: ['/metadata/finalizers'] };
    const app = (ignore: unknown[]) => safeApplication({ spec: { ignoreDifferences: ignore, syncPolicy: { syncOptions: ['CreateNamespace=true'] } } });
    const check = (application: Manifest, complete: boolean | undefined, resources: Manifest[] = [deployment]) => runRules({
      application, resources, argoCdVersion: ArgoCdVersion.LATEST, ...(complete === undefined ? {} : { complete }),
    }, [ignoreWithoutRespect]).map((f) => f.rule.id);

    test('passes when no manifest is of the entry\'s group and kind: a controller creates those objects', () => {
      expect(check(app([volumes]), true)).toEqual([]);
    });

    const secrets = [
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'other-secret', namespace: 'op' } },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'plain' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader', namespace: 'op' } },
    ];
    const entry = (name: string, namespace?: string, kind = 'Secret', group = '') => ({ group, kind, name, ...(namespace === undefined ? {} : { namespace }), jsonPointers: ['/data'] });

    test.each([
      ['a name none of them has', entry('webhook-server-secret', 'op')],
      ['a name one has, in another namespace', entry('other-secret', 'elsewhere')],
      ['the name of one that names no namespace, with a namespace other than the destination\'s', entry('plain', 'op')],
      ['the name of a cluster-scoped one, with a namespace (Argo CD clears it)', entry('reader', 'op', 'ClusterRole', 'rbac.authorization.k8s.io')],
    ])('passes when the entry names an object none of them is: %s', (_name, e) => {
      expect(check(app([e]), true, secrets)).toEqual([]);
    });

    test.each([
      ['its name and namespace', entry('other-secret', 'op')],
      ['its name alone', entry('other-secret')],
      ['one that names no namespace, with the destination\'s', entry('plain', 'checkout')],
      ['a cluster-scoped one, by name', entry('reader', undefined, 'ClusterRole', 'rbac.authorization.k8s.io')],
    ])('fails when the entry names an object of the app: %s', (_name, e) => {
      expect(check(app([e]), true, secrets)).toEqual(['SA002']);
    });

    test('fails when a named entry matches no manifest but the manifests may not be all', () => {
      expect(check(app([entry('webhook-server-secret', 'op')]), false, secrets)).toEqual(['SA002']);
    });

    test('fails when one is (the replicas of its Deployment), or when the manifests may not be all (a chart, a synth), or none was found', () => {
      expect(check(app([volumes, ...IGNORE_REPLICAS]), true)).toEqual(['SA002']);
      expect(check(app([volumes]), false)).toEqual(['SA002']);
      expect(check(app([volumes]), undefined)).toEqual(['SA002']);
      expect(check(app([volumes]), true, [])).toEqual(['SA002']);
    });
  });

  test('fails when the sync option is missing', () => {
    // GIVEN
    const app = safeApplication({ spec: { ignoreDifferences: IGNORE_REPLICAS, syncPolicy: { syncOptions: ['CreateNamespace=true'] } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA002 /spec/syncPolicy/syncOptions']);
    expect(findings[0].value).toEqual(['CreateNamespace=true']);
  });

  test('fails when there are no sync options at all', () => {
    // GIVEN
    const app = safeApplication({ spec: { ignoreDifferences: IGNORE_REPLICAS, syncPolicy: { syncOptions: undefined } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA002 /spec/syncPolicy/syncOptions']);
    expect(findings[0].value).toEqual([]);
  });

  test('fails when RespectIgnoreDifferences=false', () => {
    // GIVEN
    const app = safeApplication({
      spec: { ignoreDifferences: IGNORE_REPLICAS, syncPolicy: { syncOptions: ['RespectIgnoreDifferences=false'] } },
    });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA002 /spec/syncPolicy/syncOptions']);
  });
});
