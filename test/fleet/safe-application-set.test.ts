import { ApiObject, Chart, Duration, JsonPatch, Testing } from 'cdk8s';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { ApplicationSetCluster } from '../../src/fleet/application-set-cluster';
import { ApplicationSetGenerator } from '../../src/fleet/application-set-generator';
import { SafeApplicationSet, SafeApplicationSetProps } from '../../src/fleet/safe-application-set';
import { runRules, unsuppressed } from '../../src/rules/engine';
import { ALL_RULES } from '../../src/rules/registry';
import { ArgoProject, IArgoProject } from '../../src/values/argo-project';
import { DeletionPolicy } from '../../src/values/deletion-policy';
import { IgnoreRule } from '../../src/values/ignore-rule';
import { IgnoreTarget } from '../../src/values/ignore-target';
import { crdErrors } from '../support/crd';

const REGIONS = [{ name: 'eu', namespace: 'checkout-eu' }, { name: 'us', namespace: 'checkout-us' }];

/** Props of a valid SafeApplicationSet (one Application per region), for tests to override. */
function setProps(overrides: Partial<SafeApplicationSetProps> = {}): SafeApplicationSetProps {
  return {
    name: 'checkout',
    generators: [ApplicationSetGenerator.list(REGIONS)],
    applicationName: '{{.name}}-checkout',
    project: ArgoProject.fromName('payments'),
    repoUrl: 'https://git.acme.internal/platform/gitops.git',
    path: 'deploy/checkout',
    destinationNamespace: '{{.namespace}}',
    ...overrides,
  };
}

/** A SafeApplicationSet in a plain Chart (no GitOpsApp). */
function newSet(overrides: Partial<SafeApplicationSetProps> = {}) {
  const chart = new Chart(Testing.app(), 'fleet');
  const set = new SafeApplicationSet(chart, 'checkout', setProps(overrides));
  return { chart, set };
}

function manifestOf(set: SafeApplicationSet): any {
  return set.resource.toJson();
}

/** The template as the Application manifest the controller would generate from it (parameters unrendered). */
function asApplication(manifest: any): any {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { ...manifest.spec.template.metadata, namespace: manifest.metadata.namespace },
    spec: manifest.spec.template.spec,
  };
}

/** Unsuppressed findings of every rule on the template, as an Application deploying nothing we can see. */
function ruleIds(manifest: any, argoCdVersion = ArgoCdVersion.LATEST): string[] {
  return unsuppressed(runRules({ application: asApplication(manifest), resources: [], argoCdVersion }, ALL_RULES)).map((f) => f.rule.id);
}

