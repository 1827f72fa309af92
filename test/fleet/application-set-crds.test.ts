import { Chart, Testing } from 'cdk8s';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { ApplicationSetCluster } from '../../src/fleet/application-set-cluster';
import { ApplicationSetGenerator } from '../../src/fleet/application-set-generator';
import { RollingSyncMaxUpdate } from '../../src/fleet/rolling-sync';
import { SafeApplicationSet, SafeApplicationSetProps } from '../../src/fleet/safe-application-set';
import { ApplicationsSyncPolicy } from '../../src/values/applications-sync-policy';
import { ArgoProject } from '../../src/values/argo-project';
import { CRD_RELEASES, crdErrors } from '../support/crd';

const REPO = 'https://git.acme.internal/platform/gitops.git';
const folders = ApplicationSetGenerator.gitDirectories({ include: ['apps/*/*'], exclude: ['apps/sandbox/*'] });
const prod = ApplicationSetGenerator.clusters({ matchLabels: { env: 'prod' } });
const files = ApplicationSetGenerator.gitFiles({ include: ['clusters/**/config.json'], parameters: ['cluster.name', 'cluster.address'] });

/** The shapes a git-generated fleet takes, each a valid SafeApplicationSet on every supported release. */
const SHAPES: Record<string, Partial<SafeApplicationSetProps>> = {
  'git directories with RollingSync by environment': {
    generators: [folders],
    applicationName: '{{index .path.segments 1}}-{{.path.basenameNormalized}}',
    path: '{{.path.path}}',
    destinationNamespace: '{{.path.basenameNormalized}}',
    applicationLabels: { env: '{{index .path.segments 1}}' },
    rollingSync: { label: 'env', steps: [{ values: ['staging'] }, { values: ['prod'], maxUpdate: RollingSyncMaxUpdate.applications(1) }] },
  },
  'git files with a deleting policy and its reason': {
    generators: [files],
    applicationName: '{{.cluster.name}}-checkout',
    path: 'deploy/checkout',
    destinationCluster: ApplicationSetCluster.fromServer('{{.cluster.address}}'),
    destinationNamespace: 'checkout',
    applicationsSync: ApplicationsSyncPolicy.SYNC,
    applicationsSyncReason: 'a cluster file removed means the cluster is gone; its Application must go with it',
  },
  'a matrix of folders and clusters': {
    generators: [ApplicationSetGenerator.matrix(ApplicationSetGenerator.gitDirectories({ include: ['apps/*'] }), prod)],
    applicationName: '{{.path.basenameNormalized}}-{{.nameNormalized}}',
    path: '{{.path.path}}',
    destinationCluster: ApplicationSetCluster.fromServer('{{.server}}'),
    destinationNamespace: '{{.path.basenameNormalized}}',
  },
  'a merge of clusters and per-cluster overrides': {
    generators: [ApplicationSetGenerator.merge(['server'], [prod, ApplicationSetGenerator.list([{ server: 'https://eu.acme.internal', replicas: '5' }])])],
    applicationName: '{{.nameNormalized}}-checkout',
    path: 'deploy/checkout',
    destinationCluster: ApplicationSetCluster.fromServer('{{.server}}'),
    destinationNamespace: 'checkout',
  },
};

function render(shape: Partial<SafeApplicationSetProps>, argoCdVersion: ArgoCdVersion): unknown {
  const set = new SafeApplicationSet(new Chart(Testing.app(), 'fleet'), 'apps', {
    name: 'apps',
    project: ArgoProject.fromName('payments'),
    repoUrl: REPO,
    path: 'deploy',
    destinationNamespace: 'checkout',
    generators: [],
    applicationName: 'x',
    ...shape,
    argoCdVersion,
  } as SafeApplicationSetProps);
  expect(set.node.validate()).toEqual([]);
  return set.resource.toJson();
}

describe('SafeApplicationSet output against the tightened ApplicationSet CRD of every supported release', () => {
  const releases = ArgoCdVersion.all().map((v) => [v.version, v] as const);

  test('every supported release has its ApplicationSet CRD in the tree', () => {
    expect(releases.map(([release]) => release)).toEqual(Object.keys(CRD_RELEASES));
  });

  describe.each(Object.entries(SHAPES))('%s', (_name, shape) => {
    test.each(releases)('validates against the %s CRD', (release, version) => {
      expect(crdErrors('applicationset', release, render(shape, version))).toEqual([]);
    });
  });

  test('the field a release lacks is not in that release\'s CRD, which is why SafeApplicationSet refuses it there', () => {
    // GIVEN a files generator entry with exclude, rendered for 3.5 (the construct refuses it before 3.1)
    const manifest = render({
      generators: [ApplicationSetGenerator.gitFiles({ include: ['clusters/**/config.json'], exclude: ['clusters/retired/**'], parameters: ['cluster.name'] })],
      applicationName: '{{.cluster.name}}-checkout',
      path: 'deploy/checkout',
    }, ArgoCdVersion.V3_5);
    // THEN the CRDs from 3.1 accept it and the older ones do not know the field
    for (const [release] of releases) {
      const errors = crdErrors('applicationset', release, manifest);
      if (['2.14', '3.0'].includes(release)) {
        expect(errors.some((e) => e.includes('(exclude)'))).toBe(true);
      } else {
        expect(errors).toEqual([]);
      }
    }
  });
});
