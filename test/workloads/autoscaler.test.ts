import * as fc from 'fast-check';
import { Autoscaler, AutoscalerKind, HpaOptions, KedaTrigger } from '../../src';

describe('Autoscaler.hpa', () => {
  test('keeps the options and defaults minReplicas to 2', () => {
    // GIVEN options without minReplicas WHEN an HPA autoscaler is made
    const autoscaler = Autoscaler.hpa({ maxReplicas: 10, cpuUtilizationPercent: 70 });
    // THEN the default is applied and nothing else changes
    expect(autoscaler.kind).toBe(AutoscalerKind.HPA);
    expect(autoscaler.ownerName).toBeUndefined();
    expect(autoscaler.hpaOptions).toEqual({ minReplicas: 2, maxReplicas: 10, cpuUtilizationPercent: 70 });
  });

  test('accepts the edges of every bound', () => {
    expect(Autoscaler.hpa({ minReplicas: 1, maxReplicas: 1, memoryUtilizationPercent: 1 }).hpaOptions)
      .toEqual({ minReplicas: 1, maxReplicas: 1, memoryUtilizationPercent: 1 });
    const widest = Autoscaler.hpa({ minReplicas: 3, maxReplicas: 10000, cpuUtilizationPercent: 1000, memoryUtilizationPercent: 1000 });
    expect(widest.hpaOptions?.maxReplicas).toBe(10000);
  });

  test.each([
    ['minReplicas is 0', { minReplicas: 0, maxReplicas: 5, cpuUtilizationPercent: 70 }, 'minReplicas is 0;'],
    ['minReplicas is negative', { minReplicas: -2, maxReplicas: 5, cpuUtilizationPercent: 70 }, 'minReplicas is -2;'],
    ['minReplicas is 1.5', { minReplicas: 1.5, maxReplicas: 5, cpuUtilizationPercent: 70 }, 'minReplicas is 1.5;'],
    ['maxReplicas is below minReplicas', { minReplicas: 4, maxReplicas: 3, cpuUtilizationPercent: 70 }, 'maxReplicas is 3; it must be a whole number from minReplicas (4)'],
    ['maxReplicas is below the default minReplicas', { maxReplicas: 1, cpuUtilizationPercent: 70 }, 'maxReplicas is 1; it must be a whole number from minReplicas (2)'],
    ['maxReplicas is over 10000', { maxReplicas: 10001, cpuUtilizationPercent: 70 }, 'maxReplicas is 10001;'],
    ['maxReplicas is 7.5', { maxReplicas: 7.5, cpuUtilizationPercent: 70 }, 'maxReplicas is 7.5;'],
    ['the CPU target is 0', { maxReplicas: 5, cpuUtilizationPercent: 0 }, 'cpuUtilizationPercent is 0;'],
    ['the CPU target is 1001', { maxReplicas: 5, cpuUtilizationPercent: 1001 }, 'cpuUtilizationPercent is 1001;'],
    ['the memory target is 0', { maxReplicas: 5, memoryUtilizationPercent: 0 }, 'memoryUtilizationPercent is 0;'],
    ['the memory target is 80.5', { maxReplicas: 5, memoryUtilizationPercent: 80.5 }, 'memoryUtilizationPercent is 80.5;'],
    ['there is no metric', { maxReplicas: 5 }, 'cpuUtilizationPercent is missing; it or memoryUtilizationPercent must be given'],
  ])('fails when %s', (_label, options, message) => {
    // GIVEN options with one bad value WHEN an HPA autoscaler is made THEN it is refused, naming the prop and value
    expect(() => Autoscaler.hpa(options as HpaOptions)).toThrow(/^\[SAFE-019\] Autoscaler\.hpa: /);
    expect(() => Autoscaler.hpa(options as HpaOptions)).toThrow(message);
  });

  test('fails when minReplicas is NaN, and the message shows the value received', () => {
    // GIVEN a value computed from a missing setting (e.g. Number(undefined))
    // WHEN an HPA autoscaler is made THEN it is refused, and the error names what it received
    expect(() => Autoscaler.hpa({ minReplicas: NaN, maxReplicas: 5, cpuUtilizationPercent: 70 })).toThrow(/\[SAFE-019\] Autoscaler\.hpa: minReplicas is NaN;/);
  });
});

