import { Construct } from 'constructs';
import { ArgoProject, ExternalSource, SafeApplication } from '../../src';

/**
 * A chart from the team's Helm repository, one exact chart version, with the values it is rendered with.
 * The database password is not here: an ExternalSecret delivers it, and the chart reads the Secret by name.
 */
export function addPaymentsApi(scope: Construct): SafeApplication {
  return new SafeApplication(scope, 'payments-api', {
    name: 'payments-api',
    project: ArgoProject.fromName('payments'),
    repoUrl: 'https://charts.example.com/payments',
    targetRevision: '2.7.1',
    destinationNamespace: 'payments',
    externalSource: ExternalSource.helmChart('payments-api', {
      releaseName: 'api',
      // A file inside the chart package, applied after its values.yaml.
      valueFiles: ['values-production.yaml'],
      // Values as the chart's values.yaml nests them (JSON.stringify of an object works too).
      valuesYaml: `
replicaCount: 3
database:
  host: payments-db.payments.svc
  existingSecret: payments-db-credentials
ingress:
  enabled: true
  hosts: [pay.example.com]
`,
      // Applied last; forceString keeps "0123" a string instead of the number 123.
      parameters: [{ name: 'podLabels.cost-center', value: '0123', forceString: true }],
    }),
  });
}
