import { parse } from 'yaml';
import { expectFindings, findingsOf, modified, Overrides, safeApplication } from './support';
import { ArgoCdVersion, GitOpsApp, SafeApplication, SafeProject } from '../../src';
import { Manifest } from '../../src/core/manifest';
import { normalizeRepoUrl } from '../../src/core/project-policy';
import { destinationNotAllowed } from '../../src/rules/sa202-destination-not-allowed';
import { addConfigMap, appProps } from '../support/app';

const IN_CLUSTER = 'https://kubernetes.default.svc';

/**
 * An AppProject "payments" with glob destinations (any `team-*` namespace in-cluster, any namespace-`checkout` on
 * clusters named `prod-*`) and glob sources (every repository under payments/), with `overrides` merged in.
 */
function appProject(overrides: Overrides = {}): Manifest {
  return modified({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AppProject',
    metadata: { name: 'payments', namespace: 'argocd' },
    spec: {
      sourceRepos: ['https://git.acme.internal/payments/*', 'https://charts.acme.internal'],
      destinations: [
        { server: IN_CLUSTER, namespace: 'team-*' },
        { name: 'prod-*', namespace: 'checkout' },
      ],
    },
  }, overrides);
}

/** An Application of the payments project deploying to `namespace` in-cluster. */
function appTo(namespace: string, overrides: Overrides = {}): Manifest {
  return modified(safeApplication({ spec: { destination: { server: IN_CLUSTER, namespace } } }), overrides);
}

