import { ApiObject, Duration } from 'cdk8s';
import * as fc from 'fast-check';
import { Jq, loadJq } from 'jq-wasm';
import { CORE_SCHEMA, load } from 'js-yaml';
import {
  ArgoCdVersion, ArgoProject, Autoscaler, DeletionPolicy, DestinationCluster, GitOpsApp, HpaManagedDeployment, HpaOptions, IgnoreRule,
  IgnoreTarget, JqPath, RenderedFile, RetryOptions, SafeApplication, SafeApplicationSet,
} from '../../src';
import { apiGroupMeant, isClusterScoped } from '../../src/core/kinds';
import { crdErrors } from '../support/crd';
import { esoErrors } from '../support/eso-schema';
import { kubeErrors } from '../support/kube';
import { rbacErrors } from '../support/rbac';

/**
 * Shared arbitraries and checks of the property tests. Every property runs {@link RUNS} times with its own
 * fixed seed, so CI explores the same inputs every time and a failure names a seed that reproduces it.
 *
 * `npm run mutation` alone lowers the count (SAFE_ARGOCD_PROPERTY_RUNS, see MUTATION.md): it runs the tests
 * once per mutant. It may never raise CI's 1,000 runs to fewer: anything but a positive integer is refused.
 */
export const RUNS = propertyRuns(process.env.SAFE_ARGOCD_PROPERTY_RUNS);

function propertyRuns(value: string | undefined): number {
  if (value === undefined) return 1000;
  if (!/^[1-9][0-9]*$/.test(value)) {
    throw new Error(`SAFE_ARGOCD_PROPERTY_RUNS must be a positive integer, got '${value}'`);
  }
  return Number(value);
}

/** fast-check parameters: {@link RUNS} runs (1,000 in CI) and a fixed seed. */
export function runs(seed: number): fc.Parameters<unknown> {
  return { numRuns: RUNS, seed };
}

export const HOOK = 'argocd.argoproj.io/hook';
export const SYNC_WAVE = 'argocd.argoproj.io/sync-wave';
export const RESPECT = 'RespectIgnoreDifferences=true';
export const REPO = 'https://git.acme.internal/platform/gitops.git';

// ---------------------------------------------------------------------------------------------------------
// Names, independent of the library's own predicates.

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** An RFC 1123 label, as Kubernetes checks namespace names. */
export function isLabel(s: unknown): boolean {
  return typeof s === 'string' && s.length <= 63 && LABEL.test(s);
}
/** An RFC 1123 subdomain, as Kubernetes checks most object names. */
export function isSubdomain(s: unknown): boolean {
  return typeof s === 'string' && s.length <= 253 && s.split('.').every((p) => p.length <= 63 && LABEL.test(p));
}

/**
 * Whether a plain scalar is a YAML 1.2 (and Go) octal integer such as `0o17`, which cdk8s's YAML 1.1 writer leaves
 * unquoted. The valid-props properties leave such values out, so that they explore everything else; the property
 * "SafeApplication YAML output" in safe-application.properties.ts covers them.
 */
export function isYamlOctal(s: string): boolean {
  return /^[-+]?0[oO][0-7_]+$/.test(s.trim());
}

/** DNS-1123 labels, biased to short ones, with the 63-character limit reached now and then. */
export const dnsLabel: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9][-a-z0-9]{61}[a-z0-9]$/) },
).filter((s) => !isYamlOctal(s));

/** DNS-1123 subdomains. */
export const subdomain: fc.Arbitrary<string> = fc.array(fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,12}[a-z0-9])?$/), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join('.')).filter((s) => !isYamlOctal(s));

/** Any well-formed Unicode text (no lone surrogates), including control characters and newlines. */
export const anyText = (min = 0, max = 20): fc.Arbitrary<string> => fc.oneof(
  fc.string({ unit: 'grapheme', minLength: min, maxLength: max }),
  fc.string({ unit: 'binary-ascii', minLength: min, maxLength: max }),
).filter((s) => !isYamlOctal(s));

/** A reason an IgnoreRule accepts: at least 3 characters once trimmed. */
export const reason: fc.Arbitrary<string> = anyText(3, 40).filter((s) => s.trim().length >= 3);

