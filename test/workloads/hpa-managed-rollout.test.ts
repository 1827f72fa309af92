import { ApiObject, Chart, Duration, JsonPatch, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import {
  Autoscaler, CanaryStep, HpaManagedRollout, HpaManagedRolloutProps, KedaTrigger, RolloutStrategy, SafeApplication, WorkloadRefScaleDown,
} from '../../src';
import { ArgoCdVersion } from '../../src/core/argocd-version';
import { runRules } from '../../src/rules/engine';
import { replicasOnAutoscaledWorkload } from '../../src/rules/sa101-replicas-on-autoscaled-workload';
import { autoscaledWithoutIgnore } from '../../src/rules/sa102-autoscaled-without-ignore';
import { applicationOf, newApp, renderedForAudit } from '../support/app';
import { crdErrors } from '../support/crd';
import { kubeErrors } from '../support/kube';

const REASONS = 'safe-argocd/ignore-reasons';
const RESPECT = 'RespectIgnoreDifferences=true';
const CANARY = RolloutStrategy.canary({
  steps: [CanaryStep.weight(20), CanaryStep.pause(Duration.minutes(5)), CanaryStep.weight(50), CanaryStep.pause()],
});

function replicasEntry(group: string, kind: string, name: string) {
  return { group, kind, name, namespace: 'payments', jsonPointers: ['/spec/replicas'] };
}

/** An HpaManagedRollout `id` named `name`, with one container on port 8080 and `extra` props. */
function web(scope: Construct, id: string, autoscaler: Autoscaler, name: string, extra: Partial<HpaManagedRolloutProps> = {}): HpaManagedRollout {
  return new HpaManagedRollout(scope, id, {
    metadata: { name },
    autoscaler,
    strategy: CANARY,
    containers: [{ name: 'web', image: 'registry.acme.internal/payments/web:1.4.0', portNumber: 8080 }],
    ...extra,
  });
}

/** SA101 and SA102 over what the app renders. */
function auditFindings(app: SafeApplication) {
  const { application, resources } = renderedForAudit(app);
  return runRules({ application, resources, argoCdVersion: ArgoCdVersion.LATEST }, [replicasOnAutoscaledWorkload, autoscaledWithoutIgnore]);
}

describe('HpaManagedRollout with an HPA and an inline pod template', () => {
  // GIVEN an app WHEN an HpaManagedRollout with a canary strategy and an HPA is added
  const { app, gitops } = newApp();
  const construct = web(app, 'web', Autoscaler.hpa({ minReplicas: 3, maxReplicas: 12, cpuUtilizationPercent: 70 }), 'checkout-web');
  const rollout = ApiObject.of(construct).toJson();
  const hpa = ApiObject.of(construct.hpa!).toJson();
  const application = applicationOf(app);

  test('the Rollout is argoproj.io/v1alpha1, has no spec.replicas, and is the default child', () => {
    expect([rollout.apiVersion, rollout.kind, rollout.metadata.name]).toEqual(['argoproj.io/v1alpha1', 'Rollout', 'checkout-web']);
    expect('replicas' in rollout.spec).toBe(false);
    expect(ApiObject.of(construct)).toBe(construct.rollout);
    expect(construct.deployment).toBeUndefined();
    expect(construct.scaledObject).toBeUndefined();
  });

  test('the Rollout holds the pod template in Kubernetes\' JSON form, selected by its own label', () => {
    const container = rollout.spec.template.spec.containers[0];
    expect(container.ports).toEqual([{ containerPort: 8080 }]);
    expect(container.startupProbe.tcpSocket.port).toBe(8080);
    expect(typeof container.resources.requests.cpu).toBe('string');
    expect(rollout.spec.template.spec.setHostnameAsFQDN).toBe(false);
    expect(rollout.spec.selector.matchLabels).toEqual(rollout.spec.template.metadata.labels);
    expect(rollout.spec.workloadRef).toBeUndefined();
  });

  test('the pod template validates as a Kubernetes pod template', () => {
    const asDeployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: rollout.metadata, spec: { selector: rollout.spec.selector, template: rollout.spec.template } };
    expect(kubeErrors(asDeployment)).toEqual([]);
  });

  test('the canary steps are rendered in order, a timed pause in seconds and an open pause empty', () => {
    expect(rollout.spec.strategy).toEqual({ canary: { steps: [{ setWeight: 20 }, { pause: { duration: '300s' } }, { setWeight: 50 }, { pause: {} }] } });
  });

  test('the HPA targets argoproj.io/v1alpha1 Rollout by name', () => {
    expect(hpa.metadata).toEqual({ name: 'checkout-web', namespace: 'payments' });
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'checkout-web' });
    expect([hpa.spec.minReplicas, hpa.spec.maxReplicas]).toEqual([3, 12]);
    expect(kubeErrors(hpa)).toEqual([]);
  });

  test('the Application gains exactly one ignore entry, for the Rollout\'s /spec/replicas, and respects it', () => {
    expect(application.spec.ignoreDifferences).toEqual([replicasEntry('argoproj.io', 'Rollout', 'checkout-web')]);
    expect(application.spec.syncPolicy.syncOptions).toContain(RESPECT);
    expect(application.metadata.annotations[REASONS]).toBe('argoproj.io/Rollout payments/checkout-web /spec/replicas: replicas are owned by HorizontalPodAutoscaler checkout-web');
    expect(crdErrors('application', '3.5', application)).toEqual([]);
  });

  test('the whole app synthesizes, and SA101 and SA102 find nothing in what it renders', () => {
    const paths = gitops.renderFiles().map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['workloads/checkout/Rollout.checkout-web.k8s.yaml', 'workloads/checkout/HorizontalPodAutoscaler.checkout-web.k8s.yaml']));
    expect(auditFindings(app)).toEqual([]);
  });
});