describe('SA202 destination-not-allowed', () => {
  test('passes when the destination namespace matches a glob destination and the repository a glob source', () => {
    // GIVEN
    const app = appTo('team-checkout');
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject()], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('reads the project from the context, the AppProject the Application names but does not deploy', () => {
    // GIVEN an Application deploying outside its project, which is given as context rather than among its resources
    const app = appTo('kube-system');
    // WHEN
    const alone = destinationNotAllowed.check({ application: app, resources: [], argoCdVersion: ArgoCdVersion.LATEST });
    const withContext = destinationNotAllowed.check({
      application: app, resources: [], context: [appProject()], argoCdVersion: ArgoCdVersion.LATEST,
    });
    // THEN only with the project known is the destination reported
    expect(alone).toEqual([]);
    expect(withContext.map((v) => v.path)).toEqual(['/spec/destination']);
  });

  test('leaves alone a repoURL that is no URL at all, a placeholder a script fills in, and still judges a URL the project does not allow', () => {
    // GIVEN Applications whose repoURL is a placeholder, and one whose repoURL is another repository's
    const placeholders = ['__REPO_URL__', '<repo-url>', '${GIT_BASEURL}/${GIT_ORG}/${GIT_GITOPS}', 'https://$GIT_HOST/platform/gitops.git']
      .map((repoURL) => appTo('team-a', { spec: { source: { repoURL } } }));
    const elsewhere = ['https://git.acme.internal/other/gitops.git', 'registry-1.docker.io', 'https://git.acme.internal/$other/gitops.git']
      .map((repoURL) => appTo('team-a', { spec: { source: { repoURL, chart: repoURL.startsWith('https') ? undefined : 'loki' } } }));
    // WHEN / THEN the placeholders are left alone; another repository, and an OCI registry written without a scheme, are judged
    for (const app of placeholders) {
      expect(findingsOf(destinationNotAllowed, [appProject()], app)).toEqual([]);
    }
    for (const app of elsewhere) {
      expect(findingsOf(destinationNotAllowed, [appProject()], app).map((f) => f.path)).toEqual(['/spec/source/repoURL']);
    }
  });

  test('passes when the destination is a cluster by name that a glob allows', () => {
    // GIVEN
    const app = safeApplication({ spec: { destination: { server: undefined, name: 'prod-eu', namespace: 'checkout' } } });
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject()], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when no AppProject is in the input (nothing to check against)', () => {
    // GIVEN
    const app = appTo('kube-system');
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the Application belongs to a project that is not in the input', () => {
    // GIVEN
    const app = appTo('kube-system', { spec: { project: 'search' } });
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject()], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when every source of a multi-source Application is allowed', () => {
    // GIVEN
    const app = appTo('team-checkout', {
      spec: {
        source: undefined,
        sources: [
          { repoURL: 'https://charts.acme.internal', chart: 'checkout', targetRevision: '1.2.3' },
          { repoURL: 'https://git.acme.internal/payments/values.git', targetRevision: 'main', ref: 'values' },
        ],
      },
    });
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject()], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes on what a SafeProject and its SafeApplication render', () => {
    // GIVEN the folder an app-of-apps root deploys: the AppProject and the Application
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const project = new SafeProject(gitops, 'project', { name: 'payments', sourceRepos: [appProps().repoUrl], destinations: [{ namespace: 'payments' }] });
    addConfigMap(new SafeApplication(gitops, 'checkout', appProps({ project })), 'settings');
    const folder = gitops.renderFiles().filter((f) => f.path.startsWith('applications/payments/')).map((f) => parse(f.content) as Manifest);
    expect(folder).toHaveLength(2);
    // WHEN
    const findings = findingsOf(destinationNotAllowed, folder);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the destination namespace matches no glob destination', () => {
    // GIVEN
    const app = appTo('checkout');
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject()], app);
    // THEN
    expectFindings(findings, app, ['SA202 /spec/destination']);
    expect(findings[0].message).toBe(`project payments does not allow namespace "checkout" on ${IN_CLUSTER}`);
    expect(findings[0].value).toEqual({ server: IN_CLUSTER, namespace: 'checkout' });
  });

  test('fails when the glob namespace matches but the server does not', () => {
    // GIVEN
    const app = appTo('team-checkout', { spec: { destination: { server: 'https://prod-eu.acme.internal:6443' } } });
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject()], app);
    // THEN
    expectFindings(findings, app, ['SA202 /spec/destination']);
  });

  test('fails when a cluster by name matches no named destination', () => {
    // GIVEN
    const app = safeApplication({ spec: { destination: { server: undefined, name: 'staging-eu', namespace: 'checkout' } } });
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject()], app);
    // THEN
    expectFindings(findings, app, ['SA202 /spec/destination']);
    expect(findings[0].message).toContain('on staging-eu');
  });

  test('fails when the single source reads a repository the project does not allow', () => {
    // GIVEN
    const app = appTo('team-checkout', { spec: { source: { repoURL: 'https://git.acme.internal/search/checkout.git' } } });
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject()], app);
    // THEN
    expectFindings(findings, app, ['SA202 /spec/source/repoURL']);
    expect(findings[0].value).toBe('https://git.acme.internal/search/checkout.git');
  });

  test('fails on the one source of a multi-source Application that the project does not allow', () => {
    // GIVEN
    const app = appTo('team-checkout', {
      spec: {
        source: undefined,
        sources: [
          { repoURL: 'https://charts.acme.internal', chart: 'checkout', targetRevision: '1.2.3' },
          { repoURL: 'https://git.acme.internal/forks/values.git', targetRevision: 'main', ref: 'values' },
        ],
      },
    });
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject()], app);
    // THEN
    expectFindings(findings, app, ['SA202 /spec/sources/1/repoURL']);
    expect(findings[0].message).toBe('project payments does not allow repository "https://git.acme.internal/forks/values.git"');
  });

  test('fails on the destination and on the source, destination first', () => {
    // GIVEN
    const app = appTo('kube-system', { spec: { source: { repoURL: 'https://git.acme.internal/forks/checkout.git' } } });
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject()], app);
    // THEN
    expectFindings(findings, app, ['SA202 /spec/destination', 'SA202 /spec/source/repoURL']);
  });

  test('fails on each Application of the folder, whichever of them is the input\'s application', () => {
    // GIVEN two Applications and their project as loose manifests
    const good = appTo('team-checkout');
    const bad = appTo('checkout', { metadata: { name: 'ledger' } });
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject(), good, bad]);
    // THEN
    expectFindings(findings, bad, ['SA202 /spec/destination']);
  });

  test('fails when a deny destination ("!kube-system") rejects the namespace, as in Argo CD\'s projects doc', () => {
    // GIVEN the example of docs/user-guide/projects.md: any destination but kube-system
    // (app_project_types.go isDestinationMatched: a matching deny pattern refuses the destination)
    const project = appProject({
      spec: {
        destinations: [
          { namespace: '!kube-system', server: '*' },
          { namespace: '*', server: '*' },
        ],
      },
    });
    const app = appTo('kube-system');
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [project], app);
    // THEN
    expectFindings(findings, app, ['SA202 /spec/destination']);
  });

  test('passes when the repository differs from the project\'s only by a ".git" suffix and letter case, which Argo CD normalizes', () => {
    // GIVEN (IsSourcePermitted compares git.NormalizeGitURL of both: lower case, ".git" trimmed)
    const project = appProject({ spec: { sourceRepos: ['https://git.acme.internal/Payments/checkout.git'] } });
    const app = appTo('team-checkout', { spec: { source: { repoURL: 'https://git.acme.internal/payments/checkout' } } });
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [project], app);
    // THEN
    expect(findings).toEqual([]);
  });
});