/** Repository URLs in every form Argo CD reads, realistic ones and anything else the check accepts. */
export const repoUrl: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.constantFrom('https', 'http'), subdomain, fc.array(dnsLabel, { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([scheme, host, path, git]) => `${scheme}://${host}/${path.join('/')}${git ? '.git' : ''}`),
  fc.tuple(subdomain, dnsLabel, dnsLabel).map(([host, org, repo]) => `git@${host}:${org}/${repo}.git`),
  fc.tuple(subdomain, fc.integer({ min: 1, max: 65535 }), dnsLabel).map(([host, port, repo]) => `ssh://git@${host}:${port}/${repo}.git`),
  fc.tuple(subdomain, dnsLabel).map(([host, repo]) => `oci://${host}/charts/${repo}`),
  fc.stringMatching(/^(https?|ssh|git|oci):\/\/\S{1,30}$/),
  fc.stringMatching(/^[\w.-]{1,10}@[\w.-]{1,10}:\S{1,20}$/),
);

/** A targetRevision the constructors accept: a branch, tag or commit, or any word without inner whitespace. */
export const targetRevision: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom('main', 'master', 'release/1.2', 'v1.42.0', 'refs/tags/v2', 'yes', 'no', 'on', 'off', 'null', '1.0', '0x1F', '1_000', '010', '~', '1e3', '12:30', '1234e56', '.inf'),
  fc.stringMatching(/^[0-9a-f]{40}$/),
  fc.stringMatching(/^[0-9a-f]{7,12}$/),
  fc.tuple(fc.constantFrom('', ' ', '\t'), fc.stringMatching(/^[^\s]{1,30}$/), fc.constantFrom('', ' ', '\n'))
    .filter(([, word]) => word.toUpperCase() !== 'HEAD' && !isYamlOctal(word))
    .map(([a, word, b]) => `${a}${word}${b}`),
);

/** A Duration of exactly `seconds`, written in one of the forms users write. */
export function durationOf(seconds: number): fc.Arbitrary<Duration> {
  const forms: fc.Arbitrary<Duration>[] = [fc.constant(Duration.seconds(seconds)), fc.constant(Duration.millis(seconds * 1000))];
  if (seconds % 60 === 0) {
    forms.push(fc.constant(Duration.minutes(seconds / 60)));
  }
  if (seconds % 3600 === 0) {
    forms.push(fc.constant(Duration.hours(seconds / 3600)));
  }
  if (seconds % 86400 === 0) {
    forms.push(fc.constant(Duration.days(seconds / 86400)));
  }
  return fc.oneof(...forms);
}

/** A Duration from `min` to `max` seconds, the bounds themselves included often. */
export function durationBetween(min: number, max: number): fc.Arbitrary<{ seconds: number; duration: Duration }> {
  const minutes = fc.integer({ min: Math.ceil(min / 60), max: Math.floor(max / 60) }).map((m) => m * 60);
  return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }), minutes)
    .filter((s) => s >= min && s <= max)
    .chain((seconds) => durationOf(seconds).map((duration) => ({ seconds, duration })));
}

/** Retry options within the documented bounds, each left out now and then. */
export const retry: fc.Arbitrary<RetryOptions | undefined> = fc.option(
  fc.record({
    limit: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
    backoffFactor: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
    backoff: fc.option(durationBetween(1, 300), { nil: undefined }),
  }).chain(({ limit, backoffFactor, backoff }) => {
    const base = backoff?.seconds ?? 5;
    // The default maximum (3m) must not be shorter than the backoff, so a longer backoff needs its own maximum.
    const max = base <= 180 ? fc.option(durationBetween(base, 3600), { nil: undefined }) : durationBetween(base, 3600);
    return max.map((m) => ({ limit, backoffFactor, backoffDuration: backoff?.duration, backoffMaxDuration: m?.duration }));
  }),
  { nil: undefined },
);

export const deletionPolicy = fc.option(fc.constantFrom(...Object.values(DeletionPolicy)), { nil: undefined });

/**
 * Every supported release, as a constant or through `ArgoCdVersion.of` in the spellings it accepts (a later 3.x, such
 * as 3.6, renders as the newest known release).
 */
export const argoCdVersion: fc.Arbitrary<ArgoCdVersion | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom(...ArgoCdVersion.all()),
  fc.constantFrom('2.14', 'v2.14.21', '2.14.x', '3.0', 'v3.0.23', '3.1', '3.1.16', 'v3.2.1', '3.3.x', '3.4', '3.4.7', 'v3.5', '3.5.1', ' 3.5 ', '3.6')
    .map((v) => ArgoCdVersion.of(v)),
);

