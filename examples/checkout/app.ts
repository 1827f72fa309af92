import * as kplus from 'cdk8s-plus-28';
import { ArgoProject, GitOpsApp, GitOpsAppProps, SafeApplication } from '../../src';

/**
 * The checkout service of the payments team: one SafeApplication and the workloads it deploys.
 */
export function buildCheckoutApp(props: GitOpsAppProps = {}): GitOpsApp {
  const app = new GitOpsApp(props);

  const checkout = new SafeApplication(app, 'checkout', {
    name: 'checkout',
    project: ArgoProject.fromName('payments'),
    repoUrl: 'https://git.example.com/platform/gitops.git',
    destinationNamespace: 'payments',
  });

  const web = new kplus.Deployment(checkout, 'web', {
    metadata: { name: 'checkout-web' },
    replicas: 3,
    containers: [{
      name: 'web',
      image: 'registry.example.com/payments/checkout:1.42.0',
      portNumber: 8080,
      securityContext: { user: 10001, group: 10001 },
    }],
  });
  web.exposeViaService({ name: 'checkout', ports: [{ port: 80, targetPort: 8080 }] });

  return app;
}
