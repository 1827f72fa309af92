import { ApiObject, Chart, Testing, Yaml } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { parse, stringify } from 'yaml';
import { applicationText, manifestText, simulatorPerFile } from './support';
import { buildCheckoutApp } from '../../examples/checkout/app';
import {
  Autoscaler, CanaryStep, DriftReport, GitOpsApp, HpaManagedDeployment, HpaManagedRollout, IgnoreTarget, KedaTrigger, KnownFieldOwner, LiveScenario,
  RenderedFile, RolloutStrategy, SafeApplication,
} from '../../src';
import { appProps, newApp } from '../support/app';

// End-to-end: the constructs' real rendered output, a LiveScenario, and the simulator. Expected outcomes
// follow ARGO-FACTS "ignoreDifferences" and "How Argo CD compares live and desired" (gitops-engine
// pkg/diff/diff.go three-way diff; controller/sync.go normalizeTargetResources for
// RespectIgnoreDifferences) and docs/user-guide/diffing.md.

const sim = simulatorPerFile();

const IMAGE = '/spec/template/spec/containers/0/image';
const REPLICAS = '/spec/replicas';

/** What the simulator reports for one rendered resource and a scenario. */
function run(files: readonly RenderedFile[], kind: string, name: string, scenario: LiveScenario | undefined): DriftReport {
  const desired = manifestText(files, kind, name);
  return sim().simulateDrift({ application: applicationText(files, 'checkout'), desired, live: scenario?.liveFrom(desired) });
}

function after(report: DriftReport): any {
  return JSON.parse(report.liveAfterApply);
}

/** A GitOpsApp with one SafeApplication "checkout", to which `add` adds its workloads, rendered. */
function renderCheckout(add: (app: SafeApplication) => void): RenderedFile[] {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  add(new SafeApplication(gitops, 'checkout', appProps()));
  return gitops.renderFiles();
}

/** A GitOpsApp with one SafeApplication "checkout" and an HpaManagedDeployment "checkout-web", rendered. */
function renderHpaManaged(autoscaler: Autoscaler): RenderedFile[] {
  return renderCheckout((app) => new HpaManagedDeployment(app, 'web', {
    metadata: { name: 'checkout-web' },
    autoscaler,
    containers: [{ name: 'web', image: 'registry.acme.internal/payments/checkout:1.42.0', portNumber: 8080 }],
  }));
}

/** The live object of a workload last applied with `spec.replicas` set (so last-applied has it), then changed by `scenario`. */
function liveOnceWithReplicas(desired: string, replicas: number, scenario: LiveScenario): string {
  const old = parse(desired);
  old.spec.replicas = replicas;
  return scenario.liveFrom(stringify(old));
}

/** The Application named `name` among `files`, without the ignoreDifferences entries `drop` selects (all by default). */
function applicationWithout(files: readonly RenderedFile[], name: string, drop: (entry: any) => boolean = () => true): string {
  const application = parse(applicationText(files, name));
  application.spec.ignoreDifferences = (application.spec.ignoreDifferences ?? []).filter((e: any) => !drop(e));
  return stringify(application);
}

