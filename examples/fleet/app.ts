import { Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { ServiceSpec } from './services';
import {
  AppOfApps, Autoscaler, CanaryStep, ExternalSecret, ExternalSecretStore, GitOpsApp, GitOpsAppProps, HpaManagedDeployment, HpaManagedRollout,
  HpaManagedStatefulSet, KedaTrigger, MigrationHook, NotificationTrigger, RolloutStrategy, SafeApplication, SafeProject, SecretStoreKind,
} from '../../src';

const REPO = 'https://git.example.com/platform/gitops.git';
const REGISTRY = 'registry.example.com';
const VAULT = ExternalSecretStore.fromName('platform-vault', SecretStoreKind.CLUSTER_SECRET_STORE);
/** The user every container runs as; the images are built for it. */
const USER = { user: 10001, group: 10001 };
/** What one pod asks for; the HPA's CPU target is relative to the request. */
const RESOURCES: kplus.ContainerResources = {
  cpu: { request: kplus.Cpu.millis(250), limit: kplus.Cpu.millis(1000) },
  memory: { request: Size.mebibytes(256), limit: Size.mebibytes(512) },
};

/**
 * A platform repository's app: every service of the table, each team's AppProject and app-of-apps root,
 * and the platform project that holds the roots.
 *
 * Construct ids are part of the output (cdk8s-plus derives pod selectors from them), so they are fixed:
 * `platform-project`, `<team>-project`, `<team>-apps` and the service's name.
 */
export function buildFleet(services: ServiceSpec[], props: GitOpsAppProps = {}): GitOpsApp {
  const app = new GitOpsApp(props);

  // The roots live in the platform project; they deploy into Argo CD's own namespace.
  const platform = new SafeProject(app, 'platform-project', {
    name: 'platform',
    sourceRepos: [REPO],
    destinations: [{ namespace: 'argocd' }],
  });

  // One project, one namespace and one root per team, in the order teams first appear in the table.
  const projects = new Map<string, SafeProject>();
  for (const team of new Set(services.map((s) => s.team))) {
    const project = new SafeProject(app, `${team}-project`, {
      name: team,
      sourceRepos: [REPO],
      destinations: [{ namespace: team }],
      developerGroups: [`${team}-developers`],
      onCallGroups: [`${team}-oncall`],
      notifications: [{ trigger: NotificationTrigger.ON_HEALTH_DEGRADED, service: 'pagerdutyv2', recipients: [`${team}-oncall`] }],
    });
    new AppOfApps(app, `${team}-apps`, { name: `${team}-apps`, project: platform, childProject: project, repoUrl: REPO });
    projects.set(team, project);
  }

  for (const spec of services) {
    addService(app, spec, projects.get(spec.team)!);
  }
  return app;
}

/**
 * One service: its Application, its workload (a Deployment, StatefulSet or Rollout, autoscaled by an HPA or KEDA, or
 * a Deployment of fixed size), Service, secret and optional migration.
 */
function addService(scope: GitOpsApp, spec: ServiceSpec, project: SafeProject): SafeApplication {
  const app = new SafeApplication(scope, spec.name, {
    name: spec.name,
    project,
    repoUrl: REPO,
    destinationNamespace: spec.team,
  });
  const image = `${REGISTRY}/${spec.team}/${spec.name}:${spec.version}`;

  // The secret's values stay in the vault; Git holds only where to find them.
  new ExternalSecret(app, 'secret', {
    name: spec.name,
    store: VAULT,
    data: spec.secrets.map((key) => ({ secretKey: key, remoteKey: `${spec.team}/${spec.name}`, remoteProperty: key })),
  });
  const secret = kplus.Secret.fromSecretName(app, 'secret-ref', spec.name);
  const envVariables = Object.fromEntries(spec.secrets.map((key) => [
    key.toUpperCase().replace(/-/g, '_'),
    kplus.EnvValue.fromSecretValue({ secret, key }),
  ]));

  if (spec.migration) {
    // PreSync: a failed migration stops the sync, and the old code keeps running.
    new MigrationHook(app, 'migrate', {
      container: { image, command: [`./${spec.name}`, 'migrate', '--to-latest'], envVariables, securityContext: USER, resources: RESOURCES },
    });
  }

  const container: kplus.ContainerProps = { name: 'web', image, portNumber: spec.port, envVariables, securityContext: USER, resources: RESOURCES };
  const ports = [{ port: 80, targetPort: spec.port }];
  if (!spec.hpa) {
    // A fixed replica count, kept by self-heal.
    new kplus.Deployment(app, 'web', { metadata: { name: spec.name }, replicas: spec.replicas ?? 2, containers: [container] })
      .exposeViaService({ name: spec.name, ports });
    return app;
  }
  // The HPA (or KEDA's HPA) owns the replica count: no replicas in Git, and Argo CD leaves /spec/replicas alone.
  const cpuPercent = spec.hpa.cpuPercent ?? 70;
  const autoscaler = spec.hpa.keda
    ? Autoscaler.keda({ minReplicaCount: spec.hpa.min, maxReplicaCount: spec.hpa.max, triggers: [KedaTrigger.cpuUtilization(cpuPercent)] })
    : Autoscaler.hpa({ minReplicas: spec.hpa.min, maxReplicas: spec.hpa.max, cpuUtilizationPercent: cpuPercent });
  switch (spec.workload ?? 'Deployment') {
    case 'StatefulSet':
      // Pods that keep their names, behind the headless Service the StatefulSet needs.
      new HpaManagedStatefulSet(app, 'web', { metadata: { name: spec.name }, autoscaler, containers: [container] });
      break;
    case 'Rollout':
      // Released as a canary; the pod template stays in a Deployment the Rollout references and scales down.
      new HpaManagedRollout(app, 'web', {
        metadata: { name: spec.name },
        autoscaler,
        strategy: RolloutStrategy.canary({ steps: [CanaryStep.weight(20), CanaryStep.pause(Duration.minutes(5))] }),
        workloadRef: { deploymentMetadata: { name: `${spec.name}-template` } },
        containers: [container],
      }).deployment!.exposeViaService({ name: spec.name, ports });
      break;
    default:
      new HpaManagedDeployment(app, 'web', { metadata: { name: spec.name }, autoscaler, containers: [container] })
        .deployment.exposeViaService({ name: spec.name, ports });
  }
  return app;
}
