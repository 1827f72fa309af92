import { GitOpsApp, HpaManagedDeployment, Autoscaler, SafeApplication, SafeProject } from '../../src';

const REPO = 'https://git.example.com/platform/gitops.git';

// In place of `new App()`: the GitOpsApp writes the Applications, the AppProject and the workloads.
const app = new GitOpsApp();
const shop = new SafeProject(app, 'shop', { name: 'shop', sourceRepos: [REPO], destinations: [{ namespace: 'orders' }] });

// Your charts' objects go inside a SafeApplication: it deploys them, with prune and self-heal.
const orders = new SafeApplication(app, 'orders', { name: 'orders', project: shop, repoUrl: REPO, destinationNamespace: 'orders' });
new HpaManagedDeployment(orders, 'web', {
  metadata: { name: 'orders' },
  autoscaler: Autoscaler.hpa({ minReplicas: 2, maxReplicas: 10, cpuUtilizationPercent: 70 }),
  containers: [{ image: 'registry.example.com/shop/orders:1.0.0', portNumber: 8080, securityContext: { user: 10001, group: 10001 } }],
});

app.synth();
