import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { CRD_RELEASES, CRD_ROOT, crdErrors } from './crd';

describe('tightened CRD validation (test support)', () => {
  const valid = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'a', namespace: 'argocd' },
    spec: { project: 'p', destination: { namespace: 'n', server: 'https://kubernetes.default.svc' }, source: { repoURL: 'https://x/y.git', path: 'p' } },
  };

  test('accepts a minimal Application', () => {
    expect(crdErrors('application', '3.5', valid)).toEqual([]);
  });

  test('fails when a field is misspelt', () => {
    const typo = { ...valid, spec: { ...valid.spec, syncPolicy: { automated: { selfheal: true } } } };
    expect(crdErrors('application', '3.5', typo).join('\n')).toContain('selfheal');
  });

  test('fails when automated.enabled is used against the 3.0 CRD', () => {
    const enabled = { ...valid, spec: { ...valid.spec, syncPolicy: { automated: { enabled: true } } } };
    expect(crdErrors('application', '3.1', enabled)).toEqual([]);
    expect(crdErrors('application', '3.0', enabled).join('\n')).toContain('enabled');
  });

  test('every CRD_RELEASES folder is a patch of its minor and holds both CRDs', () => {
    // GIVEN the CRD folders the tests validate against (test/reliability/compat-matrix.test.ts checks they are ArgoCdVersion.all())
    // WHEN each is looked at
    // THEN its tag is a patch of the minor it stands for, and it has the Application and AppProject CRDs
    expect(Object.keys(CRD_RELEASES).length).toBeGreaterThanOrEqual(7);
    for (const [release, tag] of Object.entries(CRD_RELEASES)) {
      expect(tag).toMatch(new RegExp(`^v${release.replace('.', '\\.')}\\.\\d+$`));
      expect(existsSync(join(CRD_ROOT, tag, 'application-crd.yaml'))).toBe(true);
      expect(existsSync(join(CRD_ROOT, tag, 'appproject-crd.yaml'))).toBe(true);
    }
  });

  test('schemas/README.md lists every CRD folder the tests read', () => {
    const readme = readFileSync(join(CRD_ROOT, '..', 'README.md'), 'utf8');
    for (const tag of Object.values(CRD_RELEASES)) {
      expect(readme).toContain(`| \`argo-cd/${tag}/\` |`);
    }
  });
});
