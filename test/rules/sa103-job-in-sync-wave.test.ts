import { renderedCheckout } from './checkout';
import {
  deployment, expectFindings, findingsOf, findManifest, manifest, modified, replaced, safeApplication,
} from './support';
import { Manifest, stringAt } from '../../src/core/manifest';
import { jobInSyncWave } from '../../src/rules/sa103-job-in-sync-wave';

const WAVE = 'argocd.argoproj.io/sync-wave';
const HOOK = 'argocd.argoproj.io/hook';
const WAVE_PATH = '/metadata/annotations/argocd.argoproj.io~1sync-wave';

/** A batch/v1 migration Job in the checkout namespace with these annotations. */
function job(name: string, annotations: { [key: string]: string } = {}): Manifest {
  return manifest('batch/v1', 'Job', name, {
    metadata: { annotations },
    spec: {
      activeDeadlineSeconds: 600,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'acme.internal/migrate:1.0.0' }] } },
    },
  });
}

describe('SA103 job-in-sync-wave', () => {
  test('passes when the Job has no sync-wave', () => {
    // GIVEN
    const resources = [job('migrate')];
    // WHEN
    const findings = findingsOf(jobInSyncWave, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the Job in a wave is a PreSync hook, where waves order hooks within the phase', () => {
    // GIVEN
    const resources = [job('migrate', { [HOOK]: 'PreSync', [WAVE]: '-1' })];
    // WHEN
    const findings = findingsOf(jobInSyncWave, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the Job in a wave is a Helm pre-upgrade hook, which Argo CD runs as PreSync', () => {
    // GIVEN
    const resources = [job('migrate', { 'helm.sh/hook': 'pre-install,pre-upgrade', [WAVE]: '-1' })];
    // WHEN
    const findings = findingsOf(jobInSyncWave, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the Job in a wave is marked Skip, so Argo CD never applies it', () => {
    // GIVEN
    const resources = [job('migrate', { [HOOK]: 'Skip', [WAVE]: '1' })];
    // WHEN
    const findings = findingsOf(jobInSyncWave, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when the Job in a wave has an empty hook annotation: a hook of no phase, never applied', () => {
    // GIVEN gitops-engine's IsHook: any argocd.argoproj.io/hook key makes a hook unless its only type is Skip
    const resources = [job('migrate', { [HOOK]: '', [WAVE]: '1' })];
    // WHEN
    const findings = findingsOf(jobInSyncWave, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the Job in a wave is marked Skip together with a sync hook type: it runs as that hook, not skipped', () => {
    // GIVEN Skip with PreSync; gitops-engine skips only when Skip is the only type, so this is a PreSync hook
    const resources = [job('migrate', { [HOOK]: 'Skip,PreSync', [WAVE]: '1' })];
    // WHEN
    const findings = findingsOf(jobInSyncWave, resources, safeApplication());
    // THEN a hook is not what SA103 is about
    expect(findings).toEqual([]);
  });

  test('passes when a Deployment is in a sync wave', () => {
    // GIVEN
    const resources = [deployment('web', { [WAVE]: '1' })];
    // WHEN
    const findings = findingsOf(jobInSyncWave, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when a Job-like kind of another API group is in a sync wave', () => {
    // GIVEN only batch Jobs and core Pods run to completion in the wave
    const resources = [modified(job('migrate', { [WAVE]: '1' }), { apiVersion: 'acme.internal/v1' })];
    // WHEN
    const findings = findingsOf(jobInSyncWave, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test.each([
    [['wait-for', 'deployment', '--label', 'app=vault', '--namespace', 'vault']],
    [['sh', '-c', 'kubectl wait --for=condition=Available deployment/api --timeout=300s']],
    [['argocd', 'app', 'wait', 'gitlab-runner', '--health']],
    [['sh', '-c', 'until curl -sf http://api/healthz; do sleep 5; done']],
    [['sleep', '30']],
    [['sh', '-c', 'until kubectl get secret db-credentials -n app; do sleep 30; done']],
    [['sh', '-c', 'while ! kubectl -n vault get job vault-config -o jsonpath=\'{.status.succeeded}\' | grep -q 1; do echo "waiting"; sleep 10; done']],
    [['/bin/bash', '-c', [
      'echo "Waiting for dependencies..."',
      'while true; do',
      '  # Is the job complete?',
      '  JOB=$(kubectl get job setup -n vault -o jsonpath=\'{.status.conditions[?(@.type=="Complete")].status}\' 2>/dev/null || echo "NotFound")',
      '  READY=$(kubectl get deployment idp -n idp -o jsonpath=\'{.status.readyReplicas}\' 2>/dev/null || echo "0")',
      '  if [[ "$JOB" == "True" && "$READY" -ge 1 ]]; then',
      '    echo "Ready! Exiting..."',
      '    exit 0',
      '  else',
      '    echo "Not ready yet; waiting 30 seconds"',
      '    sleep 30',
      '  fi',
      'done',
    ].join('\n')]],
    [['sh', '-c', 'n=0; until pg_isready -h db -p 5432 || [ $n -ge 60 ]; do n=$((n+1)); sleep 2; done']],
  ])('passes when every container of the Job in a wave only waits: %j is a gate for the later waves', (command) => {
    // GIVEN a Job in wave 20 that waits, and a Deployment in wave 21
    const gate = modified(job('wait', { [WAVE]: '20' }), { spec: { template: { spec: { containers: [{ name: 'wait', image: 'acme.internal/toolkit:1.0.0', command }] } } } });
    const later = modified(deployment('web'), { metadata: { annotations: { [WAVE]: '21' } } });
    // WHEN / THEN
    expect(findingsOf(jobInSyncWave, [gate, later], safeApplication())).toEqual([]);
  });

  test.each([
    [['sh', '-c', 'kubectl wait --for=condition=Available deployment/db && kubectl apply -f /seed']],
    [['sh', '-c', 'until pg_isready -h db; do sleep 2; done; psql -f /migrations/001.sql']],
    [['sh', '-c', 'sleep 10; curl -X POST http://central/api/init-bundles']],
    [['/bin/bash', '-c', 'until [ $(curl -s -o /dev/null -w "%{http_code}" http://app/create_database.php) -eq 200 ]; do sleep 5; done\ncurl -s http://app/create_database.php\n']],
    [['sh', '-c', 'kubectl wait --for=condition=Available deployment/api && curl http://api/seed']],
    [['sh', '-c', 'until kubectl get deployment db; do sleep 5; done; kubectl exec deploy/db -- /migrate.sh']],
    [['sh', '-c', 'while ! kubectl get secret token; do sleep 5; done\n./seed-database']],
    [['sh', '-c', 'while true; do kubectl rollout restart deployment/web; sleep 60; done']],
    [['sh', '-c', 'until kubectl get svc api; do sleep 5; done; wget -qO- http://api/init']],
  ])('fails when a container that waits also changes something: %j', (command) => {
    const step = modified(job('init', { [WAVE]: '-1' }), { spec: { template: { spec: { containers: [{ name: 'init', image: 'acme.internal/toolkit:1.0.0', command }] } } } });
    expect(findingsOf(jobInSyncWave, [step, deployment('web')], safeApplication()).map((f) => f.rule.id)).toEqual(['SA103']);
  });

  test('fails when a batch/v1 Job carries a sync-wave and no hook', () => {
    // GIVEN
    const migrate = job('migrate', { [WAVE]: '-1' });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [deployment('web'), migrate], safeApplication());
    // THEN
    expectFindings(findings, migrate, [`SA103 ${WAVE_PATH}`]);
    expect(findings[0].value).toBe('-1');
    expect(findings[0].message).toContain('sync wave -1');
  });

  test('fails when a v1 Pod carries a sync-wave and no hook', () => {
    // GIVEN
    const pod = manifest('v1', 'Pod', 'migrate', {
      metadata: { annotations: { [WAVE]: '2' } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'acme.internal/migrate:1.0.0' }] },
    });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [pod, deployment('web', { [WAVE]: '3' })], safeApplication());
    // THEN
    expectFindings(findings, pod, [`SA103 ${WAVE_PATH}`]);
    expect(findings[0].value).toBe('2');
  });

  test('fails when the Job carries a sync-wave and there is no Application', () => {
    // GIVEN loose manifests, as an audit may check them
    const migrate = job('migrate', { [WAVE]: '0' });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [migrate, deployment('web')]);
    // THEN
    expectFindings(findings, migrate, [`SA103 ${WAVE_PATH}`]);
  });

  test('fails when the Job\'s helm.sh/hook is crd-install, which Argo CD does not treat as a hook', () => {
    // GIVEN gitops-engine's helm IsHook: `helm.sh/hook` present and not "crd-install"; such a Job is applied
    // in its wave of the Sync phase like any other resource
    const migrate = job('migrate', { 'helm.sh/hook': 'crd-install', [WAVE]: '-1' });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [migrate, deployment('web')], safeApplication());
    // THEN
    expectFindings(findings, migrate, [`SA103 ${WAVE_PATH}`]);
  });

  test('fails when a non-hook Job is ordered by helm.sh/hook-weight, which Argo CD reads as its sync wave', () => {
    // GIVEN gitops-engine's syncwaves.Wave falls back to helm.sh/hook-weight when there is no sync-wave annotation
    const migrate = job('migrate', { 'helm.sh/hook-weight': '-1' });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [migrate, deployment('web')], safeApplication());
    // THEN
    expectFindings(findings, migrate, ['SA103 /metadata/annotations/helm.sh~1hook-weight']);
  });

  test('passes when the Job is alone in the last wave: a post-deploy check after everything is applied and healthy', () => {
    // GIVEN a smoke test in wave 5, after the Deployment (wave 0) and a ConfigMap (wave 1)
    const smoke = job('smoke-test', { [WAVE]: '5' });
    const config = manifest('v1', 'ConfigMap', 'web', { metadata: { annotations: { [WAVE]: '1' } } });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [smoke, deployment('web'), config], safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when two independent Jobs are alone in the last wave: nothing but Jobs is applied with or after either', () => {
    // GIVEN two maintenance Jobs in wave 10, after a ConfigMap in wave 5 and a Deployment in wave 0
    const first = job('restore-policy', { [WAVE]: '10' });
    const second = job('retention', { [WAVE]: '10' });
    const config = manifest('v1', 'ConfigMap', 'policy', { metadata: { annotations: { [WAVE]: '5' } } });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [first, deployment('web'), config, second], safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when a Job shares the last wave with a Pod that runs to completion', () => {
    // GIVEN a Job and a restartPolicy Never Pod in wave 3, after a Deployment
    const migrate = job('report', { [WAVE]: '3' });
    const pod = manifest('v1', 'Pod', 'notify', {
      metadata: { annotations: { [WAVE]: '3' } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'acme.internal/notify:1.0.0' }] },
    });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [deployment('web'), migrate, pod], safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the last wave holds Jobs and a Pod that keeps running: the Jobs run beside its new code', () => {
    // GIVEN a Job and a Pod of the default restartPolicy (Always) in wave 3
    const migrate = job('migrate', { [WAVE]: '3' });
    const pod = manifest('v1', 'Pod', 'server', {
      metadata: { annotations: { [WAVE]: '3' } },
      spec: { containers: [{ name: 'main', image: 'acme.internal/server:1.0.0' }] },
    });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [deployment('web'), migrate, pod], safeApplication());
    // THEN the Job is reported; the Pod, which is not in a wave of Jobs only either, is too
    expect(findings.map((f) => `${f.rule.id} ${String(f.object.kind)}`).sort()).toEqual(['SA103 Job', 'SA103 Pod']);
  });

  test('fails when two Jobs share a wave that is not the last: what comes after them runs against their half-done work', () => {
    // GIVEN two Jobs in wave 1 and a Deployment in wave 2
    const first = job('migrate-a', { [WAVE]: '1' });
    const second = job('migrate-b', { [WAVE]: '1' });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [first, second, deployment('web', { [WAVE]: '2' })], safeApplication());
    // THEN
    expect(findings.map((f) => `${f.rule.id} ${stringAt(f.object, 'metadata', 'name')}`).sort()).toEqual(['SA103 migrate-a', 'SA103 migrate-b']);
  });

  test('passes when the Job carries a sync-wave and is the only resource', () => {
    // GIVEN loose manifests: nothing is applied with or after it
    const findings = findingsOf(jobInSyncWave, [job('migrate', { [WAVE]: '0' })]);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when only hooks come after the Job: they run in their own phases, not in its wave', () => {
    // GIVEN a PostSync notification after the wave Job
    const gate = job('gate', { [WAVE]: '3' });
    const notify = job('notify', { [HOOK]: 'PostSync', [WAVE]: '9' });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [deployment('web'), gate, notify], safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the Job shares the last wave with a Deployment: it runs while the new version rolls out', () => {
    // GIVEN both in wave 2
    const migrate = job('migrate', { [WAVE]: '2' });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [migrate, deployment('web', { [WAVE]: '2' })], safeApplication());
    // THEN
    expectFindings(findings, migrate, [`SA103 ${WAVE_PATH}`]);
    expect(findings[0].message).toContain('with 1 resource(s) applied in the same or a later wave');
  });

  test('fails on the first of two wave Jobs and not on the last, which gates nothing', () => {
    // GIVEN a migration in wave -1 and a smoke test in wave 5 around a Deployment in wave 0
    const migrate = job('migrate', { [WAVE]: '-1' });
    const smoke = job('smoke-test', { [WAVE]: '5' });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [smoke, deployment('web'), migrate], safeApplication());
    // THEN
    expectFindings(findings, migrate, [`SA103 ${WAVE_PATH}`]);
  });

  test('reads a wave that is not an integer as wave 0, as Argo CD does', () => {
    // GIVEN "soon" is wave 0, and the Deployment is in wave 0 too
    const migrate = job('migrate', { [WAVE]: 'soon' });
    // WHEN
    const findings = findingsOf(jobInSyncWave, [migrate, deployment('web')], safeApplication());
    // THEN
    expectFindings(findings, migrate, [`SA103 ${WAVE_PATH}`]);
  });

  test('passes on what the library renders for examples/checkout', () => {
    // GIVEN the real output: a MigrationHook (a PreSync Job) and a Deployment
    const { application, resources, argoCdVersion } = renderedCheckout();
    findManifest(resources, 'Job', 'checkout-migrate-');
    // WHEN
    const findings = findingsOf(jobInSyncWave, resources, application, argoCdVersion);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when the Job the library renders for examples/checkout is moved from PreSync into a wave', () => {
    // GIVEN the real output, with the migration's hook annotation swapped for a sync-wave
    const { application, resources, argoCdVersion } = renderedCheckout();
    const original = findManifest(resources, 'Job', 'checkout-migrate-');
    const migrate = modified(original, { metadata: { annotations: { [HOOK]: undefined, [WAVE]: '-1' } } });
    // WHEN
    const findings = findingsOf(jobInSyncWave, replaced(resources, original, migrate), application, argoCdVersion);
    // THEN
    expectFindings(findings, migrate, [`SA103 ${WAVE_PATH}`]);
  });
});
