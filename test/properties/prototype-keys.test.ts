/**
 * Input is data: keys named like Object.prototype's properties (`__proto__`, `constructor`, `prototype`,
 * `toString`, `hasOwnProperty`, ...) anywhere in the manifests, and `f:` fields of the same names in live
 * managedFields, reach every entry point: the audit of YAML and JSON files, the drift simulation and the rules.
 * None may change Object.prototype, and each must still give a sane result.
 */
import * as fc from 'fast-check';
import { stringify } from 'yaml';
import { runs } from './support';
import { ArgoCdVersion, DriftSimulator } from '../../src';
import { auditFiles } from '../../src/audit/audit';
import { Manifest } from '../../src/core/manifest';
import { runRules } from '../../src/rules/engine';
import { ALL_RULES } from '../../src/rules/registry';

const DANGEROUS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__', 'polluted'];

/** A JSON value as text, maps written key by key so that `__proto__` is a key (as in a file), never a prototype. */
type Tree = null | number | string | boolean | Tree[] | { readonly entries: [string, Tree][] };

function toJson(t: Tree): string {
  if (Array.isArray(t)) {
    return `[${t.map(toJson).join(',')}]`;
  }
  if (t !== null && typeof t === 'object') {
    const seen = new Set<string>();
    const unique = t.entries.filter(([k]) => !seen.has(k) && seen.add(k));
    return `{${unique.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(t);
}

const key = fc.oneof(fc.constantFrom(...DANGEROUS), fc.constantFrom('spec', 'replicas', 'name', 'metadata', 'f:__proto__', 'k:{"name":"web"}'));
const { tree } = fc.letrec<{ tree: Tree; map: Tree; list: Tree }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small' }, fc.constantFrom<Tree>(null, 1, 'x', true, { entries: [] }), tie('map'), tie('list')),
  map: fc.array(fc.tuple(key, tie('tree')), { maxLength: 4 }).map((entries) => ({ entries })),
  list: fc.array(tie('tree'), { maxLength: 3 }),
}));
/** A map with at least one dangerous key. */
const hostileTree = fc.array(fc.tuple(fc.constantFrom(...DANGEROUS), tree), { minLength: 1, maxLength: 3 }).map((entries): Tree => ({ entries }));
/** A map aimed at Object.prototype: `__proto__` or `constructor` holding the names of its properties (or `prototype` again). */
const aimedTree = fc.tuple(
  fc.constantFrom('__proto__', 'constructor'),
  fc.array(fc.tuple(fc.constantFrom(...Object.getOwnPropertyNames(Object.prototype), 'prototype', 'polluted'), tree), { minLength: 1, maxLength: 3 }),
).map(([k, entries]): Tree => ({ entries: [[k, { entries }], ['size', 1]] }));
/** The same, as JSON text. */
const hostileMap = hostileTree.map(toJson);

/** The fieldsV1 set a manager owning every field of `t` (a map) would write: `f:` + each key, down to the leaves. */
function ownedFields(t: Tree): Tree {
  if (t === null || typeof t !== 'object' || Array.isArray(t)) {
    return { entries: [] };
  }
  return { entries: t.entries.map(([k, v]): [string, Tree] => [`f:${k}`, ownedFields(v)]) };
}
/** A fieldsV1 set naming dangerous fields. */
const { fields } = fc.letrec<{ fields: Tree }>((tie) => ({
  fields: fc.array(fc.tuple(fc.constantFrom(...DANGEROUS.map((k) => `f:${k}`), 'f:spec', 'f:replicas', '.'), fc.oneof({ depthSize: 'small' }, fc.constant<Tree>({ entries: [] }), tie('fields'))), { maxLength: 3 })
    .map((entries) => ({ entries })),
}));

/** The manifests of one hostile case, as JSON text: an Application, its AppProject, an autoscaled Deployment, a custom resource. */
const hostileCase = fc.record({
  spec: hostileMap,
  metadata: hostileMap,
  annotations: hostileMap,
  customTree: fc.oneof(hostileTree, aimedTree),
  fields,
  /** Whether the manager owns what Git declares (the fields it names exist in desired) rather than random fields. */
  ownsDesired: fc.boolean(),
  /** Live's spec: random, or empty (so that keys Git has are missing in live). */
  liveSpec: fc.oneof(hostileMap, fc.constant('{}')),
}).map((c) => ({ ...c, custom: toJson(c.customTree) }));

function manifests(c: { spec: string; metadata: string; annotations: string; custom: string }): Record<string, string> {
  const ignore = '[{"group":"*","kind":"*","managedFieldsManagers":["m"]}]';
  return {
    'apps/web.json': `{"apiVersion":"argoproj.io/v1alpha1","kind":"Application","metadata":{"name":"web","namespace":"argocd","annotations":${c.annotations},"extra":${c.metadata}},`
      + `"spec":{"project":"team","destination":{"server":"https://kubernetes.default.svc","namespace":"web"},"ignoreDifferences":${ignore},`
      + `"source":{"repoURL":"https://git.acme.internal/x.git","targetRevision":"main","path":"workloads/web","extra":${c.spec}},`
      + '"syncPolicy":{"automated":{"prune":true,"selfHeal":true},"syncOptions":["RespectIgnoreDifferences=true"]}}}',
    'apps/project.json': `{"apiVersion":"argoproj.io/v1alpha1","kind":"AppProject","metadata":{"name":"team"},"spec":{"sourceRepos":["*"],"destinations":[${c.spec}],"roles":[${c.metadata}]}}`,
    'workloads/web/deployment.json': `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"web","annotations":${c.annotations}},"spec":${c.spec}}`,
    'workloads/web/hpa.json': `{"apiVersion":"autoscaling/v2","kind":"HorizontalPodAutoscaler","metadata":{"name":"web","namespace":"web"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"extra":${c.metadata}}}`,
    'workloads/web/widget.json': `{"apiVersion":"acme.internal/v1","kind":"Widget","metadata":{"name":"w","namespace":"web","labels":${c.metadata}},"spec":${c.custom}}`,
  };
}

/** Object.prototype's own properties and what they hold. */
function prototypeShape(): [string, unknown][] {
  return Object.getOwnPropertyNames(Object.prototype).sort().map((n) => [n, Object.getOwnPropertyDescriptor(Object.prototype, n)!.value]);
}

const SHAPE = prototypeShape();

function expectPrototypeUnchanged(): void {
  expect(prototypeShape()).toEqual(SHAPE);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

describe('prototype keys are plain data at every entry point', () => {
  let sim: DriftSimulator;
  beforeAll(async () => {
    sim = await DriftSimulator.create();
  });

  test('audit of the manifests as JSON and as YAML: Object.prototype unchanged, every manifest read, no crash', () => {
    fc.assert(fc.property(hostileCase, (c) => {
      const files = manifests(c);
      const asYaml = Object.fromEntries(Object.entries(files).map(([p, t]) => [p.replace(/\.json$/, '.yaml'), stringify(JSON.parse(t))]));
      for (const repo of [files, asYaml]) {
        const auditFilesOf = Object.entries(repo).map(([path, text]) => ({ path, content: Buffer.from(text) }));
        const result = auditFiles(auditFilesOf, { argoCdVersion: ArgoCdVersion.LATEST });
        expectPrototypeUnchanged();
        expect(result.problems).toEqual([]);
        expect(result.stats.manifests).toBe(5);
        expect(result.stats.applications).toBe(1);
      }
    }), runs(20260101));
  });

  test('the rules on parsed manifests: Object.prototype unchanged, findings name their rule and an input object', () => {
    fc.assert(fc.property(hostileCase, (c) => {
      const parsed = Object.values(manifests(c)).map((t) => JSON.parse(t) as Manifest);
      const findings = runRules({ application: parsed[0], resources: parsed.slice(1), argoCdVersion: ArgoCdVersion.LATEST }, ALL_RULES);
      expectPrototypeUnchanged();
      for (const f of findings) {
        expect(ALL_RULES).toContain(f.rule);
        expect(parsed).toContain(f.object);
        expect(typeof f.message).toBe('string');
      }
    }), runs(20260102));
  });

  test('simulate with hostile desired, live and managedFields: Object.prototype unchanged, a report', () => {
    fc.assert(fc.property(hostileCase, (c) => {
      const files = manifests(c);
      const desired = files['workloads/web/widget.json'];
      const owned: Tree = c.ownsDesired ? { entries: [['f:spec', ownedFields(c.customTree)]] } : c.fields;
      const managedFields = `[{"manager":"m","operation":"Update","fieldsType":"FieldsV1","fieldsV1":${toJson(owned)}}]`;
      const live = `{"apiVersion":"acme.internal/v1","kind":"Widget","metadata":{"name":"w","namespace":"web","managedFields":${managedFields}},"spec":${c.liveSpec}}`;
      for (const [d, l] of [[desired, live], [files['workloads/web/deployment.json'], live.replace('"acme.internal/v1","kind":"Widget"', '"apps/v1","kind":"Deployment"')]]) {
        const report = sim.simulateDrift({ application: files['apps/web.json'], desired: d, live: l });
        expectPrototypeUnchanged();
        expect(typeof report.outOfSync).toBe('boolean');
        expect(report.outOfSync).toBe(report.differences.length > 0);
        expect(() => JSON.parse(report.liveAfterApply)).not.toThrow();
      }
    }), runs(20260103));
  });
});
