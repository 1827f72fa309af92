import { renderedCheckout } from './checkout';
import {
  deployment, expectFindings, findingsOf, findManifest, manifest, modified, Overrides, replaced, safeApplication,
} from './support';
import { Manifest } from '../../src/core/manifest';
import { replicasOnAutoscaledWorkload } from '../../src/rules/sa101-replicas-on-autoscaled-workload';

/** An autoscaling/v2 HPA in the checkout namespace that scales the apps/v1 Deployment `target`. */
function hpa(name: string, target: string, overrides: Overrides = {}): Manifest {
  return modified(manifest('autoscaling/v2', 'HorizontalPodAutoscaler', name, {
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target },
      minReplicas: 2,
      maxReplicas: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
    },
  }), overrides);
}

/** The Deployment `name` with three replicas declared. */
function deploymentWithReplicas(name: string, overrides: Overrides = {}): Manifest {
  return modified(modified(deployment(name), { spec: { replicas: 3 } }), overrides);
}

describe('SA101 replicas-on-autoscaled-workload', () => {
  test('passes when the autoscaled Deployment declares no replicas', () => {
    // GIVEN
    const app = safeApplication();
    const resources = [deployment('web'), hpa('web', 'web')];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the HPA scales a Deployment of another name', () => {
    // GIVEN
    const app = safeApplication();
    const resources = [deploymentWithReplicas('web'), hpa('worker', 'worker')];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when nothing autoscales the Deployment', () => {
    // GIVEN
    const app = safeApplication();
    const resources = [deploymentWithReplicas('web')];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the HPA and the Deployment are in different namespaces', () => {
    // GIVEN an HPA only scales workloads of its own namespace
    const app = safeApplication();
    const resources = [
      deploymentWithReplicas('web', { metadata: { namespace: 'checkout' } }),
      hpa('web', 'web', { metadata: { namespace: 'checkout-canary' } }),
    ];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the HPA scales a StatefulSet of the same name, not the Deployment', () => {
    // GIVEN
    const app = safeApplication();
    const resources = [
      deploymentWithReplicas('web'),
      hpa('web', 'web', { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web' } } }),
    ];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes, without throwing, when an HPA has no scaleTargetRef', () => {
    // GIVEN
    const app = safeApplication();
    const resources = [deploymentWithReplicas('web'), hpa('web', 'web', { spec: { scaleTargetRef: undefined } })];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when a HorizontalPodAutoscaler of another API group names the Deployment', () => {
    // GIVEN a kind of the same name outside autoscaling/* is no autoscaler
    const app = safeApplication();
    const resources = [deploymentWithReplicas('web'), hpa('web', 'web', { apiVersion: 'acme.internal/v1' })];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when an autoscaling/v2 HPA scales a Deployment that declares replicas', () => {
    // GIVEN
    const app = safeApplication();
    const web = deploymentWithReplicas('web');
    const resources = [web, hpa('web', 'web')];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expectFindings(findings, web, ['SA101 /spec/replicas']);
    expect(findings[0].value).toBe(3);
    expect(findings[0].message).toContain('HorizontalPodAutoscaler web');
  });

  test('fails when the Deployment declares zero replicas', () => {
    // GIVEN 0 is a value Argo CD applies, not an absent field
    const app = safeApplication();
    const web = deploymentWithReplicas('web', { spec: { replicas: 0 } });
    const resources = [hpa('web', 'web'), web];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expectFindings(findings, web, ['SA101 /spec/replicas']);
    expect(findings[0].value).toBe(0);
  });

  test('fails when an HPA scales a StatefulSet that declares replicas', () => {
    // GIVEN
    const app = safeApplication();
    const db = manifest('apps/v1', 'StatefulSet', 'db', { spec: { replicas: 3, serviceName: 'db' } });
    const resources = [db, hpa('db', 'db', { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' } } })];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expectFindings(findings, db, ['SA101 /spec/replicas']);
  });

  test('fails when a KEDA ScaledObject scales a hand-written StatefulSet that declares replicas', () => {
    // GIVEN a ScaledObject naming the StatefulSet explicitly (KEDA's target defaults to a Deployment)
    const app = safeApplication();
    const db = manifest('apps/v1', 'StatefulSet', 'db', { spec: { replicas: 2, serviceName: 'db' } });
    const scaled = manifest('keda.sh/v1alpha1', 'ScaledObject', 'db', { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' } } });
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, [db, scaled], app);
    // THEN
    expectFindings(findings, db, ['SA101 /spec/replicas']);
    expect(findings[0].message).toBe('StatefulSet declares replicas 2, but ScaledObject db scales it');
  });

  test('passes when the HPA scales a Deployment named like the StatefulSet that declares replicas', () => {
    // GIVEN the HPA's target is the Deployment db, not the StatefulSet db
    const app = safeApplication();
    const db = manifest('apps/v1', 'StatefulSet', 'db', { spec: { replicas: 3, serviceName: 'db' } });
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, [db, deployment('db'), hpa('db', 'db')], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when an autoscaling/v1 HPA scales the Deployment', () => {
    // GIVEN
    const app = safeApplication();
    const web = deploymentWithReplicas('web');
    const v1 = manifest('autoscaling/v1', 'HorizontalPodAutoscaler', 'web', {
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 2,
        maxReplicas: 10,
        targetCPUUtilizationPercentage: 70,
      },
    });
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, [web, v1], app);
    // THEN
    expectFindings(findings, web, ['SA101 /spec/replicas']);
  });

  test('fails when a KEDA ScaledObject names only the Deployment (kind and apiVersion default to apps/v1 Deployment)', () => {
    // GIVEN
    const app = safeApplication();
    const web = deploymentWithReplicas('web');
    const scaledObject = manifest('keda.sh/v1alpha1', 'ScaledObject', 'web', {
      spec: {
        scaleTargetRef: { name: 'web' },
        triggers: [{ type: 'cpu', metricType: 'Utilization', metadata: { value: '70' } }],
      },
    });
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, [web, scaledObject], app);
    // THEN
    expectFindings(findings, web, ['SA101 /spec/replicas']);
    expect(findings[0].message).toContain('ScaledObject web');
  });

  test('fails when both omit the namespace and the Application\'s destination namespace puts them together', () => {
    // GIVEN
    const app = safeApplication({ spec: { destination: { namespace: 'checkout' } } });
    const web = deploymentWithReplicas('web', { metadata: { namespace: undefined } });
    const autoscaler = hpa('web', 'web', { metadata: { namespace: undefined } });
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, [web, autoscaler], app);
    // THEN
    expectFindings(findings, web, ['SA101 /spec/replicas']);
  });

  test('fails when only the Deployment omits the namespace and the destination namespace is the HPA\'s', () => {
    // GIVEN
    const app = safeApplication({ spec: { destination: { namespace: 'checkout' } } });
    const web = deploymentWithReplicas('web', { metadata: { namespace: undefined } });
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, [web, hpa('web', 'web')], app);
    // THEN
    expectFindings(findings, web, ['SA101 /spec/replicas']);
  });

  test('passes when the Deployment omits the namespace and the destination namespace is not the HPA\'s', () => {
    // GIVEN
    const app = safeApplication({ spec: { destination: { namespace: 'payments' } } });
    const web = deploymentWithReplicas('web', { metadata: { namespace: undefined } });
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, [web, hpa('web', 'web')], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails once per workload, on the workload, whatever the order of the manifests', () => {
    // GIVEN two autoscaled Deployments, autoscalers first
    const app = safeApplication();
    const web = deploymentWithReplicas('web');
    const worker = deploymentWithReplicas('worker', { spec: { replicas: 2 } });
    const resources = [hpa('worker', 'worker'), hpa('web', 'web'), web, worker];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expect(findings.map((f) => [f.rule.id, f.path, f.object])).toEqual([
      ['SA101', '/spec/replicas', web],
      ['SA101', '/spec/replicas', worker],
    ]);
  });

  test('passes when the HPA is pinned (minReplicas = maxReplicas) at the count the Deployment declares', () => {
    // GIVEN an HPA that can never move the count away from Git's 3
    const app = safeApplication();
    const resources = [deploymentWithReplicas('web'), hpa('web', 'web', { spec: { minReplicas: 3, maxReplicas: 3 } })];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when a KEDA ScaledObject is pinned at the declared count', () => {
    // GIVEN
    const app = safeApplication();
    const scaledObject = manifest('keda.sh/v1alpha1', 'ScaledObject', 'web', {
      spec: { scaleTargetRef: { name: 'web' }, minReplicaCount: 3, maxReplicaCount: 3 },
    });
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, [deploymentWithReplicas('web'), scaledObject], app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when a KEDA ScaledObject is paused at the declared count, and fails when paused at another', () => {
    // GIVEN a ScaledObject that would scale 0 to 10, paused at Git's 3 (and one paused at 0)
    const app = safeApplication();
    const paused = (count: string) => manifest('keda.sh/v1alpha1', 'ScaledObject', 'web', {
      metadata: { name: 'web', annotations: { 'autoscaling.keda.sh/paused-replicas': count } },
      spec: { scaleTargetRef: { name: 'web' }, minReplicaCount: 0, maxReplicaCount: 10 },
    });
    const web = deploymentWithReplicas('web');
    // WHEN / THEN KEDA holds the count Git declares: nothing fights
    expect(findingsOf(replicasOnAutoscaledWorkload, [web, paused('3')], app)).toEqual([]);
    // and paused at 0, KEDA scales Git's 3 down to 0 on every sync
    expectFindings(findingsOf(replicasOnAutoscaledWorkload, [web, paused('0')], app), web, ['SA101 /spec/replicas']);
  });

  test('fails when the HPA is pinned at another count than the Deployment declares', () => {
    // GIVEN the HPA holds 2 and Git says 3: they fight on every self-heal
    const app = safeApplication();
    const web = deploymentWithReplicas('web');
    const resources = [web, hpa('web', 'web', { spec: { minReplicas: 2, maxReplicas: 2 } })];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expectFindings(findings, web, ['SA101 /spec/replicas']);
  });

  test('fails when only maxReplicas equals the declared count and the floor is HPA\'s default of 1', () => {
    // GIVEN min 1 (unset) and max 3: the HPA scales down below Git's 3
    const app = safeApplication();
    const web = deploymentWithReplicas('web');
    const resources = [web, hpa('web', 'web', { spec: { minReplicas: undefined, maxReplicas: 3 } })];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expectFindings(findings, web, ['SA101 /spec/replicas']);
  });

  test('passes when maxReplicas is 1, minReplicas unset (1) and the Deployment declares 1', () => {
    // GIVEN
    const app = safeApplication();
    const resources = [deploymentWithReplicas('web', { spec: { replicas: 1 } }), hpa('web', 'web', { spec: { minReplicas: undefined, maxReplicas: 1 } })];
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes on what the library renders for examples/checkout', () => {
    // GIVEN the real output: an HpaManagedDeployment and its HPA
    const { application, resources, argoCdVersion } = renderedCheckout();
    findManifest(resources, 'HorizontalPodAutoscaler', 'checkout-web');
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, resources, application, argoCdVersion);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the Deployment the library renders for examples/checkout is given replicas', () => {
    // GIVEN the real output, with replicas added to the autoscaled Deployment
    const { application, resources, argoCdVersion } = renderedCheckout();
    const original = findManifest(resources, 'Deployment', 'checkout-web');
    const web = modified(original, { spec: { replicas: 3 } });
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, replaced(resources, original, web), application, argoCdVersion);
    // THEN the rule sees the real HPA's target
    expectFindings(findings, web, ['SA101 /spec/replicas']);
  });
});