describe('HpaManagedRollout with workloadRef', () => {
  const { app, gitops } = newApp();
  const construct = web(app, 'api', Autoscaler.hpa({ maxReplicas: 6, memoryUtilizationPercent: 80 }), 'checkout-api', {
    strategy: RolloutStrategy.blueGreen({ activeService: 'checkout-api', previewService: 'checkout-api-preview' }),
    workloadRef: { deploymentMetadata: { name: 'checkout-api-template' } },
  });
  const rollout = ApiObject.of(construct).toJson();
  const deployment = ApiObject.of(construct.deployment!).toJson();
  const application = applicationOf(app);

  test('the Rollout references the Deployment, scaled down on success, and selects its pods', () => {
    expect(rollout.spec.workloadRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout-api-template', scaleDown: 'onsuccess' });
    expect(rollout.spec.template).toBeUndefined();
    expect(rollout.spec.selector).toEqual(deployment.spec.selector);
    expect(rollout.spec.strategy).toEqual({ blueGreen: { activeService: 'checkout-api', previewService: 'checkout-api-preview' } });
  });

  test('neither the Rollout nor the Deployment declares replicas; the Deployment holds the pod template', () => {
    expect('replicas' in rollout.spec).toBe(false);
    expect('replicas' in deployment.spec).toBe(false);
    expect(deployment.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['web']);
    expect(kubeErrors(deployment)).toEqual([]);
  });

  test('the HPA targets the Rollout, not the Deployment', () => {
    expect(ApiObject.of(construct.hpa!).toJson().spec.scaleTargetRef).toEqual({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'checkout-api' });
  });

  test('the Application ignores the Deployment\'s replicas for Argo Rollouts and the Rollout\'s for the HPA', () => {
    expect(application.spec.ignoreDifferences).toEqual([
      replicasEntry('apps', 'Deployment', 'checkout-api-template'),
      replicasEntry('argoproj.io', 'Rollout', 'checkout-api'),
    ]);
    expect(application.metadata.annotations[REASONS]).toContain('apps/Deployment payments/checkout-api-template /spec/replicas: written by Argo Rollout checkout-api (workloadRef)');
    expect(application.spec.syncPolicy.syncOptions).toContain(RESPECT);
  });

  test('the whole app synthesizes, and SA101 and SA102 find nothing in what it renders', () => {
    expect(() => gitops.renderFiles()).not.toThrow();
    expect(auditFindings(app)).toEqual([]);
  });

  test('scaleDown progressively is rendered as Argo Rollouts spells it', () => {
    const { app: other } = newApp();
    const c = web(other, 'api', Autoscaler.externalHpa('api'), 'api', { workloadRef: { scaleDown: WorkloadRefScaleDown.PROGRESSIVELY } });
    expect(ApiObject.of(c).toJson().spec.workloadRef.scaleDown).toBe('progressively');
  });
});

describe('KEDA ScaledObjects created with the workload', () => {
  test('a Rollout scaled to zero by KEDA: a ScaledObject targeting the Rollout, and the Rollout\'s one ignore entry', () => {
    // GIVEN
    const { app, gitops } = newApp();
    const autoscaler = Autoscaler.keda({
      minReplicaCount: 0,
      maxReplicaCount: 20,
      triggers: [KedaTrigger.prometheus({ serverAddress: 'http://prometheus.monitoring.svc:9090', query: 'sum(rate(http_requests_total[2m]))', threshold: 50 })],
    });
    // WHEN
    const construct = web(app, 'web', autoscaler, 'checkout-web');
    // THEN
    const scaled = construct.scaledObject!.toJson();
    expect([scaled.apiVersion, scaled.kind, scaled.metadata]).toEqual(['keda.sh/v1alpha1', 'ScaledObject', { name: 'checkout-web', namespace: 'payments' }]);
    expect(scaled.spec).toEqual({
      scaleTargetRef: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'checkout-web' },
      minReplicaCount: 0,
      maxReplicaCount: 20,
      triggers: [{ type: 'prometheus', metadata: { serverAddress: 'http://prometheus.monitoring.svc:9090', query: 'sum(rate(http_requests_total[2m]))', threshold: '50' } }],
    });
    expect(construct.hpa).toBeUndefined();
    expect('replicas' in ApiObject.of(construct).toJson().spec).toBe(false);
    const application = applicationOf(app);
    expect(application.spec.ignoreDifferences).toEqual([replicasEntry('argoproj.io', 'Rollout', 'checkout-web')]);
    expect(application.metadata.annotations[REASONS]).toContain('replicas are owned by KEDA ScaledObject checkout-web (through its HPA keda-hpa-checkout-web)');
    expect(gitops.renderFiles().map((f) => f.path)).toContain('workloads/checkout/ScaledObject.checkout-web.k8s.yaml');
    expect(auditFindings(app)).toEqual([]);
  });
});