/** An Argo CD Secret of `type` (repository, cluster, repo-creds) scoped to project `project`, its keys in stringData. */
function scopedSecret(type: string, name: string, stringData: { [key: string]: string }, overrides: Overrides = {}): Manifest {
  return modified({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'argocd', labels: { 'argocd.argoproj.io/secret-type': type } },
    stringData: { project: 'payments', ...stringData },
  }, overrides);
}

describe('SA202 project-scoped repositories and clusters', () => {
  const CHART_REPO = 'https://charts.longhorn.io';
  const EDGE = 'https://edge.acme.internal:6443';
  const chartApp = () => appTo('team-a', { spec: { source: { repoURL: CHART_REPO, chart: 'longhorn', targetRevision: '1.9.0', path: undefined } } });
  const edgeApp = (namespace: string) => appTo(namespace, { spec: { destination: { server: EDGE, namespace } } });

  test('passes when the repository is a repository Secret scoped to the project, among the resources or in the context', () => {
    // GIVEN a chart repository the project's sourceRepos do not list, and a repository Secret with `project: payments`
    const secret = scopedSecret('repository', 'longhorn', { type: 'helm', url: CHART_REPO });
    // WHEN the Secret is among the resources, or given as context beside the project
    const inResources = findingsOf(destinationNotAllowed, [appProject(), secret], chartApp());
    const inContext = destinationNotAllowed.check({
      application: chartApp(), resources: [], context: [appProject(), secret], argoCdVersion: ArgoCdVersion.LATEST,
    });
    // THEN Argo CD adds its url to sourceRepos (GetAppProjectByName), so the source is allowed
    expect(inResources).toEqual([]);
    expect(inContext).toEqual([]);
  });

  test('passes when the repository Secret holds its keys base64-encoded in data', () => {
    // GIVEN
    const encode = (v: string) => Buffer.from(v).toString('base64');
    const secret = scopedSecret('repository', 'longhorn', {}, { stringData: undefined, data: { project: encode('payments'), url: encode(CHART_REPO) } });
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject(), secret], chartApp());
    // THEN
    expect(findings).toEqual([]);
  });

  test.each([
    ['scoped to another project', scopedSecret('repository', 'longhorn', { project: 'search', url: CHART_REPO })],
    ['not scoped to any project', scopedSecret('repository', 'longhorn', { url: CHART_REPO }, { stringData: { project: undefined } })],
    ['a credential template (repo-creds), which Argo CD does not add', scopedSecret('repo-creds', 'longhorn', { url: CHART_REPO })],
    ['without the secret-type label', scopedSecret('repository', 'longhorn', { url: CHART_REPO }, { metadata: { labels: undefined } })],
    ['in another namespace than the project\'s', scopedSecret('repository', 'longhorn', { url: CHART_REPO }, { metadata: { namespace: 'team-a' } })],
    ['for another repository', scopedSecret('repository', 'other', { url: 'https://charts.other.internal' })],
  ])('fails when the repository Secret is %s', (_, secret) => {
    // GIVEN
    const app = chartApp();
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject(), secret], app);
    // THEN
    expectFindings(findings, app, ['SA202 /spec/source/repoURL']);
  });

  test('passes when the destination is a cluster Secret scoped to the project, on any namespace when it lists none', () => {
    // GIVEN a cluster the project's destinations do not list, and its Secret with `project: payments`
    const secret = scopedSecret('cluster', 'edge', { name: 'edge', server: EDGE, config: '{}' });
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject(), secret], edgeApp('anything'));
    // THEN Argo CD adds {server, namespace: "*"} to the destinations
    expect(findings).toEqual([]);
  });

  test('allows only the namespaces a scoped cluster Secret lists, and refuses the others', () => {
    // GIVEN a scoped cluster limited to two namespaces
    const secret = scopedSecret('cluster', 'edge', { name: 'edge', server: EDGE, namespaces: 'team-a, team-b' });
    // WHEN
    const allowed = findingsOf(destinationNotAllowed, [appProject(), secret], edgeApp('team-b'));
    const refused = edgeApp('kube-system');
    const findings = findingsOf(destinationNotAllowed, [appProject(), secret], refused);
    // THEN
    expect(allowed).toEqual([]);
    expectFindings(findings, refused, ['SA202 /spec/destination']);
  });

  test('fails when the cluster Secret is scoped to another project', () => {
    // GIVEN
    const secret = scopedSecret('cluster', 'edge', { project: 'search', server: EDGE });
    const app = edgeApp('team-a');
    // WHEN
    const findings = findingsOf(destinationNotAllowed, [appProject(), secret], app);
    // THEN
    expectFindings(findings, app, ['SA202 /spec/destination']);
  });
});