describe('SafeApplicationSet defaults', () => {
  // GIVEN a set with only the required props, in a plain Chart
  const { set } = newSet();
  // WHEN it is rendered
  const manifest = manifestOf(set);

  test('renders an argoproj.io/v1alpha1 ApplicationSet with its explicit name in argocd', () => {
    expect(manifest.apiVersion).toBe('argoproj.io/v1alpha1');
    expect(manifest.kind).toBe('ApplicationSet');
    expect(manifest.metadata).toEqual({ name: 'checkout', namespace: 'argocd' });
  });

  test('uses Go templates that fail on a missing parameter instead of rendering it empty', () => {
    expect(manifest.spec.goTemplate).toBe(true);
    expect(manifest.spec.goTemplateOptions).toEqual(['missingkey=error']);
  });

  test('preserves resources when the set or an element is deleted, and names no finalizer in the template', () => {
    expect(manifest.spec.syncPolicy).toEqual({ applicationsSync: 'create-update', preserveResourcesOnDeletion: true });
    expect(manifest.spec.template.metadata).toEqual({ name: '{{.name}}-checkout' });
    expect(set.deletionPolicy).toBe(DeletionPolicy.ORPHAN);
  });

  test('lets a generated Application\'s auto-sync be turned off by hand without the controller reverting it', () => {
    expect(manifest.spec.ignoreApplicationDifferences).toEqual([{ jsonPointers: ['/spec/syncPolicy/automated'] }]);
  });

  test('the template carries exactly the SafeApplication hardened policy', () => {
    expect(manifest.spec.template.spec.syncPolicy).toEqual({
      automated: { enabled: true, prune: true, selfHeal: true, allowEmpty: false },
      syncOptions: ['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true'],
      retry: { limit: 5, backoff: { duration: '5s', factor: 2, maxDuration: '3m' } },
    });
    expect(manifest.spec.template.spec.ignoreDifferences).toBeUndefined();
  });

  test('deploys from main to the in-cluster server, in the templated namespace', () => {
    expect(manifest.spec.template.spec.project).toBe('payments');
    expect(manifest.spec.template.spec.source).toEqual({
      repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'main', path: 'deploy/checkout',
    });
    expect(manifest.spec.template.spec.destination).toEqual({ server: 'https://kubernetes.default.svc', namespace: '{{.namespace}}' });
  });

  test('validates against the tightened v3.5.1 ApplicationSet CRD', () => {
    expect(crdErrors('applicationset', '3.5', manifest)).toEqual([]);
  });

  test('its template, wrapped as an Application, validates against the Application CRD and passes every rule', () => {
    // No rule reads metadata.name, destination or source.path, so the unrendered parameters in them do not
    // get in the way. The workload rules (SA1xx) need the deployed manifests, which live in Git under the
    // templated path and are not known at synth, so they run on none.
    expect(crdErrors('application', '3.5', asApplication(manifest))).toEqual([]);
    expect(ruleIds(manifest)).toEqual([]);
    expect(set.node.validate()).toEqual([]);
  });

  test('exposes its resolved values', () => {
    expect(set.applicationSetName).toBe('checkout');
    expect(set.applicationName).toBe('{{.name}}-checkout');
    expect(set.projectName).toBe('payments');
    expect(set.targetRevision).toBe('main');
    expect(set.sourcePath).toBe('deploy/checkout');
    expect(set.destinationNamespace).toBe('{{.namespace}}');
    expect(set.destinationCluster).toBe(ApplicationSetCluster.IN_CLUSTER);
    expect(set.applicationNamespace).toBe('argocd');
    expect(set.argoCdVersion).toBe(ArgoCdVersion.LATEST);
    expect(set.generators).toHaveLength(1);
    expect(set.syncOptions).toEqual(['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true']);
    expect(ApiObject.of(set)).toBe(set.resource);
  });
});

describe('SafeApplicationSet per Argo CD version', () => {
  // Every known release; `enabled` exists from 3.1 (compared as release numbers, not read from the feature table).
  test.each(ArgoCdVersion.all().map((v) => [v.version, v, v.isAtLeast(3, 1)] as const))('for Argo CD %s emits automated.enabled only where the release has it', (release, argoCdVersion, hasEnabled) => {
    // GIVEN a set targeting one release
    const { set } = newSet({ argoCdVersion });
    // WHEN it is rendered
    const manifest = manifestOf(set);
    // THEN enabled appears only from 3.1, the template is a valid Application of that release, and no rule fires
    expect('enabled' in manifest.spec.template.spec.syncPolicy.automated).toBe(hasEnabled);
    expect(crdErrors('application', release, asApplication(manifest))).toEqual([]);
    expect(crdErrors('applicationset', '3.5', manifest)).toEqual([]);
    expect(ruleIds(manifest, argoCdVersion)).toEqual([]);
  });
});

