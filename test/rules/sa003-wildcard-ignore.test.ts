import { expectFindings, findingsFor, safeApplication } from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Manifest } from '../../src/core/manifest';
import { runRules } from '../../src/rules/engine';
import { wildcardIgnore } from '../../src/rules/sa003-wildcard-ignore';

function ignoring(...entries: unknown[]): Manifest {
  return safeApplication({ spec: { ignoreDifferences: entries } });
}

describe('SA003 wildcard-or-unscoped-ignore', () => {
  test('passes when every entry names one group, kind and object', () => {
    // GIVEN the second entry is in the core group, which has no group name
    const app = ignoring(
      { group: 'apps', kind: 'Deployment', name: 'checkout', jsonPointers: ['/spec/replicas'] },
      { kind: 'ConfigMap', name: 'checkout-flags', jsonPointers: ['/data'] },
    );
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test.each(['*', 'apps*', 'app?', '{apps,batch}'])('fails when the group is the glob %j', (group) => {
    // GIVEN
    const app = ignoring({ group, kind: 'Deployment', name: 'checkout' });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/group']);
    expect(findings[0].value).toBe(group);
  });

  test.each(['*', 'Deploy*'])('fails when the kind is the glob %j', (kind) => {
    // GIVEN
    const app = ignoring({ group: 'apps', kind, name: 'checkout' });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/kind']);
  });

  test.each([undefined, ''])('fails when the name is %j', (name) => {
    // GIVEN
    const app = ignoring({ group: 'apps', kind: 'Deployment', name });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/name']);
  });

  test('fails when the kind is missing', () => {
    // GIVEN
    const app = ignoring({ group: 'apps', name: 'checkout' });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/kind']);
  });

  test('fails when an entry is not an object, pointing at that entry', () => {
    // GIVEN
    const app = ignoring({ group: 'apps', kind: 'Deployment', name: 'checkout' }, 'apps/Deployment');
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/1']);
    expect(findings[0].value).toBe('apps/Deployment');
  });

  test('fails once per problem of an entry, group then kind then name', () => {
    // GIVEN
    const app = ignoring({ group: '*', kind: '*' });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, [
      'SA003 /spec/ignoreDifferences/0/group',
      'SA003 /spec/ignoreDifferences/0/kind',
      'SA003 /spec/ignoreDifferences/0/name',
    ]);
  });
});

describe('SA003 fields a controller owns', () => {
  test('passes when every child Application\'s /status is ignored: Argo CD itself writes it', () => {
    // GIVEN an app-of-apps root ignoring the status of all the Applications it deploys
    const app = ignoring({ group: 'argoproj.io', kind: 'Application', jsonPointers: ['/status'] });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes on fields tools and the API server write on every object: a CRD conversion clientConfig, a divisor, tracking annotations', () => {
    // GIVEN external-secrets' cert controller writes each CRD's conversion CA and service; the API server defaults divisors
    const app = ignoring(
      { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', jqPathExpressions: ['.spec.conversion.webhook.clientConfig.caBundle', '.spec.conversion.webhook.clientConfig.service.name', '.spec.conversion.webhook.clientConfig.service.namespace'] },
      { group: 'apps', kind: 'Deployment', jqPathExpressions: ['.spec.template.spec.containers[].env[].valueFrom.resourceFieldRef.divisor', '.spec.template.spec.initContainers[].env[].valueFrom.resourceFieldRef.divisor'] },
      { group: 'argoproj.io', kind: 'Application', namespace: 'argocd', jsonPointers: ['/metadata/annotations/argocd.argoproj.io~1tracking-id', '/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration'] },
    );
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
    // and a CRD's conversion strategy is a human's field
    expect(findingsFor(ignoring({ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', jsonPointers: ['/spec/conversion/strategy'] }))).toHaveLength(1);
  });

  test('passes on the annotations a webhook marks its injections with, of the object or its pod template, by pointer or by jq', () => {
    // GIVEN every Deployment's injection markers ignored, in the three ways jq names a key and as pointers
    const app = ignoring(
      { group: 'apps', kind: 'Deployment', jqPathExpressions: ['.spec.template.metadata.annotations."otel.injected-by"', '.spec.template.metadata.annotations["linkerd.io/injected-by"]'] },
      { group: 'apps', kind: 'StatefulSet', jsonPointers: ['/spec/template/metadata/annotations/vault.hashicorp.com~1agent-inject-status', '/metadata/annotations/sidecar.example.io~1injection-status'] },
    );
    // WHEN / THEN nothing is reported
    expect(findingsFor(app)).toEqual([]);
    // and an annotation a person sets is still reported
    expect(findingsFor(ignoring({ group: 'apps', kind: 'Deployment', jqPathExpressions: ['.spec.template.metadata.annotations."linkerd.io/inject"'] }))).toHaveLength(1);
  });

  test.each([
    ['a JSON pointer', { jsonPointers: ['/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration'] }],
    ['jq, the key in brackets', { jqPathExpressions: ['.metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]'] }],
    ['jq, the key quoted after the dot', { jqPathExpressions: ['.metadata.annotations."kubectl.kubernetes.io/last-applied-configuration"'] }],
  ])('passes on kubectl\'s last-applied annotation of every CRD and its status, the key written as %s', (_name, paths) => {
    const app = ignoring({ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', ...paths }, { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', jqPathExpressions: ['.status'] });
    expect(findingsFor(app)).toEqual([]);
    // and another annotation in the same spelling is still reported
    const other = { jqPathExpressions: ['.metadata.annotations."acme.io/owner"'] };
    expect(findingsFor(ignoring({ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', ...other })).map((f) => f.rule.id)).toEqual(['SA003']);
  });

  test('passes on how every ExternalSecret reads its remote values, nullBytePolicy included, which external-secrets\' CRD defaults', () => {
    const app = ignoring({ group: 'external-secrets.io', kind: 'ExternalSecret', jqPathExpressions: ['.spec.data[]?.remoteRef.nullBytePolicy', '.spec.dataFrom[]?.extract.nullBytePolicy', '.status'] });
    expect(findingsFor(app)).toEqual([]);
    // and the remote key is a human's field
    expect(findingsFor(ignoring({ group: 'external-secrets.io', kind: 'ExternalSecret', jqPathExpressions: ['.spec.data[]?.remoteRef.key'] })).map((f) => f.rule.id)).toEqual(['SA003']);
  });

  test('passes on the remote reference fields external-secrets\' CRD defaults on every ExternalSecret, and reports its target', () => {
    // GIVEN every ExternalSecret's read strategies ignored, by jq and by pointer
    const app = ignoring(
      { group: 'external-secrets.io', kind: 'ExternalSecret', jqPathExpressions: ['.spec.data[].remoteRef.conversionStrategy', '.spec.data[].remoteRef.decodingStrategy', '.spec.data[].remoteRef.metadataPolicy', '.spec.dataFrom[].extract.conversionStrategy'] },
      { group: 'external-secrets.io', kind: 'ClusterExternalSecret', jsonPointers: ['/spec/externalSecretSpec/data/0/remoteRef/decodingStrategy'] },
    );
    // WHEN / THEN nothing is reported
    expect(findingsFor(app)).toEqual([]);
    // and what a person sets (the Secret it writes) still is; so are the same fields on another kind
    expect(findingsFor(ignoring({ group: 'external-secrets.io', kind: 'ExternalSecret', jsonPointers: ['/spec/target/name'] }))).toHaveLength(1);
    expect(findingsFor(ignoring({ group: 'acme.io', kind: 'Widget', jqPathExpressions: ['.spec.remoteRef.decodingStrategy'] }))).toHaveLength(1);
  });

  test('passes on an entry of managedFieldsManagers alone, and judges the paths of an entry that has both', () => {
    // GIVEN every Cluster's fields its operator owns ignored, for any name
    const managers = ignoring({ group: 'postgresql.cnpg.io', kind: 'Cluster', managedFieldsManagers: ['cnpg-manager'] });
    // WHEN / THEN a person's edit is owned by the person's client and still shows: nothing is reported
    expect(findingsFor(managers)).toEqual([]);
    // and a path beside the managers is judged as ever
    expect(findingsFor(ignoring({ group: 'postgresql.cnpg.io', kind: 'Cluster', managedFieldsManagers: ['cnpg-manager'], jsonPointers: ['/spec/instances'] }))).toHaveLength(1);
  });

  test('passes when every webhook configuration\'s injected caBundle is ignored, by pointer or by jq, under a glob group', () => {
    // GIVEN cert-manager's cainjector writes clientConfig.caBundle into each webhook
    const app = ignoring(
      { group: '*', kind: 'MutatingWebhookConfiguration', jqPathExpressions: ['.webhooks[]?.clientConfig.caBundle'] },
      { group: 'admissionregistration.k8s.io', kind: 'ValidatingWebhookConfiguration', jsonPointers: ['/webhooks/0/clientConfig/caBundle'] },
      { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', jsonPointers: ['/spec/conversion/webhook/clientConfig/caBundle'] },
    );
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when an unscoped webhook entry ignores all of /webhooks, naming the broad path', () => {
    // GIVEN
    const app = ignoring({ group: 'admissionregistration.k8s.io', kind: 'MutatingWebhookConfiguration', jsonPointers: ['/webhooks'] });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/name']);
    expect(findings[0].message).toContain('ignores all of "/webhooks"');
  });

  test('fails when an unscoped entry ignores a controller-owned field together with another one', () => {
    // GIVEN /status is Argo CD's, /spec/source is not
    const app = ignoring({ group: 'argoproj.io', kind: 'Application', jsonPointers: ['/status', '/spec/source'] });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/name']);
  });

  test('passes when /status is ignored on every kind: controllers write it, and Argo CD 3.0 and later ignore it anyway', () => {
    // GIVEN
    const app = ignoring({ group: '*', kind: '*', jsonPointers: ['/status'] });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings.filter((f) => f.rule.id === 'SA003')).toEqual([]);
  });

  test('fails when every kind ignores /status and a field humans change: the message names that field, not /status', () => {
    // GIVEN
    const app = ignoring({ group: '*', kind: '*', jsonPointers: ['/status', '/data'] });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings.filter((f) => f.rule.id === 'SA003').map((f) => f.message)).toEqual([
      'group "*" is a glob and matches more than one kind of resource, and it ignores all of "/data"',
      'kind "*" is a glob and matches more than one kind of resource, and it ignores all of "/data"',
      'the entry for kind "*" names no object, so it applies to every one, and it ignores all of "/data"',
    ]);
  });

  test.each([
    ['PersistentVolumeClaim', ['/spec/volumeName', '/spec/dataSource', '/spec/dataSourceRef'], false],
    ['PersistentVolumeClaim', ['.spec.storageClassName'], true],
    ['StatefulSet', ['.spec.volumeClaimTemplates[].metadata.creationTimestamp'], true],
    ['Job', ['/spec/template/metadata/labels', '/spec/selector'], false],
    ['CustomResourceDefinition', ['/spec/preserveUnknownFields'], false],
  ])('passes when an unscoped %s entry ignores only fields fixed at creation: %j', (kind, paths, jq) => {
    // GIVEN an entry for every object of the kind, ignoring fields the API server refuses to change
    const group = { PersistentVolumeClaim: '', Job: 'batch', CustomResourceDefinition: 'apiextensions.k8s.io' }[kind] ?? 'apps';
    const app = ignoring({ group, kind, ...(jq ? { jqPathExpressions: paths } : { jsonPointers: paths }) });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings.filter((f) => f.rule.id === 'SA003')).toEqual([]);
  });

  test.each([
    ['PersistentVolumeClaim', '/spec/resources/requests/storage'],
    ['StatefulSet', '/spec/template/spec/containers'],
    ['Job', '/spec/parallelism'],
    ['Deployment', '/spec/template/metadata/labels'],
  ])('fails when an unscoped %s entry ignores %s, which a human can change', (kind, path) => {
    // GIVEN
    const app = ignoring({ group: 'apps', kind, jsonPointers: [path] });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings.filter((f) => f.rule.id === 'SA003').map((f) => f.path)).toEqual(['/spec/ignoreDifferences/0/name']);
  });

  test.each([['/data', false], ['', false], ['/', false], ['..', true], ['.data', true], ['.', true]])(
    'fails on an unscoped ConfigMap entry ignoring the broad path %j, and says so',
    (path, jq) => {
      // GIVEN
      const app = ignoring({ kind: 'ConfigMap', ...(jq ? { jqPathExpressions: [path] } : { jsonPointers: [path] }) });
      // WHEN
      const findings = findingsFor(app);
      // THEN
      expect(findings.filter((f) => f.rule.id === 'SA003').map((f) => f.message)).toEqual([
        `the entry for kind "ConfigMap" names no object, so it applies to every one, and it ignores all of ${JSON.stringify(path)}`,
      ]);
    },
  );

  test('an unscoped entry on a narrow field that no controller is known to own is still reported, without "all of"', () => {
    // GIVEN
    const app = ignoring({ group: 'apps', kind: 'Deployment', jsonPointers: ['/spec/replicas'] });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/name']);
    expect(findings[0].message).not.toContain('all of');
  });
});

describe('SA003 edges', () => {
  test('an entry with neither kind nor name is reported for both, with an empty kind in the message', () => {
    const app = ignoring({ group: 'apps', jsonPointers: ['/spec/replicas'] });
    const findings = findingsFor(app);
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/kind', 'SA003 /spec/ignoreDifferences/0/name']);
    expect(findings.map((f) => f.message)).toEqual(['the entry names no kind', 'the entry for kind "" names no object, so it applies to every one']);
  });

  test('an empty kind and an empty name count as missing', () => {
    const app = ignoring({ group: 'apps', kind: '', name: '', jsonPointers: ['/spec/replicas'] });
    const findings = findingsFor(app);
    expectFindings(findings, app, ['SA003 /spec/ignoreDifferences/0/kind', 'SA003 /spec/ignoreDifferences/0/name']);
  });

  test('a group or kind that is not a string is not read as a glob (Kubernetes refuses the entry anyway)', () => {
    const app = ignoring({ group: ['*'], kind: 'Deployment', name: 'web', jsonPointers: ['/spec/replicas'] });
    expect(findingsFor(app)).toEqual([]);
  });
});

describe('SA003 when the audit knows every object the app deploys', () => {
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'zfs-controller' }, spec: { replicas: 1 } };
  const volumes = { group: 'zfs.openebs.io', kind: 'ZFSVolume', jsonPointers: ['/metadata/finalizers'] };
  const app = safeApplication({ spec: { ignoreDifferences: [volumes] } });
  const check = (complete: boolean | undefined, resources: Manifest[] = [deployment]) => runRules({
    application: app, resources, argoCdVersion: ArgoCdVersion.LATEST, ...(complete === undefined ? {} : { complete }),
  }, [wildcardIgnore]).map((f) => f.path);

  test('passes on an unscoped entry of a kind none of them has: a controller creates those objects, Argo CD compares none', () => {
    expect(check(true)).toEqual([]);
  });

  test('fails on it when they may not be all (a chart, a synth), or none was found, or one is of its kind', () => {
    expect(check(false)).toEqual(['/spec/ignoreDifferences/0/name']);
    expect(check(undefined)).toEqual(['/spec/ignoreDifferences/0/name']);
    expect(check(true, [])).toEqual(['/spec/ignoreDifferences/0/name']);
    expect(check(true, [deployment, { apiVersion: 'zfs.openebs.io/v1', kind: 'ZFSVolume', metadata: { name: 'pv-1' } }])).toEqual(['/spec/ignoreDifferences/0/name']);
  });

  test('passes on an entry whose glob kind matches objects of the app but whose name or namespace matches none of them', () => {
    const glob = (scope: Record<string, string>) => safeApplication({ spec: { ignoreDifferences: [{ group: 'apps', kind: '*', ...scope, jsonPointers: ['/spec/replicas'] }] } });
    const run = (application: Manifest, complete: boolean) => runRules(
      { application, resources: [deployment], argoCdVersion: ArgoCdVersion.LATEST, complete }, [wildcardIgnore],
    ).map((f) => f.path);
    expect(run(glob({ name: 'legacy' }), true)).toEqual([]);
    expect(run(glob({ namespace: 'elsewhere' }), true)).toEqual([]);
    // but not when it names one of them (the destination's namespace stands in for the one it does not name), nor when they may not be all
    expect(run(glob({ name: 'zfs-controller' }), true)).toEqual(['/spec/ignoreDifferences/0/kind']);
    expect(run(glob({ namespace: 'checkout' }), true)).toEqual(['/spec/ignoreDifferences/0/kind', '/spec/ignoreDifferences/0/name']);
    expect(run(glob({ name: 'legacy' }), false)).toEqual(['/spec/ignoreDifferences/0/kind']);
  });
});

describe('SA003 on a group that is no API group', () => {
  test('passes on an unscoped entry whose group is "core": Argo CD matches it with nothing, and SA019 reports it', () => {
    const app = ignoring({ group: 'core', kind: 'Secret', jsonPointers: ['/data'] });
    expect(findingsFor(app).map((f) => f.rule.id)).not.toContain('SA003');
    // while the core group written "" is reported
    expect(findingsFor(ignoring({ group: '', kind: 'Secret', jsonPointers: ['/data'] })).map((f) => f.rule.id)).toContain('SA003');
  });
});
