import { Testing } from 'cdk8s';
import { parse, stringify } from 'yaml';
import { addAppsFleet } from './git-fleet';
import { addPaymentsApi } from './helm-values';
import { addIngress } from './helm-values-from-git';
import { addPaymentsProd } from './kustomize-options';
import { addCanaryWeb } from './rollout';
import { addSessionCache } from './stateful-set';
import { paymentsProjectWithWindows } from './sync-windows';
import { ArgoProject, GitOpsApp, SafeApplication } from '../../src';

/** The file `path` among the files a GitOpsApp renders. */
function fileOf(gitops: GitOpsApp, path: string): string {
  const file = gitops.renderFiles().find((f) => f.path === path);
  if (!file) {
    throw new Error(`the snippet renders no ${path}`);
  }
  return file.content;
}

/** What the README shows of the sync windows snippet: the AppProject it writes. */
export function syncWindowsOutput(): string {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  paymentsProjectWithWindows(gitops);
  return fileOf(gitops, 'applications/payments/AppProject.payments.k8s.yaml');
}

/** A GitOpsApp with the app `checkout` of the README's workload snippets, and `add` run on that app. */
function checkoutWith(add: (app: SafeApplication) => unknown): GitOpsApp {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  add(new SafeApplication(gitops, 'checkout', {
    name: 'checkout',
    project: ArgoProject.fromName('payments'),
    repoUrl: 'https://git.example.com/platform/gitops.git',
    destinationNamespace: 'payments',
  }));
  return gitops;
}

/** The part of the Application of `checkout` that an autoscaled workload adds: its ignore entries and sync options. */
function applicationAdditions(gitops: GitOpsApp, what: string): string[] {
  const application = parse(fileOf(gitops, 'applications/payments/Application.checkout.k8s.yaml'));
  return [
    `# applications/payments/Application.checkout.k8s.yaml: what the ${what} adds`,
    stringify({
      spec: { ignoreDifferences: application.spec.ignoreDifferences, syncPolicy: { syncOptions: application.spec.syncPolicy.syncOptions } },
    }),
  ];
}

/** What the README shows of the StatefulSet snippet: the parts of the StatefulSet, its HPA and its Application that matter. */
export function statefulSetOutput(): string {
  const gitops = checkoutWith(addSessionCache);
  const statefulSet = parse(fileOf(gitops, 'workloads/checkout/StatefulSet.checkout-sessions.k8s.yaml'));
  const hpa = parse(fileOf(gitops, 'workloads/checkout/HorizontalPodAutoscaler.checkout-sessions.k8s.yaml'));
  const { template: _template, ...statefulSetSpec } = statefulSet.spec;
  const { behavior: _behavior, ...hpaSpec } = hpa.spec;
  return [
    '# workloads/checkout/StatefulSet.checkout-sessions.k8s.yaml: the whole spec but the pod template',
    stringify({ spec: statefulSetSpec }),
    '# workloads/checkout/HorizontalPodAutoscaler.checkout-sessions.k8s.yaml: the spec but its scaling behavior',
    stringify({ spec: hpaSpec }),
    ...applicationAdditions(gitops, 'StatefulSet'),
  ].join('\n');
}

/** What the README shows of the Rollout snippet: the Rollout's spec but its pod template, its HPA's target, and its Application's additions. */
export function rolloutOutput(): string {
  const gitops = checkoutWith(addCanaryWeb);
  const rollout = parse(fileOf(gitops, 'workloads/checkout/Rollout.checkout-web.k8s.yaml'));
  const hpa = parse(fileOf(gitops, 'workloads/checkout/HorizontalPodAutoscaler.checkout-web.k8s.yaml'));
  const { template: _template, ...rolloutSpec } = rollout.spec;
  return [
    '# workloads/checkout/Rollout.checkout-web.k8s.yaml: the whole spec but the pod template',
    stringify({ apiVersion: rollout.apiVersion, kind: rollout.kind, spec: rolloutSpec }),
    '# workloads/checkout/HorizontalPodAutoscaler.checkout-web.k8s.yaml: its target and bounds',
    stringify({ spec: { maxReplicas: hpa.spec.maxReplicas, minReplicas: hpa.spec.minReplicas, scaleTargetRef: hpa.spec.scaleTargetRef } }),
    ...applicationAdditions(gitops, 'Rollout'),
  ].join('\n');
}

/** What the README shows of the Helm values snippet: the source of the Application it renders. */
export function helmValuesOutput(): string {
  return sourceOf(addPaymentsApi(Testing.app()));
}

/** What the README shows of the snippet with values from Git: the sources of the Application it renders. */
export function helmValuesFromGitOutput(): string {
  const app = addIngress(Testing.app());
  return stringify({ spec: { sources: validatedApplication(app).spec.sources } });
}

/** What the README shows of the Kustomize options snippet: the source of the Application it renders. */
export function kustomizeOptionsOutput(): string {
  return sourceOf(addPaymentsProd(Testing.app()));
}

/** What the README shows of the git fleet snippet: the ApplicationSet's spec, without the template's sync policy. */
export function gitFleetOutput(): string {
  const set = addAppsFleet(Testing.app());
  const errors = set.node.validate();
  if (errors.length > 0) {
    throw new Error(`the snippet does not synthesize: ${errors.join('\n')}`);
  }
  const { spec } = set.resource.toJson();
  const { syncPolicy: _syncPolicy, ...templateSpec } = spec.template.spec;
  return stringify({ spec: { ...spec, template: { ...spec.template, spec: templateSpec } } });
}

/** `spec.source` of an Application made outside a GitOpsApp, as YAML; its validation must pass. */
function sourceOf(app: SafeApplication): string {
  return stringify({ spec: { source: validatedApplication(app).spec.source } });
}

/** The Application of an app made outside a GitOpsApp, once its validation passes. */
function validatedApplication(app: SafeApplication): any {
  const errors = app.node.validate();
  if (errors.length > 0) {
    throw new Error(`the snippet does not synthesize: ${errors.join('\n')}`);
  }
  return app.resource.toJson();
}