describe('Autoscaler for replicas owned elsewhere', () => {
  test('a KEDA ScaledObject records its name and has no HPA options', () => {
    const autoscaler = Autoscaler.kedaScaledObject('checkout-web');
    expect(autoscaler.kind).toBe(AutoscalerKind.KEDA_SCALED_OBJECT);
    expect(autoscaler.ownerName).toBe('checkout-web');
    expect(autoscaler.hpaOptions).toBeUndefined();
  });

  test('an external HPA records its name and has no HPA options', () => {
    const autoscaler = Autoscaler.externalHpa('web.v2');
    expect(autoscaler.kind).toBe(AutoscalerKind.EXTERNAL_HPA);
    expect(autoscaler.ownerName).toBe('web.v2');
    expect(autoscaler.hpaOptions).toBeUndefined();
  });

  test.each([
    ['empty', ''],
    ['upper case', 'Web'],
    ['with an underscore', 'web_1'],
    ['starting with a dash', '-web'],
    ['254 characters long', 'a'.repeat(254)],
  ])('fails when the owner name is %s', (_label, name) => {
    expect(() => Autoscaler.kedaScaledObject(name)).toThrow(/^\[SAFE-001\] Autoscaler\.kedaScaledObject: name /);
    expect(() => Autoscaler.externalHpa(name)).toThrow(/^\[SAFE-001\] Autoscaler\.externalHpa: name /);
  });
});

/** One invalid HpaOptions, and the prop its error must name. */
interface BadCase {
  readonly options: HpaOptions;
  readonly prop: RegExp;
}

const nonInteger = fc.double({ min: -100, max: 2000, noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n));
const badPercent = fc.oneof(fc.constantFrom(0, 1001), fc.integer({ max: 0 }), fc.integer({ min: 1001 }), nonInteger);
const goodPercent = fc.integer({ min: 1, max: 1000 });

/** Exactly one prop is invalid in each case, so the error must name that one. */
const badCases: fc.Arbitrary<BadCase> = fc.oneof(
  fc.record({ min: fc.oneof(fc.integer({ max: 0 }), nonInteger), cpu: goodPercent })
    .map(({ min, cpu }) => ({ options: { minReplicas: min, maxReplicas: 200, cpuUtilizationPercent: cpu }, prop: /minReplicas is / })),
  fc.integer({ min: 1, max: 50 }).chain((min) => fc.record({
    min: fc.constant(min),
    max: fc.oneof(fc.integer({ min: -100, max: min - 1 }), nonInteger.filter((n) => n > min)),
    mem: goodPercent,
  })).map(({ min, max, mem }) => ({ options: { minReplicas: min, maxReplicas: max, memoryUtilizationPercent: mem }, prop: /maxReplicas is / })),
  fc.record({ bad: badPercent, other: fc.option(goodPercent, { nil: undefined }) })
    .map(({ bad, other }) => ({ options: { maxReplicas: 10, cpuUtilizationPercent: bad, memoryUtilizationPercent: other }, prop: /cpuUtilizationPercent is / })),
  fc.record({ bad: badPercent, other: fc.option(goodPercent, { nil: undefined }) })
    .map(({ bad, other }) => ({ options: { maxReplicas: 10, memoryUtilizationPercent: bad, cpuUtilizationPercent: other }, prop: /memoryUtilizationPercent is / })),
  fc.integer({ min: 1, max: 50 })
    .map((min) => ({ options: { minReplicas: min, maxReplicas: 50 }, prop: /cpuUtilizationPercent is missing; it or memoryUtilizationPercent/ })),
);

