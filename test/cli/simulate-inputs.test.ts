import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { runCli } from './support';
import { LiveScenario } from '../../src';
import { tempDir } from '../support/app';
import { writeCheckoutInputs } from '../support/hostile';

describe('safe-argocd simulate refuses inputs in the wrong places', () => {
  // GIVEN the checkout example's Application and Deployment, and the Deployment as the cluster has it
  const dir = tempDir();
  const { app, desired } = writeCheckoutInputs(dir);
  const live = join(dir, 'live.yaml');
  writeFileSync(live, LiveScenario.hpaScales(8).liveFrom(readFileSync(desired, 'utf8')));
  const simulate = (...args: string[]) => runCli(['simulate', ...args]);

  test('--app and --desired swapped: exit 2, naming the flag, the file, the kind found and the fix', async () => {
    // WHEN the Deployment is given as --app and the Application as --desired
    const run = await simulate('--app', desired, '--desired', app);

    // THEN no report, and one line that says what happened
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`safe-argocd simulate: [SAFE-104] --app ${desired} is a Deployment (apps/v1), not an Argo CD Application `
      + '(argoproj.io/v1alpha1 Application). Fix: did you swap --app and --desired? --app takes the Application, --desired the resource it deploys.\n');
  });

  test('--app and --live swapped: exit 2, suggesting the swap with --live', async () => {
    const run = await simulate('--app', live, '--desired', desired, '--live', app);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`[SAFE-104] --app ${live} is a Deployment (apps/v1), not an Argo CD Application`);
    expect(run.stderr).toContain('did you swap --app and --live?');
  });

  test('the Application as --live of a Deployment: exit 2, naming --live and both kinds', async () => {
    const run = await simulate('--app', app, '--desired', desired, '--live', app);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`[SAFE-104] --live ${app} is an Application (argoproj.io/v1alpha1), but --desired ${desired} is a Deployment (apps/v1)`);
    expect(run.stderr).toContain('kubectl get deployment checkout-web -n payments -o yaml > live.yaml');
  });

  test('no Application at all: exit 2, saying what --app takes', async () => {
    const run = await simulate('--app', desired, '--desired', desired);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Fix: give --app the Argo CD Application that deploys the resource in --desired.');
  });

  test('an Application as --desired under an Application, as in app-of-apps, is simulated', async () => {
    // WHEN an Application is the resource another Application deploys
    const run = await simulate('--app', app, '--desired', app, '--live', app);

    // THEN it is simulated like any resource
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Application argocd/checkout: Synced');
  });
});
