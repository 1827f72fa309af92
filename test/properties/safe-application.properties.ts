import * as path from 'path';
import { ApiObject, Duration } from 'cdk8s';
import * as fc from 'fast-check';
import { parse } from 'yaml';
import {
  anyText, argoCdVersion, checkTree, deletionPolicy, destinationCluster, dnsLabel, Doc, expectNamesProp, isLabel, refusal, releaseOf,
  repoUrl, resourceRules, RESPECT, retry, ruleOf, RuleOf, runs, subdomain, targetRevision, uncompiledJq, useJq,
} from './support';
import {
  ArgoProject, DeletionPolicy, DestinationCluster, ExternalSource, GitOpsApp, IArgoProject, IgnoreRule, IgnoreRuleKind, IgnoreTarget,
  SafeApplication, SafeApplicationProps,
} from '../../src';

/** A Go duration as Argo CD writes it, from whole seconds: 90 is `1m30s`. */
function goDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}` || '0s';
}

const FINALIZERS: Record<DeletionPolicy, string[] | undefined> = {
  [DeletionPolicy.ORPHAN]: undefined,
  [DeletionPolicy.CASCADE_FOREGROUND]: ['resources-finalizer.argocd.argoproj.io'],
  [DeletionPolicy.CASCADE_BACKGROUND]: ['resources-finalizer.argocd.argoproj.io/background'],
};

const LIST: Record<IgnoreRuleKind, string> = {
  [IgnoreRuleKind.JSON_POINTER]: 'jsonPointers',
  [IgnoreRuleKind.JQ_PATH_EXPRESSION]: 'jqPathExpressions',
  [IgnoreRuleKind.MANAGED_FIELDS_MANAGER]: 'managedFieldsManagers',
};

/** A calendar date in the future, as a break-glass expiry (a past one fails the synth, by SA204). */
const futureDate = fc.date({ min: new Date('2100-01-01T00:00:00Z'), max: new Date('2999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** Where the app's manifests come from: its own workloads, a Git directory, or a Helm chart. */
type Source = { kind: 'workloads'; configMap: string; wave?: number; workloadRules: RuleOf[] }
| { kind: 'git'; path: string }
| { kind: 'helm'; chart: string; version: string };

const source: fc.Arbitrary<Source> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('workloads' as const),
      configMap: subdomain,
      wave: fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: undefined }),
      workloadRules: fc.array(ruleOf, { maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('git' as const),
      path: fc.array(fc.stringMatching(/^[A-Za-z0-9._ -]{1,10}$/).filter((s) => s !== '..' && s.trim() !== ''), { minLength: 1, maxLength: 4 })
        .chain((segments) => fc.constantFrom('', '/', '//').map((tail) => `${segments.join('/')}${tail}`)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('helm' as const),
      chart: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,20}$/),
      version: fc.stringMatching(/^v?\d{1,3}(\.\d{1,3}){0,2}(-[0-9A-Za-z.-]{1,8})?(\+[0-9A-Za-z.-]{1,8})?$/),
    }),
  },
);

const appInput = fc.record({
  name: dnsLabel,
  project: subdomain.filter((p) => p !== 'default'),
  repoUrl,
  destinationNamespace: dnsLabel,
  applicationNamespace: fc.option(dnsLabel, { nil: undefined }),
  targetRevision,
  retry,
  deletionPolicy,
  argoCdVersion,
  destinationCluster,
  breakGlass: fc.option(fc.record({
    reason: anyText(10, 60).filter((s) => s.trim().length >= 10),
    expires: futureDate,
    ticket: fc.option(anyText(0, 20), { nil: undefined }),
  }), { nil: undefined }),
  ignoreRules: resourceRules,
  source,
});
type AppInput = typeof appInput extends fc.Arbitrary<infer T> ? T : never;

function propsOf(input: AppInput): SafeApplicationProps {
  const s = input.source;
  return {
    name: input.name,
    project: ArgoProject.fromName(input.project),
    repoUrl: input.repoUrl,
    destinationNamespace: input.destinationNamespace,
    applicationNamespace: input.applicationNamespace,
    targetRevision: s.kind === 'helm' ? s.version : input.targetRevision,
    retry: input.retry,
    deletionPolicy: input.deletionPolicy,
    argoCdVersion: input.argoCdVersion,
    destinationCluster: input.destinationCluster,
    breakGlass: input.breakGlass,
    ignoreRules: input.ignoreRules,
    externalSource: s.kind === 'git' ? ExternalSource.gitPath(s.path) : s.kind === 'helm' ? ExternalSource.helmChart(s.chart) : undefined,
  };
}

/** A fresh GitOpsApp holding one SafeApplication built from `input`, and the rules it was given. */
function build(input: AppInput): { gitops: GitOpsApp; rules: IgnoreRule[] } {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  const app = new SafeApplication(gitops, 'app', propsOf(input));
  const rules = [...input.ignoreRules];
  const s = input.source;
  if (s.kind === 'workloads') {
    const cm = new ApiObject(app, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: s.configMap }, data: { key: 'value' } });
    for (const makeRule of s.workloadRules) {
      const rule = makeRule(IgnoreTarget.fromApiObject(cm));
      app.addIgnoreRule(rule);
      rules.push(rule);
    }
    if (s.wave !== undefined) {
      app.addToSyncWave(cm, s.wave);
    }
  }
  return { gitops, rules };
}

/** The ignoreDifferences the rules must render: one entry per resource, each field once, in order. */
function expectedEntries(rules: IgnoreRule[]): Doc[] {
  const entries = new Map<string, Doc>();
  for (const r of rules) {
    const t = r.target;
    const key = JSON.stringify([t.group, t.kind, t.namespace ?? '', t.name]);
    const entry = entries.get(key)
      ?? { ...(t.group ? { group: t.group } : {}), kind: t.kind, name: t.name, ...(t.namespace ? { namespace: t.namespace } : {}) };
    entries.set(key, entry);
    const list: string[] = entry[LIST[r.kind]] ?? (entry[LIST[r.kind]] = []);
    if (!list.includes(r.value)) {
      list.push(r.value);
    }
  }
  return [...entries.values()];
}

useJq();

describe('SafeApplication properties (valid props)', () => {
  test('for any props the constructor accepts, the tree passes every rule, validates, is deterministic and keeps the invariants', () => {
    fc.assert(fc.property(appInput, (input) => {
      // GIVEN a fresh GitOpsApp with one SafeApplication built from arbitrary valid props
      // WHEN it is rendered (twice, and once more from a second app built from the same props)
      const { byKindName } = checkTree(() => build(input).gitops);
      const { rules } = build(input);
      const application = byKindName.get(`Application/${input.name}`)!;
      const spec = application.spec;
      // THEN the Application says exactly what the props asked for, hardened
      expect(application.metadata.namespace).toBe(input.applicationNamespace ?? 'argocd');
      expect(application.metadata.finalizers).toEqual(FINALIZERS[input.deletionPolicy ?? DeletionPolicy.ORPHAN]);
      expect(spec.project).toBe(input.project);
      expect(spec.source.repoURL).toBe(input.repoUrl);
      const s = input.source;
      const revision = s.kind === 'helm' ? s.version : input.targetRevision?.trim() ?? 'main';
      expect(spec.source.targetRevision).toBe(revision);
      expect(spec.source.path).toBe(s.kind === 'workloads' ? `dist/workloads/${input.name}` : s.kind === 'git' ? s.path.replace(/\/+$/, '') : undefined);
      expect(spec.source.chart).toBe(s.kind === 'helm' ? s.chart : undefined);
      const cluster = input.destinationCluster ?? DestinationCluster.IN_CLUSTER;
      const server = cluster.server ? { server: cluster.server } : { name: cluster.name };
      expect(spec.destination).toEqual({ namespace: input.destinationNamespace, ...server });

      const enabled = !['2.14', '3.0'].includes(releaseOf(input.argoCdVersion)); // the releases before automated.enabled
      expect(spec.syncPolicy.automated).toEqual({ prune: true, selfHeal: true, allowEmpty: false, ...(enabled ? { enabled: true } : {}) });
      const waves = s.kind === 'workloads' && s.wave !== undefined;
      expect(spec.syncPolicy.syncOptions).toEqual(['CreateNamespace=true', 'PruneLast=true', ...(waves ? [] : ['ApplyOutOfSyncOnly=true']), ...(rules.length > 0 ? [RESPECT] : [])]);
      const r = input.retry ?? {};
      expect(spec.syncPolicy.retry).toEqual({
        limit: r.limit ?? 5,
        backoff: {
          duration: goDuration(r.backoffDuration?.toSeconds() ?? 5),
          factor: r.backoffFactor ?? 2,
          maxDuration: goDuration(r.backoffMaxDuration?.toSeconds() ?? 180),
        },
      });

      // THEN every rule is there, scoped to its one resource, and every jq path compiles as Argo CD runs it
      expect(spec.ignoreDifferences).toEqual(rules.length > 0 ? expectedEntries(rules) : undefined);
      expect(uncompiledJq([application])).toEqual([]);
      const annotations = application.metadata.annotations ?? {};
      expect('safe-argocd/ignore-reasons' in annotations).toBe(rules.length > 0);
      expect(annotations['argocd.argoproj.io/skip-reconcile']).toBe(input.breakGlass ? 'true' : undefined);
    }), runs(1101));
  });

  test('for any IArgoProject the constructor accepts, the Application file stays in one project folder of applications/', () => {
    // IArgoProject is an interface: any object with a projectName type-checks, not only ArgoProject.fromName's.
    fc.assert(fc.property(anyText(1, 12).filter((p) => p !== 'default'), (projectName) => {
      // GIVEN a project implemented by hand
      const project: IArgoProject = { projectName };
      const gitops = new GitOpsApp({ outdir: 'dist' });
      let app: SafeApplication;
      try {
        app = new SafeApplication(gitops, 'app', { name: 'checkout', project, repoUrl: 'https://git.acme.internal/gitops.git', destinationNamespace: 'payments' });
      } catch (e) {
        // WHEN the constructor refuses it THEN it names the prop
        expectNamesProp((e as Error).message, 'project');
        return;
      }
      new ApiObject(app, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
      // WHEN it accepts it THEN the Application file is written to applications/<one folder>/, as the README's tree says
      const file = gitops.renderFiles().find((f) => f.path.endsWith('Application.checkout.k8s.yaml'))!;
      expect(path.posix.normalize(file.path)).toBe(file.path);
      expect(file.path.split('/')).toEqual(['applications', expect.any(String), 'Application.checkout.k8s.yaml']);
      expect(['', '.', '..']).not.toContain(file.path.split('/')[1]);
    }), runs(1102));
  });
});

describe('SafeApplication YAML output', () => {
  test('for any name, namespace and revision the constructor accepts, YAML 1.1, YAML 1.2 and Go readers see the value given', () => {
    // Values that look like numbers, booleans or null to some YAML reader; Argo CD and kubectl read with Go's
    // sigs.k8s.io/yaml, whose integers take Go's 0o, 0b and 0x prefixes (strconv.ParseInt base 0).
    const tricky = fc.oneof(
      fc.constantFrom('0o17', '0o7', '1e3', '0x1f', '010', 'y', 'n', 'yes', 'on', 'off', 'null', 'true', '1234e56', '0b1', '1-2', '12e3'),
      fc.stringMatching(/^0o[0-7]{1,6}$/),
      fc.stringMatching(/^[0-9]{1,4}e[0-9]{1,2}$/),
      dnsLabel,
    );
    fc.assert(fc.property(tricky, tricky, fc.oneof(tricky, fc.constantFrom('0O17', '+0o1', '0o1_7')), (name, namespace, revision) => {
      // GIVEN an app whose name, namespace and revision look like something else than a string
      const gitops = new GitOpsApp({ outdir: 'dist' });
      const app = new SafeApplication(gitops, 'app', { name, project: ArgoProject.fromName('payments'), repoUrl: 'https://git.acme.internal/gitops.git', destinationNamespace: namespace, targetRevision: revision });
      new ApiObject(app, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } });
      // WHEN the Application is written
      const text = gitops.renderFiles().find((f) => f.path.endsWith(`Application.${name}.k8s.yaml`))!.content;
      // THEN every reader gets the strings back
      for (const version of ['1.1', '1.2'] as const) {
        const doc = parse(text, { version });
        expect([doc.metadata.name, doc.spec.destination.namespace, doc.spec.source.targetRevision]).toEqual([name, namespace, revision]);
      }
    }), runs(1103));
  });
});

// ---------------------------------------------------------------------------------------------------------
// Refusals: one bad prop at a time, the others valid.

const notLabel = fc.oneof(
  fc.string({ maxLength: 70 }),
  fc.constantFrom('', '-a', 'a-', 'A', 'a_b', 'a.b', 'a b', ' a', 'a'.repeat(64), 'ä', '*', 'default-', '..'),
  fc.stringMatching(/^[a-z0-9][-a-z0-9]{62,70}[a-z0-9]$/),
).filter((s) => !isLabel(s));

const badRevision = fc.oneof(
  fc.constantFrom('', ' ', '\t', 'HEAD', 'head', ' HEAD ', 'Head', 'main branch', 'a\tb', 'a\nb'),
  fc.tuple(fc.stringMatching(/^\S{1,8}$/), fc.constantFrom(' ', '\t', '\n', '\u00a0'), fc.stringMatching(/^\S{1,8}$/)).map(([a, ws, b]) => `${a}${ws}${b}`),
);
const badUrl = fc.oneof(
  fc.constantFrom('', 'git.acme.internal/repo.git', 'ftp://x/y', 'https://', 'https://a b', 'file:///etc', 'https:/x', '@host:path', 'user@:path'),
  fc.string({ maxLength: 30 }).filter((s) => !/^(https?|ssh|git|oci):\/\/\S+$/.test(s) && !/^[\w.-]+@[\w.-]+:\S+$/.test(s)),
);
const badCount = (min: number, max: number) => fc.oneof(
  fc.integer({ min: -100, max: min - 1 }), fc.integer({ min: max + 1, max: 10000 }),
  fc.double({ min: min - 1, max: max + 1, noNaN: true }).filter((x) => !Number.isInteger(x)),
  fc.constantFrom(NaN, Infinity, -Infinity),
);

/** Each prop with values the constructor must refuse; the other props stay as the valid arbitrary made them. */
const BAD: Record<string, fc.Arbitrary<Partial<SafeApplicationProps>>> = {
  'name': notLabel.map((name) => ({ name })),
  'project': fc.constantFrom({ projectName: 'default' }, { projectName: '' }, undefined).map((project) => ({ project: project as IArgoProject })),
  'repoUrl': badUrl.map((url) => ({ repoUrl: url })),
  'destinationNamespace': notLabel.map((ns) => ({ destinationNamespace: ns })),
  'applicationNamespace': notLabel.map((ns) => ({ applicationNamespace: ns })),
  'targetRevision': badRevision.map((rev) => ({ targetRevision: rev })),
  'retry.limit': badCount(1, 10).map((limit) => ({ retry: { limit } })),
  'retry.backoffFactor': badCount(1, 10).map((backoffFactor) => ({ retry: { backoffFactor } })),
  'retry.backoffDuration': fc.oneof(
    fc.constantFrom(0, 301, 86400).map((seconds) => Duration.seconds(seconds)),
    fc.integer({ min: 301, max: 100000 }).map((seconds) => Duration.seconds(seconds)),
    fc.integer({ min: 1, max: 300000 }).filter((ms) => ms % 1000 !== 0).map((ms) => Duration.millis(ms)),
  ).map((backoffDuration) => ({ retry: { backoffDuration, backoffMaxDuration: Duration.hours(1) } })),
  'retry.backoffMaxDuration': fc.oneof(
    fc.integer({ min: 3601, max: 100000 }).map((s) => ({ retry: { backoffMaxDuration: Duration.seconds(s) } })),
    fc.integer({ min: 2, max: 300 }).chain((b) => fc.integer({ min: 0, max: b - 1 })
      .map((m) => ({ retry: { backoffDuration: Duration.seconds(b), backoffMaxDuration: Duration.seconds(m) } }))),
    fc.integer({ min: 181, max: 300 }).map((b) => ({ retry: { backoffDuration: Duration.seconds(b) } })),
  ),
  'breakGlass.reason': fc.oneof(fc.string({ maxLength: 9 }), fc.constantFrom('          ', ' short \n ')).map((reason) => ({ breakGlass: { reason, expires: '2100-01-01' } })),
  'breakGlass.expires': fc.oneof(
    fc.constantFrom('', '2100-02-30', '2100-13-01', '2100-1-1', '01.01.2100', '2100-01-01T00:00:00Z', 'tomorrow', '2100/01/01', '2101-02-29'),
    fc.string({ maxLength: 12 }).filter((s) => !/^\d{4}-\d{2}-\d{2}$/.test(s)),
  ).map((expires) => ({ breakGlass: { reason: 'the database is being restored by hand', expires } })),
  // A plain object type-checks as a DestinationCluster (no cast below): its server or name reaches Git unchecked.
  'destinationCluster': fc.oneof(
    badUrl.map((server): DestinationCluster => ({ server })),
    fc.constantFrom<DestinationCluster>({ name: '*' }, { name: '' }, {}, { server: 'https://a', name: 'b' }),
  ).map((cluster) => ({ destinationCluster: cluster })),
  // A plain object type-checks as an IgnoreRule too (public readonly fields only): refused, but the error says "rule".
  'ignoreRules': fc.record({ group: fc.constantFrom('*', 'apps'), name: fc.constantFrom('', 'web') }).map(({ group, name }) => {
    const rule: IgnoreRule = { target: { group, kind: '*', name, key: '' }, kind: IgnoreRuleKind.JSON_POINTER, value: '/spec', reason: 'r', needsJqCompile: false };
    return { ignoreRules: [rule] };
  }),
};

describe('SafeApplication properties (refused props)', () => {
  test.each(Object.keys(BAD))('fails when %s is invalid: the error has a SAFE code and names the prop', (prop) => {
    fc.assert(fc.property(appInput, BAD[prop], (input, bad) => {
      // GIVEN valid props but for one
      const props = { ...propsOf({ ...input, source: { kind: 'workloads', configMap: 'x', workloadRules: [] } }), ...bad };
      // WHEN the SafeApplication is constructed THEN it refuses, naming that prop
      const message = refusal(() => new SafeApplication(new GitOpsApp({ outdir: 'dist' }), 'app', props));
      expectNamesProp(message, prop);
    }), runs(1200 + Object.keys(BAD).indexOf(prop)));
  });
});
