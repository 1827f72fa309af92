import * as kplus from 'cdk8s-plus-28';
import {
  AppOfApps, Autoscaler, ExternalSecret, ExternalSecretStore, GitOpsApp, GitOpsAppProps, HpaManagedDeployment,
  HumanAccess, MigrationHook, NotificationTrigger, SafeApplication, SafeProject, SecretStoreKind,
} from '../../src';

const REPO = 'https://git.example.com/platform/gitops.git';
const IMAGE = 'registry.example.com/payments/checkout:1.42.0';

/**
 * The checkout service of the payments team: its project, the app-of-apps root that deploys the
 * team's Applications, and one SafeApplication with the workloads it deploys.
 */
export function buildCheckoutApp(props: GitOpsAppProps = {}): GitOpsApp {
  const app = new GitOpsApp(props);

  // What the payments team's Applications may do: this repository, the payments namespace, no cluster-scoped kinds.
  const payments = new SafeProject(app, 'payments', {
    name: 'payments',
    sourceRepos: [REPO],
    destinations: [{ namespace: 'payments' }],
    developerGroups: ['payments-developers'],
    onCallGroups: ['payments-oncall'],
    // Every Application of the project pages the on-call when it turns Degraded; an app with a migration also
    // subscribes them to on-sync-failed, since a failed migration stops the sync.
    notifications: [{ trigger: NotificationTrigger.ON_HEALTH_DEGRADED, service: 'pagerdutyv2', recipients: ['payments-oncall'] }],
  });
  // The platform project holds the roots; a root deploys one team's Applications and AppProject.
  const platform = new SafeProject(app, 'platform', {
    name: 'platform',
    sourceRepos: [REPO],
    destinations: [{ namespace: 'argocd' }],
  });
  new AppOfApps(app, 'payments-apps', {
    name: 'payments-apps',
    project: platform,
    childProject: payments,
    repoUrl: REPO,
  });

  const checkout = new SafeApplication(app, 'checkout', {
    name: 'checkout',
    project: payments,
    repoUrl: REPO,
    destinationNamespace: 'payments',
  });

  // The database password comes from the secret store; no secret value is ever in Git.
  new ExternalSecret(checkout, 'db', {
    name: 'checkout-db',
    store: ExternalSecretStore.fromName('platform-vault', SecretStoreKind.CLUSTER_SECRET_STORE),
    data: [{ secretKey: 'password', remoteKey: 'payments/checkout/db', remoteProperty: 'password' }],
  });

  // Runs before anything else of the app is applied; if it fails, the sync stops and the old code keeps running.
  new MigrationHook(checkout, 'migrate', {
    container: {
      image: IMAGE,
      command: ['./checkout', 'migrate', '--to-latest'],
      envVariables: { DB_PASSWORD: kplus.EnvValue.fromSecretValue({ secret: kplus.Secret.fromSecretName(checkout, 'db-ref', 'checkout-db'), key: 'password' }) },
      securityContext: { user: 10001, group: 10001 },
    },
  });

  // The HPA owns the replica count: no replicas in Git, and Argo CD leaves /spec/replicas alone.
  const web = new HpaManagedDeployment(checkout, 'web', {
    metadata: { name: 'checkout-web' },
    autoscaler: Autoscaler.hpa({ minReplicas: 3, maxReplicas: 12, cpuUtilizationPercent: 70 }),
    containers: [{
      name: 'web',
      image: IMAGE,
      portNumber: 8080,
      securityContext: { user: 10001, group: 10001 },
    }],
  });
  web.deployment.exposeViaService({ name: 'checkout', ports: [{ port: 80, targetPort: 8080 }] });

  // People read, tail logs and exec; only Argo CD writes.
  new HumanAccess(checkout, 'humans', { groups: ['payments-developers', 'payments-oncall'] });

  return app;
}
