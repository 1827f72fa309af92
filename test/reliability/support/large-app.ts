import { ApiObject } from 'cdk8s';
import { ArgoProject, GitOpsApp, SafeApplication } from '../../../src';

/**
 * Which version of the large app: `new` drops the first five apps of `old`, adds ten, and changes every file;
 * `run-<n>` has the apps of `old` and contents of its own (one per run of a concurrency test).
 */
export type Variant = 'old' | 'new' | `run-${number}`;

/**
 * A GitOpsApp of many SafeApplications (`apps` of them, `apps + 5` for `new`), each with four ConfigMaps of about
 * 5 kB: with 200 apps, some 1,200 files and 5 MB, so that writing takes long enough to be interrupted.
 */
export function buildLargeApp(outdir: string, variant: Variant, apps: number): GitOpsApp {
  const gitops = new GitOpsApp({ outdir, outdirFromRepoRoot: 'dist' });
  const first = variant === 'new' ? 5 : 0;
  const last = variant === 'new' ? apps + 10 : apps;
  for (let i = first; i < last; i++) {
    const app = new SafeApplication(gitops, `svc-${i}`, {
      name: `svc-${i}`,
      project: ArgoProject.fromName('payments'),
      repoUrl: 'https://git.acme.internal/platform/gitops.git',
      destinationNamespace: `payments-${i % 10}`,
      targetRevision: variant === 'new' ? 'release-2' : 'release-1',
    });
    for (let j = 0; j < 4; j++) {
      new ApiObject(app, `cm-${j}`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `settings-${j}` },
        data: { variant, payload: `${variant}-${i}-${j}-`.repeat(400) },
      });
    }
  }
  return gitops;
}