describe('unsafe variants fail at synth with the rule\'s message', () => {
  test('fails at synth when an escape hatch adds spec.replicas back to the HPA-owned Rollout (SA101)', () => {
    const { app, gitops } = newApp();
    const construct = web(app, 'web', Autoscaler.hpa({ maxReplicas: 5, cpuUtilizationPercent: 70 }), 'checkout-web');
    ApiObject.of(construct).addJsonPatch(JsonPatch.add('/spec/replicas', 3));
    expect(() => gitops.renderFiles()).toThrow(/SA101 [^\n]*Rollout payments\/checkout-web/);
  });

  test('fails at synth when an escape hatch adds spec.replicas back to the Deployment a Rollout scales down (SA101)', () => {
    const { app, gitops } = newApp();
    const construct = web(app, 'api', Autoscaler.externalHpa('api'), 'api', { workloadRef: { deploymentMetadata: { name: 'api-template' } } });
    ApiObject.of(construct.deployment!).addJsonPatch(JsonPatch.add('/spec/replicas', 2));
    expect(() => gitops.renderFiles()).toThrow(/SA101 [^\n]*Deployment payments\/api-template[^\n]*Rollout api \(workloadRef, scaleDown onsuccess\)/);
  });

  test('fails at synth when a hand-made HPA scales a hand-made Rollout that declares replicas and is not ignored (SA101, SA102)', () => {
    // GIVEN raw ApiObjects in a SafeApplication: nothing this library renders for them
    const { app, gitops } = newApp();
    new ApiObject(app, 'rollout', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      metadata: { name: 'legacy' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'legacy' } }, template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [{ name: 'legacy', image: 'registry.acme.internal/legacy:1.0.0' }] } } },
    });
    new ApiObject(app, 'hpa', {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'legacy' },
      spec: { scaleTargetRef: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'legacy' }, minReplicas: 2, maxReplicas: 6 },
    });
    // WHEN / THEN
    expect(() => gitops.renderFiles()).toThrow(/SA101 [^\n]*Rollout payments\/legacy[\s\S]*SA102 [^\n]*Rollout payments\/legacy/);
  });

  test('fails at synth when a hand-made ScaledObject scales a StatefulSet of the app that is not ignored (SA102)', () => {
    const { app, gitops } = newApp();
    new ApiObject(app, 'sts', {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'queue' },
      spec: { serviceName: 'queue', selector: { matchLabels: { app: 'queue' } }, template: { metadata: { labels: { app: 'queue' } }, spec: { containers: [{ name: 'q', image: 'registry.acme.internal/q:1.0.0' }] } } },
    });
    new ApiObject(app, 'keda', {
      apiVersion: 'keda.sh/v1alpha1',
      kind: 'ScaledObject',
      metadata: { name: 'queue' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'queue' }, minReplicaCount: 0, maxReplicaCount: 4, triggers: [{ type: 'cron', metadata: {} }] },
    });
    expect(() => gitops.renderFiles()).toThrow(/SA102 [^\n]*StatefulSet payments\/queue[^\n]*ScaledObject queue scales it/);
  });
});

