import { Construct } from 'constructs';
import {
  ApplicationSetGenerator, ArgoProject, RollingSyncMaxUpdate, SafeApplicationSet,
} from '../../src';

/**
 * One Application per folder of apps/ (apps/staging/checkout, apps/prod/checkout, ...), labelled with its
 * environment, the second segment of the folder, and rolled out staging first, then prod one at a time.
 */
export function addAppsFleet(scope: Construct): SafeApplicationSet {
  return new SafeApplicationSet(scope, 'apps', {
    name: 'apps',
    project: ArgoProject.fromName('payments'),
    repoUrl: 'https://git.example.com/platform/gitops.git',
    targetRevision: 'main',
    generators: [ApplicationSetGenerator.gitDirectories({ include: ['apps/*/*'], exclude: ['apps/sandbox/*'] })],
    applicationName: '{{index .path.segments 1}}-{{.path.basenameNormalized}}',
    path: '{{.path.path}}',
    destinationNamespace: '{{.path.basenameNormalized}}',
    applicationLabels: { env: '{{index .path.segments 1}}' },
    // Needs applicationsetcontroller.enable.progressive.syncs: "true" in argocd-cmd-params-cm.
    rollingSync: {
      label: 'env',
      steps: [{ values: ['staging'] }, { values: ['prod'], maxUpdate: RollingSyncMaxUpdate.applications(1) }],
    },
  });
}