describe('SafeApplicationSet generators', () => {
  test('the list generator renders one element per Application, keys sorted', () => {
    // GIVEN elements whose keys were written in any order
    const { set } = newSet({ generators: [ApplicationSetGenerator.list([{ namespace: 'checkout-eu', name: 'eu' }])] });
    // WHEN rendered
    const manifest = manifestOf(set);
    // THEN the elements are there, in a stable key order, and the CRD accepts them
    expect(manifest.spec.generators).toEqual([{ list: { elements: [{ name: 'eu', namespace: 'checkout-eu' }] } }]);
    expect(JSON.stringify(manifest.spec.generators[0].list.elements[0])).toBe('{"name":"eu","namespace":"checkout-eu"}');
    expect(crdErrors('applicationset', '3.5', manifest)).toEqual([]);
  });

  test('the clusters generator without labels targets every registered cluster', () => {
    // GIVEN one Application per cluster, deployed to that cluster
    const { set } = newSet({
      generators: [ApplicationSetGenerator.clusters()],
      applicationName: '{{.nameNormalized}}-checkout',
      destinationNamespace: 'checkout',
      destinationCluster: ApplicationSetCluster.fromServer('{{.server}}'),
    });
    // WHEN rendered
    const manifest = manifestOf(set);
    // THEN the generator has no selector and each Application goes to its cluster's server
    expect(manifest.spec.generators).toEqual([{ clusters: {} }]);
    expect(manifest.spec.template.spec.destination).toEqual({ server: '{{.server}}', namespace: 'checkout' });
    expect(crdErrors('applicationset', '3.5', manifest)).toEqual([]);
    expect(ruleIds(manifest)).toEqual([]);
  });

  test('the clusters generator selects by label, and then cluster labels can be read', () => {
    // GIVEN clusters selected by two labels, a namespace read from a cluster label and a cluster by name
    const { set } = newSet({
      generators: [ApplicationSetGenerator.clusters({ matchLabels: { 'tier': 'edge', 'acme.internal/env': 'prod' } })],
      applicationName: '{{.nameNormalized}}-checkout',
      destinationNamespace: 'checkout-{{index .metadata.labels "tier"}}',
      destinationCluster: ApplicationSetCluster.fromName('{{.name}}'),
    });
    // WHEN rendered
    const manifest = manifestOf(set);
    // THEN the selector is rendered with sorted keys and the destination reads the parameters
    expect(manifest.spec.generators).toEqual([{ clusters: { selector: { matchLabels: { 'acme.internal/env': 'prod', 'tier': 'edge' } } } }]);
    expect(manifest.spec.template.spec.destination).toEqual({ name: '{{.name}}', namespace: 'checkout-{{index .metadata.labels "tier"}}' });
    expect(crdErrors('applicationset', '3.5', manifest)).toEqual([]);
  });

  test('several generators render in order, each checked against the template', () => {
    // GIVEN a list and selected clusters that both give name and server
    const { set } = newSet({
      generators: [
        ApplicationSetGenerator.list([{ name: 'lab', server: 'https://lab.acme.internal:6443' }]),
        ApplicationSetGenerator.clusters({ matchLabels: { env: 'prod' } }),
      ],
      applicationName: '{{.name}}-checkout',
      destinationNamespace: 'checkout',
      destinationCluster: ApplicationSetCluster.fromServer('{{.server}}'),
    });
    // WHEN rendered
    const manifest = manifestOf(set);
    // THEN both are there, in order
    expect(manifest.spec.generators.map((g: object) => Object.keys(g)[0])).toEqual(['list', 'clusters']);
    expect(crdErrors('applicationset', '3.5', manifest)).toEqual([]);
  });

  test('a fixed cluster by URL or name renders as Argo CD expects', () => {
    expect(manifestOf(newSet({ destinationCluster: ApplicationSetCluster.fromServer('https://prod.acme.internal:6443') }).set).spec.template.spec.destination)
      .toEqual({ server: 'https://prod.acme.internal:6443', namespace: '{{.namespace}}' });
    expect(manifestOf(newSet({ destinationCluster: ApplicationSetCluster.fromName('prod-eu') }).set).spec.template.spec.destination)
      .toEqual({ name: 'prod-eu', namespace: '{{.namespace}}' });
  });
});

describe('SafeApplicationSet ignore rules', () => {
  const web = IgnoreTarget.resource({ group: 'apps', kind: 'Deployment', name: 'web' });

  test('a rule added after construction lands in the template, with RespectIgnoreDifferences and its reason', () => {
    // GIVEN a set whose Deployments are scaled by an HPA
    const { set } = newSet();
    // WHEN a rule is added after construction
    set.addIgnoreRule(IgnoreRule.jsonPointer(web, '/spec/replicas', 'owned by HPA web'));
    const manifest = manifestOf(set);
    // THEN every generated Application ignores that field, respects it on sync and says why
    expect(manifest.spec.template.spec.ignoreDifferences).toEqual([{ group: 'apps', kind: 'Deployment', name: 'web', jsonPointers: ['/spec/replicas'] }]);
    expect(manifest.spec.template.spec.syncPolicy.syncOptions).toEqual([
      'CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true', 'RespectIgnoreDifferences=true',
    ]);
    expect(manifest.spec.template.metadata.annotations).toEqual({ 'safe-argocd/ignore-reasons': 'apps/Deployment web /spec/replicas: owned by HPA web' });
    expect(crdErrors('applicationset', '3.5', manifest)).toEqual([]);
    expect(ruleIds(manifest)).toEqual([]);
    expect(set.ignoreRules).toHaveLength(1);
  });

  test('rules given as props render like added ones', () => {
    const { set } = newSet({ ignoreRules: [IgnoreRule.managedFieldsManager(web, 'kube-controller-manager', 'scaled by HPA web')] });
    expect(manifestOf(set).spec.template.spec.ignoreDifferences).toEqual([
      { group: 'apps', kind: 'Deployment', name: 'web', managedFieldsManagers: ['kube-controller-manager'] },
    ]);
  });

  test('fails when something other than an IgnoreRule is added', () => {
    const { set } = newSet();
    expect(() => set.addIgnoreRule({ kind: 'x' } as any)).toThrow(/^\[SAFE-008\] fleet\/checkout: rule /);
  });

  test('fails when a rule\'s reason holds "{{", which the controller would render', () => {
    const { set } = newSet();
    expect(() => set.addIgnoreRule(IgnoreRule.jsonPointer(web, '/spec/replicas', 'owned by {{.name}}')))
      .toThrow(/^\[SAFE-040\] fleet\/checkout: rule is "owned by \{\{\.name\}\}"/);
  });

  test('fails when a raw jq expression does not compile', () => {
    const { set } = newSet();
    set.addIgnoreRule(IgnoreRule.rawJq(web, '.spec[', 'broken on purpose'));
    expect(set.node.validate().join('\n')).toMatch(/\[SAFE-009\][^\n]*"\.spec\["/);
  });
});

