import { execFileSync } from 'child_process';
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { parse, stringify } from 'yaml';
import { Autoscaler, CanaryStep, GitOpsApp, HpaManagedRollout, LiveScenario, RolloutStrategy, SafeApplication } from '../../src';
import { main } from '../../src/cli/main';
import { nodeIo } from '../../src/cli/node-io';
import { appProps, tempDir } from '../support/app';
import { writeCheckoutInputs } from '../support/hostile';

/** Runs the CLI in-process and captures what it prints. */
async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: (t) => { stdout += t; },
    stderr: (t) => { stderr += t; },
    readBytes: nodeIo().readBytes,
    writeFile: () => { throw new Error('not expected'); },
    exists: () => false,
    mkdir: () => undefined,
    color: false,
  });
  return { code, stdout, stderr };
}

describe('safe-argocd simulate', () => {
  // GIVEN the checkout example's Application and Deployment, and live objects built from them
  const dir = tempDir();
  const { app, desired } = writeCheckoutInputs(dir);
  const live = (name: string, scenario: LiveScenario) => {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, scenario.liveFrom(readFileSync(desired, 'utf8')));
    return path;
  };
  const scaled = live('scaled', LiveScenario.hpaScales(8));
  const edited = live('edited', LiveScenario.kubectlSetImage('web', 'registry.acme.internal/payments/checkout:hotfix'));

  test('exits 0 and says Synced when the HPA scaled the Deployment', async () => {
    const { code, stdout } = await run(['simulate', '--app', app, '--desired', desired, '--live', scaled]);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'Deployment payments/checkout-web: Synced',
      '  self-heal: nothing to revert',
      '  kept as live has it (ignored): /spec/replicas',
      '',
    ].join('\n'));
  });

  test('exits 1 and names the field when a human changed the image', async () => {
    const { code, stdout } = await run(['simulate', '--app', app, '--desired', desired, '--live', edited]);
    expect(code).toBe(1);
    expect(stdout).toContain('Deployment payments/checkout-web: OutOfSync');
    expect(stdout).toContain('  differs: /spec/template/spec/containers/0/image');
    expect(stdout).toContain('  self-heal reverts: /spec/template/spec/containers/0/image');
  });

  test('prints JSON with --format json', async () => {
    const { code, stdout } = await run(['simulate', '--app', app, '--desired', desired, '--live', edited, '--format', 'json']);
    const report = JSON.parse(stdout);
    expect(code).toBe(1);
    expect(report.resource).toBe('Deployment payments/checkout-web');
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual(['/spec/template/spec/containers/0/image']);
    expect(report.liveAfterApply.spec.template.spec.containers[0].image).toBe('registry.example.com/payments/checkout:1.42.0');
  });

  test('without --live the resource does not exist yet: OutOfSync', async () => {
    const { code, stdout } = await run(['simulate', '--app', app, '--desired', desired]);
    expect(code).toBe(1);
    expect(stdout).toContain('differs: (the whole object)');
  });

  test.each([
    [['simulate', '--desired', 'x.yaml']],
    [['simulate', '--app', 'a.yaml', '--desired', 'd.yaml', '--format', 'xml']],
    [['simulate', '--app', 'a.yaml', '--desired', 'd.yaml', '--bogus']],
    [['frobnicate']],
    [[]],
  ])('fails when the arguments are wrong: %j exits 2 with usage', async (args) => {
    const { code, stdout, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stdout + stderr).toContain('usage:');
  });

  test('fails when a file cannot be read: exit 2 naming the file', async () => {
    const { code, stderr } = await run(['simulate', '--app', join(dir, 'missing.yaml'), '--desired', desired]);
    expect(code).toBe(2);
    expect(stderr).toContain('cannot read');
    expect(stderr).toContain('missing.yaml');
  });

  test('fails when a file is not YAML: exit 2 with [SAFE-102]', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'kind: [unclosed\n  : :');
    const { code, stderr } = await run(['simulate', '--app', app, '--desired', bad]);
    expect(code).toBe(2);
    expect(stderr).toContain(`[SAFE-102] --desired ${bad}: YAML error at line 2`);
  });

  test('the bin entry runs as a program and sets the exit code', () => {
    let status = 0;
    let out = '';
    try {
      out = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', join(__dirname, '..', '..', 'src', 'cli', 'bin.ts'),
        'simulate', '--app', app, '--desired', desired, '--live', edited], { encoding: 'utf8', env: { ...process.env, TS_NODE_PROJECT: join(__dirname, '..', 'tsconfig.json') } });
    } catch (e) {
      status = (e as { status: number }).status;
      out = (e as { stdout: string }).stdout;
    }
    expect(status).toBe(1);
    expect(out).toContain('OutOfSync');
  });
});

describe('safe-argocd simulate on an Argo Rollout an HPA scales', () => {
  // GIVEN an HpaManagedRollout's rendered Rollout and Application, and the Rollout as the HPA left it
  const dir = tempDir();
  const gitops = new GitOpsApp({ outdir: 'dist' });
  new HpaManagedRollout(new SafeApplication(gitops, 'checkout', appProps()), 'web', {
    metadata: { name: 'checkout-web' },
    autoscaler: Autoscaler.hpa({ maxReplicas: 10, cpuUtilizationPercent: 70 }),
    strategy: RolloutStrategy.canary({ steps: [CanaryStep.weight(50), CanaryStep.pause()] }),
    containers: [{ name: 'web', image: 'registry.acme.internal/payments/checkout:1.42.0', portNumber: 8080 }],
  });
  const files = gitops.renderFiles();
  const text = (path: string) => files.find((f) => f.path === path)!.content;
  const write = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const rollout = text('workloads/checkout/Rollout.checkout-web.k8s.yaml');
  const desired = write('rollout.yaml', rollout);
  const application = text('applications/payments/Application.checkout.k8s.yaml');
  const app = write('app.yaml', application);
  // The Rollout once had replicas: 3 in Git (last-applied has it); the HPA then scaled it to 7.
  const old = parse(rollout);
  old.spec.replicas = 3;
  const live = write('live.json', LiveScenario.hpaScales(7).liveFrom(stringify(old)));

  test('with the ignore rule: exits 0, Synced, and the HPA\'s count is kept', async () => {
    const { code, stdout } = await run(['simulate', '--app', app, '--desired', desired, '--live', live]);
    expect(code).toBe(0);
    expect(stdout).toBe([
      'Rollout payments/checkout-web: Synced',
      '  self-heal: nothing to revert',
      '  kept as live has it (ignored): /spec/replicas',
      '',
    ].join('\n'));
  });

  test('without the ignore rule: exits 1, and self-heal reverts /spec/replicas', async () => {
    const withoutIgnore = parse(application);
    delete withoutIgnore.spec.ignoreDifferences;
    const { code, stdout } = await run(['simulate', '--app', write('app-without.yaml', stringify(withoutIgnore)), '--desired', desired, '--live', live]);
    expect(code).toBe(1);
    expect(stdout).toContain('Rollout payments/checkout-web: OutOfSync');
    expect(stdout).toContain('  self-heal reverts: /spec/replicas');
  });
});
