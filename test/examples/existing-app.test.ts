import { execFileSync } from 'child_process';
import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import { runCli } from '../cli/support';
import { readTree, tempDir, yamlOf } from '../support/app';

const REPO = join(__dirname, '..', '..');

describe('examples/existing-app: the README\'s main.ts of an existing cdk8s app', () => {
  test('synthesizes as cdk8s synth runs it, deep in a repository, and the tree audits clean', async () => {
    // GIVEN a repository whose cdk8s app lies in deploy/, run the way cdk8s synth runs it: CDK8S_OUTDIR=dist
    const repo = tempDir();
    const appDir = join(repo, 'deploy');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(appDir);
    execFileSync(process.execPath, ['-r', join(REPO, 'node_modules', 'ts-node', 'register', 'transpile-only'), join(REPO, 'examples', 'existing-app', 'main.ts')], {
      cwd: appDir,
      env: { ...process.env, CDK8S_OUTDIR: 'dist', TS_NODE_PROJECT: join(REPO, 'test', 'tsconfig.json') },
    });

    // THEN the Application deploys its workloads' folder, named from the repository root
    const tree = readTree(join(appDir, 'dist'));
    expect(Object.keys(tree)).toEqual([
      'applications/shop/AppProject.shop.k8s.yaml',
      'applications/shop/Application.orders.k8s.yaml',
      'runbooks/orders.md',
      'workloads/orders/Deployment.orders.k8s.yaml',
      'workloads/orders/HorizontalPodAutoscaler.orders.k8s.yaml',
    ]);
    expect(yamlOf(tree['applications/shop/Application.orders.k8s.yaml']).spec.source.path).toBe('deploy/dist/workloads/orders');

    // WHEN the repository is audited THEN nothing is found and the Application found its workloads
    const config = join(tempDir(), 'placeholders.yaml');
    writeFileSync(config, 'suppressions:\n  - ruleId: SA009\n    reason: the example\'s addresses are placeholders on purpose\n');
    const { code, stdout } = await runCli(['audit', repo, '--format', 'json', '--config', config]);
    const report = JSON.parse(stdout);
    expect(report.findings).toEqual([]);
    expect(report.suppressed.map((f: { ruleId: string }) => f.ruleId)).toEqual(['SA009', 'SA009']);
    expect(report.notes).toEqual([]);
    expect(report.stats.applications).toBe(1);
    expect(code).toBe(0);
  }, 60_000);
});
