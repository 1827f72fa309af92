import { Construct } from 'constructs';
import { ArgoProject, ExternalSource, SafeApplication } from '../../src';

/**
 * A public chart at one exact version, with the values the platform team reviews in its own repository:
 * the chart's repository is never copied, and a change of values is a commit to the platform repository.
 */
export function addIngress(scope: Construct): SafeApplication {
  return new SafeApplication(scope, 'ingress', {
    name: 'ingress',
    project: ArgoProject.fromName('platform'),
    repoUrl: 'https://kubernetes.github.io/ingress-nginx',
    targetRevision: '4.11.3',
    destinationNamespace: 'ingress-nginx',
    externalSource: ExternalSource.helmChart('ingress-nginx', {
      releaseName: 'ingress',
      // "$values/" is the root of the ref source named "values" below; later files win.
      valueFiles: ['$values/ingress/values.yaml', '$values/ingress/values-production.yaml'],
    }),
    // Read for the value files only: a ref source without a path renders nothing.
    additionalSources: [
      ExternalSource.gitRef('values', { repoUrl: 'https://git.example.com/platform/values.git', targetRevision: 'v2.3.0' }),
    ],
  });
}