// Rendering happens in beforeAll, not in the describe body: a render that throws then fails these tests.
describe('the checkout example: HpaManagedDeployment with an HPA, a Service and a MigrationHook', () => {
  let files: RenderedFile[];
  beforeAll(() => {
    files = buildCheckoutApp({ outdir: 'dist' }).renderFiles();
  });

  test('the HPA scales to 8: Synced, and the next sync keeps 8', () => {
    // GIVEN the rendered Deployment and an HPA that scaled it to 8
    // WHEN Argo CD compares and would sync
    const report = run(files, 'Deployment', 'checkout-web', LiveScenario.hpaScales(8));

    // THEN it is Synced and /spec/replicas stays 8 through an apply
    expect(report.outOfSync).toBe(false);
    expect(report.selfHealReverts).toEqual([]);
    expect(report.applyReverts).toEqual([]);
    expect(report.keptIgnored).toEqual([REPLICAS]);
    expect(report.respectIgnoreDifferences).toBe(true);
    expect(after(report).spec.replicas).toBe(8);
  });

  test('a human scales with kubectl: Synced too, the replica count belongs to the autoscaler', () => {
    const report = run(files, 'Deployment', 'checkout-web', LiveScenario.kubectlScale(5));
    expect(report.outOfSync).toBe(false);
    expect(after(report).spec.replicas).toBe(5);
  });

  test('a human sets the web image with kubectl: OutOfSync, and self-heal puts Git\'s image back', () => {
    // GIVEN a hot-fixed image on the web container
    const report = run(files, 'Deployment', 'checkout-web', LiveScenario.kubectlSetImage('web', 'registry.acme.internal/payments/checkout:hotfix'));

    // THEN the image is drift and reverted to Git's
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual([IMAGE]);
    expect(report.selfHealReverts).toEqual([IMAGE]);
    expect(after(report).spec.template.spec.containers[0].image).toBe('registry.example.com/payments/checkout:1.42.0');
  });

  test('a human edits a Git-owned field outside any list (terminationGracePeriodSeconds): OutOfSync, and reverted', () => {
    const pointer = '/spec/template/spec/terminationGracePeriodSeconds';
    const report = run(files, 'Deployment', 'checkout-web', LiveScenario.kubectlEdit(pointer, '5'));
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual([pointer]);
    expect(report.selfHealReverts).toEqual([pointer]);
    expect(after(report).spec.template.spec.terminationGracePeriodSeconds).toBe(30);
  });

  test('a human edits a Git-owned memory limit: OutOfSync, and reverted', () => {
    const pointer = '/spec/template/spec/containers/0/resources/limits/memory';
    const report = run(files, 'Deployment', 'checkout-web', LiveScenario.kubectlEdit(pointer, '"4Gi"'));
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual([pointer]);
    expect(report.selfHealReverts).toEqual([pointer]);
    // Git's 2048Mi, as the API server stores it: in canonical form.
    expect(after(report).spec.template.spec.containers[0].resources.limits.memory).toBe('2Gi');
  });

  test('a human edits the container port: OutOfSync, and Git\'s port 8080 is put back', () => {
    // GIVEN containerPort changed from 8080 to 9090 with kubectl edit
    const report = run(files, 'Deployment', 'checkout-web', LiveScenario.kubectlEdit('/spec/template/spec/containers/0/ports/0/containerPort', '9090'));

    // THEN the ports differ and the apply brings 8080 back. Ports merge by containerPort, so 9090 is a
    // different item that last-applied never had: the strategic merge leaves it in place.
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual(['/spec/template/spec/containers/0/ports']);
    const ports = after(report).spec.template.spec.containers[0].ports.map((p: any) => p.containerPort);
    expect(ports).toContain(8080);
  });

  test('Istio injects a sidecar into the pod template: Synced, a list item only live has is not drift', () => {
    // GIVEN istio-proxy appended to the containers
    const report = run(files, 'Deployment', 'checkout-web', LiveScenario.sidecarInjected('istio-proxy', 'istio'));

    // THEN it is Synced and the sidecar survives an apply
    expect(report.outOfSync).toBe(false);
    expect(report.applyReverts).toEqual([]);
    expect(after(report).spec.template.spec.containers.map((c: any) => c.name)).toEqual(['web', 'istio-proxy']);
  });

  test('the Service and the HPA, unchanged since the sync, are Synced', () => {
    expect(run(files, 'Service', 'checkout', LiveScenario.unchanged()).outOfSync).toBe(false);
    expect(run(files, 'HorizontalPodAutoscaler', 'checkout-web', LiveScenario.unchanged()).outOfSync).toBe(false);
  });

  test('the MigrationHook Job runs through the simulator without throwing (Argo CD does not diff hooks)', () => {
    // GIVEN the PreSync Job, which has a generateName and no name
    const job = manifestText(files, 'Job', 'checkout-migrate-');

    // WHEN it is simulated, with and without a live object
    const simulateJob = () => ({
      existing: sim().simulateDrift({ application: applicationText(files, 'checkout'), desired: job, live: LiveScenario.unchanged().liveFrom(job) }),
      missing: sim().simulateDrift({ application: applicationText(files, 'checkout'), desired: job }),
    });

    // THEN nothing throws and the reports are well formed. (Whether the Job is OutOfSync is not asserted:
    // Argo CD keeps hooks out of the comparison, which the simulator does not model.)
    expect(simulateJob).not.toThrow();
    const reports = simulateJob();
    expect(JSON.parse(reports.existing.liveAfterApply).kind).toBe('Job');
    expect(JSON.parse(reports.missing.liveAfterApply).metadata.generateName).toBe('checkout-migrate-');
  });
});

