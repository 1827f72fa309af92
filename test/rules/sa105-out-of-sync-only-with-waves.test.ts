import { ApiObject } from 'cdk8s';
import { renderedCheckout } from './checkout';
import {
  deployment, expectFindings, findingsOf, findManifest, manifest, modified, replaced, safeApplication,
} from './support';
import { GitOpsApp, SafeApplication } from '../../src';
import { Manifest } from '../../src/core/manifest';
import { outOfSyncOnlyWithWaves } from '../../src/rules/sa105-out-of-sync-only-with-waves';

const WAVE = 'argocd.argoproj.io/sync-wave';
const HOOK = 'argocd.argoproj.io/hook';
const OUT_OF_SYNC_ONLY = ['CreateNamespace=true', 'PruneLast=true', 'ApplyOutOfSyncOnly=true', 'RespectIgnoreDifferences=true'];

/** safeApplication with ApplyOutOfSyncOnly=true among its sync options. */
function outOfSyncOnlyApplication(): Manifest {
  return safeApplication({ spec: { syncPolicy: { syncOptions: OUT_OF_SYNC_ONLY } } });
}

/** A PreSync hook Job in the checkout namespace with these extra annotations. */
function hookJob(name: string, annotations: { [key: string]: string } = {}): Manifest {
  return manifest('batch/v1', 'Job', name, {
    metadata: { annotations: { [HOOK]: 'PreSync', ...annotations } },
    spec: { activeDeadlineSeconds: 600, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'acme.internal/migrate:1.0.0' }] } } },
  });
}

describe('SA105 out-of-sync-only-with-waves', () => {
  test('passes when resources are in waves and ApplyOutOfSyncOnly is not set', () => {
    // GIVEN
    const resources = [deployment('db-proxy', { [WAVE]: '-1' }), deployment('web', { [WAVE]: '1' })];
    // WHEN
    const findings = findingsOf(outOfSyncOnlyWithWaves, resources, safeApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when ApplyOutOfSyncOnly=true is set and no resource is in a wave', () => {
    // GIVEN
    const resources = [deployment('web')];
    // WHEN
    const findings = findingsOf(outOfSyncOnlyWithWaves, resources, outOfSyncOnlyApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when ApplyOutOfSyncOnly=true is set and only a hook carries a wave', () => {
    // GIVEN waves among hooks order them within their phase; ApplyOutOfSyncOnly does not change that
    const resources = [deployment('web'), hookJob('migrate', { [WAVE]: '-1' })];
    // WHEN
    const findings = findingsOf(outOfSyncOnlyWithWaves, resources, outOfSyncOnlyApplication());
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when ApplyOutOfSyncOnly is false', () => {
    // GIVEN
    const app = safeApplication({ spec: { syncPolicy: { syncOptions: ['CreateNamespace=true', 'ApplyOutOfSyncOnly=false'] } } });
    const resources = [deployment('web', { [WAVE]: '1' })];
    // WHEN
    const findings = findingsOf(outOfSyncOnlyWithWaves, resources, app);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes when there is no Application to carry sync options', () => {
    // GIVEN loose manifests, as an audit may check them
    const resources = [deployment('web', { [WAVE]: '1' })];
    // WHEN
    const findings = findingsOf(outOfSyncOnlyWithWaves, resources);
    // THEN
    expect(findings).toEqual([]);
  });

  test('fails when ApplyOutOfSyncOnly=true is set and one non-hook resource is in a wave', () => {
    // GIVEN
    const app = outOfSyncOnlyApplication();
    const resources = [deployment('web'), deployment('db-proxy', { [WAVE]: '-1' })];
    // WHEN
    const findings = findingsOf(outOfSyncOnlyWithWaves, resources, app);
    // THEN the finding is on the Application, whose option is the thing to change
    expectFindings(findings, app, ['SA105 /spec/syncPolicy/syncOptions']);
    expect(findings[0].value).toEqual(OUT_OF_SYNC_ONLY);
    expect(findings[0].message).toContain('1 resource(s)');
  });

  test('fails once for the app, counting only the non-hook resources in waves', () => {
    // GIVEN two waved Deployments and a waved hook
    const app = outOfSyncOnlyApplication();
    const resources = [
      deployment('db-proxy', { [WAVE]: '-1' }),
      hookJob('migrate', { [WAVE]: '-2' }),
      deployment('web', { [WAVE]: '1' }),
    ];
    // WHEN
    const findings = findingsOf(outOfSyncOnlyWithWaves, resources, app);
    // THEN
    expectFindings(findings, app, ['SA105 /spec/syncPolicy/syncOptions']);
    expect(findings[0].message).toContain('2 resource(s)');
  });

  test('passes on what the library renders for examples/checkout', () => {
    // GIVEN the real output: ApplyOutOfSyncOnly=true, and the only resource with Argo CD annotations is a hook
    const { application, resources, argoCdVersion } = renderedCheckout();
    expect(application.spec).toMatchObject({ syncPolicy: { syncOptions: expect.arrayContaining(['ApplyOutOfSyncOnly=true']) } });
    // WHEN
    const findings = findingsOf(outOfSyncOnlyWithWaves, resources, application, argoCdVersion);
    // THEN
    expect(findings).toEqual([]);
  });

  test('passes on what the library renders for examples/checkout once its Service is put into a wave', () => {
    // GIVEN the real app, with addToSyncWave used on its Service
    const { application, resources, argoCdVersion } = renderedCheckout((gitops: GitOpsApp) => {
      const checkout = gitops.node.findAll().find((c): c is SafeApplication => c instanceof SafeApplication && c.applicationName === 'checkout');
      const service = gitops.node.findAll().find((c) => ApiObject.isApiObject(c) && c.kind === 'Service');
      if (!checkout || !service) {
        throw new Error('examples/checkout has no SafeApplication or no Service');
      }
      checkout.addToSyncWave(service, 1);
    });
    expect(findManifest(resources, 'Service', 'checkout').metadata).toMatchObject({ annotations: { [WAVE]: '1' } });
    // WHEN
    const findings = findingsOf(outOfSyncOnlyWithWaves, resources, application, argoCdVersion);
    // THEN the Application dropped ApplyOutOfSyncOnly
    expect(findings).toEqual([]);
  });

  test('fails when a resource the library renders for examples/checkout is put into a wave by hand', () => {
    // GIVEN the real output, with a sync-wave annotation added to the Deployment after rendering
    const { application, resources, argoCdVersion } = renderedCheckout();
    const original = findManifest(resources, 'Deployment', 'checkout-web');
    const web = modified(original, { metadata: { annotations: { [WAVE]: '1' } } });
    // WHEN
    const findings = findingsOf(outOfSyncOnlyWithWaves, replaced(resources, original, web), application, argoCdVersion);
    // THEN
    expectFindings(findings, application, ['SA105 /spec/syncPolicy/syncOptions']);
  });
});
