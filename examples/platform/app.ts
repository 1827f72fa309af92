import {
  AppOfApps, ExternalSource, GitOpsApp, GitOpsAppProps, NotificationSubscription, NotificationTrigger, SafeApplication, SafeProject,
} from '../../src';
import { addAppsFleet } from '../snippets/git-fleet';
import { addPaymentsApi } from '../snippets/helm-values';
import { addIngress } from '../snippets/helm-values-from-git';
import { addCanaryWeb } from '../snippets/rollout';
import { addSessionCache } from '../snippets/stateful-set';

/** The platform repository: this app's output and the ApplicationSet's folders. */
const PLATFORM_REPO = 'https://git.example.com/platform/gitops.git';
/** Where the platform team reviews the values of third-party charts. */
const VALUES_REPO = 'https://git.example.com/platform/values.git';
/** The payments team's deployment repository: a Kustomize base and an overlay per environment. */
const DEPLOY_REPO = 'https://git.example.com/payments/deploy.git';

const pages = (recipient: string): NotificationSubscription[] => [
  { trigger: NotificationTrigger.ON_HEALTH_DEGRADED, service: 'pagerdutyv2', recipients: [recipient] },
];

/**
 * What a platform team deploys next to its own services, one of each shape, assembled from the README's snippets:
 * ingress-nginx with its values from the platform's values repository, the payments team's chart with its values
 * inline, a Kustomize overlay per environment, a StatefulSet and an Argo Rollout whose replicas HPAs own, and one
 * Application per folder of apps/ from a git directory generator. One AppOfApps root per project deploys them.
 */
export function buildPlatformApp(props: GitOpsAppProps = {}): GitOpsApp {
  const app = new GitOpsApp(props);

  // The snippets name their projects by string; the projects are defined here, so the synth checks every
  // destination and repository against them.
  const platform = new SafeProject(app, 'platform', {
    name: 'platform',
    sourceRepos: [PLATFORM_REPO, VALUES_REPO, 'https://kubernetes.github.io/ingress-nginx'],
    destinations: [{ namespace: 'argocd' }, { namespace: 'ingress-nginx' }],
    onCallGroups: ['platform-oncall'],
    notifications: pages('platform-oncall'),
  });
  const payments = new SafeProject(app, 'payments', {
    name: 'payments',
    sourceRepos: [PLATFORM_REPO, DEPLOY_REPO, 'https://charts.example.com/payments'],
    destinations: [{ namespace: 'payments' }, { namespace: 'payments-staging' }],
    developerGroups: ['payments-developers'],
    onCallGroups: ['payments-oncall'],
    notifications: pages('payments-oncall'),
  });
  new AppOfApps(app, 'platform-apps', { name: 'platform-apps', project: platform, childProject: platform, repoUrl: PLATFORM_REPO });
  new AppOfApps(app, 'payments-apps', { name: 'payments-apps', project: platform, childProject: payments, repoUrl: PLATFORM_REPO });

  // Third-party and team charts: one exact chart version each, values from Git or inline.
  addIngress(app);
  addPaymentsApi(app);

  // The payments team's overlays, one Application per environment, each promoted by the image digest it pins.
  const digests = {
    staging: 'sha256:0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d',
    production: 'sha256:4b3b7e1a0f6c2d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f',
  };
  for (const [env, digest] of Object.entries(digests)) {
    const namespace = env === 'production' ? 'payments' : `payments-${env}`;
    new SafeApplication(app, `payments-${env}`, {
      name: `payments-${env}`,
      project: payments,
      repoUrl: DEPLOY_REPO,
      targetRevision: 'v1.4.2',
      destinationNamespace: namespace,
      externalSource: ExternalSource.gitPath(`overlays/${env}`, {
        kustomize: { images: [{ name: 'ghcr.io/acme/payments-api', digest }], namespace, commonAnnotations: { 'example.com/environment': env } },
      }),
    });
  }

  // Stateful and progressive workloads of one app, their replica counts owned by HPAs.
  const checkout = new SafeApplication(app, 'checkout', { name: 'checkout', project: payments, repoUrl: PLATFORM_REPO, destinationNamespace: 'payments' });
  addSessionCache(checkout);
  addCanaryWeb(checkout);

  // One Application per folder of apps/<env>/<service>, staging first.
  addAppsFleet(app);
  return app;
}
