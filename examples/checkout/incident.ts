import { buildCheckoutApp } from './app';
import { DriftSimulator, LiveScenario } from '../../src';

/** A hand-written Application as most fleets have it: auto-sync with self-heal, nothing ignored. */
const HAND_WRITTEN_APPLICATION = `
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: { name: checkout, namespace: argocd }
spec:
  project: payments
  destination: { server: https://kubernetes.default.svc, namespace: payments }
  source: { repoURL: https://git.example.com/platform/gitops.git, path: checkout, targetRevision: main }
  syncPolicy:
    automated: { prune: true, selfHeal: true }
`;

/**
 * The classic checkout incident: Git says replicas 3, the HPA scales to 8 under load. What does Argo CD do?
 */
export async function simulateIncident(): Promise<string> {
  const simulator = await DriftSimulator.create();
  const files = new Map(buildCheckoutApp({ outdir: 'dist' }).renderFiles().map((f) => [f.path, f.content]));
  const deployment = files.get('workloads/checkout/Deployment.checkout-web.k8s.yaml')!;
  const withReplicas = deployment.replace(/^spec:\n/m, 'spec:\n  replicas: 3\n');

  const before = simulator.simulateDrift({
    application: HAND_WRITTEN_APPLICATION,
    desired: withReplicas,
    live: LiveScenario.hpaScales(8).liveFrom(withReplicas),
  });
  const after = simulator.simulateDrift({
    application: files.get('applications/payments/Application.checkout.k8s.yaml')!,
    desired: deployment,
    // Live still carries replicas: 3 in its last-applied configuration from before the migration.
    live: LiveScenario.hpaScales(8).liveFrom(withReplicas),
  });
  const replicas = (json: string) => JSON.parse(json).spec.replicas;
  return [
    '# hand-written Application, replicas: 3 in Git, HPA scaled to 8',
    DriftSimulator.describe('Deployment payments/checkout-web', before).trimEnd(),
    `  replicas after self-heal: ${replicas(before.liveAfterApply)}`,
    '# SafeApplication + HpaManagedDeployment, same live object',
    DriftSimulator.describe('Deployment payments/checkout-web', after).trimEnd(),
    `  replicas after the next sync: ${replicas(after.liveAfterApply)}`,
    '',
  ].join('\n');
}

if (require.main === module) {
  void simulateIncident().then((text) => process.stdout.write(text));
}