describe('SA101 on Argo Rollouts and KEDA ScaledObjects', () => {
  /** The argoproj.io Rollout `name` with an inline pod template and `overrides` merged in. */
  function rollout(name: string, overrides: Overrides = {}): Manifest {
    return manifest('argoproj.io/v1alpha1', 'Rollout', name, modified({
      spec: { strategy: { canary: { steps: [{ setWeight: 20 }, { pause: {} }] } }, template: { spec: { containers: [{ name, image: `acme.internal/${name}:1.0.0` }] } } },
    }, overrides));
  }
  const ROLLOUT_REF = { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'web' };

  test('fails when an HPA scales a Rollout that declares replicas', () => {
    // GIVEN
    const app = safeApplication();
    const web = rollout('web', { spec: { replicas: 4 } });
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, [web, hpa('web', 'web', { spec: { scaleTargetRef: ROLLOUT_REF } })], app);
    // THEN
    expect(findings.map((f) => [f.rule.id, f.path, f.object, f.message])).toEqual([
      ['SA101', '/spec/replicas', web, 'Rollout declares replicas 4, but HorizontalPodAutoscaler web scales it'],
    ]);
  });

  test('passes when an HPA scales a Rollout that declares no replicas', () => {
    const app = safeApplication();
    const findings = findingsOf(replicasOnAutoscaledWorkload, [rollout('web'), hpa('web', 'web', { spec: { scaleTargetRef: ROLLOUT_REF } })], app);
    expect(findings).toEqual([]);
  });

  test('passes when the HPA scales the Rollout web and the Deployment web declares replicas', () => {
    // GIVEN the group and kind tell the two apart
    const app = safeApplication();
    const findings = findingsOf(replicasOnAutoscaledWorkload, [deploymentWithReplicas('web'), rollout('web'), hpa('web', 'web', { spec: { scaleTargetRef: ROLLOUT_REF } })], app);
    expect(findings).toEqual([]);
  });

  test('fails when a KEDA ScaledObject scales a Rollout that declares replicas', () => {
    // GIVEN
    const app = safeApplication();
    const web = rollout('web', { spec: { replicas: 2 } });
    const scaled = manifest('keda.sh/v1alpha1', 'ScaledObject', 'web', { spec: { scaleTargetRef: ROLLOUT_REF, minReplicaCount: 0, maxReplicaCount: 10 } });
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, [scaled, web], app);
    // THEN
    expect(findings.map((f) => [f.rule.id, f.object, f.message])).toEqual([['SA101', web, 'Rollout declares replicas 2, but ScaledObject web scales it']]);
  });

  test('fails when a Rollout scales down, through workloadRef, a Deployment that declares replicas', () => {
    // GIVEN the Rollout api references the Deployment api with scaleDown onsuccess
    const app = safeApplication();
    const api = deploymentWithReplicas('api');
    const ro = rollout('api', { spec: { template: undefined, workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', scaleDown: 'onsuccess' } } });
    // WHEN
    const findings = findingsOf(replicasOnAutoscaledWorkload, [api, ro], app);
    // THEN
    expect(findings.map((f) => [f.rule.id, f.object, f.message])).toEqual([
      ['SA101', api, 'Deployment declares replicas 3, but Rollout api (workloadRef, scaleDown onsuccess) scales it'],
    ]);
  });

  test('fails even when the referenced Deployment declares 0: Argo Rollouts scales it back up when the Rollout fails', () => {
    const app = safeApplication();
    const api = deploymentWithReplicas('api', { spec: { replicas: 0 } });
    const ro = rollout('api', { spec: { template: undefined, workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', scaleDown: 'progressively' } } });
    expect(findingsOf(replicasOnAutoscaledWorkload, [api, ro], app).map((f) => [f.rule.id, f.object])).toEqual([['SA101', api]]);
  });

  test('passes when the workloadRef leaves the Deployment alone (scaleDown never, or no scaleDown)', () => {
    const app = safeApplication();
    for (const scaleDown of ['never', undefined]) {
      const ro = rollout('api', { spec: { template: undefined, workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', scaleDown } } });
      expect(findingsOf(replicasOnAutoscaledWorkload, [deploymentWithReplicas('api'), ro], app)).toEqual([]);
    }
  });

  test('passes when a Rollout of another API group has a workloadRef', () => {
    const app = safeApplication();
    const ro = rollout('api', { apiVersion: 'acme.internal/v1', spec: { template: undefined, workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', scaleDown: 'onsuccess' } } });
    expect(findingsOf(replicasOnAutoscaledWorkload, [deploymentWithReplicas('api'), ro], app)).toEqual([]);
  });
});
