import { Chart } from 'cdk8s';
import * as fc from 'fast-check';
import {
  anyText, argoCdVersion, checkTree, deletionPolicy, dnsLabel, Doc, isLabel, notLabel, refusalProperties, releaseOf, REPO, repoUrl,
  resourceRules, RESPECT, retry, runs, subdomain, targetRevision,
} from './support';
import {
  ApplicationSetCluster, ApplicationSetGenerator, ArgoProject, DeletionPolicy, GitOpsApp, IArgoProject, IgnoreRule, SafeApplicationSet,
  SafeApplicationSetProps,
} from '../../src';

/** Renders `{{.key}}` and `{{ .key }}` from an element, as the controller would for these simple templates. */
function render(template: string, element: Record<string, string>): string {
  return template.replace(/\{\{-?\s*\.(\w+)\s*-?\}\}/g, (_m, key) => element[key]);
}

/** Templates of the generated Applications' fields, and the elements that fill them. */
const templates = fc.record({
  applicationName: fc.constantFrom('{{.name}}', '{{.name}}-checkout', 'checkout-{{ .name }}', '{{.name}}-{{.region}}'),
  path: fc.constantFrom('deploy/{{.name}}', 'deploy/checkout', 'clusters/{{.region}}/{{.name}}', '{{.name}}'),
  destinationNamespace: fc.constantFrom('{{.namespace}}', 'checkout-{{.name}}', 'checkout', '{{.name}}'),
});
const element = fc.record({
  name: fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?$/),
  region: fc.stringMatching(/^[a-z]{2}(-[a-z]{2,8})?$/),
  namespace: dnsLabel,
  // Parameters no template reads, of any string value.
  extra: fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/), anyText(0, 12), { maxKeys: 2 }),
}).map(({ extra, ...known }): Record<string, string> => ({ ...Object.fromEntries(Object.entries(extra).filter(([k]) => !(k in known))), ...known }));

const noAction = (s: string | undefined) => s === undefined || !s.includes('{{');
const input = fc.record({
  name: dnsLabel,
  templates,
  elements: fc.array(element, { minLength: 1, maxLength: 4 }),
  project: subdomain.filter((p) => p !== 'default'),
  repoUrl: repoUrl.filter(noAction),
  targetRevision: targetRevision.filter(noAction),
  argoCdVersion,
  applicationNamespace: fc.option(dnsLabel, { nil: undefined }),
  retry,
  deletionPolicy,
  cluster: fc.oneof(
    fc.constant(undefined),
    fc.constant(ApplicationSetCluster.IN_CLUSTER),
    subdomain.map((h) => ApplicationSetCluster.fromServer(`https://${h}:6443`)),
    dnsLabel.map((n) => ApplicationSetCluster.fromName(n)),
  ),
  ignoreRules: resourceRules.filter((rules: IgnoreRule[]) => rules.every((r) => noAction(r.value) && noAction(r.reason))),
}).filter((i) => {
  // Every element must render the name and namespace to DNS labels, and the names must differ.
  const names = i.elements.map((e) => render(i.templates.applicationName, e));
  return names.every(isLabel) && new Set(names).size === names.length
    && i.elements.every((e) => isLabel(render(i.templates.destinationNamespace, e)));
});
type Input = typeof input extends fc.Arbitrary<infer T> ? T : never;

function propsOf(i: Input): SafeApplicationSetProps {
  return {
    name: i.name,
    generators: [ApplicationSetGenerator.list(i.elements)],
    ...i.templates,
    project: ArgoProject.fromName(i.project),
    repoUrl: i.repoUrl,
    targetRevision: i.targetRevision,
    argoCdVersion: i.argoCdVersion,
    applicationNamespace: i.applicationNamespace,
    retry: i.retry,
    deletionPolicy: i.deletionPolicy,
    destinationCluster: i.cluster,
    ignoreRules: i.ignoreRules,
  };
}