describe('the rendered objects against live objects as the API server returns them', () => {
  // The API server drops zero values of omitempty fields (minReadySeconds: 0, hostNetwork: false,
  // externalIPs: []), which cdk8s-plus renders. gitops-engine pkg/diff/diff.go Diff() remarshals config
  // and live through the Go type of a built-in kind ("This will drop any omitempty fields"), so Git's
  // zero values are dropped before the three-way diff and do not show as drift.
  let files: RenderedFile[];
  beforeAll(() => {
    files = buildCheckoutApp({ outdir: 'dist' }).renderFiles();
  });

  /** The live object LiveScenario builds, without the given zero-valued fields. */
  function asServerReturns(kind: string, name: string, drop: string[][]): string {
    const live = JSON.parse(LiveScenario.unchanged().liveFrom(manifestText(files, kind, name)));
    for (const keys of drop) {
      const parent = keys.slice(0, -1).reduce((o, k) => o[k], live);
      delete parent[keys[keys.length - 1]];
    }
    return JSON.stringify(live);
  }

  test('the Deployment without minReadySeconds: 0 and hostNetwork: false is Synced', () => {
    // GIVEN the live Deployment as the API server stores it
    const live = asServerReturns('Deployment', 'checkout-web', [['spec', 'minReadySeconds'], ['spec', 'template', 'spec', 'hostNetwork']]);

    // WHEN Argo CD compares it with the rendered Deployment
    const report = sim().simulateDrift({ application: applicationText(files, 'checkout'), desired: manifestText(files, 'Deployment', 'checkout-web'), live });

    // THEN the dropped zero values are not drift
    expect(report.differences).toEqual([]);
    expect(report.outOfSync).toBe(false);
  });

  test('the Service without externalIPs: [] is Synced', () => {
    const live = asServerReturns('Service', 'checkout', [['spec', 'externalIPs']]);
    const report = sim().simulateDrift({ application: applicationText(files, 'checkout'), desired: manifestText(files, 'Service', 'checkout'), live });
    expect(report.differences).toEqual([]);
    expect(report.outOfSync).toBe(false);
  });
});

describe('other autoscalers', () => {
  test('KEDA scales to zero: Synced, and the next sync keeps 0', () => {
    // GIVEN an HpaManagedDeployment owned by a KEDA ScaledObject, scaled to 0
    const files = renderHpaManaged(Autoscaler.kedaScaledObject('checkout-web'));

    // WHEN Argo CD compares
    const report = run(files, 'Deployment', 'checkout-web', LiveScenario.kedaScalesToZero());

    // THEN it is Synced and 0 is kept
    expect(report.outOfSync).toBe(false);
    expect(report.keptIgnored).toEqual([REPLICAS]);
    expect(after(report).spec.replicas).toBe(0);
  });

  test('an HPA managed outside the app scales to 6: Synced, and the next sync keeps 6', () => {
    const files = renderHpaManaged(Autoscaler.externalHpa('checkout-web-hpa'));
    const report = run(files, 'Deployment', 'checkout-web', LiveScenario.hpaScales(6));
    expect(report.outOfSync).toBe(false);
    expect(report.keptIgnored).toEqual([REPLICAS]);
    expect(after(report).spec.replicas).toBe(6);
  });
});