/** The release an optional `argoCdVersion` prop renders for. */
export function releaseOf(v: ArgoCdVersion | undefined): string {
  return (v ?? ArgoCdVersion.LATEST).version;
}

export const destinationCluster: fc.Arbitrary<DestinationCluster | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constant(DestinationCluster.IN_CLUSTER),
  fc.tuple(fc.constantFrom('https', 'http'), subdomain, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }))
    .map(([s, host, port]) => DestinationCluster.fromServer(`${s}://${host}${port ? `:${port}` : ''}`)),
  fc.stringMatching(/^https?:\/\/\S{1,30}$/).map((url) => DestinationCluster.fromServer(url)),
  dnsLabel.map((name) => DestinationCluster.fromName(name)),
);

// ---------------------------------------------------------------------------------------------------------
// Ignore rules.

const CORE_KINDS = ['ConfigMap', 'Service', 'ServiceAccount', 'Namespace', 'PersistentVolume', 'Secret'];
const GROUP_KINDS: [string, string][] = [
  ['apps', 'Deployment'], ['apps', 'StatefulSet'], ['batch', 'Job'], ['autoscaling', 'HorizontalPodAutoscaler'],
  ['admissionregistration.k8s.io', 'MutatingWebhookConfiguration'], ['apiextensions.k8s.io', 'CustomResourceDefinition'],
  ['rbac.authorization.k8s.io', 'ClusterRole'], ['argoproj.io', 'Application'], ['acme.internal', 'Widget'],
];

/** Coordinates of one concrete resource: known kinds (namespaced and cluster-scoped) and arbitrary ones. */
export const coordinates = fc.record({
  gk: fc.oneof(
    fc.constantFrom(...CORE_KINDS).map((kind) => ['', kind] as [string, string]),
    fc.constantFrom(...GROUP_KINDS),
    // Any group the API server could name (not "core" or "v1", which IgnoreTarget refuses: Argo CD matches them with nothing).
    fc.tuple(fc.stringMatching(/^[a-z0-9.-]{0,20}$/), fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,20}$/)).filter(([group]) => apiGroupMeant(group) === undefined),
  ),
  name: subdomain,
  namespace: fc.option(dnsLabel, { nil: undefined }),
  omitCoreGroup: fc.boolean(),
}).map(({ gk: [group, kind], name, namespace, omitCoreGroup }) => ({
  group: group === '' && omitCoreGroup ? undefined : group,
  kind,
  name,
  namespace: isClusterScoped(group, kind) ? undefined : namespace,
}));

/** A key of an object: identifiers, and anything else (escaping is the library's job). */
export const anyKey: fc.Arbitrary<string> = fc.oneof(
  fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/),
  fc.constantFrom('a/b', 'a~b', '~1', '"', '\\', 'x.y', 'app.kubernetes.io/name', '$x', ' ', '\n', '[]', '}'),
  anyText(1, 10),
);
const keys = fc.array(anyKey, { minLength: 1, maxLength: 4 });

export const jqPath: fc.Arbitrary<JqPath> = fc.oneof(
  keys.map((k) => JqPath.field(k)),
  fc.tuple(keys, anyKey, anyText(0, 10), fc.option(keys, { nil: undefined })).map(([l, k, v, i]) => JqPath.listItem(l, k, v, i)),
  fc.tuple(keys, keys).map(([l, i]) => JqPath.listItemsField(l, i)),
  fc.tuple(anyText(0, 10), fc.option(keys, { nil: undefined })).map(([c, i]) => JqPath.podTemplateContainer(c, i)),
  fc.tuple(anyText(0, 10), fc.option(keys, { nil: undefined })).map(([c, i]) => JqPath.podTemplateInitContainer(c, i)),
);

/** How a rule is built, for a target known only once the app exists. */
export type RuleOf = (target: IgnoreTarget) => IgnoreRule;

