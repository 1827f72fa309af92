import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Autoscaler, HpaManagedStatefulSet, SafeApplication } from '../../src';

/** A session cache whose pods keep their names, scaled on memory by an HPA. */
export function addSessionCache(app: SafeApplication): HpaManagedStatefulSet {
  return new HpaManagedStatefulSet(app, 'sessions', {
    metadata: { name: 'checkout-sessions' },
    autoscaler: Autoscaler.hpa({ minReplicas: 3, maxReplicas: 9, memoryUtilizationPercent: 75 }),
    // Scale up several pods at once instead of one after the other.
    podManagementPolicy: kplus.PodManagementPolicy.PARALLEL,
    containers: [{
      name: 'cache',
      image: 'registry.example.com/payments/session-cache:2.3.1',
      portNumber: 6379,
      resources: { memory: { request: Size.gibibytes(1), limit: Size.gibibytes(2) } },
    }],
  });
}
