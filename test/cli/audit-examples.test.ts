import { cpSync, writeFileSync } from 'fs';
import { join } from 'path';
import { parse, stringify } from 'yaml';
import { buildCheckoutApp } from '../../examples/checkout/app';
import { auditJson, key, keysOf, runCli } from '../audit/support';
import { readTree, tempDir } from '../support/app';

describe('safe-argocd audit of the examples\' synth output', () => {
  // GIVEN the checkout example synthesized into dist/ of a fresh repository
  const root = tempDir();
  buildCheckoutApp({ outdir: join(root, 'dist'), outdirFromRepoRoot: 'dist' }).synth();
  // Found by kind, not by file name: the layout of the tree is the library's to choose.
  const tree = Object.entries(readTree(root)).filter(([path]) => path.endsWith('.yaml')).map(([path, text]) => ({ path, text, kind: (parse(text) as { kind: string }).kind }));
  const applicationFile = tree.find((f) => f.kind === 'Application' && parse(f.text).metadata.name === 'checkout')!;
  const workloadFiles = tree.filter((f) => f.path.startsWith('dist/workloads/'));
  // The example's repository and images are example.com addresses on purpose: the config says so, with a reason.
  const config = join(tempDir(), 'placeholders.yaml');
  writeFileSync(config, 'suppressions:\n  - ruleId: SA009\n    reason: the example\'s repository and images are placeholders on purpose\n');
  const placeholders = [
    key('SA009', 'dist/applications/payments/Application.checkout.k8s.yaml', 'checkout'),
    key('SA009', 'dist/roots/Application.payments-apps.k8s.yaml', 'payments-apps'),
    key('SA009', 'dist/workloads/checkout/Deployment.checkout-web.k8s.yaml', 'checkout'),
    key('SA009', 'dist/workloads/checkout/Job.checkout-migrate.k8s.yaml', 'checkout'),
  ];

  test('the synth output holds the checkout Application, its root, its projects and its workloads', () => {
    // WHEN the files are listed
    // THEN there are two Applications (the root and checkout), two AppProjects, and the workload files
    expect(tree.filter((f) => f.kind === 'Application')).toHaveLength(2);
    expect(tree.filter((f) => f.kind === 'AppProject')).toHaveLength(2);
    expect(workloadFiles.map((f) => f.kind).sort()).toEqual(['Deployment', 'ExternalSecret', 'HorizontalPodAutoscaler', 'Job', 'Role', 'RoleBinding', 'Service']);
  });

  test('fails when audited as it is: its placeholder addresses are warnings (SA009), and nothing else is found', async () => {
    // WHEN the repository is audited without the config
    const { run, report } = await auditJson(root);

    // THEN each example.com address is reported once, where it is
    expect(run.code).toBe(1);
    expect(keysOf(report.findings)).toEqual(placeholders);
  });

  test('audits clean once the placeholders are accepted: exit 0, one Application paired with all its workloads', async () => {
    // WHEN the repository is audited with the config that accepts the placeholders
    const { run, report } = await auditJson(root, '--config', config);

    // THEN nothing else is wrong, and the Application found every workload file under its source path
    expect(run.code).toBe(0);
    expect(report.findings).toEqual([]);
    expect(keysOf(report.suppressed)).toEqual(placeholders);
    expect(report.problems).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.stats.applications).toBe(2);
    expect(report.stats.manifests).toBe(tree.length);
    expect(report.stats.files).toBe(tree.length);
  });

  test('the text report says so in its summary line', async () => {
    // WHEN the repository is audited with the default text format
    const run = await runCli(['audit', root, '--repo-root', root, '--config', config]);

    // THEN the summary counts no findings and the two Applications
    expect(run.code).toBe(0);
    expect(run.stdout.split('suppressed (4):\n')[0]).toBe('');
    expect(run.stdout.split('\n\n').pop()).toBe(`0 error(s), 0 warning(s), 0 note(s); 4 suppressed; 2 Application(s), ${tree.length} manifest(s) `
      + `in ${tree.length} file(s); 0 non-Kubernetes document(s) and 0 Helm chart file(s) skipped; 0 unreadable file(s)\n`);
  });

  test('the workloads are checked as the Application\'s: without its ignore rule the Deployment is reported', async () => {
    // GIVEN a copy whose Application lost its ignoreDifferences for the HPA-managed Deployment
    const copy = tempDir();
    cpSync(root, copy, { recursive: true });
    const application = parse(applicationFile.text);
    delete application.spec.ignoreDifferences;
    writeFileSync(join(copy, applicationFile.path), stringify(application));

    // WHEN the copy is audited
    const { run, report } = await auditJson(copy, '--config', config);

    // THEN SA102 names the Deployment's file and the Application: the two were paired
    const deploymentFile = workloadFiles.find((f) => f.kind === 'Deployment')!.path;
    expect(run.code).toBe(1);
    expect(keysOf(report.findings)).toEqual([key('SA102', deploymentFile, 'checkout')]);
  });
});
