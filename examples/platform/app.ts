import { Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  AppOfApps, ApplicationSetGenerator, Autoscaler, CanaryStep, ExternalSource, GitOpsApp, GitOpsAppProps, HpaManagedRollout, HpaManagedStatefulSet,
  NotificationTrigger, RollingSyncMaxUpdate, RolloutStrategy, SafeApplication, SafeApplicationSet, SafeProject,
} from '../../src';

/** The platform repository: this app's output, and the values the platform team reviews. */
const PLATFORM_REPO = 'https://git.example.com/platform/gitops.git';
/** The deployment repository of the payments team, with a Kustomize base and an overlay per environment. */
const PAYMENTS_DEPLOY_REPO = 'https://git.example.com/payments/deploy.git';
const INGRESS_NGINX_CHART_REPO = 'https://kubernetes.github.io/ingress-nginx';
const CERT_MANAGER_CHART_REPO = 'https://charts.jetstack.io';
const ONCALL = [{ trigger: NotificationTrigger.ON_HEALTH_DEGRADED, service: 'pagerdutyv2', recipients: ['platform-oncall'] }];

/**
 * What a platform team deploys next to its own services: two third-party charts (one with its values inline, one
 * with values kept in the platform repository), a Kustomize overlay per environment, a StatefulSet and an Argo
 * Rollout whose replicas an HPA owns, and one Application per folder of apps/ from a git directory generator.
 */
export function buildPlatformApp(props: GitOpsAppProps = {}): GitOpsApp {
  const app = new GitOpsApp(props);

  const platform = new SafeProject(app, 'platform', {
    name: 'platform',
    sourceRepos: [PLATFORM_REPO, INGRESS_NGINX_CHART_REPO, CERT_MANAGER_CHART_REPO],
    destinations: [{ namespace: 'argocd' }, { namespace: 'ingress-nginx' }, { namespace: 'cert-manager' }],
    onCallGroups: ['platform-oncall'],
    notifications: ONCALL,
  });
  const payments = new SafeProject(app, 'payments', {
    name: 'payments',
    sourceRepos: [PLATFORM_REPO, PAYMENTS_DEPLOY_REPO],
    destinations: [{ namespace: 'payments-staging' }, { namespace: 'payments' }, { namespace: 'payments-prod' }],
    developerGroups: ['payments-developers'],
    onCallGroups: ['payments-oncall'],
    notifications: [{ trigger: NotificationTrigger.ON_HEALTH_DEGRADED, service: 'pagerdutyv2', recipients: ['payments-oncall'] }],
  });
  // One root per project deploys its Applications, ApplicationSets and AppProject.
  new AppOfApps(app, 'platform-apps', { name: 'platform-apps', project: platform, childProject: platform, repoUrl: PLATFORM_REPO });
  new AppOfApps(app, 'payments-apps', { name: 'payments-apps', project: platform, childProject: payments, repoUrl: PLATFORM_REPO });

  // A public chart at one exact version, with its values written here.
  new SafeApplication(app, 'ingress-nginx', {
    name: 'ingress-nginx',
    project: platform,
    repoUrl: INGRESS_NGINX_CHART_REPO,
    targetRevision: '4.11.3',
    destinationNamespace: 'ingress-nginx',
    externalSource: ExternalSource.helmChart('ingress-nginx', {
      releaseName: 'ingress-nginx',
      valuesYaml: JSON.stringify({
        controller: {
          replicaCount: 3,
          service: { externalTrafficPolicy: 'Local' },
          metrics: { enabled: true },
        },
      }),
    }),
  });

  // A public chart whose values the platform team reviews in its own repository (a ref source).
  new SafeApplication(app, 'cert-manager', {
    name: 'cert-manager',
    project: platform,
    repoUrl: CERT_MANAGER_CHART_REPO,
    targetRevision: 'v1.16.2',
    destinationNamespace: 'cert-manager',
    externalSource: ExternalSource.helmChart('cert-manager', {
      releaseName: 'cert-manager',
      valueFiles: ['$values/values/cert-manager/values.yaml'],
    }),
    additionalSources: [ExternalSource.gitRef('values', { repoUrl: PLATFORM_REPO, targetRevision: 'v2.3.0' })],
  });

  // The payments team's Kustomize overlays, one Application per environment, promoted by changing the image here.
  for (const [env, namespace, digest] of [
    ['staging', 'payments-staging', 'sha256:4b3b7e1a0f6c2d9e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f'],
    ['production', 'payments', 'sha256:0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d'],
  ]) {
    new SafeApplication(app, `payments-${env}`, {
      name: `payments-${env}`,
      project: payments,
      repoUrl: PAYMENTS_DEPLOY_REPO,
      targetRevision: 'v1.4.2',
      destinationNamespace: namespace,
      externalSource: ExternalSource.gitPath(`overlays/${env}`, {
        kustomize: {
          images: [{ name: 'ghcr.io/acme/payments-api', digest }],
          namespace,
          commonAnnotations: { 'example.com/environment': env },
        },
      }),
    });
  }

  // A session cache whose pods keep their names, and a web tier released as a canary: an HPA owns both counts.
  const checkout = new SafeApplication(app, 'checkout', {
    name: 'checkout',
    project: payments,
    repoUrl: PLATFORM_REPO,
    destinationNamespace: 'payments',
  });
  new HpaManagedStatefulSet(checkout, 'sessions', {
    metadata: { name: 'checkout-sessions' },
    autoscaler: Autoscaler.hpa({ minReplicas: 3, maxReplicas: 9, memoryUtilizationPercent: 75 }),
    podManagementPolicy: kplus.PodManagementPolicy.PARALLEL,
    containers: [{
      name: 'cache',
      image: 'registry.example.com/payments/session-cache:2.3.1',
      portNumber: 6379,
      securityContext: { user: 10001, group: 10001 },
      resources: { memory: { request: Size.gibibytes(1), limit: Size.gibibytes(2) } },
    }],
  });
  new HpaManagedRollout(checkout, 'web', {
    metadata: { name: 'checkout-web' },
    autoscaler: Autoscaler.hpa({ minReplicas: 3, maxReplicas: 12, cpuUtilizationPercent: 70 }),
    strategy: RolloutStrategy.canary({
      steps: [CanaryStep.weight(20), CanaryStep.pause(Duration.minutes(5)), CanaryStep.weight(50), CanaryStep.pause()],
    }),
    containers: [{ name: 'web', image: 'registry.example.com/payments/checkout-web:1.42.0', portNumber: 8080, securityContext: { user: 10001, group: 10001 } }],
  });

  // One Application per folder of apps/<env>/<service>, staging synced first, then prod one at a time.
  new SafeApplicationSet(app, 'apps', {
    name: 'apps',
    project: payments,
    repoUrl: PLATFORM_REPO,
    targetRevision: 'main',
    generators: [ApplicationSetGenerator.gitDirectories({ include: ['apps/*/*'] })],
    applicationName: '{{index .path.segments 1}}-{{.path.basenameNormalized}}',
    path: '{{.path.path}}',
    destinationNamespace: 'payments-{{index .path.segments 1}}',
    applicationLabels: { env: '{{index .path.segments 1}}' },
    rollingSync: {
      label: 'env',
      steps: [{ values: ['staging'] }, { values: ['prod'], maxUpdate: RollingSyncMaxUpdate.applications(1) }],
    },
  });
  return app;
}
