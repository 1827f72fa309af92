import { deployment, findingsOf, manifest, safeApplication } from './support';
import { Manifest } from '../../src/core/manifest';
import { twoReplicaOwners } from '../../src/rules/sa106-two-replica-owners';

const WEB = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

function hpa(name: string, scaleTargetRef: object): Manifest {
  return manifest('autoscaling/v2', 'HorizontalPodAutoscaler', name, { spec: { scaleTargetRef, minReplicas: 2, maxReplicas: 10 } });
}

function scaledObject(name: string, scaleTargetRef: object): Manifest {
  return manifest('keda.sh/v1alpha1', 'ScaledObject', name, { spec: { scaleTargetRef, minReplicaCount: 0, maxReplicaCount: 10 } });
}

describe('SA106 two-replica-owners', () => {
  test('passes when one HPA scales the Deployment and a ScaledObject scales another', () => {
    // GIVEN
    const resources = [deployment('web'), deployment('worker'), hpa('web', WEB), scaledObject('worker', { name: 'worker' })];
    // WHEN
    const findings = findingsOf(twoReplicaOwners, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when an HPA scales the Rollout and the Rollout scales down the Deployment it references', () => {
    // GIVEN the one safe arrangement with workloadRef: the HPA targets the Rollout, not the Deployment
    const rollout = manifest('argoproj.io/v1alpha1', 'Rollout', 'web', { spec: { workloadRef: { ...WEB, scaleDown: 'onsuccess' } } });
    const resources = [deployment('web'), rollout, hpa('web', { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'web' })];
    expect(findingsOf(twoReplicaOwners, resources, safeApplication())).toEqual([]);
  });

  test('fails when a KEDA ScaledObject that scales to zero and an HPA scale the same Deployment', () => {
    // GIVEN KEDA's default target is the apps/v1 Deployment of its name
    const scaled = scaledObject('web-keda', { name: 'web' });
    const resources = [deployment('web'), hpa('web', WEB), scaled];
    // WHEN
    const findings = findingsOf(twoReplicaOwners, resources, safeApplication());
    // THEN reported once, on the later owner, where it names its target
    expect(findings.map((f) => [f.rule.id, f.object, f.path, f.message])).toEqual([
      ['SA106', scaled, '/spec/scaleTargetRef', 'ScaledObject web-keda and HorizontalPodAutoscaler web both scale Deployment checkout/web'],
    ]);
  });

  test('fails when an HPA scales the Deployment a Rollout scales down through workloadRef', () => {
    const rollout = manifest('argoproj.io/v1alpha1', 'Rollout', 'web', { spec: { workloadRef: { ...WEB, scaleDown: 'progressively' } } });
    const findings = findingsOf(twoReplicaOwners, [hpa('web', WEB), rollout], safeApplication());
    expect(findings.map((f) => [f.rule.id, f.object, f.path])).toEqual([['SA106', rollout, '/spec/workloadRef']]);
  });

  test('passes when the two owners scale workloads of the same name in different namespaces', () => {
    const other = manifest('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', { metadata: { namespace: 'checkout-canary' }, spec: { scaleTargetRef: WEB } });
    expect(findingsOf(twoReplicaOwners, [hpa('web', WEB), other], safeApplication())).toEqual([]);
  });
});
