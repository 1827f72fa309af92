import { expectFindings, findingsFor, safeApplication } from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Manifest } from '../../src/core/manifest';
import { runRules } from '../../src/rules/engine';
import { floatingTargetRevision } from '../../src/rules/sa007-floating-target-revision';

const CHART_SOURCE = { repoURL: 'https://charts.acme.internal', chart: 'checkout' };

function helmApp(targetRevision: string | undefined): Manifest {
  return safeApplication({ spec: { source: { ...CHART_SOURCE, path: undefined, targetRevision } } });
}

describe('SA007 floating-target-revision', () => {
  test.each(['main', 'v1.4.2', '0d1f5c3e9a7b2c4d6e8f0a1b3c5d7e9f1a2b3c4d'])('passes when a Git source tracks %j', (targetRevision) => {
    // GIVEN
    const app = safeApplication({ spec: { source: { targetRevision } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test.each([undefined, '', 'HEAD', 'head', ' HEAD '])('fails when a Git source has targetRevision %j', (targetRevision) => {
    // GIVEN
    const app = safeApplication({ spec: { source: { targetRevision } } });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA007 /spec/source/targetRevision']);
    expect(findings[0].value).toBe(targetRevision);
    expect(findings[0].message).toContain('follows the default branch of https://git.acme.internal/payments/checkout.git');
  });

  test('passes when a Helm chart is pinned to one version', () => {
    // GIVEN
    const app = helmApp('4.11.3');
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expect(findings).toEqual([]);
  });

  test.each([undefined, '', '*', '^1.2.0', '~1.2', '>=1.0', '1.x', '1.2.X', '1.2.3 - 1.4.0', '4.11.3 || 4.12.0'])(
    'fails when a Helm chart version is %j',
    (targetRevision) => {
      // GIVEN
      const app = helmApp(targetRevision);
      // WHEN
      const findings = findingsFor(app);
      // THEN
      expectFindings(findings, app, ['SA007 /spec/source/targetRevision']);
      expect(findings[0].message).toContain('Helm chart checkout of https://charts.acme.internal: chart version');
      expect(findings[0].message).toContain('the publisher\'s next release deploys');
    },
  );

  test('fails when a Helm chart version excludes one release ("!=4.11.3")', () => {
    // GIVEN a constraint (not a semver version), which Argo CD resolves to the newest other release
    const app = helmApp('!=4.11.3');
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA007 /spec/source/targetRevision']);
  });

  test('an audit does not report HEAD of the repository it audits, and still reports a third party\'s HEAD and a chart range', () => {
    // GIVEN HEAD of this repository, HEAD of a vendor's, and a chart range, audited as this repository
    const app = safeApplication({
      spec: {
        sources: [
          { repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'HEAD', path: 'apps/web' },
          { repoURL: 'https://git.acme.internal/vendor/addons.git', targetRevision: 'HEAD', path: 'addons' },
          { ...CHART_SOURCE, targetRevision: '^1.2' },
        ],
      },
    });
    const repository = { isAudited: (url: string) => url.includes('/platform/gitops'), hasDirectory: () => true, identified: true };
    // WHEN
    const findings = runRules({ application: app, resources: [], argoCdVersion: ArgoCdVersion.LATEST, repository }, [floatingTargetRevision]);
    // THEN
    expect(findings.map((f) => f.path)).toEqual(['/spec/sources/1/targetRevision', '/spec/sources/2/targetRevision']);
    // a repository only inferred from its source paths is not known well enough to be told from a fork
    expect(runRules({ application: app, resources: [], argoCdVersion: ArgoCdVersion.LATEST, repository: { ...repository, identified: false } },
      [floatingTargetRevision])).toHaveLength(3);
  });

  test.each([
    ['a scaffolder\'s template expression', '${{ values.appRepoUrl }}.git'],
    ['shell variables', '${GIT_BASEURL}/${GIT_ORG}/gitops'],
    ['a scheme Argo CD does not read, that a tool rewrites', 'cnoe://backstage/manifests'],
    ['no URL at all', '__REPO_URL__'],
  ])('passes HEAD of a placeholder repoURL, %s: it names no repository yet', (_, repoURL) => {
    // GIVEN HEAD of a repoURL a tool fills in before Argo CD reads it
    const app = safeApplication({ spec: { source: { repoURL, targetRevision: 'HEAD', path: 'manifests' } } });
    // WHEN / THEN
    expect(findingsFor(app)).toEqual([]);
    // and the same app at HEAD of a real third-party repository still fails
    expect(findingsFor(safeApplication({ spec: { source: { repoURL: 'https://github.com/vendor/charts.git', targetRevision: 'HEAD', path: 'manifests' } } }))).toHaveLength(1);
  });

  test('fails on the one floating source of a multi-source app', () => {
    // GIVEN a pinned chart and a values repository on HEAD
    const app = safeApplication({
      spec: {
        source: undefined,
        sources: [
          { ...CHART_SOURCE, targetRevision: '4.11.3' },
          { repoURL: 'https://git.acme.internal/payments/values.git', targetRevision: 'HEAD', ref: 'values' },
        ],
      },
    });
    // WHEN
    const findings = findingsFor(app);
    // THEN
    expectFindings(findings, app, ['SA007 /spec/sources/1/targetRevision']);
    expect(findings[0].value).toBe('HEAD');
  });

  describe('an ApplicationSet\'s git generators', () => {
    const set = (revision: string | undefined): Manifest => ({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'ApplicationSet',
      metadata: { name: 'apps', namespace: 'argocd' },
      spec: {
        generators: [{ matrix: { generators: [{ clusters: {} }, { git: { repoURL: 'https://git.acme.internal/platform/fleet.git', revision, directories: [{ path: 'apps/*' }] } }] } }],
      },
    });
    const check = (manifest: Manifest, audited = false) => runRules({
      resources: [manifest],
      argoCdVersion: ArgoCdVersion.LATEST,
      ...(audited ? { repository: { identified: true, isAudited: () => true, hasDirectory: () => true } } : {}),
    }, [floatingTargetRevision]);

    test.each([undefined, 'HEAD', ''])('fails when a nested git generator reads revision %j, at that revision', (revision) => {
      const manifest = set(revision);
      const findings = check(manifest);
      expect(findings.map((f) => [f.rule.id, f.path, f.object])).toEqual([['SA007', '/spec/generators/0/matrix/generators/1/git/revision', manifest]]);
      expect(findings[0].message).toContain('decides which Applications exist');
    });

    test('passes when it reads a named branch, or HEAD of the audited repository', () => {
      expect(check(set('main'))).toEqual([]);
      expect(check(set('HEAD'), true)).toEqual([]);
    });
  });
});