describe('SafeApplicationSet properties (list generator)', () => {
  test('for any props the constructor accepts: the set validates, every generated Application is hardened, and one can be suspended', () => {
    fc.assert(fc.property(input, (i) => {
      // GIVEN a fresh GitOpsApp with a SafeApplicationSet of arbitrary valid props in a chart of its own
      const build = () => {
        const gitops = new GitOpsApp({ outdir: 'dist' });
        new SafeApplicationSet(new Chart(gitops, 'fleet'), 'set', propsOf(i));
        return gitops;
      };
      // WHEN the tree is rendered THEN it passes every check (the 3.5 ApplicationSet CRD, and the template as an
      // Application of its own release, included)
      const { files, byKindName } = checkTree(build);
      expect(files.map((f) => f.path)).toEqual([`applications/${i.project}/ApplicationSet.${i.name}.k8s.yaml`, `runbooks/ApplicationSet.${i.name}.md`]);
      const spec = byKindName.get(`ApplicationSet/${i.name}`)!.spec;
      // THEN missing parameters stop the controller, deleting keeps what was deployed unless a cascade was asked for,
      // and one generated Application's automated block may be changed by hand (break-glass)
      expect([spec.goTemplate, spec.goTemplateOptions]).toEqual([true, ['missingkey=error']]);
      const sorted = i.elements.map((e) => Object.fromEntries(Object.keys(e).sort().map((k) => [k, e[k]])));
      expect(spec.generators).toEqual([{ list: { elements: sorted } }]);
      expect(spec.syncPolicy).toEqual({ applicationsSync: 'create-update', preserveResourcesOnDeletion: (i.deletionPolicy ?? DeletionPolicy.ORPHAN) === DeletionPolicy.ORPHAN });
      expect(spec.ignoreApplicationDifferences).toEqual([{ jsonPointers: ['/spec/syncPolicy/automated'] }]);
      // THEN the template carries the hardened policy of the release
      const t: Doc = spec.template;
      expect(t.metadata.name).toBe(i.templates.applicationName);
      const enabled = !['2.14', '3.0'].includes(releaseOf(i.argoCdVersion)); // the releases before automated.enabled
      expect(t.spec.syncPolicy.automated).toEqual({ prune: true, selfHeal: true, allowEmpty: false, ...(enabled ? { enabled: true } : {}) });
      expect(t.spec.syncPolicy.syncOptions).toEqual(['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true', ...(i.ignoreRules.length > 0 ? [RESPECT] : [])]);
      expect(t.spec.source).toEqual({ repoURL: i.repoUrl, targetRevision: i.targetRevision?.trim() ?? 'main', path: i.templates.path });
      expect(t.spec.project).toBe(i.project);
    }), runs(6101));
  });
});

// ---------------------------------------------------------------------------------------------------------
// Refusals

const base: SafeApplicationSetProps = {
  name: 'checkout',
  generators: [ApplicationSetGenerator.list([{ name: 'eu', namespace: 'checkout-eu' }, { name: 'us', namespace: 'checkout-us' }])],
  applicationName: '{{.name}}-checkout',
  project: ArgoProject.fromName('payments'),
  repoUrl: REPO,
  path: 'deploy/{{.name}}',
  destinationNamespace: '{{.namespace}}',
};
const make = (override: Partial<SafeApplicationSetProps>) => () => new SafeApplicationSet(new Chart(new GitOpsApp({ outdir: 'dist' }), 'fleet'), 'set', { ...base, ...override });

refusalProperties('SafeApplicationSet refusals', {
  'name': notLabel.map((name) => make({ name })),
  'applicationNamespace': notLabel.map((applicationNamespace) => make({ applicationNamespace })),
  'generators': fc.constantFrom([], undefined, [{}]).map((g) => make({ generators: g as unknown as ApplicationSetGenerator[] })),
  'applicationName (no parameter, a bad shape, a missing parameter, or a duplicate)': fc.oneof(
    dnsLabel,
    fc.constantFrom('{{.name}}_x', 'X-{{.name}}', '{{.missing}}', '{{.name', '{{}}', 'checkout', '{{.namespace}}_'),
  ).map((applicationName) => make({ applicationName })),
  'project': fc.constantFrom({ projectName: 'default' }, { projectName: '{{.name}}' }, { projectName: '' }).map((p) => make({ project: p as IArgoProject })),
  'repoUrl': fc.constantFrom('', 'https://git.acme.internal/{{.name}}.git', 'not a url').map((url) => make({ repoUrl: url })),
  'targetRevision': fc.constantFrom('', 'HEAD', 'head', '{{.name}}', 'a b').map((revision) => make({ targetRevision: revision })),
  'path': fc.constantFrom('', '/abs', '../up', 'a/../b', 'a b', '{{.missing}}').map((path) => make({ path })),
  'destinationNamespace': fc.oneof(notLabel.filter((n) => !n.includes('{{')), fc.constantFrom('{{.missing}}', 'X{{.name}}')).map((destinationNamespace) => make({ destinationNamespace })),
  'destinationCluster': fc.constantFrom({ server: 'https://x' }, {}).map((c) => make({ destinationCluster: c as ApplicationSetCluster })),
  'retry.limit': fc.integer({ min: 11, max: 100 }).map((limit) => make({ retry: { limit } })),
  'ApplicationSetGenerator.list elements': fc.constantFrom([], undefined).map((e) => () => ApplicationSetGenerator.list(e as [])),
  'ApplicationSetGenerator.list elements[0]': fc.oneof(
    fc.constant({}),
    fc.stringMatching(/^[^A-Za-z_]\w{0,5}$/).map((k) => ({ [k]: 'x' })),
    fc.constantFrom('a-b', 'a.b', 'a b', '').map((k) => ({ [k]: 'x' })),
  ).map((e) => () => ApplicationSetGenerator.list([e])),
  'ApplicationSetGenerator.list elements[0].name': fc.constantFrom(1, true, null, {}).map((v) => () => ApplicationSetGenerator.list([{ name: v as unknown as string }])),
}, 6200);
