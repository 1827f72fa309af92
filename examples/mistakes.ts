import { ApiObject, Chart, JsonPatch } from 'cdk8s';
import { ArgoProject, Autoscaler, GitOpsApp, HpaManagedDeployment, SafeApplication, SafeApplicationProps } from '../src';

/** One mistake a newcomer makes, and what the library says about it. */
export interface Mistake {
  readonly title: string;
  readonly make: () => void;
}

const REPO = 'https://git.example.com/platform/gitops.git';
const props = (overrides: Partial<SafeApplicationProps> = {}): SafeApplicationProps => ({
  name: 'orders', project: ArgoProject.fromName('shop'), repoUrl: REPO, destinationNamespace: 'orders', ...overrides,
});
const web = (app: SafeApplication) => new HpaManagedDeployment(app, 'web', {
  metadata: { name: 'orders' },
  autoscaler: Autoscaler.hpa({ minReplicas: 2, maxReplicas: 10, cpuUtilizationPercent: 70 }),
  containers: [{ image: 'registry.example.com/shop/orders:1.0.0', securityContext: { user: 10001, group: 10001 } }],
});

/** The mistakes of the README's "Common mistakes", each made for real. */
export const MISTAKES: Mistake[] = [
  {
    title: 'The `default` project',
    make: () => new SafeApplication(new GitOpsApp({ outdir: 'dist' }), 'orders', props({ project: ArgoProject.fromName('default') })),
  },
  {
    title: 'A branch that follows someone else: `targetRevision: HEAD`',
    make: () => new SafeApplication(new GitOpsApp({ outdir: 'dist' }), 'orders', props({ targetRevision: 'HEAD' })),
  },
  {
    title: 'Objects in a plain Chart, outside every SafeApplication',
    make: () => {
      const app = new GitOpsApp({ outdir: 'dist' });
      web(new SafeApplication(app, 'orders', props()));
      new ApiObject(new Chart(app, 'extras'), 'config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'orders-config' } });
      app.renderFiles();
    },
  },
  {
    title: 'Replicas written back onto an HPA-managed Deployment through the escape hatch',
    make: () => {
      const app = new GitOpsApp({ outdir: 'dist' });
      ApiObject.of(web(new SafeApplication(app, 'orders', props())).deployment).addJsonPatch(JsonPatch.add('/spec/replicas', 3));
      app.renderFiles();
    },
  },
];

/** The README block: each mistake's title and the error it gives. */
export function mistakesText(): string {
  return MISTAKES.map((m) => {
    let message = '(no error)';
    try {
      m.make();
    } catch (e) {
      message = (e as Error).message;
    }
    return `# ${m.title}\n${message}\n`;
  }).join('\n');
}