describe('SafeApplicationSet options', () => {
  test('cascade deletion is an explicit choice: preserveResourcesOnDeletion false and the finalizer in the template', () => {
    // GIVEN the two cascade policies
    // WHEN rendered
    const foreground = manifestOf(newSet({ deletionPolicy: DeletionPolicy.CASCADE_FOREGROUND }).set);
    const background = manifestOf(newSet({ deletionPolicy: DeletionPolicy.CASCADE_BACKGROUND }).set);
    // THEN the choice is written out
    expect(foreground.spec.syncPolicy).toEqual({ applicationsSync: 'create-update', preserveResourcesOnDeletion: false });
    expect(foreground.spec.template.metadata.finalizers).toEqual(['resources-finalizer.argocd.argoproj.io']);
    expect(background.spec.template.metadata.finalizers).toEqual(['resources-finalizer.argocd.argoproj.io/background']);
    expect(crdErrors('applicationset', '3.5', foreground)).toEqual([]);
  });

  test('retry bounds and the ApplicationSet namespace can be tuned', () => {
    const { set } = newSet({ retry: { limit: 3, backoffDuration: Duration.seconds(10), backoffMaxDuration: Duration.minutes(5) }, applicationNamespace: 'argocd-apps' });
    const manifest = manifestOf(set);
    expect(manifest.spec.template.spec.syncPolicy.retry).toEqual({ limit: 3, backoff: { duration: '10s', factor: 2, maxDuration: '5m' } });
    expect(manifest.metadata.namespace).toBe('argocd-apps');
  });

  test('a template path and a fixed tag render as given', () => {
    const { set } = newSet({ path: 'deploy/{{.name}}', targetRevision: 'v1.4.2' });
    expect(manifestOf(set).spec.template.spec.source).toEqual({
      repoURL: 'https://git.acme.internal/platform/gitops.git', targetRevision: 'v1.4.2', path: 'deploy/{{.name}}',
    });
  });

  test('the synth-time rules still run after an escape hatch', () => {
    // GIVEN a set whose template is patched to turn prune off
    const { set } = newSet();
    ApiObject.of(set).addJsonPatch(JsonPatch.replace('/spec/template/spec/syncPolicy/automated/prune', false));
    // WHEN validated
    const errors = set.node.validate();
    // THEN the half-enforced policy is reported at the ApplicationSet's path
    expect(errors.join('\n')).toMatch(/^SA001 half-enforced-sync-policy \[error\] on Application argocd\/\{\{\.name\}\}-checkout at fleet\/checkout\/Resource \/spec\/syncPolicy\/automated\/prune/m);
  });

  test('two builds are identical, whatever order element keys were written in', () => {
    // GIVEN the same set built twice, once with element keys reversed, and ignore rules
    const build = (elements: { [key: string]: string }[]) => {
      const { set } = newSet({ generators: [ApplicationSetGenerator.list(elements)] });
      set.addIgnoreRule(IgnoreRule.jsonPointer(IgnoreTarget.resource({ group: 'apps', kind: 'Deployment', name: 'web' }), '/spec/replicas', 'owned by HPA web'));
      return JSON.stringify(manifestOf(set));
    };
    // WHEN both are rendered
    const first = build(REGIONS);
    const second = build(REGIONS.map((r) => ({ namespace: r.namespace, name: r.name })));
    // THEN the output is byte for byte the same
    expect(second).toBe(first);
  });
});

