import { Construct } from 'constructs';
import { ArgoProject, ExternalSource, SafeApplication } from '../../src';

/**
 * The production overlay of a deployment repository, promoted by changing the Application only: the image
 * that passed staging, pinned by digest, and the labels every object of the environment carries.
 */
export function addPaymentsProd(scope: Construct): SafeApplication {
  return new SafeApplication(scope, 'payments-prod', {
    name: 'payments-prod',
    project: ArgoProject.fromName('payments'),
    repoUrl: 'https://git.example.com/payments/deploy.git',
    targetRevision: 'v1.4.2',
    destinationNamespace: 'payments',
    externalSource: ExternalSource.gitPath('overlays/prod', {
      kustomize: {
        images: [
          // The exact image staging ran, whatever the tag points to later.
          { name: 'ghcr.io/acme/payments-api', digest: 'sha256:4b3b7e1a0f6c2d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f' },
          // The worker from the internal mirror, at a tag.
          { name: 'ghcr.io/acme/payments-worker', newName: 'registry.example.com/payments-worker', newTag: '1.4.2' },
        ],
        namePrefix: 'prod-',
        namespace: 'payments',
        // Also added to selectors, which Kubernetes never lets change: choose them once.
        commonLabels: { 'app.kubernetes.io/part-of': 'payments', 'environment': 'production' },
        commonAnnotations: { 'example.com/runbook': 'https://runbooks.example.com/payments' },
      },
    }),
  });
}
