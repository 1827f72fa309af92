import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { IgnoreRule, IgnoreTarget, SafeApplication } from '../../src';
import { addConfigMap, applicationOf, appProps, newApp } from '../support/app';
import { crdErrors } from '../support/crd';

const WAVE = 'argocd.argoproj.io/sync-wave';
const OUT_OF_SYNC_ONLY = 'ApplyOutOfSyncOnly=true';

function rawPod(app: SafeApplication, name: string): ApiObject {
  return new ApiObject(app, `pod-${name}`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'main', image: 'registry.acme.internal/tool:1.0.0' }], restartPolicy: 'Never' },
  });
}

describe('SafeApplication.addToSyncWave', () => {
  test('writes the wave on the resource as a string annotation', () => {
    // GIVEN an app with a ConfigMap and a Deployment
    const { app, config } = newApp();
    const web = new kplus.Deployment(app, 'web', { containers: [{ image: 'registry.acme.internal/web:1.0.0' }] });
    // WHEN both are put into waves (the Deployment through its construct, not its ApiObject)
    app.addToSyncWave(config, -1);
    app.addToSyncWave(web, 2);
    // THEN each carries its wave as a string
    expect(config.toJson().metadata.annotations).toEqual({ [WAVE]: '-1' });
    expect(ApiObject.of(web).toJson().metadata.annotations[WAVE]).toBe('2');
  });

  test('accepts wave 0 and the bounds -1000 and 1000', () => {
    const { app, config } = newApp();
    const a = addConfigMap(app, 'a');
    const b = addConfigMap(app, 'b');
    app.addToSyncWave(config, 0);
    app.addToSyncWave(a, -1000);
    app.addToSyncWave(b, 1000);
    expect([config, a, b].map((o) => o.toJson().metadata.annotations[WAVE])).toEqual(['0', '-1000', '1000']);
  });

  test('the Application drops ApplyOutOfSyncOnly once a resource is in a wave', () => {
    // GIVEN an app without waves
    const { app, config } = newApp();
    expect(applicationOf(app).spec.syncPolicy.syncOptions).toContain(OUT_OF_SYNC_ONLY);
    expect(app.syncOptions).toContain(OUT_OF_SYNC_ONLY);
    // WHEN a resource is put into a wave
    app.addToSyncWave(config, 1);
    // THEN the rendered Application no longer has it, and keeps the rest
    expect(applicationOf(app).spec.syncPolicy.syncOptions).toEqual(['CreateNamespace=true', 'PruneLast=true']);
    expect(app.syncOptions).not.toContain(OUT_OF_SYNC_ONLY);
  });

  test('waves and ignore rules together keep RespectIgnoreDifferences and still drop ApplyOutOfSyncOnly', () => {
    const { app, config } = newApp();
    app.addIgnoreRule(IgnoreRule.jsonPointer(IgnoreTarget.fromApiObject(config), '/data/key', 'written by the config operator'));
    app.addToSyncWave(config, 1);
    expect(applicationOf(app).spec.syncPolicy.syncOptions).toEqual(['CreateNamespace=true', 'PruneLast=true', 'RespectIgnoreDifferences=true']);
  });

  test('the app with waves validates against the v3.5.1 CRD and passes the rules at synth', () => {
    // GIVEN an app with resources in several waves
    const { app, config, gitops } = newApp();
    const web = new kplus.Deployment(app, 'web', { containers: [{ image: 'registry.acme.internal/web:1.0.0' }] });
    app.addToSyncWave(config, -1);
    app.addToSyncWave(web, 1);
    // WHEN synthesized THEN no rule objects (SA103, SA105 included), and the files carry the waves
    expect(crdErrors('application', '3.5', applicationOf(app))).toEqual([]);
    const files = gitops.renderFiles();
    expect(files.find((f) => f.path === 'workloads/checkout/ConfigMap.settings.k8s.yaml')?.content).toContain(`${WAVE}: "-1"`);
    expect(files.find((f) => f.path === 'applications/payments/Application.checkout.k8s.yaml')?.content).not.toContain(OUT_OF_SYNC_ONLY);
  });
});