describe('SafeApplicationSet is a chart of its own, like SafeApplication and SafeProject', () => {
  test('at the app\'s root it synthesizes to a file of its own holding only the ApplicationSet', () => {
    // GIVEN a set defined directly in the app, beside an unrelated chart
    const app = Testing.app();
    new SafeApplicationSet(app, 'fleet', setProps());
    new Chart(app, 'other');
    // WHEN the app synthesizes
    const charts = app.charts.map((c) => ({ id: c.node.id, kinds: c.toJson().map((o: any) => o.kind) }));
    // THEN the set's chart holds the ApplicationSet and nothing else
    expect(charts).toEqual([{ id: 'fleet', kinds: ['ApplicationSet'] }, { id: 'other', kinds: [] }]);
  });

  test('instanceof tells it from other charts, and isSafeApplicationSet answers across copies of the library', () => {
    const app = Testing.app();
    const set = new SafeApplicationSet(app, 'fleet', setProps());
    const chart = new Chart(app, 'other');
    expect([set instanceof SafeApplicationSet, chart instanceof SafeApplicationSet, set instanceof Chart]).toEqual([true, false, true]);
    expect([SafeApplicationSet.isSafeApplicationSet(set), SafeApplicationSet.isSafeApplicationSet(chart)]).toEqual([true, false]);
  });
});

