import { symlinkSync } from 'fs';
import { join } from 'path';
import { applicationYaml, configMapYaml, deploymentYaml, hpaYaml, writeTree } from './support';
import { auditFiles } from '../../src/audit/audit';
import { AuditResult } from '../../src/audit/types';
import { collectFiles } from '../../src/cli/files';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { tempDir } from '../support/app';

const REPO = 'https://git.acme.internal/platform/gitops.git';

/** Audits a folder as the command line does: walked, with the links the walk found. */
function auditFolder(root: string): AuditResult {
  const collected = collectFiles([root], root, 1048576);
  return auditFiles(collected.files, {
    argoCdVersion: ArgoCdVersion.LATEST,
    repository: { urls: [REPO], otherFiles: collected.otherFiles, folderLinks: collected.folderLinks },
  });
}

/** An operator's folder whose overlays/default links to the overlay of the current release, as catalogs keep them. */
function catalog(): string {
  const root = tempDir();
  writeTree(root, {
    'operators/mesh/instance/overlays/2.x/kustomization.yaml': 'resources:\n  - mesh.yaml\n',
    'operators/mesh/instance/overlays/2.x/mesh.yaml': configMapYaml('mesh', 'istio-system'),
    'operators/mesh/aggregate/kustomization.yaml': 'resources:\n  - ../instance/overlays/default\n  - ../instance/overlays/default/mesh.yaml\n',
    'apps/mesh.yaml': applicationYaml('mesh', { path: 'operators/mesh/instance/overlays/default' }),
  });
  symlinkSync('2.x', join(root, 'operators/mesh/instance/overlays/default'));
  return root;
}

/**
 * A release folder of web (a Deployment that keeps replicas under an HPA), the links given beside it (name, target), and
 * an Application of workloads/web/current.
 */
function release(folder: string, links: [string, string][]): string {
  const root = tempDir();
  writeTree(root, {
    [`workloads/web/${folder}/web.yaml`]: deploymentYaml('web', 'web', 3),
    [`workloads/web/${folder}/hpa.yaml`]: hpaYaml('web', 'web'),
    'apps/web.yaml': applicationYaml('web', { path: 'workloads/web/current' }),
  });
  for (const [name, target] of links) {
    symlinkSync(target, join(root, 'workloads/web', name));
  }
  return root;
}

describe('symbolic links to folders inside the repository', () => {
  test('the walk reports each link to a folder with the folder it names, and reads the files once, where they are', () => {
    const root = catalog();
    const collected = collectFiles([root], root, 1048576);
    expect(collected.folderLinks).toEqual([{ path: 'operators/mesh/instance/overlays/default', target: 'operators/mesh/instance/overlays/2.x' }]);
    expect(collected.files.map((f) => f.path).filter((p) => p.endsWith('mesh.yaml'))).toEqual(['apps/mesh.yaml', 'operators/mesh/instance/overlays/2.x/mesh.yaml']);
  });

  test('a kustomization and a source path that go through the link name a folder and a file that are there (no SA018, no SA014)', () => {
    const result = auditFolder(catalog());
    expect(result.findings.filter((f) => f.ruleId === 'SA018' || f.ruleId === 'SA014')).toEqual([]);
  });

  test('an Application whose source path goes through the link deploys the files of the folder it names', () => {
    // GIVEN a plain folder of the current release, linked as current, with a Deployment that keeps replicas under an HPA
    const root = release('v2', [['current', 'v2']]);
    // WHEN audited / THEN the workload rules ran on the folder's files as the Application's
    const result = auditFolder(root);
    expect(result.findings.filter((f) => f.ruleId === 'SA101').map((f) => [f.application, f.location.file])).toEqual([
      ['web', 'workloads/web/v2/web.yaml'],
    ]);
    expect(result.notes.join('\n')).not.toContain('holds no manifests');
  });

  test('a link to a link is followed to the folder at its end', () => {
    // GIVEN current -> latest -> v3, and an Application of current
    const root = release('v3', [['latest', 'v3'], ['current', 'latest']]);
    // WHEN audited / THEN the Application deploys v3's files, and its path is there
    const result = auditFolder(root);
    expect(result.findings.filter((f) => f.ruleId === 'SA101' || f.ruleId === 'SA014').map((f) => [f.ruleId, f.application])).toEqual([['SA101', 'web']]);
  });

  test('without the link, the same kustomization lists what is not there (SA018), and the source path is missing (SA014)', () => {
    // GIVEN the catalog with the link's target renamed away, so that the link is broken
    const root = tempDir();
    writeTree(root, {
      'operators/mesh/instance/overlays/2.x/mesh.yaml': configMapYaml('mesh', 'istio-system'),
      'operators/mesh/aggregate/kustomization.yaml': 'resources:\n  - ../instance/overlays/default\n',
      'apps/mesh.yaml': applicationYaml('mesh', { path: 'operators/mesh/instance/overlays/default' }),
    });
    symlinkSync('3.x', join(root, 'operators/mesh/instance/overlays/default'));
    // WHEN audited / THEN both rules see the missing folder
    const result = auditFolder(root);
    expect(result.findings.map((f) => f.ruleId).filter((id) => id === 'SA018' || id === 'SA014').sort()).toEqual(['SA014', 'SA018']);
  });
});
