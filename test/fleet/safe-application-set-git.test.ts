import { Chart, JsonPatch, Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { ApplicationSetCluster } from '../../src/fleet/application-set-cluster';
import { ApplicationSetGenerator } from '../../src/fleet/application-set-generator';
import { RollingSyncMaxUpdate } from '../../src/fleet/rolling-sync';
import { SafeApplicationSet, SafeApplicationSetProps } from '../../src/fleet/safe-application-set';
import { ApplicationsSyncPolicy } from '../../src/values/applications-sync-policy';
import { ArgoProject } from '../../src/values/argo-project';
import { crdErrors } from '../support/crd';

const REPO = 'https://git.acme.internal/platform/gitops.git';
const CONFIG_REPO = 'https://git.acme.internal/platform/fleet-config.git';

/** Props of a valid git-directory SafeApplicationSet (one Application per folder of apps/), for tests to override. */
function setProps(overrides: Partial<SafeApplicationSetProps> = {}): SafeApplicationSetProps {
  return {
    name: 'apps',
    generators: [ApplicationSetGenerator.gitDirectories({ include: ['apps/*'], exclude: ['apps/experimental'] })],
    applicationName: '{{.path.basenameNormalized}}',
    project: ArgoProject.fromName('payments'),
    repoUrl: REPO,
    path: '{{.path.path}}',
    destinationNamespace: '{{.path.basenameNormalized}}',
    ...overrides,
  };
}

function render(overrides: Partial<SafeApplicationSetProps> = {}): any {
  const set = new SafeApplicationSet(new Chart(Testing.app(), 'fleet'), 'apps', setProps(overrides));
  expect(set.node.validate()).toEqual([]);
  return set.resource.toJson();
}

function make(overrides: Partial<SafeApplicationSetProps>) {
  return () => new SafeApplicationSet(new Chart(Testing.app(), 'fleet'), 'apps', setProps(overrides));
}

describe('SafeApplicationSet with a git directory generator', () => {
  test('reads the folders at the set\'s own repository and revision, include and exclude sorted, and keeps Applications whose folder goes', () => {
    // GIVEN a set over apps/*, without apps/experimental, tracking a tag
    // WHEN rendered
    const manifest = render({ targetRevision: 'v2.3.0' });
    // THEN the generator reads what the Applications deploy, and the controller never deletes an Application
    expect(manifest.spec.generators).toEqual([{
      git: { repoURL: REPO, revision: 'v2.3.0', directories: [{ path: 'apps/*' }, { path: 'apps/experimental', exclude: true }] },
    }]);
    expect(manifest.spec.syncPolicy).toEqual({ applicationsSync: 'create-update', preserveResourcesOnDeletion: true });
    expect(manifest.spec.template.spec.source).toEqual({ repoURL: REPO, targetRevision: 'v2.3.0', path: '{{.path.path}}' });
    expect(crdErrors('applicationset', '3.5', manifest)).toEqual([]);
  });

  test('the template may read every path parameter Argo CD gives a folder', () => {
    const manifest = render({
      applicationName: '{{.path.basenameNormalized}}-{{index .path.segments 0}}',
      applicationLabels: { folder: '{{.path.basename}}' },
      path: '{{.path.path}}',
    });
    expect(manifest.spec.template.metadata.labels).toEqual({ folder: '{{.path.basename}}' });
  });

  test('a pathParamPrefix moves the parameters under it', () => {
    const manifest = render({
      generators: [ApplicationSetGenerator.gitDirectories({ include: ['apps/*'], pathParamPrefix: 'app' })],
      applicationName: '{{.app.path.basenameNormalized}}',
      path: '{{.app.path.path}}',
      destinationNamespace: '{{.app.path.basenameNormalized}}',
    });
    expect(manifest.spec.generators[0].git.pathParamPrefix).toBe('app');
  });

  test.each([
    ['a path field is misspelt', { applicationName: '{{.path.basenam}}' },
      /^\[SAFE-040\] fleet\/apps: applicationName is "\{\{\.path\.basenam\}\}"; it reads the parameter "path\.basenam", but in generator 0 the git directories generator gives only path\.path, path\.basename, path\.basenameNormalized, path\.segments;/],
    ['a list-element parameter is read', { destinationNamespace: '{{.namespace}}' },
      /reads the parameter "namespace", but in generator 0 the git directories generator gives only path/],
    ['a field of a string is read', { path: '{{.path.basename.x}}' },
      /reads the parameter "path\.basename\.x", but in generator 0 the git directories generator gives "path\.basename" as a string, which has no fields/],
    ['a file parameter is read from a directory generator', { path: 'apps/{{.path.filename}}' }, /reads the parameter "path\.filename"/],
    ['the prefixed generator is read without its prefix', {
      generators: [ApplicationSetGenerator.gitDirectories({ include: ['apps/*'], pathParamPrefix: 'app' })],
    }, /reads the parameter "path\.basenameNormalized", but in generator 0 the git directories generator gives only app\.path/],
    ['the generator would read the set\'s OCI repository', { repoUrl: 'oci://registry.acme.internal/charts' },
      /^\[SAFE-003\] fleet\/apps: generators\[0\] is "oci:\/\/registry\.acme\.internal\/charts"; it is the repository a git generator without repoUrl reads, and is no Git repository/],
    ['the generator reads another revision of the same repository', {
      generators: [ApplicationSetGenerator.gitDirectories({ include: ['apps/*'], revision: 'release' })],
    }, /^\[SAFE-016\] fleet\/apps: generators\[0\]\.revision is "release"; it differs from targetRevision "main" of the same repository/],
  ])('fails when %s', (_label, overrides, message) => {
    expect(make(overrides as Partial<SafeApplicationSetProps>)).toThrow(message);
  });

  test('another repository may be read at its own revision', () => {
    const manifest = render({
      generators: [ApplicationSetGenerator.gitDirectories({ include: ['clusters/*'], repoUrl: CONFIG_REPO, revision: 'stable' })],
    });
    expect(manifest.spec.generators[0].git).toEqual({ repoURL: CONFIG_REPO, revision: 'stable', directories: [{ path: 'clusters/*' }] });
  });

  test.each([
    ['the revision is HEAD', () => ApplicationSetGenerator.gitDirectories({ include: ['apps/*'], revision: 'HEAD' }),
      /^\[SAFE-016\] ApplicationSetGenerator\.gitDirectories: revision is "HEAD"; it is refused: .*default branch\. Fix: name the branch, tag or commit/],
    ['the revision is empty', () => ApplicationSetGenerator.gitDirectories({ include: ['apps/*'], revision: ' ' }), /^\[SAFE-016\] .*revision is " "/],
    ['the revision is a template', () => ApplicationSetGenerator.gitDirectories({ include: ['apps/*'], revision: '{{.rev}}' }), /^\[SAFE-016\] .*template action/],
    ['no path is included', () => ApplicationSetGenerator.gitDirectories({ include: [] }), /^\[SAFE-041\] ApplicationSetGenerator\.gitDirectories: include is \[\]; it must be a non-empty list/],
    ['a path is absolute', () => ApplicationSetGenerator.gitDirectories({ include: ['/apps/*'] }), /^\[SAFE-041\] .*include is "\/apps\/\*"; it starts with "\/"/],
    ['a path climbs out', () => ApplicationSetGenerator.gitDirectories({ include: ['apps/../../x'] }), /^\[SAFE-041\] .*climbs out/],
    ['a path is a template', () => ApplicationSetGenerator.gitDirectories({ include: ['apps/{{.x}}'] }), /^\[SAFE-041\] .*template action/],
    ['the repository is not a Git URL', () => ApplicationSetGenerator.gitDirectories({ include: ['apps/*'], repoUrl: 'fleet-config' }), /^\[SAFE-003\] .*repoUrl is "fleet-config"/],
    ['the prefix is not a parameter name', () => ApplicationSetGenerator.gitDirectories({ include: ['apps/*'], pathParamPrefix: 'my-app' }), /^\[SAFE-041\] .*pathParamPrefix is "my-app"/],
  ])('fails when %s', (_label, build, message) => {
    expect(build).toThrow(message);
  });
});

describe('SafeApplicationSet with a git file generator', () => {
  const files = (extra: Partial<Parameters<typeof ApplicationSetGenerator.gitFiles>[0]> = {}) => ApplicationSetGenerator.gitFiles({
    include: ['clusters/**/config.json'], parameters: ['cluster.name', 'cluster.address'], ...extra,
  });

  test('the template reads the declared keys and the file\'s path parameters', () => {
    const manifest = render({
      generators: [files()],
      applicationName: '{{.cluster.name}}-{{.path.basenameNormalized}}',
      path: 'deploy/{{.path.filenameNormalized}}',
      destinationCluster: ApplicationSetCluster.fromServer('{{.cluster.address}}'),
      destinationNamespace: 'checkout',
    });
    expect(manifest.spec.generators).toEqual([{ git: { repoURL: REPO, revision: 'main', files: [{ path: 'clusters/**/config.json' }] } }]);
    expect(crdErrors('applicationset', '3.5', manifest)).toEqual([]);
  });

  test('fails when the template reads a key the files are not declared to give', () => {
    expect(make({ generators: [files()], applicationName: '{{.cluster.region}}' })).toThrow(
      /reads the parameter "cluster\.region", but in generator 0 the git files generator gives only path and the declared parameters \(cluster\.address, cluster\.name\)/);
  });

  test('fails when a declared key is under path, which the generator overwrites', () => {
    expect(() => files({ parameters: ['path.env'] })).toThrow(/^\[SAFE-041\] ApplicationSetGenerator\.gitFiles: parameters is "path\.env"; it is under "path"/);
  });

  test('exclude is rendered from Argo CD 3.1, and refused before it, naming the release and the fix', () => {
    // GIVEN files generators that leave a file out
    const excluding = files({ exclude: ['clusters/legacy/config.json'] });
    const props = { generators: [excluding], applicationName: '{{.cluster.name}}', destinationNamespace: 'checkout' };
    // WHEN rendered for 3.1, and for 3.0
    const manifest = render({ ...props, argoCdVersion: ArgoCdVersion.V3_1 });
    // THEN 3.1 has it
    expect(manifest.spec.generators[0].git.files).toEqual([{ path: 'clusters/**/config.json' }, { path: 'clusters/legacy/config.json', exclude: true }]);
    // and 3.0 and 2.14, whose CRD has no files[].exclude, refuse it
    for (const version of [ArgoCdVersion.V3_0, ArgoCdVersion.V2_14]) {
      expect(make({ ...props, argoCdVersion: version })).toThrow(new RegExp(
        `^\\[SAFE-005\\] fleet/apps: generators\\[0\\] is "a git files generator with exclude"; it needs Argo CD 3\\.1 or newer \\(spec\\.generators\\[\\]\\.git\\.files\\[\\]\\.exclude\\); Argo CD ${version.version.replace('.', '\\.')} drops the field.*Fix: upgrade Argo CD to 3\\.1`));
    }
    // while a directories generator's exclude exists in every release
    expect(render({ argoCdVersion: ArgoCdVersion.V2_14 }).spec.generators[0].git.directories).toContainEqual({ path: 'apps/experimental', exclude: true });
  });
});

describe('SafeApplicationSet with matrix and merge generators', () => {
  const folders = ApplicationSetGenerator.gitDirectories({ include: ['apps/*'] });
  const prod = ApplicationSetGenerator.clusters({ matchLabels: { env: 'prod' } });

  test('a matrix gives every pair the parameters of both', () => {
    const manifest = render({
      generators: [ApplicationSetGenerator.matrix(folders, prod)],
      applicationName: '{{.path.basenameNormalized}}-{{.nameNormalized}}',
      destinationCluster: ApplicationSetCluster.fromServer('{{.server}}'),
      destinationNamespace: '{{.path.basenameNormalized}}',
      applicationLabels: { env: '{{.metadata.labels.env}}' },
    });
    expect(manifest.spec.generators).toEqual([{
      matrix: { generators: [{ git: { repoURL: REPO, revision: 'main', directories: [{ path: 'apps/*' }] } }, { clusters: { selector: { matchLabels: { env: 'prod' } } } }] },
    }]);
    expect(crdErrors('applicationset', '3.5', manifest)).toEqual([]);
  });

  test('a matrix whose clusters are per-cluster still needs the cluster read from the parameters', () => {
    expect(make({ generators: [ApplicationSetGenerator.matrix(folders, prod)], applicationName: '{{.path.basenameNormalized}}-{{.nameNormalized}}' }))
      .toThrow(/destinationCluster is "https:\/\/kubernetes\.default\.svc"; it reads no parameter/);
  });

  test.each([
    ['a matrix template reads what neither generator gives', () => make({
      generators: [ApplicationSetGenerator.matrix(folders, ApplicationSetGenerator.list([{ env: 'prod' }]))], applicationName: '{{.region}}-{{.env}}',
    })(), /reads the parameter "region", but in generator 0 neither generator of the matrix gives it/],
    ['both generators of a matrix give a parameter', () => ApplicationSetGenerator.matrix(folders, ApplicationSetGenerator.gitDirectories({ include: ['envs/*'] })),
      /^\[SAFE-041\] ApplicationSetGenerator\.matrix: second is "path"; it is a parameter both generators give.*Fix: .*pathParamPrefix/],
    ['matrices nest two levels deep', () => ApplicationSetGenerator.matrix(folders, ApplicationSetGenerator.matrix(prod,
      ApplicationSetGenerator.matrix(ApplicationSetGenerator.list([{ a: 'x' }]), ApplicationSetGenerator.list([{ b: 'y' }])))),
    /^\[SAFE-041\] ApplicationSetGenerator\.matrix: generators\[1\] .*nests deeper than Argo CD allows/],
    ['a merge key is not given by every generator', () => ApplicationSetGenerator.merge(['server'], [prod, ApplicationSetGenerator.list([{ name: 'eu' }])]),
      /^\[SAFE-041\] ApplicationSetGenerator\.merge: mergeKeys is "server"; it is not given by generator 1 \(list element 0 has no such parameter/],
    ['a merge key is nested', () => ApplicationSetGenerator.merge(['path.path'], [folders, folders]), /mergeKeys is "path\.path"; it must be a top-level parameter/],
    ['a merge has one generator', () => ApplicationSetGenerator.merge(['server'], [prod]), /generators is "1 generator\(s\)"; it must hold at least two/],
  ])('fails when %s', (_label, build, message) => {
    expect(build).toThrow(message);
  });

  test('a merge gives every Application the first generator\'s parameters; another\'s only as an override of a default', () => {
    // GIVEN clusters merged with per-cluster overrides of a list
    const overrides = ApplicationSetGenerator.list([{ server: 'https://eu.acme.internal', replicas: '5' }]);
    const merge = ApplicationSetGenerator.merge(['server'], [prod, overrides]);
    const base = { generators: [merge], applicationName: '{{.nameNormalized}}', path: 'deploy/checkout', destinationCluster: ApplicationSetCluster.fromServer('{{.server}}'), destinationNamespace: 'checkout' };
    // WHEN rendered
    const manifest = render(base);
    // THEN
    expect(manifest.spec.generators[0].merge.mergeKeys).toEqual(['server']);
    expect(crdErrors('applicationset', '3.5', manifest)).toEqual([]);
    // and a parameter only the override gives is refused
    expect(make({ ...base, applicationName: '{{.nameNormalized}}-{{.replicas}}' })).toThrow(
      /reads the parameter "replicas", but in generator 0 the merge's first generator does not \(the clusters generator gives only .*\); generator 1 of the merge gives it only to the Applications whose merge keys it matches/);
  });
});

describe('SafeApplicationSet applicationsSync', () => {
  test('a deleting policy needs a reason, which is recorded as the reasoned suppression of SA016', () => {
    // GIVEN a set that must delete Applications whose folder goes
    const manifest = render({ applicationsSync: ApplicationsSyncPolicy.SYNC, applicationsSyncReason: 'preview environments are deleted with their folder' });
    // THEN it is written out, with the reason
    expect(manifest.spec.syncPolicy.applicationsSync).toBe('sync');
    expect(manifest.metadata.annotations).toEqual({
      'safe-argocd/suppress.SA016': 'applicationsSync sync chosen in code: preview environments are deleted with their folder',
    });
  });

  test('create-only is a plain choice', () => {
    expect(render({ applicationsSync: ApplicationsSyncPolicy.CREATE_ONLY }).spec.syncPolicy.applicationsSync).toBe('create-only');
  });

  test.each([
    ['SYNC has no reason', { applicationsSync: ApplicationsSyncPolicy.SYNC }, /^\[SAFE-018\] fleet\/apps: applicationsSync is "sync"; it lets the ApplicationSet controller delete every Application/],
    ['CREATE_DELETE has a blank reason', { applicationsSync: ApplicationsSyncPolicy.CREATE_DELETE, applicationsSyncReason: ' ' }, /^\[SAFE-018\] .*applicationsSync is "create-delete"/],
    ['a reason is given for a policy that deletes nothing', { applicationsSyncReason: 'why not' }, /^\[SAFE-018\] .*applicationsSyncReason is "why not"; it is given, but applicationsSync create-update deletes no Application/],
    ['the policy is not one Argo CD knows', { applicationsSync: 'upsert' as ApplicationsSyncPolicy }, /^\[SAFE-041\] .*applicationsSync is "upsert"/],
  ])('fails when %s', (_label, overrides, message) => {
    expect(make(overrides as Partial<SafeApplicationSetProps>)).toThrow(message);
  });

  test('an escape hatch that drops the policy is caught by SA016 at synth', () => {
    const set = new SafeApplicationSet(new Chart(Testing.app(), 'fleet'), 'apps', setProps());
    set.resource.addJsonPatch(JsonPatch.remove('/spec/syncPolicy/applicationsSync'));
    expect(set.node.validate().join('\n')).toMatch(/^SA016 application-set-deletes-applications \[warning\] on ApplicationSet argocd\/apps at fleet\/apps\/Resource \/spec\/syncPolicy/m);
  });
});

describe('SafeApplicationSet rollingSync', () => {
  const regions = ApplicationSetGenerator.list([
    { name: 'staging', env: 'staging' }, { name: 'eu', env: 'prod' }, { name: 'us', env: 'prod' },
  ]);
  const rollout = {
    generators: [regions],
    applicationName: '{{.name}}-checkout',
    path: 'deploy/checkout',
    destinationNamespace: 'checkout-{{.name}}',
    applicationLabels: { env: '{{.env}}' },
  };

  test('renders the steps as In expressions on the label, with maxUpdate as a count or a percentage', () => {
    // GIVEN staging first, then prod one Application at a time
    const manifest = render({
      ...rollout,
      rollingSync: { label: 'env', steps: [{ values: ['staging'], maxUpdate: RollingSyncMaxUpdate.percent(50) }, { values: ['prod'], maxUpdate: RollingSyncMaxUpdate.applications(1) }] },
    });
    // THEN
    expect(manifest.spec.strategy).toEqual({
      type: 'RollingSync',
      rollingSync: {
        steps: [
          { matchExpressions: [{ key: 'env', operator: 'In', values: ['staging'] }], maxUpdate: '50%' },
          { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }], maxUpdate: 1 },
        ],
      },
    });
    expect(manifest.spec.template.metadata.labels).toEqual({ env: '{{.env}}' });
    // The template keeps the hardened policy: the controller turns auto-sync off itself and syncs with its prune and retry.
    expect(manifest.spec.template.spec.syncPolicy.automated).toEqual({ enabled: true, prune: true, selfHeal: true, allowEmpty: false });
    for (const version of ArgoCdVersion.all()) {
      expect(crdErrors('applicationset', '3.5', render({ ...rollout, argoCdVersion: version, rollingSync: { label: 'env', steps: [{ values: ['staging', 'prod'] }] } }))).toEqual([]);
    }
  });

  test.each([
    ['the label is not one of applicationLabels', { ...rollout, rollingSync: { label: 'tier', steps: [{ values: ['prod'] }] } },
      /^\[SAFE-041\] fleet\/apps: rollingSync\.label is "tier"; it is not one of applicationLabels \(env\)/],
    ['a list element\'s label is in no step', { ...rollout, rollingSync: { label: 'env', steps: [{ values: ['prod'] }] } },
      /rollingSync\.steps is "staging"; it is the env label of list element 0 of generator 0, which is in no step: the rollout never syncs that Application/],
    ['a value is in two steps', { ...rollout, rollingSync: { label: 'env', steps: [{ values: ['staging', 'prod'] }, { values: ['prod'] }] } },
      /^\[SAFE-011\] .*rollingSync\.steps\[1\]\.values is "prod"; it is also in step 0/],
    ['there are no steps', { ...rollout, rollingSync: { label: 'env', steps: [] } }, /rollingSync\.steps is \[\]; it must hold at least one step/],
    ['a label renders to an invalid value', { ...rollout, applicationLabels: { env: '{{.env}} x' } }, /applicationLabels\.env is "\{\{\.env\}\} x"; it cannot render to a Kubernetes label value/],
    ['a label key is invalid', { ...rollout, applicationLabels: { 'bad key': 'x' } }, /applicationLabels is "bad key"/],
  ])('fails when %s', (_label, overrides, message) => {
    expect(make(overrides as Partial<SafeApplicationSetProps>)).toThrow(message);
  });

  test.each([
    ['a count of 0', () => RollingSyncMaxUpdate.applications(0), /count is 0; it must be a whole number of at least 1/],
    ['0%', () => RollingSyncMaxUpdate.percent(0), /percent is 0; it must be a whole number from 1 to 100/],
    ['more than 100%', () => RollingSyncMaxUpdate.percent(150), /percent is 150/],
  ])('maxUpdate fails with %s', (_label, build, message) => {
    expect(build).toThrow(message);
  });
});

describe('SafeApplicationSet git parameter check, for any field read', () => {
  // Written out from git.go at v3.5.1 (generateParamsFromApps), not read from the implementation.
  const DIRECTORY_FIELDS = ['path', 'basename', 'basenameNormalized', 'segments'];
  const WORDS = ['path', 'basename', 'basenameNormalized', 'segments', 'filename', 'name', 'app', 'Path', 'basenam'];

  test('a git directories template is refused exactly when it reads a key Argo CD does not give a folder, or a field of a string or list', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }), (chain) => {
      // GIVEN a template that reads the field .a.b.c
      const build = make({ applicationName: `x-{{.${chain.join('.')}}}` });
      // WHEN the set is built / THEN it is refused exactly when missingkey=error would stop the controller
      const ok = chain[0] === 'path' && (chain.length === 1 || (chain.length === 2 && DIRECTORY_FIELDS.includes(chain[1])));
      if (ok) {
        expect(build).not.toThrow();
      } else {
        expect(build).toThrow(/^\[SAFE-040\] fleet\/apps: applicationName .* reads the parameter /);
      }
    }), { numRuns: 60 });
  });
});
