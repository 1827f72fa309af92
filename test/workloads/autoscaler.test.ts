import * as fc from 'fast-check';
import { Autoscaler, AutoscalerKind, HpaOptions } from '../../src';

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
