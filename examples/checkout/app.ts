import {
  ArgoProject, Autoscaler, GitOpsApp, GitOpsAppProps, HpaManagedDeployment, MigrationHook, SafeApplication,
} from '../../src';

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

  // Runs before anything else of the app is applied; if it fails, the sync stops and the old code keeps running.
  new MigrationHook(checkout, 'migrate', {
    container: {
      image: 'registry.example.com/payments/checkout:1.42.0',
      command: ['./checkout', 'migrate', '--to-latest'],
      securityContext: { user: 10001, group: 10001 },
    },
  });

  // The HPA owns the replica count: no replicas in Git, and Argo CD leaves /spec/replicas alone.
  const web = new HpaManagedDeployment(checkout, 'web', {
    metadata: { name: 'checkout-web' },
    autoscaler: Autoscaler.hpa({ minReplicas: 3, maxReplicas: 12, cpuUtilizationPercent: 70 }),
    containers: [{
      name: 'web',
      image: 'registry.example.com/payments/checkout:1.42.0',
      portNumber: 8080,
      securityContext: { user: 10001, group: 10001 },
    }],
  });
  web.deployment.exposeViaService({ name: 'checkout', ports: [{ port: 80, targetPort: 8080 }] });

  return app;
}
