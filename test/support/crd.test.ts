import { crdErrors } from './crd';

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
});
