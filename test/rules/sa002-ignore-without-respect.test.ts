import { expectFindings, findingsFor, safeApplication } from './support';

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
  ])('passes when the entry ignores only what a sync leaves alone: %s', (_name, entry) => {
    // GIVEN no sync option
    const app = safeApplication({ spec: { ignoreDifferences: [entry], syncPolicy: { syncOptions: ['CreateNamespace=true'] } } });
    // WHEN / THEN
    expect(findingsFor(app)).toEqual([]);
  });

  test('fails when the entry ignores a webhook\'s caBundle: Git\'s empty or placeholder value would overwrite the injected one', () => {
    // GIVEN
    const caBundle = { group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration', jqPathExpressions: ['.webhooks[].clientConfig.caBundle'] };
    const app = safeApplication({ spec: { ignoreDifferences: [caBundle], syncPolicy: { syncOptions: ['CreateNamespace=true'] } } });
    // WHEN / THEN
    expect(findingsFor(app).map((f) => f.rule.id)).toEqual(['SA002']);
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