/** A GitOpsApp with one SafeApplication "checkout" and an HpaManagedRollout "checkout-web", rendered. */
function renderHpaManagedRollout(autoscaler: Autoscaler): RenderedFile[] {
  return renderCheckout((app) => new HpaManagedRollout(app, 'web', {
    metadata: { name: 'checkout-web' },
    autoscaler,
    strategy: RolloutStrategy.canary({ steps: [CanaryStep.weight(25), CanaryStep.pause()] }),
    containers: [{ name: 'web', image: 'registry.acme.internal/payments/checkout:1.42.0', portNumber: 8080 }],
  }));
}

describe('an Argo Rollout whose replicas an HPA or KEDA owns (HpaManagedRollout)', () => {
  let hpaFiles: RenderedFile[];
  let kedaFiles: RenderedFile[];
  beforeAll(() => {
    hpaFiles = renderHpaManagedRollout(Autoscaler.hpa({ minReplicas: 3, maxReplicas: 12, cpuUtilizationPercent: 70 }));
    kedaFiles = renderHpaManagedRollout(Autoscaler.keda({
      minReplicaCount: 0,
      maxReplicaCount: 12,
      triggers: [KedaTrigger.prometheus({ serverAddress: 'http://prometheus.monitoring.svc:9090', query: 'sum(rate(http_requests_total[2m]))', threshold: 50 })],
    }));
  });

  test('the HPA scales the Rollout to 8: Synced, and the next sync keeps 8', () => {
    const report = run(hpaFiles, 'Rollout', 'checkout-web', LiveScenario.hpaScales(8));
    expect(report.outOfSync).toBe(false);
    expect(report.selfHealReverts).toEqual([]);
    expect(report.applyReverts).toEqual([]);
    expect(report.keptIgnored).toEqual([REPLICAS]);
    expect(after(report).spec.replicas).toBe(8);
  });

  test('KEDA scales the Rollout to zero: Synced, and the next sync keeps 0', () => {
    const report = run(kedaFiles, 'Rollout', 'checkout-web', LiveScenario.kedaScalesToZero());
    expect(report.outOfSync).toBe(false);
    expect(report.keptIgnored).toEqual([REPLICAS]);
    expect(after(report).spec.replicas).toBe(0);
  });

  describe('migrated from a Rollout with replicas: 3 in Git', () => {
    // The Rollout was last applied with replicas: 3; the HPA then scaled it to 8; Git now renders it without replicas.
    let desired: string;
    let live: string;
    beforeAll(() => {
      desired = manifestText(hpaFiles, 'Rollout', 'checkout-web');
      live = liveOnceWithReplicas(desired, 3, LiveScenario.hpaScales(8));
    });

    test('with the library\'s ignore rule: Synced, and 8 is kept (no scale to 1)', () => {
      const report = sim().simulateDrift({ application: applicationText(hpaFiles, 'checkout'), desired, live });
      expect(report.outOfSync).toBe(false);
      expect(report.applyReverts).toEqual([]);
      expect(after(report).spec.replicas).toBe(8);
    });

    test('without the ignore rule: OutOfSync, and self-heal scales the Rollout to 1, fighting the HPA', () => {
      const report = sim().simulateDrift({ application: applicationWithout(hpaFiles, 'checkout'), desired, live });
      expect(report.outOfSync).toBe(true);
      expect(report.differences).toEqual([REPLICAS]);
      expect(report.selfHealReverts).toEqual([REPLICAS]);
      expect(after(report).spec.replicas).toBe(1);
    });
  });

  test('a hand-written Rollout that keeps replicas: 3 and has no ignore rule: OutOfSync, and self-heal reverts the HPA\'s 8 to 3', () => {
    const rollout = parse(manifestText(hpaFiles, 'Rollout', 'checkout-web'));
    rollout.spec.replicas = 3;
    const desired = stringify(rollout);
    const report = sim().simulateDrift({ application: applicationWithout(hpaFiles, 'checkout'), desired, live: LiveScenario.hpaScales(8).liveFrom(desired) });
    expect(report.outOfSync).toBe(true);
    expect(report.selfHealReverts).toEqual([REPLICAS]);
    expect(after(report).spec.replicas).toBe(3);
  });
});

