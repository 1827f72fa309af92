import { isRepoUrlPlaceholder } from '../../src/core/source-paths';

describe('isRepoUrlPlaceholder', () => {
  test.each([
    '__REPO_URL__',
    '<repo-url>',
    '',
    '${GIT_BASEURL}/${GIT_ORG}/gitops',
    '$REPO_URL',
    '{{ .values.repoURL }}',
    '${{ values.appRepoUrl }}.git',
    'cnoe://backstage/manifests',
    'CNOE://apps',
  ])('%j is filled in or rewritten before Argo CD reads it', (url) => {
    expect(isRepoUrlPlaceholder(url)).toBe(true);
  });

  test.each([
    'https://github.com/acme/gitops.git',
    'http://charts.acme.internal',
    'ssh://git@git.acme.internal/platform/gitops.git',
    'git@github.com:acme/gitops.git',
    'git://git.acme.internal/gitops',
    'file:///srv/git/gitops',
    'oci://registry-1.docker.io/bitnamicharts',
    'registry-1.docker.io/bitnamicharts',
    'ghcr.io/acme/charts',
  ])('%j is a repository Argo CD reads', (url) => {
    expect(isRepoUrlPlaceholder(url)).toBe(false);
  });
});
