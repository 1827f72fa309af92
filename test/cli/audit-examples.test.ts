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

  test('the synth output holds the checkout Application, its root, its projects and its workloads', () => {
    // WHEN the files are listed
    // THEN there are two Applications (the root and checkout), two AppProjects, and the workload files
    expect(tree.filter((f) => f.kind === 'Application')).toHaveLength(2);
    expect(tree.filter((f) => f.kind === 'AppProject')).toHaveLength(2);
    expect(workloadFiles.map((f) => f.kind).sort()).toEqual(['Deployment', 'ExternalSecret', 'HorizontalPodAutoscaler', 'Job', 'Role', 'RoleBinding', 'Service']);
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
    expect(report.stats.applications).toBe(2);
    expect(report.stats.manifests).toBe(tree.length);
    expect(report.stats.files).toBe(tree.length);
  });

  test('the text report says so in its summary line', async () => {
    // WHEN the repository is audited with the default text format
    const run = await runCli(['audit', root, '--repo-root', root]);

    // THEN the summary counts no findings and the two Applications
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`0 error(s), 0 warning(s), 0 note(s); 0 suppressed; 2 Application(s), ${tree.length} manifest(s) `
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
    const { run, report } = await auditJson(copy);

    // THEN SA102 names the Deployment's file and the Application: the two were paired
    const deploymentFile = workloadFiles.find((f) => f.kind === 'Deployment')!.path;
    expect(run.code).toBe(1);
    expect(keysOf(report.findings)).toEqual([key('SA102', deploymentFile, 'checkout')]);
  });
});
