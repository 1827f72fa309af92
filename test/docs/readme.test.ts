import { readFileSync } from 'fs';
import { join } from 'path';
import { ApiObject } from 'cdk8s';
import { buildCheckoutApp } from '../../examples/checkout/app';
import { simulateIncident } from '../../examples/checkout/incident';
import { MISTAKES, mistakesText } from '../../examples/mistakes';
import { tuneCheckout } from '../../examples/snippets/ignore-rules';
import {
  gitFleetOutput, helmValuesFromGitOutput, helmValuesOutput, kustomizeOptionsOutput, rolloutOutput, statefulSetOutput, syncWindowsOutput,
} from '../../examples/snippets/outputs';
import { SafeApplication } from '../../src';
import { yamlOf } from '../support/app';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The fenced block that follows each `<!-- kind: target -->` marker. */
function markedBlocks(kind: string): { target: string; body: string }[] {
  const found: { target: string; body: string }[] = [];
  const pattern = new RegExp(`<!-- ${kind}: (\\S+) -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``, 'g');
  for (const m of README.matchAll(pattern)) {
    found.push({ target: m[1], body: m[2] });
  }
  return found;
}

describe('README', () => {
  test('its first lines give the example and test commands', () => {
    const head = README.split('\n').slice(0, 6).join('\n');
    expect(head).toContain('npm ci && npm run example');
    expect(head).toContain('npm ci && npm test');
  });

  test('every example code block is the example file, as a user imports it', () => {
    const blocks = markedBlocks('example');
    expect(blocks.length).toBeGreaterThan(0);
    for (const { target, body } of blocks) {
      const source = readFileSync(join(ROOT, target), 'utf8').replace(/'\.\.\/\.\.\/src'/g, '\'cdk8s-safe-argocd\'');
      expect(body).toBe(source); // run `npx projen readme` to refresh
    }
  });

  test('every output block is what the example synthesizes', () => {
    const files = new Map(buildCheckoutApp({ outdir: 'dist' }).renderFiles().map((f) => [f.path, f.content]));
    const blocks = markedBlocks('output');
    expect(blocks.length).toBeGreaterThan(0);
    for (const { target, body } of blocks) {
      expect(body).toBe(files.get(target));
    }
  });

  test('the incident simulation block is what examples/checkout/incident.ts prints', async () => {
    const blocks = markedBlocks('run');
    expect(blocks.map((b) => b.target).sort()).toEqual([
      'examples/checkout/incident.ts', 'examples/mistakes.ts', 'examples/snippets/git-fleet.ts', 'examples/snippets/helm-values-from-git.ts',
      'examples/snippets/helm-values.ts', 'examples/snippets/kustomize-options.ts', 'examples/snippets/rollout.ts', 'examples/snippets/stateful-set.ts',
      'examples/snippets/sync-windows.ts',
    ]);
    expect(blocks.find((b) => b.target === 'examples/checkout/incident.ts')!.body).toBe(await simulateIncident());
  });

  test('the blocks after the sync window, StatefulSet and Rollout snippets are what those snippets render', () => {
    const blocks = markedBlocks('run');
    expect(blocks.find((b) => b.target === 'examples/snippets/sync-windows.ts')!.body).toBe(syncWindowsOutput());
    expect(blocks.find((b) => b.target === 'examples/snippets/stateful-set.ts')!.body).toBe(statefulSetOutput());
    expect(blocks.find((b) => b.target === 'examples/snippets/rollout.ts')!.body).toBe(rolloutOutput());
  });

  test('the block after the git fleet snippet is the ApplicationSet it renders: the folders it reads, the policy that keeps Applications, the rollout', () => {
    const body = markedBlocks('run').find((b) => b.target === 'examples/snippets/git-fleet.ts')!.body;
    expect(body).toBe(gitFleetOutput());
    const spec = yamlOf(body).spec;
    expect(spec.generators[0].git).toEqual(expect.objectContaining({ revision: 'main', directories: [{ path: 'apps/*/*' }, { path: 'apps/sandbox/*', exclude: true }] }));
    expect(spec.syncPolicy.applicationsSync).toBe('create-update');
    expect(spec.strategy.type).toBe('RollingSync');
    // and the section names the controller settings the output needs
    const section = README.slice(README.indexOf('### Git-generated fleets'), README.indexOf('## Sync windows on a `SafeProject`'));
    expect(section).toContain('applicationsetcontroller.enable.policy.override');
    expect(section).toContain('applicationsetcontroller.enable.progressive.syncs');
  });

  test('the block after the Helm values snippet is the source of the Application it renders', () => {
    const body = markedBlocks('run').find((b) => b.target === 'examples/snippets/helm-values.ts')!.body;
    expect(body).toBe(helmValuesOutput());
    // what the prose around it promises: every option is rendered, and no value file may be missing
    expect(yamlOf(body).spec.source.helm).toEqual(expect.objectContaining({
      releaseName: 'api', valueFiles: ['values-production.yaml'], parameters: [{ name: 'podLabels.cost-center', value: '0123', forceString: true }],
    }));
    expect(body).toContain('existingSecret: payments-db-credentials');
    expect(body).not.toContain('ignoreMissingValueFiles');
  });

  test('the block after the snippet with values from Git is the sources of the Application it renders', () => {
    const body = markedBlocks('run').find((b) => b.target === 'examples/snippets/helm-values-from-git.ts')!.body;
    expect(body).toBe(helmValuesFromGitOutput());
    // what the prose around it promises: the chart first at one version, then a ref source with no path
    const [chart, values] = yamlOf(body).spec.sources;
    expect(chart).toEqual(expect.objectContaining({ chart: 'ingress-nginx', targetRevision: '4.11.3' }));
    expect(chart.helm.valueFiles.every((f: string) => f.startsWith(`$${values.ref}/`))).toBe(true);
    expect(values).toEqual({ ref: 'values', repoURL: 'https://git.example.com/platform/values.git', targetRevision: 'v2.3.0' });
    expect(body).not.toContain('ignoreMissingValueFiles');
  });

  test('the block after the Kustomize options snippet is the source of the Application it renders', () => {
    const body = markedBlocks('run').find((b) => b.target === 'examples/snippets/kustomize-options.ts')!.body;
    expect(body).toBe(kustomizeOptionsOutput());
    // what the prose around it promises: images in Argo CD's string form, a digest without a tag
    const kustomize = yamlOf(body).spec.source.kustomize;
    expect(kustomize.images).toEqual([
      expect.stringMatching(/^ghcr\.io\/acme\/payments-api=ghcr\.io\/acme\/payments-api@sha256:[0-9a-f]{64}$/),
      'ghcr.io/acme/payments-worker=registry.example.com/payments-worker:1.4.2',
    ]);
    expect(kustomize).toEqual(expect.objectContaining({ namePrefix: 'prod-', namespace: 'payments' }));
    // and the section points to the rendered audit for the checks that need the built output
    const section = README.slice(README.indexOf('### Kustomize options'), README.indexOf('## Ignore rules'));
    expect(section).toContain('safe-argocd audit --rendered');
    expect(section).toContain('docs/audit-in-ci.md#rendered-sources');
  });

  test('the common mistakes block is what each mistake, made for real, gives: an error for every one', () => {
    const block = markedBlocks('run').find((b) => b.target === 'examples/mistakes.ts')!;
    expect(block.body).toBe(mistakesText());
    expect(block.body).not.toContain('(no error)');
    expect(block.body.match(/^\[SAFE-\d{3}\] /gm)).toHaveLength(MISTAKES.length);
  });

  test('the quick start tree is every file the example writes', () => {
    const files = buildCheckoutApp({ outdir: 'dist' }).renderFiles().map((f) => `dist/${f.path}\n`);
    expect(markedBlocks('tree')).toEqual([{ target: 'dist', body: files.join('') }]);
  });

  test('the snippets compile and do what the README says', () => {
    // GIVEN the checkout example with a webhook configuration to own fields of
    const gitops = buildCheckoutApp({ outdir: 'dist' });
    const app = gitops.node.findAll().find((c): c is SafeApplication => c instanceof SafeApplication && c.applicationName === 'checkout')!;
    const webhook = new ApiObject(app, 'webhook', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'checkout-validator' },
      webhooks: [{ name: 'validate.checkout.example.com', clientConfig: { service: { name: 'checkout', namespace: 'payments' } }, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
    });
    const deployment = ApiObject.of(app.node.findChild('web'));
    // WHEN the snippet runs
    tuneCheckout(app, deployment, webhook);
    // THEN the app still synthesizes (the suppression accepts the removed retry) and carries the rules
    const application = yamlOf(gitops.renderFiles().find((f) => f.path === 'applications/payments/Application.checkout.k8s.yaml')!.content);
    expect(application.spec.syncPolicy.retry).toBeUndefined();
    expect(application.metadata.annotations['safe-argocd/suppress.SA006']).toBe('retries are driven by the release pipeline');
    expect(application.spec.ignoreDifferences.map((e: any) => `${e.kind}/${e.name}`)).toEqual([
      'Deployment/checkout-web', 'ValidatingWebhookConfiguration/checkout-validator',
    ]);
  });
});
