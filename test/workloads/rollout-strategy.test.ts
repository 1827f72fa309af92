import { Duration } from 'cdk8s';
import { CanaryStep, RolloutStrategy } from '../../src';

describe('RolloutStrategy', () => {
  test('a canary renders its steps in order under spec.strategy.canary', () => {
    const strategy = RolloutStrategy.canary({ steps: [CanaryStep.weight(0), CanaryStep.pause(Duration.seconds(1)), CanaryStep.weight(100)] });
    expect(strategy.name).toBe('canary');
    expect(strategy._toRollout()).toEqual({ canary: { steps: [{ setWeight: 0 }, { pause: { duration: '1s' } }, { setWeight: 100 }] } });
  });

  test('a blue-green strategy renders its Services, the preview only when given', () => {
    expect(RolloutStrategy.blueGreen({ activeService: 'web' })._toRollout()).toEqual({ blueGreen: { activeService: 'web' } });
    expect(RolloutStrategy.blueGreen({ activeService: 'web', previewService: 'web-preview' })._toRollout())
      .toEqual({ blueGreen: { activeService: 'web', previewService: 'web-preview' } });
  });

  test('what it renders is a copy: changing it changes no later rendering', () => {
    const strategy = RolloutStrategy.canary({ steps: [CanaryStep.weight(10)] });
    (strategy._toRollout().canary as any).steps.push({ setWeight: 99 });
    expect(strategy._toRollout()).toEqual({ canary: { steps: [{ setWeight: 10 }] } });
  });

  test.each([
    ['a canary without steps', () => RolloutStrategy.canary({ steps: [] }), /^\[SAFE-045\] RolloutStrategy\.canary: steps is \[\]; it must hold at least one CanaryStep/],
    ['a weight of 101', () => CanaryStep.weight(101), /^\[SAFE-045\] CanaryStep\.weight: percent is 101;/],
    ['a weight of 12.5', () => CanaryStep.weight(12.5), /percent is 12\.5;/],
    ['a pause of half a second', () => CanaryStep.pause(Duration.millis(500)), /^\[SAFE-045\] CanaryStep\.pause: duration is "0\.5s";/],
    ['an active Service that is not a DNS label', () => RolloutStrategy.blueGreen({ activeService: 'Web_Active' }), /^\[SAFE-045\] RolloutStrategy\.blueGreen: activeService is "Web_Active";/],
    ['a preview Service equal to the active one', () => RolloutStrategy.blueGreen({ activeService: 'web', previewService: 'web' }), /previewService is "web"; it must differ from activeService/],
  ])('fails on %s', (_label, make, message) => {
    expect(make).toThrow(message);
  });
});
