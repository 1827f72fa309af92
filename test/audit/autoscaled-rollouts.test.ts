import { stringify } from 'yaml';
import { applicationYaml, auditJson, deploymentYaml, key, keysOf, writeTree } from './support';
import { tempDir } from '../support/app';

// `safe-argocd audit` on hand-written YAML: Argo Rollouts and StatefulSets whose replicas an HPA or a KEDA
// ScaledObject owns, and the Deployment a Rollout scales down through workloadRef.

function rolloutYaml(name: string, namespace: string, spec: Record<string, unknown>): string {
  return stringify({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name, namespace },
    spec: { selector: { matchLabels: { app: name } }, strategy: { canary: { steps: [{ setWeight: 20 }, { pause: {} }] } }, ...spec },
  });
}

function statefulSetYaml(name: string, namespace: string, replicas?: number): string {
  return stringify({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace },
    spec: {
      ...(replicas !== undefined ? { replicas } : {}),
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'registry.acme.internal/db:1.0.0' }] } },
    },
  });
}

function scalerYaml(kind: 'HorizontalPodAutoscaler' | 'ScaledObject', name: string, namespace: string, target: { apiVersion: string; kind: string }): string {
  const scaleTargetRef = { ...target, name };
  return stringify(kind === 'HorizontalPodAutoscaler'
    ? { apiVersion: 'autoscaling/v2', kind, metadata: { name, namespace }, spec: { scaleTargetRef, minReplicas: 2, maxReplicas: 10 } }
    : { apiVersion: 'keda.sh/v1alpha1', kind, metadata: { name, namespace }, spec: { scaleTargetRef, minReplicaCount: 0, maxReplicaCount: 10, triggers: [{ type: 'cron', metadata: {} }] } });
}

const TEMPLATE = { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'registry.acme.internal/web:1.0.0' }] } } };
const ROLLOUT = { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout' };
const STATEFUL_SET = { apiVersion: 'apps/v1', kind: 'StatefulSet' };
const RESPECT = { syncOptions: ['RespectIgnoreDifferences=true'] };

describe('safe-argocd audit on autoscaled Rollouts and StatefulSets', () => {
  test.each(['HorizontalPodAutoscaler', 'ScaledObject'] as const)('a %s-owned Rollout that keeps replicas and is not ignored: SA101 and SA102', async (kind) => {
    // GIVEN
    const root = tempDir();
    writeTree(root, {
      'apps/web.yaml': applicationYaml('web'),
      'workloads/web/rollout.yaml': rolloutYaml('web', 'web', { replicas: 3, ...TEMPLATE }),
      'workloads/web/scaler.yaml': scalerYaml(kind, 'web', 'web', ROLLOUT),
    });
    // WHEN
    const { run, report } = await auditJson(root);
    // THEN
    expect(keysOf(report.findings)).toEqual([key('SA101', 'workloads/web/rollout.yaml', 'web'), key('SA102', 'workloads/web/rollout.yaml', 'web')]);
    expect(report.findings.find((f) => f.ruleId === 'SA101')?.message).toBe(`Rollout declares replicas 3, but ${kind} web scales it`);
    expect(run.code).not.toBe(0);
  });

  test('the same Rollout without replicas, its /spec/replicas ignored with RespectIgnoreDifferences: nothing found', async () => {
    const root = tempDir();
    writeTree(root, {
      'apps/web.yaml': applicationYaml('web', {
        syncPolicy: RESPECT,
        spec: { ignoreDifferences: [{ group: 'argoproj.io', kind: 'Rollout', name: 'web', namespace: 'web', jsonPointers: ['/spec/replicas'] }] },
      }),
      'workloads/web/rollout.yaml': rolloutYaml('web', 'web', TEMPLATE),
      'workloads/web/scaler.yaml': scalerYaml('HorizontalPodAutoscaler', 'web', 'web', ROLLOUT),
    });
    const { run, report } = await auditJson(root);
    expect(report.findings.filter((f) => f.ruleId === 'SA101' || f.ruleId === 'SA102')).toEqual([]);
    expect(run.code).toBe(0);
  });

  test('a KEDA-owned StatefulSet that keeps replicas: SA101 and SA102', async () => {
    const root = tempDir();
    writeTree(root, {
      'apps/db.yaml': applicationYaml('db'),
      'workloads/db/statefulset.yaml': statefulSetYaml('db', 'db', 2),
      'workloads/db/scaler.yaml': scalerYaml('ScaledObject', 'db', 'db', STATEFUL_SET),
    });
    const { report } = await auditJson(root);
    expect(keysOf(report.findings)).toEqual([key('SA101', 'workloads/db/statefulset.yaml', 'db'), key('SA102', 'workloads/db/statefulset.yaml', 'db')]);
  });

  test('the Deployment a Rollout scales down through workloadRef, with replicas and no ignore rule: SA101 and SA102', async () => {
    const root = tempDir();
    writeTree(root, {
      'apps/api.yaml': applicationYaml('api'),
      'workloads/api/deployment.yaml': deploymentYaml('api', 'api', 5),
      'workloads/api/rollout.yaml': rolloutYaml('api', 'api', { workloadRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', scaleDown: 'onsuccess' } }),
    });
    const { report } = await auditJson(root);
    expect(keysOf(report.findings)).toEqual([key('SA101', 'workloads/api/deployment.yaml', 'api'), key('SA102', 'workloads/api/deployment.yaml', 'api')]);
  });
});
