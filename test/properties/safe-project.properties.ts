import { ApiObject } from 'cdk8s';
import * as fc from 'fast-check';
import {
  anyText, argoCdVersion, checkTree, dnsLabel, Doc, notLabel, refusal, refusalProperties, repoUrl, runs, subdomain,
} from './support';
import {
  AppOfApps, ClusterResource, DestinationCluster, GitOpsApp, OverrideGrant, ProjectDestination, SafeApplication, SafeProject, SafeProjectProps,
} from '../../src';

/**
 * What Argo CD reads as a pattern in an AppProject: sourceRepos and destinations are matched with gobwas/glob (`*`,
 * `?`, `[...]`, `{a,b}`, `\` escapes) and a leading "!" denies; clusterResourceWhitelist is matched with Go's
 * filepath.Match (`*`, `?`, `[...]`).
 */
const GLOB = /[*?[\]{}\\]|^!/;
const GROUP_GLOB = /[*?[\]]/;

const group = anyText(1, 16).filter((g) => !/[\s,*]/.test(g));
const cluster: fc.Arbitrary<DestinationCluster | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constant(DestinationCluster.IN_CLUSTER),
  fc.tuple(subdomain, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined })).map(([h, p]) => DestinationCluster.fromServer(`https://${h}${p ? `:${p}` : ''}`)),
  dnsLabel.map((n) => DestinationCluster.fromName(n)),
);
const destinations = fc.uniqueArray(fc.record({ namespace: dnsLabel, cluster }), {
  minLength: 1, maxLength: 3, selector: (d) => `${d.namespace} ${d.cluster?.server ?? d.cluster?.name ?? DestinationCluster.IN_CLUSTER.server}`,
});
const clusterResources = fc.array(fc.record({
  group: fc.oneof(fc.constantFrom('', 'rbac.authorization.k8s.io', 'admissionregistration.k8s.io'), subdomain),
  kind: fc.stringMatching(/^[A-Z][A-Za-z0-9]{0,20}$/),
}), { maxLength: 3 });

const projectProps = fc.record({
  name: dnsLabel.filter((n) => n !== 'default'),
  sourceRepos: fc.uniqueArray(repoUrl.filter((r) => !GLOB.test(r)), { minLength: 1, maxLength: 3 }),
  destinations,
  description: fc.option(anyText(0, 40), { nil: undefined }),
  clusterResources: fc.option(clusterResources, { nil: undefined }),
  developerGroups: fc.option(fc.array(group, { maxLength: 3 }), { nil: undefined }),
  onCallGroups: fc.option(fc.array(group, { maxLength: 3 }), { nil: undefined }),
  overrideGrant: fc.option(fc.record({
    groups: fc.array(group, { minLength: 1, maxLength: 2 }),
    reason: anyText(10, 40).filter((r) => r.trim().length >= 10),
  }), { nil: undefined }),
});

const input = fc.record({
  project: projectProps,
  version: argoCdVersion,
  // Which of the project's destinations and repositories the app uses.
  pick: fc.nat(),
  appName: dnsLabel,
  withRoot: fc.boolean(),
}).filter((i) => i.withRoot === false || (i.project.name !== 'platform' && i.appName !== 'root'));

