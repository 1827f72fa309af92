import { expectFindings, safeApplication } from './support';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { Manifest } from '../../src/core/manifest';
import { runRules } from '../../src/rules/engine';
import { missingSourcePath } from '../../src/rules/sa014-missing-source-path';
import { Finding, RepositoryFacts } from '../../src/rules/types';

const REPO = 'https://git.acme.internal/platform/gitops.git';

/** A repository at REPO (any spelling of it) that holds these folders. */
function repository(...folders: string[]): RepositoryFacts {
  return { isAudited: (url) => url.toLowerCase().replace(/\.git$/, '') === REPO.replace(/\.git$/, ''), hasDirectory: (dir) => folders.includes(dir) };
}

function findings(app: Manifest, repo: RepositoryFacts | undefined): Finding[] {
  return runRules({ application: app, resources: [], argoCdVersion: ArgoCdVersion.LATEST, repository: repo }, [missingSourcePath]);
}

function reading(...sources: Record<string, unknown>[]): Manifest {
  return safeApplication({ spec: sources.length === 1 ? { source: sources[0] } : { source: undefined, sources } });
}

describe('SA014 missing-source-path', () => {
  test('passes when the folder is there, written in any of the forms Argo CD accepts', () => {
    for (const path of ['apps/web', './apps/web/', 'apps//web']) {
      expect(findings(reading({ repoURL: REPO, path }), repository('apps/web'))).toEqual([]);
    }
    expect(findings(reading({ repoURL: REPO, path: '.' }), repository('.'))).toEqual([]);
  });

  test('passes on a folder outside the audited paths, which the audit knows nothing of; fails on one inside them', () => {
    // GIVEN an audit of apps/ alone: workloads/ may be there, apps/wbe is not
    const onlyApps: RepositoryFacts = { ...repository('apps', 'apps/web'), knowsDirectory: (dir) => dir === 'apps' || dir.startsWith('apps/') };

    // WHEN / THEN nothing is said of workloads/web, and apps/wbe is missing
    expect(findings(reading({ repoURL: REPO, path: 'workloads/web' }), onlyApps)).toEqual([]);
    const app = reading({ repoURL: REPO, path: 'apps/wbe' });
    expectFindings(findings(app, onlyApps), app, ['SA014 /spec/source/path']);
  });

  test('fails on a folder the repository does not hold', () => {
    // GIVEN
    const app = reading({ repoURL: REPO, targetRevision: 'main', path: 'apps/wbe' });
    // WHEN
    const found = findings(app, repository('apps/web'));
    // THEN
    expectFindings(found, app, ['SA014 /spec/source/path']);
    expect(found[0].value).toBe('apps/wbe');
  });

  test('fails on an absolute path and on one that leaves the repository, even when such a folder exists', () => {
    // GIVEN
    const app = reading({ repoURL: REPO, path: '/apps/web' }, { repoURL: REPO, path: 'apps/../../web' }, { repoURL: REPO, path: 'apps/web' });
    // WHEN
    const found = findings(app, repository('apps/web', 'web'));
    // THEN
    expectFindings(found, app, ['SA014 /spec/sources/0/path', 'SA014 /spec/sources/1/path']);
  });

  test('judges nothing at synth, nor a source of another repository, a chart, a path with {{ }} or <PLACEHOLDER>, or spec.source beside spec.sources', () => {
    const app = safeApplication({
      spec: {
        source: { repoURL: REPO, path: 'gone' },
        sources: [
          { repoURL: 'https://git.acme.internal/vendor/charts.git', path: 'gone' },
          { repoURL: REPO, chart: 'web', targetRevision: '1.0.0' },
          { repoURL: REPO, path: 'apps/{{env}}' },
          { repoURL: REPO, path: 'registry/<CLUSTER_NAME>/apps' },
          { repoURL: REPO, ref: 'values' },
        ],
      },
    });
    expect(findings(app, repository())).toEqual([]);
    expect(findings(reading({ repoURL: REPO, path: 'gone' }), undefined)).toEqual([]);
  });
});
