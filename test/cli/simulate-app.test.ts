import { spawnSync } from 'child_process';
import { mkdirSync, writeFileSync } from 'fs';
import { dirname, join } from 'path';
import { parse, stringify } from 'yaml';
import { runCli } from './support';
import { buildCheckoutApp } from '../../examples/checkout/app';
import { JsonMap } from '../../src/drift/json';
import { asServed } from '../drift/as-served';
import { tempDir } from '../support/app';

const REPO = join(__dirname, '..', '..');

/** The checkout example synthesized into a temporary folder, and its workloads as the cluster serves them. */
function checkoutOnDisk() {
  const dir = tempDir();
  const files = buildCheckoutApp({ outdir: 'dist' }).renderFiles();
  for (const f of files) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.content);
  }
  const workloads = files.filter((f) => f.path.startsWith('workloads/checkout/')).map((f) => parse(f.content) as JsonMap);
  const served = workloads.filter((o) => !(o.metadata as any).annotations?.['argocd.argoproj.io/hook']).map((o) => asServed(o, 'checkout', 'payments'));
  return {
    app: join(dir, 'applications/payments/Application.checkout.k8s.yaml'),
    desired: join(dir, 'workloads/checkout'),
    served,
    list: (objects: JsonMap[]) => stringify({ apiVersion: 'v1', kind: 'List', items: objects }),
  };
}

const stdinOf = (text: string) => ({ readStdin: () => Buffer.from(text, 'utf8') });

describe('safe-argocd simulate of a whole Application', () => {
  test('exits 0 with one Synced line per resource when the cluster serves what Argo CD synced, read from standard input', async () => {
    // GIVEN the synthesized checkout app and `kubectl get ... -o yaml` of its workloads
    const { app, desired, served, list } = checkoutOnDisk();
    // WHEN simulate reads live from standard input
    const run = await runCli(['simulate', '--app', app, '--desired', desired, '--live', '-'], stdinOf(list(served)));
    // THEN every resource is Synced, the hook is not compared, and the app is Synced
    expect([run.code, run.stderr]).toEqual([0, '']);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Application checkout: Synced (0 of ${served.length} resource(s) OutOfSync)`);
    expect(lines.slice(1).filter((l) => /^ {2}Synced /.test(l))).toHaveLength(served.length);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}NotCompared +batch\/Job payments\/.*: a hook: run, never compared$/));
  });

  test('exits 1 naming each resource that is OutOfSync, missing or left over, with live in a folder', async () => {
    // GIVEN live with an edited image, the Service deleted, and a ConfigMap the app once deployed
    const { app, desired, served } = checkoutOnDisk();
    const liveDir = tempDir();
    const edited: any = served.find((o) => o.kind === 'Deployment');
    edited.spec.template.spec.containers[0].image = 'registry.acme.internal/payments/checkout:hotfix';
    served.filter((o) => o.kind !== 'Service').forEach((o, i) => writeFileSync(join(liveDir, `${i}.yaml`), stringify(o)));
    writeFileSync(join(liveDir, 'old.json'), JSON.stringify(asServed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'old' }, data: {} }, 'checkout', 'payments')));
    // WHEN simulated
    const run = await runCli(['simulate', '--app', app, '--desired', desired, '--live', liveDir]);
    // THEN exit 1, and the three resources say what happens to them
    expect([run.code, run.stderr]).toEqual([1, '']);
    expect(run.stdout).toMatch(/^Application checkout: OutOfSync \(3 of \d+ resource\(s\) OutOfSync\)\n/);
    expect(run.stdout).toMatch(/\n {2}OutOfSync +apps\/Deployment payments\/checkout-web: differs: \/spec\/template\/spec\/containers\/0\/image; self-heal reverts/);
    expect(run.stdout).toMatch(/\n {2}OutOfSync +Service payments\/checkout: missing in the cluster: the next sync creates it\n/);
    expect(run.stdout).toMatch(/\n {2}OutOfSync +ConfigMap payments\/old: left over in the cluster: a sync with pruning deletes it\n/);
  });

  test('--format json gives the same verdicts as data', async () => {
    const { app, desired, served, list } = checkoutOnDisk();
    const run = await runCli(['simulate', '--app', app, '--desired', desired, '--live', '-', '--format', 'json'], stdinOf(list(served)));
    const report = JSON.parse(run.stdout);
    expect([run.code, report.application, report.outOfSync]).toEqual([0, 'checkout', false]);
    expect(report.resources.find((r: any) => r.kind === 'Deployment').report.liveAfterApply.kind).toBe('Deployment');
  });

  test('reads standard input in a real process', () => {
    const { app, desired, served, list } = checkoutOnDisk();
    const run = spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', join(REPO, 'src', 'cli', 'bin.ts'),
      'simulate', '--app', app, '--desired', desired, '--live', '-'], {
      encoding: 'utf8', input: list(served), env: { ...process.env, TS_NODE_PROJECT: join(REPO, 'test', 'tsconfig.json') },
    });
    expect([run.status, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^Application checkout: Synced/);
  });

  describe('bad input exits 2 with one message and no report', () => {
    test.each([
      ['a List of mixed garbage on standard input', (l: (o: JsonMap[]) => string, s: JsonMap[]) => l([...s, 'garbage' as unknown as JsonMap]),
        /^safe-argocd simulate: \[SAFE-102\] live -: 1 document\(s\) or List item\(s\) are not Kubernetes objects/],
      ['two live objects with the same key', (l: (o: JsonMap[]) => string, s: JsonMap[]) => l([...s, s[0]]),
        /^safe-argocd simulate: \[SAFE-011\] live -:\d+: apps\/Deployment payments\/checkout-web is also at -:\d+; /],
      ['a stream that is not YAML', () => 'items: [unclosed\n', /^safe-argocd simulate: \[SAFE-102\] live -: /],
    ])('%s', async (_name, make, message) => {
      const { app, desired, served, list } = checkoutOnDisk();
      const run = await runCli(['simulate', '--app', app, '--desired', desired, '--live', '-'], stdinOf(make(list, served)));
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    });

    test('an unreadable file in the --desired folder: named, and nothing is simulated', async () => {
      const { app, desired } = checkoutOnDisk();
      writeFileSync(join(desired, 'binary.yaml'), Buffer.from([0x00, 0xff, 0x00]));
      const run = await runCli(['simulate', '--app', app, '--desired', desired]);
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toMatch(/^safe-argocd simulate: \[SAFE-102\] cannot read --desired .*binary\.yaml: binary file \(contains NUL bytes\)/);
    });

    test('--desired - is refused: only --live reads standard input', async () => {
      const { app } = checkoutOnDisk();
      const run = await runCli(['simulate', '--app', app, '--desired', '-'], stdinOf(''));
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toBe('safe-argocd simulate: [SAFE-103] --desired - (standard input) is not supported here. '
        + 'Fix: give --desired a file or folder; only --live reads standard input.\n');
    });

    test('--app that is not an Application: refused as swapped', async () => {
      const { desired } = checkoutOnDisk();
      const notApp = join(tempDir(), 'cm.yaml');
      writeFileSync(notApp, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
      const run = await runCli(['simulate', '--app', notApp, '--desired', desired]);
      expect([run.code, run.stdout]).toEqual([2, '']);
      expect(run.stderr).toMatch(/^safe-argocd simulate: \[SAFE-104\] application: is a ConfigMap, not an Argo CD Application/);
    });
  });
});
