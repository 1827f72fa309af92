import { ApiObject, Chart } from 'cdk8s';
import { GitOpsApp, SafeApplication } from '../../src';
import { appProps, newApp } from '../support/app';

// An object in a plain Chart inside a SafeApplication belongs to that app: it is validated and written with
// the app's workloads, never dropped without a word.

describe('objects in a plain Chart inside a SafeApplication', () => {
  test('are the app\'s workloads, written to its folder, during a synth and outside one', () => {
    // GIVEN an app with its own ConfigMap and one in a plain chart nested in it, and an app nested in that chart
    const { app, gitops, config } = newApp();
    const chart = new Chart(app, 'library');
    const lost = new ApiObject(chart, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-library' } });
    const inner = new SafeApplication(chart, 'inner', appProps({ name: 'inner', destinationNamespace: 'inner' }));
    const innerObject = new ApiObject(new Chart(inner, 'deeper'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'inner-cm' } });

    // WHEN asked outside a synth, and rendered
    const paths = gitops.renderFiles().map((f) => f.path);

    // THEN each object belongs to its nearest SafeApplication only
    expect(app._workloadObjects()).toEqual([config, lost]);
    expect(inner._workloadObjects()).toEqual([innerObject]);
    expect(paths.filter((p) => p.startsWith('workloads/'))).toEqual([
      'workloads/checkout/ConfigMap.from-library.k8s.yaml',
      'workloads/checkout/ConfigMap.settings.k8s.yaml',
      'workloads/inner/ConfigMap.inner-cm.k8s.yaml',
    ]);
  });

  test('an app whose only objects are in a nested chart is not empty', () => {
    // GIVEN an app whose one ConfigMap is in a plain chart inside it
    const gitops = new GitOpsApp({ outdir: 'dist' });
    const app = new SafeApplication(gitops, 'checkout', appProps());
    new ApiObject(new Chart(app, 'library'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'only' } });

    // THEN it synthesizes, with that object
    expect(gitops.renderFiles().map((f) => f.path).filter((p) => p.startsWith('workloads/'))).toEqual(['workloads/checkout/ConfigMap.only.k8s.yaml']);
  });
});
