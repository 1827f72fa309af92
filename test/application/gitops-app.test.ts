import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { join } from 'path';
import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import { ExternalSource, GitOpsApp, SafeApplication } from '../../src';
import { addConfigMap, appProps, newApp, readTree, tempDir, yamlOf } from '../support/app';

describe('GitOpsApp output layout', () => {
  test('writes each Application to applications/ and its workloads to the folder its source.path names', () => {
    // GIVEN two apps with workloads
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const checkout = new SafeApplication(gitops, 'checkout', appProps());
    addConfigMap(checkout, 'settings');
    const ledger = new SafeApplication(gitops, 'ledger', appProps({ name: 'ledger', destinationNamespace: 'ledger' }));
    addConfigMap(ledger, 'settings');
    // WHEN rendered
    const files = gitops.renderFiles();
    // THEN the layout is predictable and source.path matches the workload folders
    expect(files.map((f) => f.path)).toEqual([
      'applications/payments/Application.checkout.k8s.yaml',
      'applications/payments/Application.ledger.k8s.yaml',
      'runbooks/checkout.md',
      'runbooks/ledger.md',
      'workloads/checkout/ConfigMap.settings.k8s.yaml',
      'workloads/ledger/ConfigMap.settings.k8s.yaml',
    ]);
    for (const name of ['checkout', 'ledger']) {
      const application = yamlOf(files.find((f) => f.path === `applications/payments/Application.${name}.k8s.yaml`)!.content);
      expect(application.spec.source.path).toBe(`dist/workloads/${name}`);
      expect(files.some((f) => f.path.startsWith(`${application.spec.source.path.replace(/^dist\//, '')}/`))).toBe(true);
    }
  });

  test('source.path is relative to the repository root, which is configurable', () => {
    const { app } = newApp({}, { outdir: 'out', outdirFromRepoRoot: 'deploy/rendered', workloadsDir: 'services', applicationsDir: 'apps' });
    expect(app.sourcePath).toBe('deploy/rendered/services/checkout');
    const root = newApp({}, { outdir: 'out', outdirFromRepoRoot: '.' });
    expect(root.app.sourcePath).toBe('workloads/checkout');
    expect(root.gitops.renderFiles().map((f) => f.path)).toContain('workloads/checkout/ConfigMap.settings.k8s.yaml');
  });

  test('objects in nested constructs and in other namespaces get distinct files', () => {
    // GIVEN two ConfigMaps with the same name in two namespaces
    const { app, gitops } = newApp();
    addConfigMap(app, 'settings', 'other');
    // WHEN rendered THEN neither overwrites the other
    const paths = gitops.renderFiles().map((f) => f.path).filter((p) => p.startsWith('workloads/'));
    expect(paths).toEqual(['workloads/checkout/ConfigMap.other.settings.k8s.yaml', 'workloads/checkout/ConfigMap.payments.settings.k8s.yaml']);
  });

  test('an app with an external source writes only its Application', () => {
    const gitops = new GitOpsApp({ outdir: 'dist' });
    new SafeApplication(gitops, 'legacy', appProps({ name: 'legacy', externalSource: ExternalSource.gitPath('deploy/prod') }));
    expect(gitops.renderFiles().map((f) => f.path)).toEqual(['applications/payments/Application.legacy.k8s.yaml', 'runbooks/legacy.md']);
  });

  test.each([
    ['outdirFromRepoRoot outside the repository', { outdirFromRepoRoot: '../elsewhere' }, /\[SAFE-017\].*outdirFromRepoRoot is "\.\.\/elsewhere"/],
    ['an absolute outdirFromRepoRoot', { outdirFromRepoRoot: '/abs' }, /\[SAFE-017\]/],
    ['applicationsDir equal to workloadsDir', { applicationsDir: 'same', workloadsDir: 'same' }, /\[SAFE-017\].*workloadsDir/],
    ['workloadsDir "."', { workloadsDir: '.' }, /\[SAFE-017\].*workloadsDir/],
  ])('fails when given %s', (_label, props, message) => {
    expect(() => new GitOpsApp(props)).toThrow(message);
  });

  test('fails when two SafeApplications share a name', () => {
    const { gitops } = newApp();
    const twin = new SafeApplication(gitops, 'twin', appProps());
    addConfigMap(twin, 'other');
    expect(() => gitops.renderFiles()).toThrow(/\[SAFE-011\].*"checkout" is also used by checkout/);
  });

  test('fails when an object is outside every SafeApplication', () => {
    const { gitops } = newApp();
    const loose = new Chart(gitops, 'loose');
    new ApiObject(loose, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'orphan' } });
    expect(() => gitops.renderFiles()).toThrow(/loose\/cm: \[SAFE-015\] ConfigMap orphan is not inside a SafeApplication/);
  });
});