function build(i: typeof input extends fc.Arbitrary<infer T> ? T : never): GitOpsApp {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  const project = new SafeProject(gitops, 'project', i.project);
  const d = i.project.destinations[i.pick % i.project.destinations.length];
  const app = new SafeApplication(gitops, 'app', {
    name: i.appName,
    project,
    repoUrl: i.project.sourceRepos[i.pick % i.project.sourceRepos.length],
    destinationNamespace: d.namespace,
    destinationCluster: d.cluster,
    argoCdVersion: i.version,
  });
  new ApiObject(app, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
  if (i.withRoot) {
    const platform = new SafeProject(gitops, 'platform', { name: 'platform', sourceRepos: [i.project.sourceRepos[0]], destinations: [{ namespace: 'argocd' }] });
    new AppOfApps(gitops, 'root', { name: 'root', project: platform, childProject: project, repoUrl: i.project.sourceRepos[0], argoCdVersion: i.version });
  }
  return gitops;
}

describe('SafeProject properties', () => {
  test('for any props the constructor accepts: the AppProject validates against every release, bounds exactly what was given, and its apps and root pass', () => {
    fc.assert(fc.property(input, (i) => {
      // GIVEN a fresh app with a SafeProject of arbitrary valid props, an Application inside its bounds, maybe a root
      // WHEN the tree is rendered THEN it passes every check (every AppProject against the 2.14 to 3.5 CRDs included)
      const { files, byKindName } = checkTree(() => build(i));
      const p = i.project;
      const spec = byKindName.get(`AppProject/${p.name}`)!.spec;
      // THEN the project allows exactly the repositories, destinations and cluster kinds given, no wildcard
      expect(spec.sourceRepos).toEqual(p.sourceRepos);
      expect(spec.destinations).toEqual(p.destinations.map((d) => {
        const c = d.cluster ?? DestinationCluster.IN_CLUSTER;
        return { namespace: d.namespace, ...(c.server ? { server: c.server } : { name: c.name }) };
      }));
      expect(spec.clusterResourceWhitelist).toEqual(p.clusterResources ?? []);
      expect(spec.orphanedResources).toEqual({ warn: true });
      expect(spec.description).toBe(p.description || undefined);
      // THEN roles exist only for the groups given, and only the override role has override
      const roles: Doc[] = spec.roles ?? [];
      expect(roles.map((r) => r.name)).toEqual([
        ...(p.developerGroups?.length ? ['developer'] : []), ...(p.onCallGroups?.length ? ['oncall'] : []), ...(p.overrideGrant ? ['override'] : []),
      ]);
      for (const r of roles) {
        expect(r.policies.every((x: string) => x.startsWith(`p, proj:${p.name}:${r.name}, applications, `) && x.endsWith(`, ${p.name}/*, allow`))).toBe(true);
        expect(r.policies.some((x: string) => x.includes(', override, '))).toBe(r.name === 'override');
      }
      // THEN the project is written next to its Applications, and a root ignores each child's automated block only
      expect(files.map((f) => f.path)).toContain(`applications/${p.name}/AppProject.${p.name}.k8s.yaml`);
      expect(files.map((f) => f.path)).toContain(`applications/${p.name}/Application.${i.appName}.k8s.yaml`);
      if (i.withRoot) {
        expect(byKindName.get('Application/root')!.spec.ignoreDifferences).toEqual([
          { group: 'argoproj.io', kind: 'Application', name: i.appName, namespace: 'argocd', jsonPointers: ['/spec/syncPolicy/automated'] },
        ]);
      }
    }), runs(3101));
  });

  test('for any repositories, destinations and cluster kinds the constructor accepts, the AppProject holds no Argo CD glob or deny pattern', () => {
    // README, SAFE-030: "a `*` (or glob) in a SafeProject's repositories, destinations or cluster resources" is refused.
    // To Argo CD, `?` and `[...]` (and `{a,b}` in repositories and destinations) are globs as much as `*` (see GLOB).
    const globby = fc.constantFrom('?', '[ab]', '{a,b}', '[!a]', '**', '\\!', '');
    const props = fc.record({
      repo: fc.tuple(globby, fc.constantFrom('', '!')).map(([g, neg]) => `${neg}https://git.acme.internal/team${g}/gitops.git`),
      group: fc.tuple(globby, fc.constantFrom('apps', '')).map(([g, base]) => `${base}${g}`),
      server: globby.map((g) => `https://prod${g}.acme.internal`),
    });
    fc.assert(fc.property(props, (p) => {
      // GIVEN a project with possibly globbing patterns
      const make = () => new SafeProject(new GitOpsApp({ outdir: 'dist' }), 'project', {
        name: 'payments',
        sourceRepos: [p.repo],
        destinations: [{ namespace: 'payments', cluster: DestinationCluster.fromServer(p.server) }],
        clusterResources: [{ group: p.group, kind: 'Namespace' }],
      });
      let project: SafeProject;
      try {
        project = make();
      } catch (e) {
        // WHEN the constructor refuses THEN it names one of the props
        expect((e as Error).message).toMatch(/^\[SAFE-030\] [^:]*: (sourceRepos|destinations\[\]\.cluster|clusterResources) is /);
        return;
      }
      // WHEN it accepts THEN nothing in the rendered project is a pattern
      const spec = project.resource.toJson().spec;
      expect([...spec.sourceRepos, ...spec.destinations.map((d: Doc) => d.server)].filter((x: string) => GLOB.test(x))).toEqual([]);
      expect(spec.clusterResourceWhitelist.map((r: Doc) => r.group).filter((x: string) => GROUP_GLOB.test(x))).toEqual([]);
    }), runs(3102));
  });
});

// ---------------------------------------------------------------------------------------------------------
// Refusals

const base: SafeProjectProps = { name: 'payments', sourceRepos: ['https://git.acme.internal/gitops.git'], destinations: [{ namespace: 'payments' }] };
const make = (override: Partial<SafeProjectProps>) => () => new SafeProject(new GitOpsApp({ outdir: 'dist' }), 'project', { ...base, ...override });
const badGroup = fc.oneof(fc.constantFrom('', 'a b', 'a,b', '*', 'team*', ' ', '\t', 'x\ny'), fc.string({ maxLength: 10 }).filter((g) => g.trim() === '' || /[\s,*]/.test(g)));

refusalProperties('SafeProject refusals', {
  'name': fc.oneof(notLabel, fc.constant('default')).map((name) => make({ name })),
  'sourceRepos (none, or a "*")': fc.oneof(
    fc.constant([] as string[]),
    fc.constantFrom('*', '', ' ', 'https://git.acme.internal/*', '*.git').map((r) => [r]),
  ).map((sourceRepos) => make({ sourceRepos })),
  'destinations (none)': fc.constant(make({ destinations: [] })),
  'destinations[].namespace': notLabel.map((namespace) => make({ destinations: [{ namespace }] })),
  'destinations[].cluster': fc.constantFrom('https://*.acme.internal', 'https://prod?.acme.internal', 'https://[ab].acme.internal')
    .map((url) => make({ destinations: [{ namespace: 'payments', cluster: DestinationCluster.fromServer(url) }] })),
  'clusterResources': fc.oneof(
    fc.record({ group: fc.constantFrom('*', 'rbac.*'), kind: fc.constant('ClusterRole') }),
    fc.record({ group: fc.constant(''), kind: fc.constantFrom('*', '', 'Cluster Role', '1Kind', 'Name*') }),
  ).map((r) => make({ clusterResources: [r as ClusterResource] })),
  'developerGroups': badGroup.map((g) => make({ developerGroups: [g] })),
  'onCallGroups': badGroup.map((g) => make({ onCallGroups: [g] })),
  'overrideGrant.groups': badGroup.map((g) => make({ overrideGrant: { groups: [g], reason: 'the release tooling applies hotfixes' } })),
  'overrideGrant': fc.oneof(
    fc.string({ maxLength: 9 }).map((reason) => ({ groups: ['release'], reason })),
    fc.constant({ groups: [], reason: 'the release tooling applies hotfixes' }),
  ).map((overrideGrant) => make({ overrideGrant: overrideGrant as OverrideGrant })),
}, 3200);

describe('SafeApplication against its SafeProject', () => {
  test('fails at synth when the app deploys outside the project: the error names the project and the destination', () => {
    fc.assert(fc.property(destinations, dnsLabel, (ds, namespace) => {
      // GIVEN a project and an app whose namespace none of its destinations allows
      fc.pre(!ds.some((d) => d.namespace === namespace && (d.cluster ?? DestinationCluster.IN_CLUSTER) === DestinationCluster.IN_CLUSTER));
      const gitops = new GitOpsApp({ outdir: 'dist' });
      const project = new SafeProject(gitops, 'project', { ...base, destinations: ds as ProjectDestination[] });
      const app = new SafeApplication(gitops, 'app', { name: 'checkout', project, repoUrl: base.sourceRepos[0], destinationNamespace: namespace });
      new ApiObject(app, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
      // WHEN rendered THEN the synth refuses with SAFE-031
      const message = refusal(() => gitops.renderFiles());
      expect(message).toMatch(/^\[SAFE-100\]/);
      expect(message).toContain(`[SAFE-031] project payments does not allow the destination namespace ${JSON.stringify(namespace)}`);
    }), runs(3301));
  });
});
