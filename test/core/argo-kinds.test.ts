import { isAppProject, isApplication } from '../../src/core/manifest';

describe('Argo CD kinds', () => {
  test.each([
    [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject' }, true, false],
    [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application' }, false, true],
    [{ apiVersion: 'acme.internal/v1', kind: 'AppProject' }, false, false],
    [{ apiVersion: 'acme.internal/v1', kind: 'Application' }, false, false],
    [{ apiVersion: 'v1', kind: 'ConfigMap' }, false, false],
    [{ kind: 'AppProject' }, false, false],
    [{ apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet' }, false, false],
  ])('%j: AppProject %s, Application %s', (manifest, project, application) => {
    expect(isAppProject(manifest)).toBe(project);
    expect(isApplication(manifest)).toBe(application);
  });
});