describe('a KEDA ScaledObject that scales to zero beside an HPA', () => {
  test('cannot be written with one Autoscaler: an HPA refuses minReplicas 0, and KEDA is what allows it', () => {
    expect(() => Autoscaler.hpa({ minReplicas: 0, maxReplicas: 5, cpuUtilizationPercent: 70 })).toThrow(/Autoscaler\.keda with minReplicaCount: 0/);
  });

  test('fails at synth when a hand-made ScaledObject also scales the HPA-owned Rollout (SA106)', () => {
    // GIVEN an HpaManagedRollout with its HPA, and a ScaledObject added beside it that scales the same Rollout to zero
    const { app, gitops } = newApp();
    web(app, 'web', Autoscaler.hpa({ maxReplicas: 5, cpuUtilizationPercent: 70 }), 'checkout-web');
    new ApiObject(app, 'keda', {
      apiVersion: 'keda.sh/v1alpha1',
      kind: 'ScaledObject',
      metadata: { name: 'checkout-web-idle' },
      spec: { scaleTargetRef: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'checkout-web' }, minReplicaCount: 0, maxReplicaCount: 5 },
    });
    // WHEN / THEN
    expect(() => gitops.renderFiles()).toThrow(/SA106 [^\n]*ScaledObject checkout-web-idle and HorizontalPodAutoscaler checkout-web both scale Rollout payments\/checkout-web/);
  });
});

describe('HpaManagedRollout refusals', () => {
  test('fails when defined in a plain cdk8s Chart, outside a SafeApplication, and creates nothing', () => {
    const chart = new Chart(Testing.app(), 'plain', { namespace: 'payments' });
    expect(() => web(chart, 'web', Autoscaler.hpa({ maxReplicas: 5, cpuUtilizationPercent: 70 }), 'web')).toThrow(/^\[SAFE-010\] plain\/web: scope /);
    expect(chart.node.findAll().filter((c) => ApiObject.isApiObject(c))).toEqual([]);
  });
});