describe('the Deployment an HpaManagedRollout references with workloadRef', () => {
  let files: RenderedFile[];
  beforeAll(() => {
    files = renderCheckout((app) => new HpaManagedRollout(app, 'api', {
      metadata: { name: 'checkout-api' },
      workloadRef: { deploymentMetadata: { name: 'checkout-api-template' } },
      autoscaler: Autoscaler.hpa({ maxReplicas: 6, cpuUtilizationPercent: 70 }),
      strategy: RolloutStrategy.blueGreen({ activeService: 'checkout-api' }),
      containers: [{ name: 'api', image: 'registry.acme.internal/payments/api:2.0.0', portNumber: 8080 }],
    }));
  });

  test('Argo Rollouts scales it to zero: Synced, and the next sync keeps 0', () => {
    const report = run(files, 'Deployment', 'checkout-api-template', LiveScenario.argoRolloutsScalesDown());
    expect(report.outOfSync).toBe(false);
    expect(report.keptIgnored).toEqual([REPLICAS]);
    expect(after(report).spec.replicas).toBe(0);
  });

  test('once applied with replicas: 2 and now without, and without the ignore rule: the sync scales it back to 1', () => {
    // GIVEN the Deployment was last applied with replicas: 2 before the Rollout took over
    const desired = manifestText(files, 'Deployment', 'checkout-api-template');
    const live = liveOnceWithReplicas(desired, 2, LiveScenario.argoRolloutsScalesDown());
    // WHEN the Application keeps only the Rollout's ignore entry
    const report = sim().simulateDrift({ application: applicationWithout(files, 'checkout', (e) => e.kind === 'Deployment'), desired, live });
    // THEN self-heal starts a pod of the old template beside the Rollout's
    expect(report.outOfSync).toBe(true);
    expect(report.selfHealReverts).toEqual([REPLICAS]);
    expect(after(report).spec.replicas).toBe(1);
  });
});

describe('the classic incident, without this library', () => {
  // A plain Application (automated prune and selfHeal, no ignoreDifferences) and a Deployment with
  // replicas: 3, built with cdk8s and cdk8s-plus only.
  const chart = new Chart(Testing.app(), 'plain');
  new ApiObject(chart, 'app', {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: 'checkout', namespace: 'argocd' },
    spec: {
      project: 'payments',
      source: { repoURL: 'https://git.acme.internal/platform/gitops.git', path: 'checkout', targetRevision: 'main' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'payments' },
      syncPolicy: { automated: { prune: true, selfHeal: true } },
    },
  });
  new kplus.Deployment(chart, 'web', {
    metadata: { name: 'checkout-web', namespace: 'payments' },
    replicas: 3,
    containers: [{ name: 'web', image: 'registry.acme.internal/payments/checkout:1.42.0', portNumber: 8080 }],
  });
  const files: RenderedFile[] = Testing.synth(chart).map((m, i) => ({ path: String(i), content: Yaml.stringify(m) }));

  test('the HPA scales to 8: OutOfSync, and self-heal reverts to 3', () => {
    // GIVEN an HPA that scaled the Deployment to 8
    const report = run(files, 'Deployment', 'checkout-web', LiveScenario.hpaScales(8));

    // THEN self-heal fights the HPA: it puts 3 back
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual([REPLICAS]);
    expect(report.selfHealReverts).toEqual([REPLICAS]);
    expect(report.respectIgnoreDifferences).toBe(false);
    expect(after(report).spec.replicas).toBe(3);
  });
});

