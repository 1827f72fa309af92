import { checkDriftInputs, NamedDriftInput } from '../../src/drift/input-roles';
import { Json } from '../../src/drift/json';

const APPLICATION = { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'checkout', namespace: 'argocd' }, spec: {} };
const CHILD = { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'ledger', namespace: 'argocd' }, spec: {} };
const APPLICATION_SET = { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: { name: 'all' }, spec: {} };
const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'payments' } };
const HPA_V2 = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' } };
const HPA_V1 = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' } };
const SERVICE = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' } };

const input = (name: string, manifest: Json): NamedDriftInput => ({ name, source: `${name.slice(2)}.yaml`, manifest });
const check = (application: Json, desired: Json, live?: Json) => () => checkDriftInputs({
  application: input('--app', application),
  desired: input('--desired', desired),
  live: live === undefined ? undefined : input('--live', live),
});

describe('checkDriftInputs', () => {
  test.each([
    ['an Application and a Deployment', check(APPLICATION, DEPLOYMENT)],
    ['an Application, a Deployment and its live copy', check(APPLICATION, DEPLOYMENT, DEPLOYMENT)],
    ['a live object at another version of the same group and kind', check(APPLICATION, HPA_V2, HPA_V1)],
    ['an app-of-apps root and a child Application', check(APPLICATION, CHILD, CHILD)],
  ])('accepts %s', (_name, run) => {
    expect(run).not.toThrow();
  });

  test('refuses the resource as the application, and names the Application given as desired: a swap', () => {
    expect(check(DEPLOYMENT, APPLICATION)).toThrow('[SAFE-104] --app app.yaml is a Deployment (apps/v1), not an Argo CD Application '
      + '(argoproj.io/v1alpha1 Application). Fix: did you swap --app and --desired? --app takes the Application, --desired the resource it deploys.');
  });

  test('refuses the resource as the application when the Application was given as live: a swap with --live', () => {
    expect(check(DEPLOYMENT, DEPLOYMENT, APPLICATION)).toThrow(/^\[SAFE-104\] --app app\.yaml is a Deployment \(apps\/v1\), .* Fix: did you swap --app and --live\?/);
  });

  test('refuses an application that is no Application, with no Application anywhere', () => {
    expect(check(SERVICE, DEPLOYMENT)).toThrow('[SAFE-104] --app app.yaml is a Service (v1), not an Argo CD Application (argoproj.io/v1alpha1 Application). '
      + 'Fix: give --app the Argo CD Application that deploys the resource in --desired.');
  });

  test('refuses an ApplicationSet as the application, and says to give one Application it generates', () => {
    expect(check(APPLICATION_SET, DEPLOYMENT)).toThrow(/is an ApplicationSet \(argoproj\.io\/v1alpha1\), .*\(for an ApplicationSet: one Application it generates\)\.$/);
  });

  test('refuses an Application as the live object of a Deployment', () => {
    expect(check(APPLICATION, DEPLOYMENT, APPLICATION)).toThrow('[SAFE-104] --live live.yaml is an Application (argoproj.io/v1alpha1), but --desired desired.yaml '
      + 'is a Deployment (apps/v1): the live object must be the resource --desired describes. Fix: did you give the Application as --live? '
      + '--live takes the Deployment as the cluster has it, e.g. kubectl get deployment web -n payments -o yaml > live.yaml.');
  });

  test('refuses a live object of another kind', () => {
    expect(check(APPLICATION, DEPLOYMENT, SERVICE)).toThrow(/--live live\.yaml is a Service \(v1\), but --desired desired\.yaml is a Deployment \(apps\/v1\).* Fix: give --live the Deployment as the cluster has it/);
  });

  test('refuses an Application in another API group', () => {
    expect(check({ ...APPLICATION, apiVersion: 'acme.internal/v1' }, DEPLOYMENT)).toThrow(/is an Application \(acme\.internal\/v1\), not an Argo CD Application/);
  });
});
