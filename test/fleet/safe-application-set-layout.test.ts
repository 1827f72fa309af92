import { Chart } from 'cdk8s';
import { ApplicationSetGenerator, ArgoProject, SafeApplicationSet } from '../../src';
import { addConfigMap, newApp } from '../support/app';

const props = {
  name: 'checkout',
  generators: [ApplicationSetGenerator.list([{ name: 'eu', namespace: 'checkout-eu' }])],
  applicationName: '{{.name}}-checkout',
  project: ArgoProject.fromName('payments'),
  repoUrl: 'https://git.acme.internal/platform/gitops.git',
  path: 'deploy/checkout',
  destinationNamespace: '{{.namespace}}',
};

describe('SafeApplicationSet in a GitOpsApp', () => {
  test('a set in its own chart is written next to its project\'s Applications, where the root deploys it', () => {
    // GIVEN a GitOpsApp with an app, and a set in a chart of its own
    const { gitops } = newApp();
    new SafeApplicationSet(new Chart(gitops, 'fleet'), 'checkout', props);
    // WHEN rendered
    const paths = gitops.renderFiles().map((f) => f.path);
    // THEN the set has its file in applications/payments/, once
    expect(paths.filter((p) => p.includes('ApplicationSet'))).toEqual(['applications/payments/ApplicationSet.checkout.k8s.yaml']);
  });

  test('a set inside a SafeApplication is that app\'s workload, written once', () => {
    // GIVEN a set defined inside the checkout app
    const { gitops, app } = newApp();
    addConfigMap(app, 'extra');
    new SafeApplicationSet(app, 'regions', props);
    // WHEN rendered
    const paths = gitops.renderFiles().map((f) => f.path);
    // THEN it is among the app's workloads and nowhere else
    expect(paths.filter((p) => p.includes('ApplicationSet'))).toEqual(['workloads/checkout/ApplicationSet.checkout.k8s.yaml']);
  });
});