/** Every IgnoreRule factory but `rawJq` (which compiles in a jq child process per synth, too slow for 1000 runs). */
export const ruleOf: fc.Arbitrary<RuleOf> = fc.oneof(
  fc.tuple(keys, reason).map(([k, r]): RuleOf => (t) => IgnoreRule.jsonPointer(t, k.map((x) => `/${x.replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''), r)),
  fc.tuple(keys, reason).map(([k, r]): RuleOf => (t) => IgnoreRule.jsonPointerFromKeys(t, k, r)),
  fc.tuple(jqPath, reason).map(([p, r]): RuleOf => (t) => IgnoreRule.jq(t, p, r)),
  fc.tuple(anyText(1, 20).filter((m) => m.trim() !== '' && !m.includes('*')), reason).map(([m, r]): RuleOf => (t) => IgnoreRule.managedFieldsManager(t, m, r)),
);

/** Rules on resources this synth does not render. */
export const resourceRules: fc.Arbitrary<IgnoreRule[]> = fc.array(
  fc.tuple(coordinates, ruleOf).map(([c, rule]) => rule(IgnoreTarget.resource(c))),
  { maxLength: 4 },
);

// ---------------------------------------------------------------------------------------------------------
// Checks of a whole rendered tree.

/** A manifest parsed from a rendered file. */
export type Doc = Record<string, any>;

/** JSON with keys sorted, so that two objects compare by content only. */
export function canonical(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      return v.map(sort);
    }
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]));
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

/** The Argo CD release every Application and ApplicationSet of the tree is rendered for, by object name. */
function releases(gitops: GitOpsApp): { applications: Map<string, string>; sets: Map<string, string> } {
  const applications = new Map<string, string>();
  const sets = new Map<string, string>();
  for (const c of gitops.node.findAll()) {
    if (SafeApplication.isSafeApplication(c)) {
      applications.set(c.applicationName, c.argoCdVersion.version);
    } else if (c instanceof SafeApplicationSet) {
      sets.set(c.applicationSetName, c.argoCdVersion.version);
    }
  }
  return { applications, sets };
}

const NO_SCHEMA_HELPER = new Set(['ConfigMap', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Rollout', 'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration', 'CustomResourceDefinition', 'APIService', 'ServiceAccount']);

/** The schema errors of one rendered manifest, against the tightened CRDs or the Kubernetes schemas. */
function schemaErrors(doc: Doc, rel: ReturnType<typeof releases>): string[] {
  const where = `${doc.kind} ${doc.metadata?.name ?? doc.metadata?.generateName}`;
  const tag = (errors: string[], schema: string) => errors.map((e) => `${where} against ${schema}: ${e}`);
  switch (doc.kind) {
    case 'Application': {
      const release = rel.applications.get(doc.metadata.name);
      if (!release) {
        throw new Error(`no SafeApplication renders ${where}`);
      }
      return tag(crdErrors('application', release, doc), `the ${release} Application CRD`);
    }
    case 'AppProject':
      // An AppProject has no release of its own: it must suit every supported one.
      return ArgoCdVersion.all().flatMap((v) => tag(crdErrors('appproject', v.version, doc), `the ${v.version} AppProject CRD`));
    case 'ApplicationSet': {
      const release = rel.sets.get(doc.metadata.name);
      if (!release) {
        throw new Error(`no SafeApplicationSet renders ${where}`);
      }
      // Only the 3.5 ApplicationSet CRD is at hand; the template is also checked as an Application of its release.
      const asApplication = { apiVersion: doc.apiVersion, kind: 'Application', metadata: { ...doc.spec.template.metadata, namespace: doc.metadata.namespace }, spec: doc.spec.template.spec };
      return [...tag(crdErrors('applicationset', '3.5', doc), 'the 3.5 ApplicationSet CRD'),
        ...tag(crdErrors('application', release, asApplication), `the ${release} Application CRD (template)`)];
    }
    case 'Deployment': case 'HorizontalPodAutoscaler': case 'Job': case 'Service':
      return tag(kubeErrors(doc), 'the Kubernetes schema');
    case 'Role': case 'RoleBinding':
      return tag(rbacErrors(doc), 'the Kubernetes schema');
    case 'ExternalSecret': case 'SecretStore':
      return tag(esoErrors(doc), 'the ESO schema');
    default:
      if (!NO_SCHEMA_HELPER.has(doc.kind) && !(doc.apiVersion === 'acme.internal/v1')) {
        throw new Error(`schemaErrors: the property rendered ${where}, which no check covers`);
      }
      return [];
  }
}

const GLOB = /[*?[\]{}]/;

/** How an Application spec breaks the guarantees of the README's table; empty when it keeps them. */
function applicationViolations(where: string, spec: Doc): string[] {
  const out: string[] = [];
  const entries: any[] = spec.ignoreDifferences ?? [];
  entries.forEach((e, i) => {
    if (typeof e.kind !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(e.kind)) {
      out.push(`${where}: ignoreDifferences[${i}] has no concrete kind: ${JSON.stringify(e.kind)}`);
    }
    if (e.group !== undefined && (typeof e.group !== 'string' || e.group === '' || GLOB.test(e.group))) {
      out.push(`${where}: ignoreDifferences[${i}] has a glob or empty group: ${JSON.stringify(e.group)}`);
    }
    if (typeof e.name !== 'string' || e.name === '' || GLOB.test(e.name)) {
      out.push(`${where}: ignoreDifferences[${i}] names no one object: ${JSON.stringify(e.name)}`);
    }
    if (e.namespace !== undefined && isClusterScoped(e.group ?? '', e.kind)) {
      out.push(`${where}: ignoreDifferences[${i}] gives a namespace to cluster-scoped ${e.kind}, so it would never match`);
    }
  });
  if (entries.length > 0 && !(spec.syncPolicy?.syncOptions ?? []).includes(RESPECT)) {
    out.push(`${where}: ignoreDifferences without ${RESPECT}`);
  }
  if (spec.project === 'default' || !spec.project) {
    out.push(`${where}: project ${JSON.stringify(spec.project)}`);
  }
  const automated = spec.syncPolicy?.automated;
  if (automated?.prune !== true || automated?.selfHeal !== true || automated?.allowEmpty !== false) {
    out.push(`${where}: automated sync is not prune, selfHeal and never allowEmpty: ${JSON.stringify(automated)}`);
  }
  if (!spec.syncPolicy?.retry) {
    out.push(`${where}: no retry`);
  }
  const revision = spec.source?.targetRevision;
  if (typeof revision !== 'string' || revision.trim() === '' || revision.trim().toUpperCase() === 'HEAD' || revision !== revision.trim()) {
    out.push(`${where}: floating or untrimmed targetRevision ${JSON.stringify(revision)}`);
  }
  return out;
}

/** The ways a rendered tree breaks the safety invariants; empty when it keeps them all. */
export function invariantViolations(docs: Doc[], gitops: GitOpsApp): string[] {
  const out: string[] = [];
  for (const doc of docs) {
    const where = `${doc.kind} ${doc.metadata?.name ?? doc.metadata?.generateName}`;
    if (doc.kind === 'Application') {
      out.push(...applicationViolations(where, doc.spec ?? {}));
    }
    if (doc.kind === 'ApplicationSet') {
      out.push(...applicationViolations(`${where} (template)`, doc.spec?.template?.spec ?? {}));
    }
    if ((doc.kind === 'Job' || doc.kind === 'Pod') && doc.metadata?.annotations?.[SYNC_WAVE] !== undefined) {
      const phases = String(doc.metadata.annotations[HOOK] ?? '').split(',').map((p) => p.trim());
      if (phases.includes('') || phases.includes('Sync')) {
        out.push(`${where}: a Job in a sync wave of the Sync phase (hook ${JSON.stringify(doc.metadata.annotations[HOOK])})`);
      }
    }
    if (doc.apiVersion === 'v1' && doc.kind === 'Secret' && (Object.keys(doc.data ?? {}).length > 0 || Object.keys(doc.stringData ?? {}).length > 0)) {
      out.push(`${where}: a Secret with data in Git`);
    }
    if (doc.kind === 'HorizontalPodAutoscaler') {
      const target = doc.spec?.scaleTargetRef;
      for (const d of docs.filter((x) => x.kind === target?.kind && x.metadata?.name === target?.name)) {
        if (d.spec && 'replicas' in d.spec) {
          out.push(`${d.kind} ${d.metadata.name}: spec.replicas on a workload HPA ${doc.metadata.name} manages`);
        }
      }
    }
  }
  // Replicas owned by KEDA or an HPA managed elsewhere: known from the constructs, not from the output.
  for (const c of gitops.node.findAll()) {
    if (c instanceof HpaManagedDeployment) {
      const name = c.deployment.name;
      for (const d of docs.filter((x) => x.kind === 'Deployment' && x.metadata?.name === name)) {
        if (d.spec && 'replicas' in d.spec) {
          out.push(`Deployment ${name}: spec.replicas on an autoscaled Deployment`);
        }
      }
    }
  }
  return out;
}

/** What {@link checkTree} found, for the property's own checks. */
export interface CheckedTree {
  /** The app that was checked (the first one built). */
  readonly gitops: GitOpsApp;
  readonly files: RenderedFile[];
  readonly docs: Doc[];
  /** Parsed manifests by `Kind/name` (`generateName` for hooks). */
  readonly byKindName: Map<string, Doc>;
}

/**
 * The checks every property makes on a whole app:
 * - `renderFiles()` does not throw, so every rule and every cross-construct validation passes;
 * - rendering twice gives the same bytes, and a second app built from the same inputs the same objects;
 * - every file parses to one manifest, and the manifests are exactly the ApiObjects of the tree;
 * - every manifest validates against the tightened CRD of its release, or the Kubernetes (RBAC, ESO) schema;
 * - the safety invariants hold ({@link invariantViolations}).
 */
export function checkTree(build: () => GitOpsApp): CheckedTree {
  const gitops = build();
  const files = gitops.renderFiles();
  expect(gitops.renderFiles()).toEqual(files);
  // A second app from the same inputs renders the same objects, key order included (its files are YAML of these).
  const json = (app: GitOpsApp) => app.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c)).map((o) => JSON.stringify(o.toJson()));
  const objects = json(gitops);
  expect(json(build())).toEqual(objects);

  // Every file read back with a YAML 1.2 core reader gives exactly the ApiObjects of the tree. (cdk8s writes YAML 1.1,
  // which Go's sigs.k8s.io/yaml reads, so a value read differently by the two shows up here; js-yaml is used because it
  // is several times faster than the yaml package.)
  const docs: Doc[] = files.filter((x) => !x.path.endsWith('.md')).map((f) => load(f.content, { schema: CORE_SCHEMA }) as Doc);
  expect(docs.map(canonical).sort()).toEqual(objects.map((o) => canonical(JSON.parse(o))).sort());

  const rel = releases(gitops);
  expect(docs.flatMap((d) => schemaErrors(d, rel))).toEqual([]);
  expect(invariantViolations(docs, gitops)).toEqual([]);
  return { gitops, files, docs, byKindName: new Map(docs.map((d) => [`${d.kind}/${d.metadata?.name ?? d.metadata?.generateName}`, d])) };
}

/** Runs `fn` and returns the message it threw, or fails when it did not throw. */
export function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a refusal, but the constructor accepted the props');
}

/**
 * Checks that a refusal has a stable code and names the prop where the one error helper puts it:
 * `[SAFE-xxx] <construct path or factory>: <prop> is <value>; it must ...`.
 */
export function expectNamesProp(message: string, prop: string): void {
  expect(message).toMatch(/^\[SAFE-\d{3}\] /);
  expect(message).toContain(`: ${prop} is `);
}

let jq: Jq | undefined;
const jqExitCodes = new Map<string, number>();

/** Loads a real jq engine (jq 1.8, in-process) before the calling file's tests; see {@link jqCompiles}. */
export function useJq(): void {
  beforeAll(async () => {
    jq = jq ?? await loadJq();
  });
}

/**
 * Whether a jq path expression compiles the way Argo CD runs it, as `del(<expression>)` (exit code 3 is a
 * compile error; 5, a runtime error on the null input, means it compiled).
 */
export function jqCompiles(expression: string): boolean {
  if (!jq) {
    throw new Error('jqCompiles: call useJq() in the test file first');
  }
  let code = jqExitCodes.get(expression);
  if (code === undefined) {
    code = jq.raw(null, `del(${expression})`).exitCode;
    jqExitCodes.set(expression, code);
  }
  return code !== 3;
}

/** Every jqPathExpressions entry of the tree's Applications that does not compile; empty when all do. */
export function uncompiledJq(docs: Doc[]): string[] {
  return docs.filter((d) => d.kind === 'Application')
    .flatMap((d) => (d.spec?.ignoreDifferences ?? []).flatMap((e: Doc) => e.jqPathExpressions ?? []))
    .filter((e: string) => !jqCompiles(e));
}

/**
 * One property per entry: each arbitrary makes a call with valid inputs but for one, which must be refused with an
 * error that has a SAFE code and names the prop (the last word of the entry's label, before any "(...)").
 */
export function refusalProperties(title: string, bad: Record<string, fc.Arbitrary<() => unknown>>, seed: number): void {
  describe(title, () => {
    test.each(Object.keys(bad))('fails when %s is invalid: the error has a SAFE code and names the prop', (label) => {
      const prop = label.replace(/ \(.*\)$/, '').split(' ').pop()!;
      fc.assert(fc.property(bad[label], (make) => {
        // GIVEN valid inputs but for one WHEN the construct or factory is called THEN it refuses, naming that prop
        expectNamesProp(refusal(make), prop);
      }), runs(seed + Object.keys(bad).indexOf(label)));
    });
  });
}

/** A fresh GitOpsApp with one SafeApplication deploying to `payments`, of project `payments`. */
export function newApp(name: string, version?: ArgoCdVersion): { gitops: GitOpsApp; app: SafeApplication } {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  const app = new SafeApplication(gitops, 'app', {
    name, project: ArgoProject.fromName('payments'), repoUrl: REPO, destinationNamespace: 'payments', argoCdVersion: version,
  });
  return { gitops, app };
}

/** Container images: registry, repository, tag or digest. */
export const image: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom('', 'registry.acme.internal/', 'ghcr.io/acme/', 'localhost:5000/'),
  fc.stringMatching(/^[a-z0-9]+([._-][a-z0-9]+)*$/).filter((s) => s.length <= 30),
  fc.oneof(fc.stringMatching(/^:[A-Za-z0-9_][A-Za-z0-9_.-]{0,20}$/), fc.constant(`@sha256:${'a'.repeat(64)}`)),
).map(([registry, repo, ref]) => `${registry}${repo}${ref}`);

/** Numbers that are not whole. */
export const nonInteger: fc.Arbitrary<number> = fc.double({ min: -10, max: 20000, noNaN: true }).filter((x) => !Number.isInteger(x));

/** Strings that are not DNS-1123 subdomains. */
export const notSubdomain: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('', 'A', 'a_b', '-a', 'a..b', 'a'.repeat(254), '*', 'a b', 'ä'),
).filter((s) => !isSubdomain(s));

/** Strings that are not DNS-1123 labels. */
export const notLabel: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 70 }),
  fc.constantFrom('', '-a', 'a-', 'A', 'a_b', 'a.b', 'a b', ' a', 'a'.repeat(64), 'ä', '*', 'default-', '..'),
  fc.stringMatching(/^[a-z0-9][-a-z0-9]{62,70}[a-z0-9]$/),
).filter((s) => !isLabel(s));

// ---------------------------------------------------------------------------------------------------------
// Autoscalers.

/** A utilization target the HPA accepts, in percent. */
const percent = fc.integer({ min: 1, max: 1000 });
/** Any bounds and metrics `Autoscaler.hpa` accepts (minReplicas may be left to its default). */
export const hpaOptions: fc.Arbitrary<HpaOptions> = fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }).chain((min) => fc.record({
  minReplicas: fc.constant(min),
  maxReplicas: fc.oneof(fc.integer({ min: min ?? 2, max: 10000 }), fc.constantFrom(min ?? 2, 10000)),
  metrics: fc.oneof(
    fc.record({ cpu: percent, memory: fc.constant(undefined) }),
    fc.record({ cpu: fc.constant(undefined), memory: percent }),
    fc.record({ cpu: percent, memory: percent }),
  ),
}).map(({ minReplicas, maxReplicas, metrics }) => ({
  minReplicas, maxReplicas, cpuUtilizationPercent: metrics.cpu, memoryUtilizationPercent: metrics.memory,
})));

/** Who owns the replicas: an HPA created here (any valid bounds and metrics), a KEDA ScaledObject, or an HPA elsewhere. */
export type Scaler = { kind: 'hpa'; options: HpaOptions } | { kind: 'keda' | 'external'; owner: string };
export const scaler: fc.Arbitrary<Scaler> = fc.oneof(
  hpaOptions.map((options) => ({ kind: 'hpa' as const, options })),
  fc.record({ kind: fc.constantFrom('keda' as const, 'external' as const), owner: subdomain }),
);
/** The Autoscaler a generated owner stands for. */
export function autoscalerOf(s: Scaler): Autoscaler {
  return s.kind === 'hpa' ? Autoscaler.hpa(s.options) : s.kind === 'keda' ? Autoscaler.kedaScaledObject(s.owner) : Autoscaler.externalHpa(s.owner);
}
