import { writeFileSync } from 'fs';
import { join } from 'path';
import { buildPlatformApp } from '../../examples/platform/app';
import { auditJson } from '../audit/support';
import { readTree, tempDir, yamlOf } from '../support/app';
import { crdErrors } from '../support/crd';

const CRD_KINDS: Record<string, string> = { Application: 'application', AppProject: 'appproject', ApplicationSet: 'applicationset' };

describe('examples/platform', () => {
  // GIVEN the platform example, synthesized into dist-platform/ of a fresh repository
  const root = tempDir();
  buildPlatformApp({ outdir: join(root, 'dist-platform'), outdirFromRepoRoot: 'dist-platform' }).synth();
  const tree = readTree(join(root, 'dist-platform'));
  const manifests = Object.entries(tree).filter(([path]) => path.endsWith('.yaml')).map(([path, text]) => ({ path, manifest: yamlOf(text) }));
  const byName = (kind: string, name: string) => manifests.find((m) => m.manifest.kind === kind && m.manifest.metadata.name === name)!.manifest;

  test('deploys each shape a platform repository holds: charts, overlays, a StatefulSet, a Rollout and a git-generated fleet', () => {
    expect(manifests.map((m) => `${m.manifest.kind}/${m.manifest.metadata.name}`).sort()).toEqual([
      'AppProject/payments', 'AppProject/platform',
      'Application/checkout', 'Application/ingress', 'Application/payments-api', 'Application/payments-apps',
      'Application/payments-production', 'Application/payments-staging', 'Application/platform-apps',
      'ApplicationSet/apps',
      'HorizontalPodAutoscaler/checkout-sessions', 'HorizontalPodAutoscaler/checkout-web',
      'Rollout/checkout-web', 'Service/checkout-sessions-service-c8aaca92', 'StatefulSet/checkout-sessions',
    ]);
  });

  test('every Application, AppProject and ApplicationSet validates against the tightened v3.5.1 CRDs', () => {
    const argo = manifests.filter((m) => m.manifest.kind in CRD_KINDS);
    expect(argo).toHaveLength(10);
    for (const { path, manifest } of argo) {
      expect({ path, errors: crdErrors(CRD_KINDS[manifest.kind], '3.5', manifest) }).toEqual({ path, errors: [] });
    }
  });

  test('each shape carries its guarantee', () => {
    // A chart at one exact version with its values inline; ingress-nginx with its values from the platform's values repository.
    expect(byName('Application', 'payments-api').spec.source).toEqual(expect.objectContaining({ chart: 'payments-api', targetRevision: '2.7.1' }));
    expect(byName('Application', 'payments-api').spec.source.helm.valuesObject.database.existingSecret).toBe('payments-db-credentials');
    const ingress = byName('Application', 'ingress').spec;
    expect(ingress.source).toBeUndefined();
    expect(ingress.sources.map((s: any) => s.ref ?? `${s.chart}@${s.targetRevision}`)).toEqual(['ingress-nginx@4.11.3', 'values']);
    // An overlay per environment, each promoted by the image digest it pins.
    for (const env of ['staging', 'production']) {
      expect(byName('Application', `payments-${env}`).spec.source.kustomize.images[0]).toMatch(/^ghcr\.io\/acme\/payments-api=ghcr\.io\/acme\/payments-api@sha256:/);
    }
    // The StatefulSet and the Rollout have no replicas; their HPAs own them, and the Application ignores exactly those.
    expect(byName('StatefulSet', 'checkout-sessions').spec.replicas).toBeUndefined();
    expect(byName('Rollout', 'checkout-web').spec.replicas).toBeUndefined();
    expect(byName('HorizontalPodAutoscaler', 'checkout-web').spec.scaleTargetRef).toEqual({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'checkout-web' });
    const checkout = byName('Application', 'checkout').spec;
    expect(checkout.ignoreDifferences.map((d: any) => `${d.group}/${d.kind}/${d.name} ${d.jsonPointers}`).sort())
      .toEqual(['apps/StatefulSet/checkout-sessions /spec/replicas', 'argoproj.io/Rollout/checkout-web /spec/replicas']);
    expect(checkout.syncPolicy.syncOptions).toContain('RespectIgnoreDifferences=true');
    // The fleet keeps an Application whose folder goes, and rolls out staging first.
    const apps = byName('ApplicationSet', 'apps').spec;
    expect(apps.syncPolicy.applicationsSync).toBe('create-update');
    expect(apps.strategy.type).toBe('RollingSync');
  });

  test('audits clean but for its placeholder addresses, which a config accepts with a reason', async () => {
    // WHEN the repository is audited as it is
    const plain = await auditJson(root, '--repo-url', 'https://git.example.com/platform/gitops.git');
    // THEN the only findings are the example.com addresses (SA009), and no file is unreadable
    expect(plain.run.code).toBe(1);
    expect([...new Set(plain.report.findings.map((f) => f.ruleId))]).toEqual(['SA009']);
    expect(plain.report.problems).toEqual([]);

    // WHEN the placeholders are accepted
    const config = join(tempDir(), 'placeholders.yaml');
    writeFileSync(config, 'suppressions:\n  - ruleId: SA009\n    reason: the example\'s repositories and images are placeholders on purpose\n');
    const accepted = await auditJson(root, '--repo-url', 'https://git.example.com/platform/gitops.git', '--config', config);
    // THEN nothing is found, and every manifest was read
    expect(accepted.run.code).toBe(0);
    expect(accepted.report.findings).toEqual([]);
    expect(accepted.report.stats.manifests).toBe(manifests.length);
  });

  test('its output matches the committed snapshot', () => {
    expect(tree).toMatchSnapshot();
  });
});
