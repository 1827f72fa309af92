import { stringify } from 'yaml';
import { applicationYaml, auditInMemory as audit, configMapYaml, deploymentYaml, hpaYaml, key, keysOf } from './support';
import { mayWait, WaitingFile, WaitingFiles } from '../../src/audit/read-objects';
import { AuditFile, AuditResult, FileProblem } from '../../src/audit/types';
import * as parseModule from '../../src/core/parse-manifests';

function waitingFile(file: string, text: string, order: number): WaitingFile {
  return { location: { file, line: 1, column: 1 }, order, content: Buffer.from(text, 'utf8'), uses: 0, parsed: false };
}

/** How many times the parser read each file during `fn`. */
function parsesDuring(fn: () => void): Map<string, number> {
  const counts = new Map<string, number>();
  const original = parseModule.parseManifests;
  const spy = jest.spyOn(parseModule, 'parseManifests').mockImplementation((file, content) => {
    counts.set(file, (counts.get(file) ?? 0) + 1);
    return original(file, content);
  });
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return counts;
}

describe('mayWait: which files can be parsed when their unit is audited', () => {
  test.each([
    ['a Deployment', deploymentYaml('web', 'web', 2), true],
    ['an Application', applicationYaml('web'), false],
    ['an ApplicationSet', 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\n', false],
    ['an AppProject', 'apiVersion: argoproj.io/v1alpha1\nkind: AppProject\n', false],
    ['a Secret (a repository Secret may widen a project)', 'apiVersion: v1\nkind: Secret\n', false],
    ['the ApplicationSet controller settings', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: argocd-cmd-params-cm}\n', false],
    ['a kind spelled with an escape', '{"apiVersion": "argoproj.io/v1alpha1", "kind": "\\u0041pplication"}', false],
    ['a kind in flow style', '{apiVersion: argoproj.io/v1alpha1, kind: Application}', false],
  ])('%s: %s', (_, text, expected) => {
    expect(mayWait(Buffer.from(text, 'utf8'))).toBe(expected);
  });

  test('reads the bytes of a plain Uint8Array as well as a Buffer', () => {
    const bytes = new TextEncoder().encode('kind: Application\n');
    expect(mayWait(bytes)).toBe(false);
    expect(mayWait(new TextEncoder().encode('kind: Service\n'))).toBe(true);
  });
});

describe('WaitingFiles', () => {
  test('places waiting files among the objects read at once in the order the files were read', () => {
    // GIVEN files 0 and 2 read at once and files 1 and 3 waiting
    const first = { manifest: { apiVersion: 'v1', kind: 'Secret' }, location: { file: 'a/0.yaml', line: 1, column: 1 } };
    const third = { manifest: { apiVersion: 'v1', kind: 'Secret' }, location: { file: 'a/2.yaml', line: 1, column: 1 } };
    const orders = new Map([['a/0.yaml', 0], ['a/2.yaml', 2]]);
    const one = waitingFile('a/1.yaml', configMapYaml('one', 'a'), 1);
    const three = waitingFile('a/3.yaml', configMapYaml('three', 'a'), 3);
    const waiting = new WaitingFiles([one, three], (file) => orders.get(file) ?? -1, 100, []);

    // WHEN they are merged
    // THEN each is where it was read
    expect(waiting.inWalkOrder([first, third])).toEqual([first, one, third, three]);
  });

  test('parses a file once for the units that deploy it, and forgets its objects after the last', () => {
    // GIVEN a waiting file two units deploy
    const file = waitingFile('a/cm.yaml', configMapYaml('one', 'a'), 0);
    file.uses = 2;
    const problems: FileProblem[] = [];
    const waiting = new WaitingFiles([file], () => -1, 100, problems);

    // WHEN each unit asks for its objects
    const counts = parsesDuring(() => {
      const forFirst = waiting.objectsFor(file);
      expect(file.objects).toBe(forFirst);
      const forSecond = waiting.objectsFor(file);
      // THEN both units get the same objects, parsed once, counted once, and kept no longer
      expect(forSecond).toBe(forFirst);
    });
    expect(counts.get('a/cm.yaml')).toBe(1);
    expect(waiting.manifests).toBe(1);
    expect(file.objects).toBeUndefined();
    expect(file.content).toBeUndefined();
    expect(problems).toEqual([]);
  });

  test('a file no unit deployed is parsed when settled, so that its problems are reported and its objects counted', () => {
    const broken = waitingFile('a/broken.yaml', 'kind: ConfigMap\n  bad: [indent\n', 0);
    const fine = waitingFile('a/fine.yaml', configMapYaml('fine', 'a'), 1);
    const problems: FileProblem[] = [];
    const waiting = new WaitingFiles([broken, fine], () => -1, 100, problems);

    waiting.settle();

    expect(problems.map((p) => p.file)).toEqual(['a/broken.yaml']);
    expect(waiting.manifests).toBe(1);
    expect(fine.objects).toBeUndefined();
  });

  test('a file over the budget of objects is refused when it is parsed, as one read at once is', () => {
    const list = stringify({ apiVersion: 'v1', kind: 'List', items: [1, 2, 3].map((i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } })) });
    const file = waitingFile('a/list.yaml', list, 0);
    file.uses = 1;
    const problems: FileProblem[] = [];
    const waiting = new WaitingFiles([file], () => -1, 2, problems);

    expect(waiting.objectsFor(file)).toEqual([]);
    expect(problems[0].message).toContain('holds 3 Kubernetes objects, over the audit\'s budget of 2');
  });
});

