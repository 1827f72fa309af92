import { Testing } from 'cdk8s';
import { parse, stringify } from 'yaml';
import { addAppsFleet } from './git-fleet';
import { addPaymentsApi } from './helm-values';
import { addPaymentsProd } from './kustomize-options';
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

/** What the README shows of the StatefulSet snippet: the parts of the StatefulSet, its HPA and its Application that matter. */
export function statefulSetOutput(): string {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  const app = new SafeApplication(gitops, 'checkout', {
    name: 'checkout',
    project: ArgoProject.fromName('payments'),
    repoUrl: 'https://git.example.com/platform/gitops.git',
    destinationNamespace: 'payments',
  });
  addSessionCache(app);
  const statefulSet = parse(fileOf(gitops, 'workloads/checkout/StatefulSet.checkout-sessions.k8s.yaml'));
  const hpa = parse(fileOf(gitops, 'workloads/checkout/HorizontalPodAutoscaler.checkout-sessions.k8s.yaml'));
  const application = parse(fileOf(gitops, 'applications/payments/Application.checkout.k8s.yaml'));
  const { template: _template, ...statefulSetSpec } = statefulSet.spec;
  const { behavior: _behavior, ...hpaSpec } = hpa.spec;
  return [
    '# workloads/checkout/StatefulSet.checkout-sessions.k8s.yaml: the whole spec but the pod template',
    stringify({ spec: statefulSetSpec }),
    '# workloads/checkout/HorizontalPodAutoscaler.checkout-sessions.k8s.yaml: the spec but its scaling behavior',
    stringify({ spec: hpaSpec }),
    '# applications/payments/Application.checkout.k8s.yaml: what the StatefulSet adds',
    stringify({
      spec: { ignoreDifferences: application.spec.ignoreDifferences, syncPolicy: { syncOptions: application.spec.syncPolicy.syncOptions } },
    }),
  ].join('\n');
}

/** What the README shows of the Helm values snippet: the source of the Application it renders. */
export function helmValuesOutput(): string {
  return sourceOf(addPaymentsApi(Testing.app()));
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
  const errors = app.node.validate();
  if (errors.length > 0) {
    throw new Error(`the snippet does not synthesize: ${errors.join('\n')}`);
  }
  const application = app.resource.toJson();
  return stringify({ spec: { source: application.spec.source } });
}