describe('Autoscaler.hpa properties', () => {
  test('fails for any invalid props, with [SAFE-019] and the name of the prop at fault', () => {
    fc.assert(
      fc.property(badCases, ({ options, prop }) => {
        // GIVEN options with exactly one invalid prop WHEN an HPA autoscaler is made
        let message = '';
        try {
          Autoscaler.hpa(options);
        } catch (e) {
          message = (e as Error).message;
        }
        // THEN it is refused with the scaling code, naming the prop
        expect(message).toMatch(/^\[SAFE-019\] Autoscaler\.hpa: /);
        expect(message).toMatch(prop);
      }),
      { numRuns: 1000 },
    );
  });

  test('accepts any valid props and keeps them as given', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }).chain((min) => fc.tuple(fc.constant(min), fc.integer({ min, max: 200 }))),
        fc.option(goodPercent, { nil: undefined }),
        goodPercent,
        fc.boolean(),
        ([min, max], maybe, sure, cpuSure) => {
          const options: HpaOptions = cpuSure
            ? { minReplicas: min, maxReplicas: max, cpuUtilizationPercent: sure, memoryUtilizationPercent: maybe }
            : { minReplicas: min, maxReplicas: max, memoryUtilizationPercent: sure, cpuUtilizationPercent: maybe };
          expect(Autoscaler.hpa(options).hpaOptions).toEqual(options);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('Autoscaler.keda', () => {
  const cpu = KedaTrigger.cpuUtilization(70);
  const prometheus = KedaTrigger.prometheus({ serverAddress: 'http://prometheus.monitoring.svc:9090', query: 'sum(rate(http_requests_total[2m]))', threshold: 50 });

  test('keeps the options and defaults minReplicaCount to 2, not KEDA\'s 0', () => {
    const autoscaler = Autoscaler.keda({ maxReplicaCount: 10, triggers: [cpu] });
    expect(autoscaler.kind).toBe(AutoscalerKind.KEDA_SCALED_OBJECT);
    expect(autoscaler.ownerName).toBeUndefined();
    expect(autoscaler.hpaOptions).toBeUndefined();
    expect(autoscaler.kedaOptions).toEqual({ minReplicaCount: 2, maxReplicaCount: 10, triggers: [cpu] });
  });

  test('allows minReplicaCount 0 when a trigger can wake the workload from zero', () => {
    expect(Autoscaler.keda({ minReplicaCount: 0, maxReplicaCount: 1, triggers: [cpu, prometheus] }).kedaOptions?.minReplicaCount).toBe(0);
  });

  test.each([
    ['minReplicaCount is 0 with CPU and memory triggers only', { minReplicaCount: 0, maxReplicaCount: 5, triggers: [cpu, KedaTrigger.memoryUtilization(80)] },
      'minReplicaCount is 0; it needs a trigger that can wake the workload from zero, and cpu and memory cannot'],
    ['minReplicaCount is negative', { minReplicaCount: -1, maxReplicaCount: 5, triggers: [prometheus] }, 'minReplicaCount is -1;'],
    ['maxReplicaCount is 0', { minReplicaCount: 0, maxReplicaCount: 0, triggers: [prometheus] }, 'maxReplicaCount is 0; it must be a whole number from 1 to 10000'],
    ['maxReplicaCount is below the default minReplicaCount', { maxReplicaCount: 1, triggers: [cpu] }, 'maxReplicaCount is 1; it must be a whole number from 2'],
    ['there is no trigger', { maxReplicaCount: 5, triggers: [] }, 'triggers is []; it must hold at least one KedaTrigger'],
  ])('fails when %s', (_label, options, message) => {
    expect(() => Autoscaler.keda(options)).toThrow(/^\[SAFE-019\] Autoscaler\.keda: /);
    expect(() => Autoscaler.keda(options)).toThrow(message);
  });
});

describe('KedaTrigger', () => {
  test('CPU and memory carry the metric type KEDA requires and cannot wake a workload from zero', () => {
    const memory = KedaTrigger.memoryUtilization(80);
    expect([memory.type, memory.metricType, memory.metadata, memory.activatesFromZero]).toEqual(['memory', 'Utilization', { value: '80' }, false]);
  });

  test('cron and custom triggers write their metadata as text, custom keys sorted', () => {
    const cron = KedaTrigger.cron({ timezone: 'Europe/Berlin', start: '0 8 * * 1-5', end: '0 20 * * 1-5', desiredReplicas: 4 });
    expect(cron.metadata).toEqual({ timezone: 'Europe/Berlin', start: '0 8 * * 1-5', end: '0 20 * * 1-5', desiredReplicas: '4' });
    expect(cron.activatesFromZero).toBe(true);
    const kafka = KedaTrigger.custom('kafka', { topic: 'orders', bootstrapServers: 'kafka:9092', lagThreshold: '10' });
    expect(Object.keys(kafka.metadata)).toEqual(['bootstrapServers', 'lagThreshold', 'topic']);
    expect(kafka.metricType).toBeUndefined();
  });

  test.each([
    ['a CPU percentage of 0', () => KedaTrigger.cpuUtilization(0), /^\[SAFE-044\] KedaTrigger\.cpuUtilization: percent is 0;/],
    ['a Prometheus address without a scheme', () => KedaTrigger.prometheus({ serverAddress: 'prometheus:9090', query: 'up', threshold: 1 }), /^\[SAFE-044\] KedaTrigger\.prometheus: serverAddress is "prometheus:9090";/],
    ['a Prometheus threshold of 0', () => KedaTrigger.prometheus({ serverAddress: 'http://p:9090', query: 'up', threshold: 0 }), /threshold is 0; it must be a finite number greater than 0/],
    ['a cron start of four fields', () => KedaTrigger.cron({ timezone: 'UTC', start: '0 8 * *', end: '0 20 * * *', desiredReplicas: 2 }), /^\[SAFE-044\] KedaTrigger\.cron: start is "0 8 \* \*";/],
    ['cron desiredReplicas of 0', () => KedaTrigger.cron({ timezone: 'UTC', start: '0 8 * * *', end: '0 20 * * *', desiredReplicas: 0 }), /desiredReplicas is 0;/],
    ['a custom type of cpu', () => KedaTrigger.custom('cpu', { value: '70' }), /Fix: use KedaTrigger\.cpuUtilization\(\.\.\.\)$/],
    ['a custom metadata value that is not text', () => KedaTrigger.custom('kafka', { lagThreshold: 10 as unknown as string }), /metadata\.lagThreshold is 10; it must be a string/],
  ])('fails on %s', (_label, make, message) => {
    expect(make).toThrow(message);
  });
});
