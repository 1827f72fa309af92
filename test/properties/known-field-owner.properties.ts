import { ApiObject } from 'cdk8s';
import * as fc from 'fast-check';
import {
  anyText, argoCdVersion, checkTree, dnsLabel, Doc, newApp, notSubdomain, refusalProperties, runs, subdomain, uncompiledJq, useJq,
} from './support';
import { IgnoreRuleKind, IgnoreTarget, JqPath, KnownFieldOwner } from '../../src';

useJq();

const who = anyText(3, 20).filter((s) => s.trim().length >= 3);
const owner: fc.Arbitrary<KnownFieldOwner> = fc.oneof(
  subdomain.map((n) => KnownFieldOwner.horizontalPodAutoscaler(n)),
  subdomain.map((n) => KnownFieldOwner.kedaScaledObject(n)),
  subdomain.map((n) => KnownFieldOwner.argoRolloutsWorkloadRef(n)),
  fc.constant(KnownFieldOwner.certManagerCaInjector()),
  fc.constant(KnownFieldOwner.istioWebhooks()),
  fc.constant(KnownFieldOwner.linkerdWebhooks()),
  fc.tuple(anyText(0, 12), who).map(([c, w]) => KnownFieldOwner.injectedContainer(c, w)),
  fc.tuple(anyText(0, 12), who).map(([c, w]) => KnownFieldOwner.injectedInitContainer(c, w)),
  fc.record({
    name: who,
    jsonPointers: fc.option(fc.array(fc.array(anyText(0, 8), { minLength: 1, maxLength: 3 })
      .map((keys) => keys.map((k) => `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')), { maxLength: 2 }), { nil: undefined }),
    jqPaths: fc.option(fc.array(fc.array(anyText(1, 8), { minLength: 1, maxLength: 3 }).map((k) => JqPath.field(k)), { maxLength: 2 }), {
      nil: undefined,
    }),
  }).filter((p) => (p.jsonPointers ?? []).length + (p.jqPaths ?? []).length > 0).map((p) => KnownFieldOwner.custom(p)),
);

/** A minimal valid manifest of `group/Kind` (`*`: a ConfigMap), named `name`. */
function manifestOf(groupKind: string, name: string): any {
  const [group, kind] = groupKind === '*' ? ['', 'ConfigMap'] : groupKind.split('/');
  const apiVersion = group === '' ? 'v1' : `${group}/${group === 'argoproj.io' ? 'v1alpha1' : 'v1'}`;
  const pod = { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'registry.acme.internal/c:1' }], ...(kind === 'Job' ? { restartPolicy: 'Never' } : {}) } };
  const spec = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Rollout'].includes(kind) ? { selector: { matchLabels: { app: name } }, template: pod }
    : kind === 'Job' ? { template: pod } : undefined;
  return { apiVersion, kind, metadata: { name }, ...(spec ? { spec } : {}) };
}

const input = fc.record({
  appName: dnsLabel,
  version: argoCdVersion,
  uses: fc.array(fc.tuple(owner, fc.nat(), subdomain), { minLength: 1, maxLength: 3 }),
});

describe('KnownFieldOwner properties', () => {
  test('for any owner applied to any kind it writes: the exact rules for that one resource, valid objects, compiling jq', () => {
    fc.assert(fc.property(input, (i) => {
      // GIVEN a fresh app with one to three resources of kinds the owners write, each given to its owner
      const build = () => {
        const { gitops, app } = newApp(i.appName, i.version);
        i.uses.forEach(([o, pick, name], n) => {
          const obj = new ApiObject(app, `r${n}`, manifestOf(o.kinds[pick % o.kinds.length], `${name}-${n}`));
          app.addFieldOwner(IgnoreTarget.fromApiObject(obj), o);
        });
        return gitops;
      };
      // WHEN the tree is rendered THEN it passes every check
      const { gitops, docs, byKindName } = checkTree(build);
      const entries: Doc[] = byKindName.get(`Application/${i.appName}`)!.spec.ignoreDifferences;
      // THEN each resource has one entry, naming it, with every field its owner writes
      i.uses.forEach(([o], n) => {
        const t = IgnoreTarget.fromApiObject(gitops.node.findChild('app').node.findChild(`r${n}`));
        const entry = entries.filter((e) => e.kind === t.kind && e.name === t.name && (e.group ?? '') === t.group);
        expect(entry).toHaveLength(1);
        expect(entry[0].namespace).toBe(t.namespace);
        for (const rule of o.ignoreRulesFor(t)) {
          expect(entry[0][rule.kind === IgnoreRuleKind.JSON_POINTER ? 'jsonPointers' : 'jqPathExpressions']).toContain(rule.value);
        }
      });
      expect(uncompiledJq(docs)).toEqual([]);
    }), runs(2301));
  });
});

const short = fc.string({ maxLength: 4 }).filter((s) => s.trim().length < 3);
refusalProperties('KnownFieldOwner refusals', {
  'KnownFieldOwner.horizontalPodAutoscaler name': notSubdomain.map((n) => () => KnownFieldOwner.horizontalPodAutoscaler(n)),
  'KnownFieldOwner.kedaScaledObject name': notSubdomain.map((n) => () => KnownFieldOwner.kedaScaledObject(n)),
  'KnownFieldOwner.argoRolloutsWorkloadRef name': notSubdomain.map((n) => () => KnownFieldOwner.argoRolloutsWorkloadRef(n)),
  'KnownFieldOwner.injectedContainer injector': short.map((w) => () => KnownFieldOwner.injectedContainer('istio-proxy', w)),
  'KnownFieldOwner.injectedInitContainer injector': short.map((w) => () => KnownFieldOwner.injectedInitContainer('istio-init', w)),
  'KnownFieldOwner.custom name': short.map((name) => () => KnownFieldOwner.custom({ name, jsonPointers: ['/spec'] })),
  'KnownFieldOwner.custom jsonPointers': fc.oneof(fc.constantFrom('', 'spec', '/a~', '/a~2', 'a/b').map((p) => [p]), fc.constant([] as string[]))
    .map((jsonPointers) => () => KnownFieldOwner.custom({ name: 'the operator', jsonPointers })),
  'SafeApplication.addFieldOwner target (a kind the owner does not write)': fc.tuple(
    owner.filter((o) => !o.kinds.includes('*')),
    fc.constantFrom(['v1', 'ConfigMap', '/ConfigMap'], ['v1', 'Service', '/Service'], ['batch/v1', 'CronJob', 'batch/CronJob'], ['acme.internal/v1', 'Widget', 'acme.internal/Widget']),
  ).filter(([o, [, , groupKind]]) => !o.kinds.includes(groupKind)).map(([o, [apiVersion, kind]]) => () => {
    const { app } = newApp('app');
    app.addFieldOwner(IgnoreTarget.fromApiObject(new ApiObject(app, 'r', { apiVersion, kind, metadata: { name: 'r' } })), o);
  }),
}, 2600);
