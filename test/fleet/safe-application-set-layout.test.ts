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
    // THEN the set has its file in applications/payments/, once, and its runbook
    expect(paths.filter((p) => p.includes('ApplicationSet'))).toEqual(['applications/payments/ApplicationSet.checkout.k8s.yaml', 'runbooks/ApplicationSet.checkout.md']);
  });

  test('its runbook names the controller settings its policy needs, and break-glass that restores the whole policy', () => {
    // GIVEN a set in a GitOpsApp
    const { gitops } = newApp();
    const set = new SafeApplicationSet(new Chart(gitops, 'fleet'), 'checkout', props);
    // WHEN its runbook is rendered
    const runbook = gitops.renderFiles().find((f) => f.path === 'runbooks/ApplicationSet.checkout.md')!.content;
    // THEN it is the set's runbook, and says what the controller must allow and how to check it
    expect(runbook).toBe(set._runbook());
    expect(runbook).toContain('It sets `applicationsSync: create-update`');
    expect(runbook).toContain('`applicationsetcontroller.enable.policy.override` is `"true"`');
    expect(runbook).toContain('kubectl -n argocd get configmap argocd-cmd-params-cm');
    expect(runbook).not.toContain('progressive.syncs');
    expect(runbook).toContain('the deployed resources keep running, unmanaged');
    // and the restore sets every field of the template's policy
    const restore = /--type merge -p '(.*)'/.exec(runbook)![1];
    expect(JSON.parse(restore)).toEqual({ spec: { syncPolicy: set.resource.toJson().spec.template.spec.syncPolicy } });
  });

  test('under RollingSync the runbook names the progressive syncs setting, and says not to turn auto-sync on', () => {
    const { gitops } = newApp();
    const set = new SafeApplicationSet(new Chart(gitops, 'fleet'), 'checkout', {
      ...props, applicationLabels: { env: 'prod' }, rollingSync: { label: 'env', steps: [{ values: ['prod'] }] },
    });
    const runbook = set._runbook();
    expect(runbook).toContain('`applicationsetcontroller.enable.progressive.syncs: "true"`');
    expect(runbook).toContain('Do not turn auto-sync on by hand');
    expect(runbook).not.toContain('--sync-policy none');
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