describe('SA202 edges', () => {
  const messages = (findings: { path: string; message: string }[]) => findings.map((f) => `${f.path}: ${f.message}`);

  test('a sourceRepos "*" does not cross a "/", as Argo CD matches repositories with "/" as a separator; "**" does', () => {
    // GIVEN a project allowing payments/* and an app reading a repository one folder deeper
    const app = appTo('team-checkout', { spec: { source: { repoURL: 'https://git.acme.internal/payments/team/checkout.git' } } });
    const deeper = appProject({ spec: { sourceRepos: ['https://git.acme.internal/payments/**'] } });
    // WHEN / THEN "*" refuses it and "**" allows it
    expect(messages(findingsOf(destinationNotAllowed, [appProject()], app))).toEqual([
      '/spec/source/repoURL: project payments does not allow repository "https://git.acme.internal/payments/team/checkout.git"',
    ]);
    expect(findingsOf(destinationNotAllowed, [deeper], app)).toEqual([]);
  });

  test('a "!" sourceRepos pattern refuses the repositories it names, wherever it stands, as Argo CD\'s IsSourcePermitted does', () => {
    // GIVEN a project allowing every payments repository but the legacy one
    const project = appProject({ spec: { sourceRepos: ['https://git.acme.internal/payments/*', '!https://git.acme.internal/payments/legacy.git'] } });
    const legacy = appTo('team-checkout', { spec: { source: { repoURL: 'https://git.acme.internal/Payments/legacy' } } });
    const current = appTo('team-checkout', { spec: { source: { repoURL: 'https://git.acme.internal/payments/checkout' } } });
    // WHEN / THEN the legacy repository is refused and the others allowed
    expect(messages(findingsOf(destinationNotAllowed, [project], legacy))).toEqual([
      '/spec/source/repoURL: project payments does not allow repository "https://git.acme.internal/Payments/legacy"',
    ]);
    expect(findingsOf(destinationNotAllowed, [project], current)).toEqual([]);
  });

  test('normalizeRepoUrl strips any run of trailing slashes, then ".git"', () => {
    // GIVEN / WHEN / THEN
    expect(normalizeRepoUrl(' HTTPS://Git.acme.internal/x.git///')).toBe('https://git.acme.internal/x');
    expect(normalizeRepoUrl(`https://git.acme.internal/x${'/'.repeat(300_000)}`)).toBe('https://git.acme.internal/x');
    expect(normalizeRepoUrl('///')).toBe('');
  });

  test('a destination and a source without their fields are reported with empty values', () => {
    // GIVEN an app whose destination has no namespace and no cluster, and whose source has no repository
    const app = modified(safeApplication(), { spec: { destination: { server: undefined, namespace: undefined }, source: { repoURL: undefined } } });
    // WHEN checked against a project that allows only team-* in-cluster
    const findings = findingsOf(destinationNotAllowed, [appProject()], app);
    // THEN
    expect(messages(findings)).toEqual([
      '/spec/destination: project payments does not allow namespace "" on no cluster',
      '/spec/source/repoURL: project payments does not allow repository ""',
    ]);
  });

  test('entries that are not objects are skipped', () => {
    const project = appProject({ spec: { destinations: [null, 'junk', { namespace: 'checkout', server: IN_CLUSTER }] } });
    expect(findingsOf(destinationNotAllowed, [project], appTo('checkout'))).toEqual([]);
  });

  test('an app destination without a cluster is allowed by no entry, not even one without a cluster', () => {
    // GIVEN isDestinationMatched: an empty server or name never matches
    const project = appProject({ spec: { destinations: [{ namespace: 'checkout' }] } });
    const app = modified(safeApplication(), { spec: { destination: { server: undefined, namespace: 'checkout' } } });
    expect(messages(findingsOf(destinationNotAllowed, [project], app))).toEqual(['/spec/destination: project payments does not allow namespace "checkout" on no cluster']);
  });

  test('a denied namespace on a cluster outside a denied cluster pattern is still denied', () => {
    // GIVEN everything allowed, except kube-system on any cluster but "other"
    const project = appProject({ spec: { destinations: [{ server: '*', namespace: '*' }, { server: '!https://other.acme.internal', namespace: '!kube-system' }] } });
    // THEN kube-system in-cluster is refused, and checkout in-cluster is allowed
    expect(messages(findingsOf(destinationNotAllowed, [project], appTo('kube-system'))))
      .toEqual([`/spec/destination: project payments does not allow namespace "kube-system" on ${IN_CLUSTER}`]);
    expect(findingsOf(destinationNotAllowed, [project], appTo('checkout'))).toEqual([]);
  });

  test('a denied cluster with a namespace outside a denied namespace pattern is still denied', () => {
    // GIVEN everything allowed, except the in-cluster server for any namespace but "other"
    const project = appProject({ spec: { destinations: [{ server: '*', namespace: '*' }, { server: `!${IN_CLUSTER}`, namespace: '!other' }] } });
    expect(messages(findingsOf(destinationNotAllowed, [project], appTo('checkout'))))
      .toEqual([`/spec/destination: project payments does not allow namespace "checkout" on ${IN_CLUSTER}`]);
  });
});

