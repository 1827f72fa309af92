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
  const applicationFile = tree.find((f) => f.kind === 'Application')!;
  const workloadFiles = tree.filter((f) => f.kind !== 'Application');

  test('the synth output holds one Application and its workloads', () => {
    // WHEN the files are listed
    // THEN there is one Application and several workload files
    expect(tree.filter((f) => f.kind === 'Application')).toHaveLength(1);
    expect(workloadFiles.map((f) => f.kind).sort()).toEqual(['Deployment', 'HorizontalPodAutoscaler', 'Job', 'Service']);
  });

  test('audits clean: exit 0, no findings, one Application paired with all its workloads', async () => {
    // WHEN the repository is audited
    const { run, report } = await auditJson(root);

    // THEN nothing is wrong, and the Application found every workload file under its source path
    expect(run.code).toBe(0);
    expect(report.findings).toEqual([]);
    expect(report.suppressed).toEqual([]);
    expect(report.problems).toEqual([]);
    expect(report.notes).toEqual([]);
    expect(report.stats.applications).toBe(1);
    expect(report.stats.manifests).toBe(workloadFiles.length + 1);
    expect(report.stats.files).toBe(workloadFiles.length + 1);
  });

  test('the text report says so in its summary line', async () => {
    // WHEN the repository is audited with the default text format
    const run = await runCli(['audit', root, '--repo-root', root]);

    // THEN the summary counts no findings and one Application
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`0 error(s), 0 warning(s), 0 note(s); 0 suppressed; 1 Application(s), ${workloadFiles.length + 1} manifest(s) `
      + `in ${workloadFiles.length + 1} file(s); 0 non-Kubernetes document(s) and 0 Helm chart file(s) skipped; 0 unreadable file(s)\n`);
  });

  test('the workloads are checked as the Application\'s: without its ignore rule the Deployment is reported', async () => {
    // GIVEN a copy whose Application lost its ignoreDifferences for the HPA-managed Deployment
    const copy = tempDir();
    cpSync(root, copy, { recursive: true });
    const application = parse(applicationFile.text);
    delete application.spec.ignoreDifferences;
    writeFileSync(join(copy, applicationFile.path), stringify(application));

    // WHEN the copy is audited
    const { run, report } = await auditJson(copy);

    // THEN SA102 names the Deployment's file and the Application: the two were paired
    const deploymentFile = workloadFiles.find((f) => f.kind === 'Deployment')!.path;
    expect(run.code).toBe(1);
    expect(keysOf(report.findings)).toEqual([key('SA102', deploymentFile, 'checkout')]);
  });
});