describe('auditFiles with waiting files', () => {
  test('judges a folder two Applications deploy in both, parsing each of its files once', () => {
    // GIVEN two Applications whose source is the same folder of an autoscaled Deployment with replicas
    const files = {
      'apps/blue.yaml': applicationYaml('blue', { path: 'workloads/web' }),
      'apps/green.yaml': applicationYaml('green', { path: 'workloads/web' }),
      'workloads/web/deployment.yaml': deploymentYaml('web', 'web', 3),
      'workloads/web/hpa.yaml': hpaYaml('web', 'web'),
    };

    // WHEN it is audited, SA102 suppressed for blue
    let result: AuditResult | undefined;
    const counts = parsesDuring(() => {
      result = audit(files, { suppressions: [{ ruleId: 'SA102', reason: 'blue is retired', paths: [], applications: ['blue'] }] });
    });

    // THEN green's unit judged the workload too (its finding is the one reported), and each file was parsed once
    expect(result!.findings.filter((f) => f.ruleId === 'SA102').map((f) => f.application)).toEqual(['green']);
    expect(counts.get('workloads/web/deployment.yaml')).toBe(1);
    expect(counts.get('workloads/web/hpa.yaml')).toBe(1);
    expect(result!.stats.manifests).toBe(4);
  });

  test('reports a broken file in a folder a rendering stands for, and counts the objects there', () => {
    // GIVEN an Application whose rendering is given, and its folder, which holds a file YAML cannot read
    const rendered: AuditFile = { path: 'rendered/web.yaml', content: Buffer.from(configMapYaml('web', 'web'), 'utf8') };
    const files = {
      'apps/web.yaml': applicationYaml('web'),
      'workloads/web/broken.yaml': 'kind: ConfigMap\n  bad: [indent\n',
      'workloads/web/cm.yaml': configMapYaml('settings', 'web'),
    };

    // WHEN it is audited with the rendering
    const result = audit(files, { rendered: [{ application: 'web', file: rendered }] });

    // THEN the broken file is still reported, and the folder's objects still counted
    expect(result.problems.map((p) => p.file)).toEqual(['workloads/web/broken.yaml']);
    expect(result.stats.manifests).toBe(3);
  });

  test('a workload file in a kustomization\'s folder is read before the pairing: the build decides what is deployed', () => {
    // GIVEN an Application deploying a kustomization that lists only one of the two Deployments of its folder
    const files = {
      'apps/web.yaml': applicationYaml('web'),
      'workloads/web/kustomization.yaml': 'resources: [listed.yaml, hpa.yaml]\n',
      'workloads/web/listed.yaml': deploymentYaml('listed', 'web', 3),
      'workloads/web/unlisted.yaml': deploymentYaml('unlisted', 'web', 3),
      'workloads/web/hpa.yaml': hpaYaml('listed', 'web'),
    };

    // WHEN it is audited
    const result = audit(files);

    // THEN the file no kustomization lists is noted and not judged
    expect(result.notes.some((n) => n.includes('workloads/web/unlisted.yaml'))).toBe(true);
    expect(keysOf(result.findings).filter((k) => k.includes('unlisted'))).toEqual([]);
    expect(keysOf(result.findings)).toContain(key('SA101', 'workloads/web/listed.yaml', 'web'));
  });
});