describe('SA202 reads projects and sources as Argo CD does', () => {
  test('only AppProjects are projects: an Application named like the project is not one', () => {
    // GIVEN the Application after the AppProject in the input, as an app-of-apps folder lists them
    const app = appTo('team-checkout', { metadata: { name: 'payments' } });
    expect(findingsOf(destinationNotAllowed, [appProject(), app])).toEqual([]);
  });

  test('a sourceRepos entry that is not a string is skipped', () => {
    const project = appProject({ spec: { sourceRepos: [5, 'https://git.acme.internal/payments/*'] } });
    expect(findingsOf(destinationNotAllowed, [project], appTo('team-checkout'))).toEqual([]);
  });

  test('a destination with a "!" pattern alone allows everything but what it names', () => {
    // GIVEN a project whose one destination is "any namespace but kube-system" on the in-cluster server
    // (globMatch with negation: "!kube-system" matches every other namespace, so the entry matches checkout)
    const project = appProject({ spec: { destinations: [{ server: IN_CLUSTER, namespace: '!kube-system' }] } });
    // THEN checkout is allowed, kube-system refused, and another cluster matches no entry
    expect(findingsOf(destinationNotAllowed, [project], appTo('checkout'))).toEqual([]);
    expect(findingsOf(destinationNotAllowed, [project], appTo('kube-system')).map((f) => f.message))
      .toEqual([`project payments does not allow namespace "kube-system" on ${IN_CLUSTER}`]);
    const elsewhere = appTo('checkout', { spec: { destination: { server: 'https://other.acme.internal' } } });
    expect(findingsOf(destinationNotAllowed, [project], elsewhere).map((f) => f.message))
      .toEqual(['project payments does not allow namespace "checkout" on https://other.acme.internal']);
  });

  test('a cluster named by a "!" pattern refuses the app by name, whatever its namespace', () => {
    // GIVEN apps named by cluster name: every cluster but "prod" is allowed
    const project = appProject({ spec: { destinations: [{ name: '!prod', namespace: 'team-*' }] } });
    const byName = (cluster: string, namespace: string) => appTo(namespace, { spec: { destination: { server: undefined, name: cluster } } });
    expect(findingsOf(destinationNotAllowed, [project], byName('staging', 'team-checkout'))).toEqual([]);
    expect(findingsOf(destinationNotAllowed, [project], byName('prod', 'team-checkout')).map((f) => f.message))
      .toEqual(['project payments does not allow namespace "team-checkout" on prod']);
    expect(findingsOf(destinationNotAllowed, [project], byName('prod', 'ledger')).map((f) => f.message))
      .toEqual(['project payments does not allow namespace "ledger" on prod']);
  });

  describe('each entry as isDestinationMatched reads it, next to an entry that allows everything', () => {
    const OTHER = 'https://other.acme.internal';
    const refused = (destinations: unknown[], app: Manifest) =>
      findingsOf(destinationNotAllowed, [appProject({ spec: { destinations } })], app).length > 0;
    const onServer = (server: string, namespace: string) => appTo(namespace, { spec: { destination: { server } } });
    const byName = (name: string, namespace: string) => appTo(namespace, { spec: { destination: { server: undefined, name } } });

    test('a denied server refuses only where the entry\'s namespace matches', () => {
      const destinations = [{ server: '*', namespace: '*' }, { server: `!${OTHER}`, namespace: 'team-*' }];
      expect(refused(destinations, onServer(OTHER, 'team-checkout'))).toBe(true);
      expect(refused(destinations, onServer(OTHER, 'ledger'))).toBe(false);
    });

    test('a denied cluster name refuses whatever the namespace', () => {
      const destinations = [{ name: '*', namespace: '*' }, { name: '!prod', namespace: 'team-*' }];
      expect(refused(destinations, byName('prod', 'ledger'))).toBe(true);
      expect(refused(destinations, byName('staging', 'ledger'))).toBe(false);
    });

    test('an entry that misses on a plain namespace pattern refuses nothing', () => {
      expect(refused([{ server: '*', namespace: '*' }, { server: IN_CLUSTER, namespace: 'team-*' }], onServer(IN_CLUSTER, 'ledger'))).toBe(false);
    });

    test('a denied namespace refuses only where the entry\'s cluster matches', () => {
      const destinations = [{ server: '*', namespace: '*' }, { server: IN_CLUSTER, namespace: '!kube-system' }];
      expect(refused(destinations, onServer(IN_CLUSTER, 'kube-system'))).toBe(true);
      expect(refused(destinations, onServer(OTHER, 'kube-system'))).toBe(false);
    });
  });

  test('an app naming its cluster is allowed by an entry whose server is "*": Argo CD matches the cluster it resolves, server and name', () => {
    const app = modified(safeApplication(), { spec: { destination: { server: undefined, name: 'gpu', namespace: 'openwebui' } } });
    expect(findingsOf(destinationNotAllowed, [appProject({ spec: { destinations: [{ server: '*', namespace: '*' }] } })], app)).toEqual([]);
  });

  test('an app naming its cluster is not refused by entries that give servers: the name may be that server\'s, which only Argo CD resolves', () => {
    // GIVEN an app that names its cluster, and a project that lists the cluster by its server
    const app = modified(safeApplication(), { spec: { destination: { server: undefined, name: 'smaug', namespace: 'api-designer' } } });
    const byServer = appProject({ spec: { destinations: [{ server: 'https://api.smaug.acme.internal:6443', namespace: 'api-designer' }] } });
    // WHEN / THEN nothing is reported: Argo CD resolves smaug to its server before it matches
    expect(findingsOf(destinationNotAllowed, [byServer], app)).toEqual([]);
    // AND a namespace no entry allows, whatever the cluster is, is still reported
    const otherNamespace = modified(app, { spec: { destination: { namespace: 'kube-system' } } });
    const refused = findingsOf(destinationNotAllowed, [byServer], otherNamespace);
    expect(refused).toHaveLength(1);
    expect(refused[0].message).toMatch(/ does not allow namespace "kube-system" on smaug$/);
    // AND a project that names its clusters, and not this one, refuses it (the reverse: a server against names, alike)
    expect(findingsOf(destinationNotAllowed, [appProject({ spec: { destinations: [{ name: 'gpu', namespace: '*' }] } })], app)).toHaveLength(1);
    const byServerApp = modified(safeApplication(), { spec: { destination: { server: 'https://api.smaug.acme.internal:6443', name: undefined, namespace: 'x' } } });
    expect(findingsOf(destinationNotAllowed, [appProject({ spec: { destinations: [{ name: 'smaug', namespace: 'x' }] } })], byServerApp)).toEqual([]);
  });

  test('in-cluster is known by both its server and its name', () => {
    const app = modified(safeApplication(), { spec: { destination: { server: undefined, name: 'in-cluster', namespace: 'checkout' } } });
    expect(findingsOf(destinationNotAllowed, [appProject({ spec: { destinations: [{ server: 'https://kubernetes.default.svc', namespace: '*' }] } })], app)).toEqual([]);
  });

  test('an app without a cluster matches no entry, not even a name pattern "*"', () => {
    const app = modified(safeApplication(), { spec: { destination: { server: undefined, namespace: 'checkout' } } });
    expect(findingsOf(destinationNotAllowed, [appProject({ spec: { destinations: [{ name: '*', namespace: '*' }] } })], app)).toHaveLength(1);
  });

  test('an entry without a namespace allows an app without one, as an empty pattern matches an empty value', () => {
    const app = modified(appTo('x'), { spec: { destination: { namespace: undefined } } });
    expect(findingsOf(destinationNotAllowed, [appProject({ spec: { destinations: [{ server: IN_CLUSTER }] } })], app)).toEqual([]);
  });

  test.each([
    [' HTTPS://Git.Acme.Internal/Payments/Checkout.git// ', 'https://git.acme.internal/payments/checkout'],
    ['https://git.acme.internal/payments/checkout/', 'https://git.acme.internal/payments/checkout'],
    ['https://pages.github.acme.internal/payments/checkout', 'https://pages.github.acme.internal/payments/checkout'],
    ['https://git.acme.internal/payments/checkout.git.git', 'https://git.acme.internal/payments/checkout.git'],
  ])('normalizeRepoUrl(%j) is %j', (url, expected) => {
    expect(normalizeRepoUrl(url)).toBe(expected);
  });
});