describe('GitOpsApp determinism', () => {
  test('the same app renders the same bytes, twice in one process and across two writes', () => {
    // GIVEN two independently built, identical apps
    const first = newApp();
    const second = newApp();
    // WHEN both are rendered and written
    const a = tempDir();
    const b = tempDir();
    first.gitops.renderFiles();
    const one = first.gitops.renderFiles();
    const two = second.gitops.renderFiles();
    // THEN every file is byte-identical
    expect(two).toEqual(one);
    const writeTo = (dir: string) => {
      const { gitops } = newApp({}, { outdir: join(dir, 'dist'), outdirFromRepoRoot: 'dist' });
      gitops.synth();
      return readTree(join(dir, 'dist'));
    };
    expect(writeTo(b)).toEqual(writeTo(a));
    expect(Object.keys(writeTo(a))).toEqual(['applications/payments/Application.checkout.k8s.yaml', 'runbooks/checkout.md', 'workloads/checkout/ConfigMap.settings.k8s.yaml']);
  });
});

describe('GitOpsApp atomic output', () => {
  function synthInto(dir: string, breakIt: boolean): GitOpsApp {
    const { gitops, app } = newApp({}, { outdir: join(dir, 'dist'), outdirFromRepoRoot: 'dist' });
    if (breakIt) {
      ApiObject.of(app).addJsonPatch(JsonPatch.replace('/spec/syncPolicy/automated/prune', false));
    }
    return gitops;
  }

  test('fails when validation fails, leaving the previous output intact and no temporary folder', () => {
    // GIVEN a good previous output
    const dir = tempDir();
    synthInto(dir, false).synth();
    const before = readTree(join(dir, 'dist'));
    // WHEN a later synth fails validation
    expect(() => synthInto(dir, true).synth()).toThrow(/\[SAFE-100\].*"[^"]*dist" is unchanged/);
    // THEN the previous output is exactly as it was
    expect(readTree(join(dir, 'dist'))).toEqual(before);
    expect(fs.readdirSync(dir)).toEqual(['dist']);
  });

  test('fails when writing fails half-way, leaving the previous output intact', () => {
    // GIVEN a good previous output, and a disk that fails on the second file
    const dir = tempDir();
    synthInto(dir, false).synth();
    const before = readTree(join(dir, 'dist'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const nodeFs = require('fs');
    const real = nodeFs.writeFileSync;
    let calls = 0;
    nodeFs.writeFileSync = (...args: any[]) => {
      if (++calls === 2) {
        throw new Error('ENOSPC: no space left on device');
      }
      return real(...args);
    };
    try {
      // WHEN the synth dies mid-write
      expect(() => synthInto(dir, false).synth()).toThrow(/\[SAFE-101\].*ENOSPC/);
    } finally {
      nodeFs.writeFileSync = real;
    }
    expect(calls).toBe(2);
    // THEN nothing changed
    expect(readTree(join(dir, 'dist'))).toEqual(before);
    expect(fs.readdirSync(dir)).toEqual(['dist']);
  });

  test('a successful synth replaces the whole folder: files of removed apps disappear', () => {
    const dir = tempDir();
    fs.mkdirSync(join(dir, 'dist', 'workloads', 'removed-app'), { recursive: true });
    fs.writeFileSync(join(dir, 'dist', 'workloads', 'removed-app', 'ConfigMap.x.k8s.yaml'), 'stale');
    synthInto(dir, false).synth();
    expect(Object.keys(readTree(join(dir, 'dist')))).toEqual(['applications/payments/Application.checkout.k8s.yaml', 'runbooks/checkout.md', 'workloads/checkout/ConfigMap.settings.k8s.yaml']);
  });

  test('a write that died between its two renames is recovered by the next one', () => {
    // GIVEN the state a crash between the renames leaves: no outdir, the previous tree in .safe-argocd-old-<id>
    // and the new one in .safe-argocd-tmp-<id>, of a process that is gone
    const dir = tempDir();
    synthInto(dir, false).synth();
    const id = `${spawnSync(process.execPath, ['-e', '']).pid}-0123456789ab`;
    fs.cpSync(join(dir, 'dist'), join(dir, `dist.safe-argocd-tmp-${id}`), { recursive: true });
    fs.renameSync(join(dir, 'dist'), join(dir, `dist.safe-argocd-old-${id}`));
    // WHEN a failing synth runs, nothing is touched; a good one restores then replaces
    expect(() => synthInto(dir, true).synth()).toThrow(/SAFE-100/);
    expect(fs.readdirSync(dir).sort()).toEqual([`dist.safe-argocd-old-${id}`, `dist.safe-argocd-tmp-${id}`]);
    synthInto(dir, false).synth();
    expect(fs.readdirSync(dir)).toEqual(['dist']);
  });

  test('fails when outdir is the working directory', () => {
    const { gitops } = newApp({}, { outdir: process.cwd(), outdirFromRepoRoot: '.' });
    expect(() => gitops.synth()).toThrow(/\[SAFE-101\] refusing to replace/);
  });
});
