import { Autoscaler, HpaOptions } from '../../src';

// Every refusal names what is allowed and how to fix it (STYLE 9): the whole message is the contract.
describe('Autoscaler refusals, in full', () => {
  test.each([
    [
      'minReplicas is 0',
      { minReplicas: 0, maxReplicas: 5, cpuUtilizationPercent: 70 },
      '[SAFE-019] Autoscaler.hpa: minReplicas is 0; it must be a whole number of at least 1 (scaling an HPA to zero needs an alpha feature gate). Fix: use e.g. minReplicas: 2, or Autoscaler.keda with minReplicaCount: 0 to scale to zero',
    ],
    [
      'maxReplicas is below minReplicas',
      { minReplicas: 4, maxReplicas: 3, cpuUtilizationPercent: 70 },
      '[SAFE-019] Autoscaler.hpa: maxReplicas is 3; it must be a whole number from minReplicas (4) to 10000. Fix: use a maximum of at least 4',
    ],
    [
      'the CPU target is 1001',
      { maxReplicas: 5, cpuUtilizationPercent: 1001 },
      '[SAFE-019] Autoscaler.hpa: cpuUtilizationPercent is 1001; it must be a whole percentage from 1 to 1000 of the containers\' requests. Fix: use e.g. 70',
    ],
    [
      'there is no metric',
      { maxReplicas: 5 },
      '[SAFE-019] Autoscaler.hpa: cpuUtilizationPercent is missing; it or memoryUtilizationPercent must be given: an HPA needs at least one metric. Fix: set cpuUtilizationPercent: 70 (or a memory target)',
    ],
  ])('fails when %s, saying what is allowed and how to fix it', (_label, options, message) => {
    // GIVEN options with one bad value WHEN an HPA autoscaler is made THEN the whole message is as documented
    expect(() => Autoscaler.hpa(options as HpaOptions)).toThrow(message);
  });

  test.each([
    ['kedaScaledObject', (name: string) => Autoscaler.kedaScaledObject(name)],
    ['externalHpa', (name: string) => Autoscaler.externalHpa(name)],
  ])('%s fails when the owner name is not an object name, saying how to fix it', (label, make) => {
    expect(() => make('Web_HPA')).toThrow(
      `[SAFE-001] Autoscaler.${label}: name is "Web_HPA"; it must be the metadata.name of the object that owns the replicas. Fix: copy the name from the owning object's manifest`);
  });

  test.each([
    ['kedaScaledObject', (name: string) => Autoscaler.kedaScaledObject(name)],
    ['externalHpa', (name: string) => Autoscaler.externalHpa(name)],
  ])('%s fails with the library error, not a TypeError, when a JavaScript caller gives no name', (label, make) => {
    // GIVEN a caller without type checks (JavaScript, or a jsii language passing null)
    // WHEN the name is left out THEN it is the documented refusal
    expect(() => make(undefined as unknown as string)).toThrow(new RegExp(`^\\[SAFE-001\\] Autoscaler\\.${label}: name is missing; it must be the metadata\\.name`));
  });
});
