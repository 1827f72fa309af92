import { Duration } from 'cdk8s';
import { Autoscaler, CanaryStep, HpaManagedRollout, RolloutStrategy, SafeApplication } from '../../src';

/** The checkout web tier as an Argo Rollout: a canary in steps, its replica count owned by an HPA on CPU. */
export function addCanaryWeb(app: SafeApplication): HpaManagedRollout {
  return new HpaManagedRollout(app, 'web', {
    metadata: { name: 'checkout-web' },
    autoscaler: Autoscaler.hpa({ minReplicas: 3, maxReplicas: 12, cpuUtilizationPercent: 70 }),
    strategy: RolloutStrategy.canary({
      steps: [
        CanaryStep.weight(20),
        CanaryStep.pause(Duration.minutes(5)),
        CanaryStep.weight(50),
        // Wait for `kubectl argo rollouts promote checkout-web`.
        CanaryStep.pause(),
      ],
    }),
    containers: [{ name: 'web', image: 'registry.example.com/payments/checkout-web:1.42.0', portNumber: 8080 }],
  });
}