describe('SafeApplicationSet refuses bad props', () => {

  test('fails when a template reads a parameter a list element does not give, naming path, prop, value and fix', () => {
    expect(() => newSet({ applicationName: '{{.nmae}}-checkout' })).toThrow(
      '[SAFE-040] fleet/checkout: applicationName is "{{.nmae}}-checkout"; it reads the parameter "nmae", but in generator 0 '
      + 'list element 0 has no such parameter (it has name, namespace); with missingkey=error the controller would refuse to render '
      + 'the ApplicationSet. Fix: read a parameter every generator gives, or add it to every list element',
    );
  });

  test.each([
    ['the ApplicationSet name is not a DNS-1123 label', { name: 'Checkout_Set' }, /^\[SAFE-001\] fleet\/checkout: name is "Checkout_Set"/],
    ['the Application name reads no parameter', { applicationName: 'checkout' }, /^\[SAFE-001\] .*applicationName is "checkout"; it reads no generator parameter/],
    ['the Application name\'s literal text breaks DNS-1123', { applicationName: '{{.name}}_Checkout' }, /^\[SAFE-001\] .*cannot render to a DNS-1123 label/],
    ['a list element renders an invalid Application name', {
      generators: [ApplicationSetGenerator.list([{ name: 'EU', namespace: 'checkout-eu' }])],
    }, /^\[SAFE-001\] .*renders to "EU-checkout" for list element 0 of generator 0/],
    ['two list elements render the same Application name', {
      generators: [ApplicationSetGenerator.list([...REGIONS, { name: 'eu', namespace: 'checkout-eu2' }])],
    }, /^\[SAFE-011\] .*renders to "eu-checkout" for both list element 0 of generator 0 and list element 2 of generator 0/],
    ['a template is never closed', { applicationName: '{{.name-checkout' }, /^\[SAFE-040\] .*is not a valid Go template: the action opened at character 1 is never closed/],
    ['a template action is empty', { path: 'deploy/{{ }}' }, /^\[SAFE-040\] .*path .*the action at character 8 is empty/],
    ['the project is default', { project: { projectName: 'default' } as IArgoProject }, /^\[SAFE-002\] fleet\/checkout: project is "default"/],
    ['the project is a template', { project: { projectName: '{{.project}}' } as IArgoProject }, /^\[SAFE-002\] .*must be one fixed AppProject/],
    ['the repository URL is not one Argo CD can read', { repoUrl: 'git.acme.internal/gitops' }, /^\[SAFE-003\] fleet\/checkout: repoUrl /],
    ['the repository URL is a template', { repoUrl: 'https://git.acme.internal/{{.name}}.git' }, /^\[SAFE-003\] .*without template actions/],
    ['targetRevision is HEAD', { targetRevision: 'HEAD' }, /^\[SAFE-016\] fleet\/checkout: targetRevision is "HEAD"; it is refused: .*default branch/],
    ['targetRevision is empty', { targetRevision: '' }, /^\[SAFE-016\] .*targetRevision is ""/],
    ['targetRevision is a template', { targetRevision: '{{.revision}}' }, /^\[SAFE-016\] .*contains a template action/],
    ['a list element renders an invalid namespace', {
      generators: [ApplicationSetGenerator.list([{ name: 'eu', namespace: 'Checkout_EU' }])],
    }, /^\[SAFE-004\] .*destinationNamespace .*renders to "Checkout_EU" for list element 0/],
    ['the ApplicationSet namespace is invalid', { applicationNamespace: 'Argo CD' }, /^\[SAFE-004\] .*applicationNamespace is "Argo CD"/],
    ['the path is absolute', { path: '/deploy/checkout' }, /^\[SAFE-013\] .*path is "\/deploy\/checkout"/],
    ['the path climbs out of the repository', { path: 'deploy/../../etc' }, /^\[SAFE-013\] .*path /],
    ['retry is out of bounds', { retry: { limit: 0 } }, /^\[SAFE-006\] fleet\/checkout: retry\.limit is 0/],
    ['there is no generator', { generators: [] }, /^\[SAFE-041\] fleet\/checkout: generators /],
    ['the clusters generator deploys every Application to one fixed cluster', {
      generators: [ApplicationSetGenerator.clusters()], applicationName: '{{.nameNormalized}}-checkout', destinationNamespace: 'checkout',
    }, /^\[SAFE-040\] .*destinationCluster is "https:\/\/kubernetes.default.svc"; it reads no parameter/],
    ['a template reads cluster metadata while the local cluster (which has none) is included', {
      generators: [ApplicationSetGenerator.clusters()],
      applicationName: '{{.nameNormalized}}-checkout',
      destinationNamespace: 'checkout-{{.metadata.labels.tier}}',
      destinationCluster: ApplicationSetCluster.fromServer('{{.server}}'),
    }, /^\[SAFE-040\] .*reads the parameter "metadata", but in generator 0 the clusters generator gives no "metadata" for the local cluster/],
    ['a template reads a parameter the clusters generator does not give', {
      generators: [ApplicationSetGenerator.clusters({ matchLabels: { env: 'prod' } })],
      applicationName: '{{.cluster}}-checkout',
      destinationNamespace: 'checkout',
      destinationCluster: ApplicationSetCluster.fromServer('{{.server}}'),
    }, /^\[SAFE-040\] .*reads the parameter "cluster", but in generator 0 the clusters generator gives only name, nameNormalized, server, project and metadata/],
    ['the destination cluster reads a parameter a list element lacks', {
      destinationCluster: ApplicationSetCluster.fromServer('{{.server}}'),
    }, /^\[SAFE-040\] .*destinationCluster is "\{\{\.server\}\}"; it reads the parameter "server"/],
  ])('fails when %s', (_label, overrides, message) => {
    expect(() => newSet(overrides as Partial<SafeApplicationSetProps>)).toThrow(message);
  });

  test.each([
    ['the list is empty', () => ApplicationSetGenerator.list([]), /^\[SAFE-041\] ApplicationSetGenerator\.list: elements is \[\]/],
    ['a list element is empty', () => ApplicationSetGenerator.list([{}]), /^\[SAFE-041\] ApplicationSetGenerator\.list: elements\[0\] is \{\}/],
    ['a parameter name cannot be read as {{.name}}', () => ApplicationSetGenerator.list([{ 'my-region': 'eu' }]),
      /^\[SAFE-041\] ApplicationSetGenerator\.list: elements\[0\] is "my-region"; .*Fix: rename the parameter, e\.g\. "my_region"/],
    ['a parameter value is not a string', () => ApplicationSetGenerator.list([{ replicas: 3 as any }]), /^\[SAFE-041\] .*elements\[0\]\.replicas is 3; it must be a string/],
    ['a label key is invalid', () => ApplicationSetGenerator.clusters({ matchLabels: { 'bad key': 'x' } }), /^\[SAFE-041\] ApplicationSetGenerator\.clusters: matchLabels is "bad key"/],
    ['a label value is invalid', () => ApplicationSetGenerator.clusters({ matchLabels: { env: 'prod eu' } }), /^\[SAFE-041\] .*matchLabels\.env is "prod eu"/],
    ['a server is not a URL', () => ApplicationSetCluster.fromServer('prod.acme.internal'), /^\[SAFE-003\] ApplicationSetCluster\.fromServer: url is "prod\.acme\.internal"/],
    ['a server template is malformed', () => ApplicationSetCluster.fromServer('{{.server'), /^\[SAFE-040\] ApplicationSetCluster\.fromServer: url /],
    ['a cluster name is a wildcard', () => ApplicationSetCluster.fromName('*'), /^\[SAFE-001\] ApplicationSetCluster\.fromName: name is "\*"/],
  ])('fails when %s', (_label, make, message) => {
    expect(make).toThrow(message);
  });
});
