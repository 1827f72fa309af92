import { AppOfApps, ArgoCdVersion, ArgoProject, DeletionPolicy, GitOpsApp, SafeApplication, SafeApplicationSet, SafeApplicationSetProps, SafeProject } from '../../src';
import { auditFiles } from '../../src/audit/audit';
import { ApplicationSetGenerator } from '../../src/fleet/application-set-generator';
import * as hardened from '../../src/private/hardened-application';
import { addConfigMap, appProps } from '../support/app';

const REPO = 'https://git.acme.internal/platform/gitops.git';

/** Props of an ApplicationSet of one Application per region, for tests to override. */
function setProps(overrides: Partial<SafeApplicationSetProps> = {}): SafeApplicationSetProps {
  return {
    name: 'checkout',
    generators: [ApplicationSetGenerator.list([{ name: 'eu', namespace: 'checkout-eu' }])],
    applicationName: '{{.name}}-checkout',
    project: ArgoProject.fromName('payments'),
    repoUrl: REPO,
    path: 'deploy/checkout',
    destinationNamespace: '{{.namespace}}',
    ...overrides,
  };
}

/** One Application of each construct that makes them: an app, an app-of-apps root, and an ApplicationSet's template. */
function everyApplicationMaker() {
  const gitops = new GitOpsApp({ outdir: 'dist' });
  const payments = new SafeProject(gitops, 'payments-project', {
    name: 'payments', sourceRepos: [REPO], destinations: [{ namespace: 'payments' }], onCallGroups: ['payments-oncall'],
  });
  const app = new SafeApplication(gitops, 'checkout', appProps({ project: payments }));
  addConfigMap(app, 'settings');
  const root = new AppOfApps(gitops, 'root', { name: 'payments-root', project: ArgoProject.fromName('platform'), childProject: payments, repoUrl: REPO });
  const set = new SafeApplicationSet(gitops, 'fleet', setProps());
  return {
    application: () => app.resource.toJson(),
    root: () => root.resource.toJson(),
    template: () => ({ metadata: (set.resource.toJson() as any).spec.template.metadata, spec: (set.resource.toJson() as any).spec.template.spec }),
  };
}

describe('one renderer of the hardened Application (src/private/hardened-application.ts)', () => {
  afterEach(() => jest.restoreAllMocks());

  test('a guarantee added to the spec renderer reaches every Application-making construct', () => {
    // GIVEN the renderer changed in one place: every spec it renders gains a field
    const original = hardened.hardenedSpec;
    jest.spyOn(hardened, 'hardenedSpec').mockImplementation((app) => ({ ...original(app), revisionHistoryLimit: 3 }));
    // WHEN each construct renders its Application
    const makers = everyApplicationMaker();
    // THEN the app, the root and the set's template all carry it
    expect([makers.application(), makers.root(), makers.template()].map((a: any) => a.spec.revisionHistoryLimit)).toEqual([3, 3, 3]);
  });

  test('a finalizer or annotation added to the renderer reaches every Application-making construct', () => {
    // GIVEN the finalizer and annotation renderers changed in one place
    jest.spyOn(hardened, 'hardenedFinalizers').mockReturnValue(['example.invalid/guarantee']);
    jest.spyOn(hardened, 'hardenedAnnotations').mockReturnValue({ 'safe-argocd/ignore-reasons': 'guarantee' });
    // WHEN each construct renders its Application
    const makers = everyApplicationMaker();
    const rendered: any[] = [makers.application(), makers.root(), makers.template()];
    // THEN all three carry both
    expect(rendered.map((a) => a.metadata.finalizers)).toEqual([['example.invalid/guarantee'], ['example.invalid/guarantee'], ['example.invalid/guarantee']]);
    expect(rendered.map((a) => a.metadata.annotations?.['safe-argocd/ignore-reasons'])).toEqual(['guarantee', 'guarantee', 'guarantee']);
  });
});

describe('a cascading deletion policy chosen in code', () => {
  test.each([DeletionPolicy.CASCADE_FOREGROUND, DeletionPolicy.CASCADE_BACKGROUND])(
    'GIVEN %s on an app and a set WHEN the output is audited THEN SA010 is recorded as suppressed with the reason, not reported', (policy) => {
      const gitops = new GitOpsApp({ outdir: 'dist' });
      const app = new SafeApplication(gitops, 'checkout', appProps({ deletionPolicy: policy }));
      addConfigMap(app, 'settings');
      const set = new SafeApplicationSet(gitops, 'fleet', setProps({ deletionPolicy: policy }));
      const files = gitops.renderFiles().map((f) => ({ path: f.path, content: Buffer.from(f.content) }));
      const result = auditFiles(files, { argoCdVersion: ArgoCdVersion.LATEST });
      expect(result.findings.filter((f) => f.ruleId === 'SA010')).toEqual([]);
      const reason = `deletionPolicy ${policy} chosen in code: deleting this Application deletes what it deployed`;
      expect(result.suppressed.filter((f) => f.ruleId === 'SA010').map((f) => [f.object, f.suppression?.reason])).toEqual([
        ['Application argocd/checkout', reason],
        ['ApplicationSet argocd/checkout', reason],
      ]);
      // Every Application the set generates carries the same record.
      expect((set.resource.toJson() as any).spec.template.metadata.annotations['safe-argocd/suppress.SA010']).toBe(reason);
    });

  test('GIVEN the default policy WHEN rendered THEN there is neither a finalizer nor an SA010 suppression', () => {
    const { application } = everyApplicationMaker();
    const rendered: any = application();
    expect([rendered.metadata.finalizers, rendered.metadata.annotations?.['safe-argocd/suppress.SA010']]).toEqual([undefined, undefined]);
  });
});