describe('migrating a Deployment with replicas: 3 in Git to HpaManagedDeployment', () => {
  // The Deployment was last applied with replicas: 3 (so last-applied has it); the HPA then scaled it to 8;
  // Git now renders it through HpaManagedDeployment, without replicas.
  let files: RenderedFile[];
  let desired: string;
  let live: string;
  beforeAll(() => {
    files = renderHpaManaged(Autoscaler.hpa({ minReplicas: 3, maxReplicas: 12, cpuUtilizationPercent: 70 }));
    desired = manifestText(files, 'Deployment', 'checkout-web');
    live = liveOnceWithReplicas(desired, 3, LiveScenario.hpaScales(8));
  });

  test('the old live object really carries replicas: 3 in last-applied and 8 in spec', () => {
    const liveObj = JSON.parse(live);
    expect(JSON.parse(liveObj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).spec.replicas).toBe(3);
    expect(liveObj.spec.replicas).toBe(8);
    expect(parse(desired).spec.replicas).toBeUndefined();
  });

  test('with the library\'s ignore rule: Synced, and 8 is kept (no scale to 1)', () => {
    // WHEN Argo CD compares the new Git with the old live object
    const report = sim().simulateDrift({ application: applicationText(files, 'checkout'), desired, live });

    // THEN the three-way merge deletes nothing and the apply carries 8
    expect(report.outOfSync).toBe(false);
    expect(report.applyReverts).toEqual([]);
    expect(report.keptIgnored).toEqual([REPLICAS]);
    expect(after(report).spec.replicas).toBe(8);
  });

  test('without an ignore rule: OutOfSync, and the sync scales the Deployment to 1', () => {
    // GIVEN the same Application without its ignoreDifferences
    const application = parse(applicationText(files, 'checkout'));
    delete application.spec.ignoreDifferences;

    // WHEN Argo CD compares
    const report = sim().simulateDrift({ application: stringify(application), desired, live });

    // THEN replicas left Git, so the patch deletes it and the API default 1 takes over
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual([REPLICAS]);
    expect(report.selfHealReverts).toEqual([REPLICAS]);
    expect(after(report).spec.replicas).toBe(1);
  });
});

describe('a webhook configuration whose caBundle cert-manager\'s cainjector writes', () => {
  /** A rendered app with a ValidatingWebhookConfiguration, with or without the cainjector as its field owner. */
  function render(withOwner: boolean, caBundle?: string): RenderedFile[] {
    const { gitops, app } = newApp();
    const webhooks = new ApiObject(app, 'validator', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'checkout-validator' },
      webhooks: [{
        name: 'validate.checkout.acme.internal',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        clientConfig: { service: { name: 'checkout', namespace: 'payments', path: '/validate' }, ...(caBundle ? { caBundle } : {}) },
      }],
    });
    if (withOwner) {
      app.addFieldOwner(IgnoreTarget.fromApiObject(webhooks), KnownFieldOwner.certManagerCaInjector());
    }
    return gitops.renderFiles();
  }

  const CA_BUNDLE = '/webhooks/0/clientConfig/caBundle';

  test('with KnownFieldOwner.certManagerCaInjector(): Synced, and the injected bundle is kept', () => {
    // GIVEN Git declares a placeholder caBundle that the cainjector replaces
    const files = render(true, 'Cg==');

    // WHEN Argo CD compares
    const report = run(files, 'ValidatingWebhookConfiguration', 'checkout-validator', LiveScenario.caBundleWritten());

    // THEN it is Synced and the injected bundle survives an apply
    expect(report.outOfSync).toBe(false);
    expect(report.keptIgnored).toEqual([CA_BUNDLE]);
    expect(after(report).webhooks[0].clientConfig.caBundle).not.toBe('Cg==');
  });

  test('without the owner: OutOfSync, and self-heal writes the placeholder back', () => {
    const files = render(false, 'Cg==');
    const report = run(files, 'ValidatingWebhookConfiguration', 'checkout-validator', LiveScenario.caBundleWritten());
    expect(report.outOfSync).toBe(true);
    expect(report.differences).toEqual([CA_BUNDLE]);
    expect(report.selfHealReverts).toEqual([CA_BUNDLE]);
    expect(after(report).webhooks[0].clientConfig.caBundle).toBe('Cg==');
  });

  test('without the owner and without a caBundle in Git: Synced, a field only live has is not drift (three-way diff)', () => {
    const files = render(false);
    const report = run(files, 'ValidatingWebhookConfiguration', 'checkout-validator', LiveScenario.caBundleWritten());
    expect(report.outOfSync).toBe(false);
    expect(report.applyReverts).toEqual([]);
  });
});
