import { readFileSync } from 'fs';
import { basename, join, posix } from 'path';
import { parseAllDocuments } from 'yaml';
import { applicationYaml, writeTree } from './support';
import { auditFiles } from '../../src/audit/audit';
import { buildArgoCdObjects, buildFolder, KustomizeBuildInput, parseSelector } from '../../src/audit/kustomize-build';
import { buildPlainFolder, PlainBuildInput } from '../../src/audit/kustomize-plain';
import { AuditResult } from '../../src/audit/types';
import { collectFiles } from '../../src/cli/files';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { isObject, LocatedManifest, Manifest } from '../../src/core/manifest';
import { parseManifests } from '../../src/core/parse-manifests';
import { tempDir } from '../support/app';

/**
 * Each case's expected objects are what `kubectl kustomize` (Kustomize v5.5.0) printed for its folder: the build is
 * judged against Kustomize itself, not against what this project thinks Kustomize does.
 */
const FIXTURES = join(__dirname, '..', 'fixtures', 'kustomize-builds');
const KUSTOMIZATION = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const ARGO_KINDS = ['Application', 'ApplicationSet', 'AppProject'];

/** A folder of files read as the audit reads them: its kustomizations by folder, the other objects by file, every path. */
function readTree(root: string): { kustomizations: Map<string, LocatedManifest>; objects: Map<string, LocatedManifest[]>; files: Set<string> } {
  const kustomizations = new Map<string, LocatedManifest>();
  const objects = new Map<string, LocatedManifest[]>();
  const files = new Set<string>();
  for (const file of collectFiles([root], root, 1048576).files) {
    files.add(file.path);
    for (const o of parseManifests(file.path, file.content).objects) {
      if (KUSTOMIZATION.includes(basename(file.path))) {
        kustomizations.set(posix.dirname(file.path), o);
      } else {
        objects.set(file.path, [...objects.get(file.path) ?? [], o]);
      }
    }
  }
  return { kustomizations, objects, files };
}

/** The Argo CD object build's input for a folder of files. */
function inputOf(root: string): KustomizeBuildInput {
  const { kustomizations, objects } = readTree(root);
  const argoObjects = new Map([...objects]
    .map(([file, inFile]) => [file, inFile.filter((o) => ARGO_KINDS.includes(String(o.manifest.kind)))] as const)
    .filter(([, inFile]) => inFile.length > 0));
  return {
    kustomizations,
    argoObjects,
    sourceFolders: new Set(),
    fileText: (file) => {
      try {
        return readFileSync(join(root, file), 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/** Objects as sorted JSON texts of sorted keys: what two builds are compared by, whatever their order. */
function canonical(objects: readonly unknown[]): string[] {
  const sortKeys = (v: unknown): unknown => (Array.isArray(v) ? v.map(sortKeys)
    : isObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])])) : v);
  return objects.map((o) => JSON.stringify(sortKeys(o))).sort();
}