describe('SafeApplication.addToSyncWave refusals', () => {
  test('fails when the resource is a cdk8s-plus Job', () => {
    // GIVEN an app with a Job WHEN it is put into a wave THEN it is refused, pointing to MigrationHook
    const { app } = newApp();
    const job = new kplus.Job(app, 'migrate', { containers: [{ image: 'registry.acme.internal/migrate:1.0.0' }] });
    expect(() => app.addToSyncWave(job, -1)).toThrow(/^\[SAFE-023\] checkout: resource is "Job [^"]+"; it is a Job or Pod.*MigrationHook/);
    expect(ApiObject.of(job).toJson().metadata.annotations?.[WAVE]).toBeUndefined();
  });

  test('fails when the resource is a raw Pod', () => {
    const { app } = newApp();
    const pod = rawPod(app, 'seed');
    expect(() => app.addToSyncWave(pod, 1)).toThrow(/^\[SAFE-023\] checkout: resource is "Pod seed"/);
  });

  test.each([
    ['1.5', 1.5],
    ['1001', 1001],
    ['-1001', -1001],
    ['NaN', NaN],
  ])('fails when the wave is %s', (_label, wave) => {
    const { app, config } = newApp();
    expect(() => app.addToSyncWave(config, wave)).toThrow(/^\[SAFE-023\] checkout: wave /);
    // a refused wave leaves the app as it was
    expect(app.syncOptions).toContain(OUT_OF_SYNC_ONLY);
    expect(config.toJson().metadata.annotations).toBeUndefined();
  });

  test('fails when the resource belongs to another app', () => {
    // GIVEN two apps
    const { app, gitops } = newApp();
    const billing = new SafeApplication(gitops, 'billing', appProps({ name: 'billing' }));
    const invoices = addConfigMap(billing, 'invoices');
    // WHEN one app puts the other's resource into a wave THEN it is refused
    expect(() => app.addToSyncWave(invoices, 1)).toThrow(/^\[SAFE-010\] checkout: resource is "billing\/cm-invoices"/);
    expect(app.syncOptions).toContain(OUT_OF_SYNC_ONLY);
  });

  test('fails when the same resource is put into a wave twice', () => {
    const { app, config } = newApp();
    app.addToSyncWave(config, 1);
    expect(() => app.addToSyncWave(config, 2)).toThrow(/^\[SAFE-011\] checkout: resource is "checkout\/cm-settings"; it is already in wave 1/);
    expect(config.toJson().metadata.annotations[WAVE]).toBe('1');
  });
});

describe('sync waves added by hand are caught at synth', () => {
  test('fails when a Job carries a sync-wave annotation set through its metadata (SA103)', () => {
    // GIVEN a Job given a wave by hand, bypassing addToSyncWave
    const { app, gitops } = newApp();
    new kplus.Job(app, 'migrate', {
      metadata: { annotations: { [WAVE]: '-1' } },
      containers: [{ image: 'registry.acme.internal/migrate:1.0.0' }],
    });
    // WHEN synthesized THEN SA103 reports it
    expect(() => gitops.renderFiles()).toThrow(/SA103 job-in-sync-wave \[error\] on Job payments\/[^ ]+ at checkout\/migrate\/Resource /);
  });

  test('fails when a raw Pod gets a sync-wave through ApiObject metadata (SA103)', () => {
    // (in wave -1, before the app's other resources: alone in the last wave it would be a post-deploy step, which SA103 leaves alone)
    const { app, gitops } = newApp();
    rawPod(app, 'seed').metadata.addAnnotation(WAVE, '-1');
    expect(() => gitops.renderFiles()).toThrow(/SA103 job-in-sync-wave \[error\] on Pod payments\/seed at checkout\/pod-seed /);
  });

  test('fails when a wave is added by hand while ApplyOutOfSyncOnly is still on (SA105)', () => {
    // GIVEN a ConfigMap whose wave bypasses addToSyncWave, so the Application keeps ApplyOutOfSyncOnly
    const { config, gitops } = newApp();
    config.metadata.addAnnotation(WAVE, '1');
    // WHEN synthesized THEN SA105 reports the combination
    expect(() => gitops.renderFiles()).toThrow(/SA105 out-of-sync-only-with-waves \[note\] on Application argocd\/checkout /);
  });
});
