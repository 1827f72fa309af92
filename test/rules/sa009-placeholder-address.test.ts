import { deployment, expectFindings, findingsFor, safeApplication } from './support';
import { Manifest } from '../../src/core/manifest';
import { imageHost, isReservedHost, repoHost } from '../../src/rules/sa009-placeholder-address';

function withImage(kind: string, image: string): Manifest {
  const pod = { containers: [{ name: 'web', image }] };
  const spec = kind === 'Pod' ? pod : kind === 'CronJob' ? { jobTemplate: { spec: { template: { spec: pod } } } } : { template: { spec: pod } };
  return { apiVersion: 'v1', kind, metadata: { name: 'web', namespace: 'checkout' }, spec };
}

describe('SA009 placeholder-address', () => {
  test.each([
    'https://git.acme.internal/payments/checkout.git',
    'git@github.com:acme/gitops.git',
    'ssh://git@git.corp.acme.io:7999/platform/gitops.git',
    'oci://registry.acme.internal/charts',
    'https://example.company.io/gitops.git',
  ])('passes when the source repository is %j', (repoURL) => {
    // GIVEN
    const app = safeApplication({ spec: { source: { repoURL } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test.each([
    'https://git.example.com/payments/checkout.git',
    'https://EXAMPLE.ORG/gitops.git',
    'git@git.example.net:platform/gitops.git',
    'ssh://git@git.acme.test:22/gitops.git',
    'oci://registry.example/charts',
    'https://user@repo.invalid/gitops.git',
  ])('fails when the source repository is %j', (repoURL) => {
    // GIVEN
    const app = safeApplication({ spec: { source: { repoURL } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings.map((f) => `${f.rule.id} ${f.path}`)).toEqual(['SA009 /spec/source/repoURL']);
    expect(findings[0].value).toBe(repoURL);
    expect(findings[0].message).toContain('a placeholder host: Argo CD cannot fetch it');
  });

  test('fails on each placeholder source of a multi-source app, at its own pointer', () => {
    // GIVEN
    const app = safeApplication({
      spec: {
        source: undefined,
        sources: [
          { repoURL: 'https://charts.acme.internal', chart: 'web', targetRevision: '1.2.3' },
          { repoURL: 'https://git.example.com/platform/values.git', targetRevision: 'main', ref: 'values' },
        ],
      },
    });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA009 /spec/sources/1/repoURL']);
  });

  test.each(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Pod', 'Rollout'])('fails when a %s runs an image from a placeholder registry', (kind) => {
    // GIVEN
    const workload = withImage(kind, 'registry.example.com/payments/checkout:1.0.0');
    // WHEN
    const findings = findingsFor(safeApplication(), undefined, [workload]);
    // THEN
    expect(findings.map((f) => f.rule.id)).toEqual(['SA009']);
    expect(findings[0].object).toBe(workload);
    expect(findings[0].path).toMatch(/\/containers\/0\/image$/);
  });

  test('init and ephemeral containers are checked too, each at its pointer', () => {
    // GIVEN
    const workload = deployment('web');
    (workload.spec as any).template.spec.initContainers = [{ name: 'init', image: 'registry.example.org/init:1' }];
    (workload.spec as any).template.spec.ephemeralContainers = [{ name: 'debug', image: 'busybox:1.36' }, { name: 'x', image: 'localhost.test/x' }];
    // WHEN
    const findings = findingsFor(safeApplication(), undefined, [workload]);
    // THEN
    expectFindings(findings, workload, ['SA009 /spec/template/spec/initContainers/0/image', 'SA009 /spec/template/spec/ephemeralContainers/1/image']);
  });

  test.each(['nginx:1.27', 'library/nginx', 'ghcr.io/acme/web:1', 'localhost:5000/web:dev', 'registry.acme.internal:5000/web@sha256:abc'])(
    'passes when an image is %j', (image) => {
      expect(findingsFor(safeApplication(), undefined, [withImage('Deployment', image)])).toEqual([]);
    });

  test('runs in audit only: the rule says so', () => {
    const rule = findingsFor(safeApplication({ spec: { source: { repoURL: 'https://git.example.com/x.git' } } }))[0].rule;
    expect(rule.auditOnly).toBe(true);
  });

  test('host readers', () => {
    expect(repoHost('https://git.example.com:8443/x.git')).toBe('git.example.com');
    expect(repoHost('git@host.example.org:x/y.git')).toBe('host.example.org');
    expect(repoHost('not a url')).toBeUndefined();
    expect(imageHost('registry.example.com:5000/x:1')).toBe('registry.example.com');
    expect(imageHost('acme/web:1')).toBeUndefined();
    expect(isReservedHost('Example.COM.')).toBe(true);
    expect(isReservedHost('notexample.com')).toBe(false);
    expect(isReservedHost('example.company')).toBe(false);
  });
});
