import { App } from 'cdk8s';
import { ArgoCdVersion, DestinationCluster, SafeProject } from '../../src';
import { Manifest } from '../../src/core/manifest';
import { destinationNotAllowed } from '../../src/rules/sa202-destination-not-allowed';

const REPO = 'https://git.acme.internal/platform/gitops.git';

/** An Application manifest of project `payments` reading `repo` and deploying to `namespace` on `cluster`. */
function application(repo: string, namespace: string, cluster: DestinationCluster): Manifest {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'checkout', namespace: 'argocd' },
    spec: {
      project: 'payments',
      source: { repoURL: repo, path: 'deploy', targetRevision: 'main' },
      destination: { server: cluster.server, name: cluster.name, namespace },
    },
  };
}

describe('one project policy: SafeProject at synth says what SA202 says in audit', () => {
  // GIVEN a project with an in-cluster namespace, a cluster by server and one by name
  const project = new SafeProject(new App(), 'payments', {
    name: 'payments',
    sourceRepos: [REPO],
    destinations: [
      { namespace: 'payments' },
      { namespace: 'payments-jobs', cluster: DestinationCluster.fromServer('https://prod-us.acme.internal:6443') },
      { namespace: 'payments', cluster: DestinationCluster.fromName('prod-eu') },
    ],
  });
  const appProject = project.resource.toJson() as Manifest;

  test.each([
    [REPO, 'payments', DestinationCluster.IN_CLUSTER],
    [REPO, 'ledger', DestinationCluster.IN_CLUSTER],
    [REPO, 'payments-jobs', DestinationCluster.fromServer('https://prod-us.acme.internal:6443')],
    [REPO, 'payments-jobs', DestinationCluster.fromServer('https://prod-eu.acme.internal:6443')],
    [REPO, 'payments', DestinationCluster.fromName('prod-eu')],
    [REPO, 'ledger', DestinationCluster.fromName('prod-eu')],
    ['HTTPS://Git.Acme.Internal/platform/gitops.git/', 'payments', DestinationCluster.IN_CLUSTER],
    ['https://git.acme.internal/platform/gitops', 'payments', DestinationCluster.IN_CLUSTER],
    ['https://git.acme.internal/platform/fork.git', 'payments', DestinationCluster.IN_CLUSTER],
  ])('%s to %s on %o', (repo, namespace, cluster) => {
    // WHEN both decide
    const app = application(repo, namespace, cluster);
    const findings = destinationNotAllowed.check({ application: app, resources: [appProject], argoCdVersion: ArgoCdVersion.LATEST });
    // THEN they agree on the destination and on the source
    expect(project.allowsDestination(namespace, cluster)).toBe(!findings.some((f) => f.path === '/spec/destination'));
    expect(project.allowsSource(repo)).toBe(!findings.some((f) => f.path === '/spec/source/repoURL'));
  });

  test('where only Argo CD can resolve a cluster name, they part on purpose: the project refuses it, the audit does not report it', () => {
    // GIVEN an app to prod-us by name, which the project lists only by its server (for payments-jobs) and as in-cluster (for payments)
    const cluster = DestinationCluster.fromName('prod-us');
    const app = application(REPO, 'payments', cluster);
    // WHEN both decide
    const findings = destinationNotAllowed.check({ application: app, resources: [appProject], argoCdVersion: ArgoCdVersion.LATEST });
    // THEN SafeProject, which declares its clusters by the names apps use, refuses a name it does not list; SA202, auditing
    // files that do not say which server prod-us is, leaves it to Argo CD, which resolves it
    expect(project.allowsDestination('payments', cluster)).toBe(false);
    expect(findings.filter((f) => f.path === '/spec/destination')).toEqual([]);
    // AND a namespace no entry allows on any cluster is refused by both
    expect(project.allowsDestination('ledger', cluster)).toBe(false);
    expect(destinationNotAllowed.check({ application: application(REPO, 'ledger', cluster), resources: [appProject], argoCdVersion: ArgoCdVersion.LATEST })
      .map((f) => f.path)).toEqual(['/spec/destination']);
  });

  test('the cases cover both verdicts of each check', () => {
    expect(project.allowsDestination('payments', DestinationCluster.IN_CLUSTER)).toBe(true);
    expect(project.allowsDestination('ledger', DestinationCluster.IN_CLUSTER)).toBe(false);
    expect(project.allowsSource('https://git.acme.internal/platform/gitops')).toBe(true);
    expect(project.allowsSource('https://git.acme.internal/platform/fork.git')).toBe(false);
  });
});