describe('Kustomize builds of Argo CD objects, against kubectl kustomize', () => {
  const input = inputOf(FIXTURES);

  test.each([
    ['overlay-json-patches', 'overlay-json-patches'],
    ['strategic-merge', 'strategic-merge/overlay'],
    ['nested', 'nested/top'],
    ['components', 'components/overlay'],
  ])('%s builds what Kustomize builds', (name, dir) => {
    const expected = parseAllDocuments(readFileSync(join(FIXTURES, 'expected', `${name}.yaml`), 'utf8')).map((d) => d.toJS());
    const built = buildFolder(input, dir);
    expect(built).toHaveProperty('objects');
    expect(canonical((built as { objects: Manifest[] }).objects)).toEqual(canonical(expected));
  });

  test.each([
    ['failures/no-such-object', /patches\[0\]: no object of the build is the Application default\/web the patch names/],
    ['failures/missing-path', /patches\[0\]: the JSON patch fails on Application argocd\/web/],
    ['failures/bad-selector', /patches\[0\]: the target's labelSelector "a in b" is no Kubernetes selector/],
    ['failures/cycle/a', /a cycle/],
    ['failures/proto', /patches\[0\]: the JSON patch fails/],
  ])('%s fails, as kubectl kustomize does, and says why', (dir, reason) => {
    const built = buildFolder(input, dir);
    expect(built).toHaveProperty('error');
    expect((built as { error: string }).error).toMatch(reason);
    expect((built as { error: string }).error).toContain(`${dir.startsWith('failures/cycle') ? 'failures/cycle/' : dir}`);
  });

  test('a patch of __proto__ pollutes nothing', () => {
    buildFolder(input, 'failures/proto');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('only folders Argo CD builds are built: a base listed by an overlay is not built on its own', () => {
    const { built } = buildArgoCdObjects(input);
    const names = [...built.entries()].flatMap(([source, made]) => made.map((m) => `${source.location.file} -> ${String((m.metadata as Manifest).name)}`));
    // The base's Application is built as the overlay names it, never as the base alone (web, unchanged, is not listed).
    expect(names).toContain('nested/base/app.yaml -> eu-base-api');
    expect(names).not.toContain('nested/base/app.yaml -> base-api');
    // A written object no build changes is not listed.
    expect([...built.keys()].map((s) => s.location.file)).not.toContain('components/base/kustomization.yaml');
  });
});

describe('hostile kustomizations', () => {
  const app = (name: string) => `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: ${name}\nspec:\n  project: x\n`;
  const patchWithName = (name: string) => `resources: [app.yaml]\npatches:\n  - target:\n      kind: Application\n      name: '${name}'\n    patch: |-\n      - op: add\n        path: /spec/project\n        value: y\n`;

  test('a target name that would backtrack for ever is matched in linear time, as Go matches it', () => {
    const root = tempDir();
    writeTree(root, { 'k/app.yaml': app(`${'a'.repeat(5000)}b`), 'k/kustomization.yaml': patchWithName('(a+)+') });
    const built = buildFolder(inputOf(root), 'k');
    // No match (the name ends in b): the Application is built unchanged.
    expect(built).toEqual({ objects: [expect.objectContaining({ spec: { project: 'x' } })] });
  });

  test('a target name that is no regular expression fails the build, as it fails Kustomize\'s', () => {
    const root = tempDir();
    writeTree(root, { 'k/app.yaml': app('web'), 'k/kustomization.yaml': patchWithName('(web') });
    expect(buildFolder(inputOf(root), 'k')).toEqual({ error: 'k/kustomization.yaml: patches[0]: the target\'s name "(web" is no regular expression' });
  });

  test('a base listed by many overlays builds a bounded number of objects', () => {
    const root = tempDir();
    const files: Record<string, string> = { 'base/kustomization.yaml': 'resources: [apps.yaml]\n', 'base/apps.yaml': Array.from({ length: 1000 }, (_, i) => app(`a${i}`)).join('---\n') };
    for (let i = 0; i < 60; i++) {
      files[`overlay${i}/kustomization.yaml`] = `resources: [../base]\nnameSuffix: -${i}\n`;
    }
    writeTree(root, files);
    const { built, unbuilt } = buildArgoCdObjects(inputOf(root));
    // 60,000 objects would be built, past the budget of 5,000: the builds past the budget are refused, and say so.
    expect(unbuilt.length).toBeGreaterThan(0);
    expect(unbuilt[unbuilt.length - 1]).toMatch(/builds more than 5000 Argo CD objects in all; not modelled/);
    expect([...built.values()].reduce((n, made) => n + made.length, 0)).toBeLessThanOrEqual(5_000);
  });
});

describe('hostile kustomizations, at scale', () => {
  test('thousands of patches of thousands of objects are refused rather than applied for minutes', () => {
    const root = tempDir();
    const app = (name: string) => `apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: ${name}\nspec:\n  project: x\n`;
    const patch = '  - target: {kind: Application}\n    patch: \'[{"op": "add", "path": "/spec/project", "value": "y"}]\'\n';
    writeTree(root, {
      'k/apps.yaml': Array.from({ length: 1000 }, (_, i) => app(`a${i}`)).join('---\n'),
      'k/kustomization.yaml': `resources: [apps.yaml]\npatches:\n${patch.repeat(300)}`,
    });
    const built = buildFolder(inputOf(root), 'k');
    expect(built).toEqual({ error: expect.stringMatching(/^k\/kustomization.yaml: patches\[\d+\]: more patches of more objects than the audit builds \(50000 a run\); not modelled$/) });
  });
});

describe('plain kustomizations (resources and a namespace), against kubectl kustomize', () => {
  function plainInputOf(root: string): PlainBuildInput {
    const { kustomizations, objects, files } = readTree(root);
    return { kustomizations, objects, isFile: (file) => files.has(file), problemOf: () => undefined };
  }
  const input = plainInputOf(FIXTURES);

  test('a folder of a base and files, with a namespace, builds what Kustomize builds', () => {
    // The namespace goes on namespaced objects and custom kinds Kustomize does not know to be cluster-scoped, renames
    // the Namespace, follows the ServiceAccount of the build and `default` into bindings; empty annotations go.
    const expected = parseAllDocuments(readFileSync(join(FIXTURES, 'expected', 'plain-app.yaml'), 'utf8')).map((d) => d.toJS());
    const built = buildPlainFolder(input, 'plain/app');
    expect(built).toHaveProperty('objects');
    expect(canonical((built as { objects: { manifest: Manifest }[] }).objects.map((o) => o.manifest))).toEqual(canonical(expected));
  });

  test('a build leaves the written objects unchanged and keeps each one it does not change', () => {
    const built = buildPlainFolder(input, 'plain/app') as { objects: { source: LocatedManifest; manifest: Manifest }[] };
    const job = built.objects.find((o) => o.manifest.kind === 'Job')!;
    // Already in the namespace: the written object itself.
    expect(job.manifest).toBe(job.source.manifest);
    const deployment = built.objects.find((o) => o.manifest.kind === 'Deployment')!;
    expect(deployment.source.manifest.metadata).toEqual({ name: 'web', annotations: {} });
  });

  test.each([
    ['plain/refusals/sets-patches', 'plain/refusals/sets-patches/kustomization.yaml sets patches'],
    ['plain/refusals/outside', 'plain/refusals/outside/kustomization.yaml lists ../base/deploy.yaml, a file outside its folder, which Kustomize refuses (its load restrictor)'],
    ['plain/refusals/empty', 'plain/refusals/empty/kustomization.yaml is empty, which Kustomize refuses'],
    ['plain/refusals/twice', 'it lists Deployment web twice, which Kustomize refuses'],
  ])('%s is left to a rendering, and says why', (dir, reason) => {
    expect(buildPlainFolder(input, dir)).toEqual({ notPlain: reason });
  });

  test('a listed file that could not be read leaves the folder to a rendering', () => {
    const unreadable = { ...input, problemOf: (file: string) => (file === 'plain/base/deploy.yaml' ? 'a syntax error' : undefined) };
    expect(buildPlainFolder(unreadable, 'plain/app')).toEqual({ notPlain: 'plain/base/kustomization.yaml lists deploy.yaml, which cannot be read as manifests (a syntax error)' });
  });
});

describe('label selectors', () => {
  test.each([
    ['a=b', { a: 'b' }, true],
    ['a==b', { a: 'c' }, false],
    ['a!=b', {}, true],
    ['a', { a: '' }, true],
    ['!a', { a: 'x' }, false],
    ['a in (x, y),b notin (z)', { a: 'y' }, true],
    ['a in (x,y)', {}, false],
    ['a notin (x)', { a: 'x' }, false],
    ['', { a: 'x' }, true],
  ])('%s on %j is %s', (selector, labels, expected) => {
    expect(parseSelector(selector)!(labels)).toBe(expected);
  });

  test.each(['a in b', 'a=b=c', '(a)', 'a in (x'])('%s does not parse', (selector) => {
    expect(parseSelector(selector)).toBeUndefined();
  });
});

describe('the audit judges Argo CD objects as Kustomize builds them', () => {
  const REPO = 'https://git.example.org/platform/config.git';

  function auditTree(files: Record<string, string>): AuditResult {
    const root = tempDir();
    writeTree(root, files);
    const collected = collectFiles([root], root, 1048576);
    return auditFiles(collected.files, { argoCdVersion: ArgoCdVersion.LATEST, repository: { urls: [REPO], otherFiles: collected.otherFiles } });
  }

  const overlay = (): Record<string, string> => {
    const files: Record<string, string> = {};
    for (const file of ['kustomization.yaml', 'apps/one/kustomization.yaml', 'apps/one/application.yaml', 'apps/two.yaml']) {
      files[`clusters/prod/${file}`] = readFileSync(join(FIXTURES, 'overlay-json-patches', file), 'utf8');
    }
    return files;
  };

  test('a patch that turns on automated sync brings the findings of automated sync, on the built name, where the object is written', () => {
    const result = auditTree(overlay());
    const on = (ruleId: string) => result.findings.filter((f) => f.ruleId === ruleId).map((f) => `${f.object} ${f.location.file}:${f.location.line}`);
    // The patch writes syncPolicy: the finding is at the nearest field the file writes, spec.
    expect(on('SA001')).toEqual(['Application argocd/one-prod clusters/prod/apps/one/application.yaml:7']);
    expect(on('SA006')).toEqual(['Application argocd/one-prod clusters/prod/apps/one/application.yaml:7']);
    // two names no project in its file; the overlay's patch gives it team-two.
    expect(result.findings.filter((f) => f.ruleId === 'SA005').map((f) => f.object)).toEqual(['Application argocd/one-prod']);
  });

  test('an object two overlays build differently under one name is judged once, and the note says so', () => {
    const files = overlay();
    files['clusters/staging/kustomization.yaml'] = 'resources:\n  - ../prod/apps/one\nnamespace: argocd\nnameSuffix: -prod\n';
    const result = auditTree(files);
    expect(result.findings.filter((f) => f.ruleId === 'SA011')).toEqual([]);
    expect(result.notes.find((n) => n.includes('built differently by several kustomizations'))).toContain('Application argocd/one-prod (clusters/prod/apps/one/application.yaml)');
  });

  test('a build Kustomize would refuse leaves the objects as written, and the note says why', () => {
    const files = overlay();
    files['clusters/prod/kustomization.yaml'] += '  - target:\n      kind: Application\n    patch: |\n      - op: remove\n        path: /spec/nothing\n';
    const result = auditTree(files);
    expect(result.findings.filter((f) => f.ruleId === 'SA001')).toEqual([]);
    expect(result.notes.find((n) => n.startsWith('Kustomize: clusters/prod/kustomization.yaml: patches[3]'))).toMatch(/judged as written$/);
  });

  test('an Application whose source is a plain kustomization is judged with what the kustomization builds', () => {
    // GIVEN an app with ApplyOutOfSyncOnly whose folder is a kustomization listing a base with waves, in a namespace
    const appRepo = 'https://git.acme.internal/platform/gitops.git';
    const wave = (name: string, n: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  annotations:\n    argocd.argoproj.io/sync-wave: "${n}"\n`;
    const files = {
      'apps/web.yaml': applicationYaml('web', { path: 'deploy/web', syncPolicy: { syncOptions: ['ApplyOutOfSyncOnly=true'] } }),
      'deploy/web/kustomization.yaml': 'namespace: web\nresources:\n  - ../base\n',
      'deploy/base/kustomization.yaml': 'resources:\n  - config.yaml\n',
      'deploy/base/config.yaml': `${wave('first', 0)}---\n${wave('second', 1)}`,
    };
    const root = tempDir();
    writeTree(root, files);
    const collected = collectFiles([root], root, 1048576);
    const result = auditFiles(collected.files, {
      argoCdVersion: ArgoCdVersion.LATEST,
      repository: { urls: [appRepo], otherFiles: collected.otherFiles },
    });

    // THEN the rule that needs the Application and its waves together runs, and no note asks for a rendering
    expect(result.findings.filter((f) => f.ruleId === 'SA105').map((f) => `${f.object} ${f.location.file}`)).toEqual(['Application argocd/web apps/web.yaml']);
    expect(result.notes.filter((n) => n.includes('Kustomize source'))).toEqual([]);

    // AND a kustomization the audit does not build is named with why, as before
    writeTree(root, { 'deploy/web/kustomization.yaml': 'namespace: web\nresources:\n  - ../base\nimages:\n  - name: web\n    newTag: 1.2.0\n' });
    const again = collectFiles([root], root, 1048576);
    const unbuilt = auditFiles(again.files, { argoCdVersion: ArgoCdVersion.LATEST, repository: { urls: [appRepo], otherFiles: again.otherFiles } });
    expect(unbuilt.findings.filter((f) => f.ruleId === 'SA105')).toEqual([]);
    expect(unbuilt.notes).toContainEqual('Application web (apps/web.yaml): deploys deploy/web as a Kustomize source (deploy/web/kustomization.yaml sets images), '
      + 'not rendered here: give what Argo CD renders for it with --rendered web=<file> to audit its workloads');
  });

  test('an overlay of folders without patches changes nothing and adds no note', () => {
    const files = { ...overlay(), 'clusters/prod/kustomization.yaml': 'resources:\n  - apps/one\n  - apps/two.yaml\n' };
    const result = auditTree(files);
    expect(result.notes.filter((n) => n.includes('Kustomize'))).toEqual([]);
    expect(result.findings.filter((f) => f.ruleId === 'SA005').map((f) => f.object).sort()).toEqual(['Application one', 'Application two']);
  });
});
