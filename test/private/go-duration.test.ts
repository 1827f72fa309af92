import { Duration } from 'cdk8s';
import { goDuration } from '../../src/private/go-duration';

describe('goDuration', () => {
  test.each([
    [Duration.seconds(5), '5s'],
    [Duration.seconds(180), '3m'],
    [Duration.minutes(3), '3m'],
    [Duration.seconds(90), '1m30s'],
    [Duration.seconds(3600), '1h'],
    [Duration.hours(1), '1h'],
    [Duration.seconds(3723), '1h2m3s'],
    [Duration.seconds(3603), '1h3s'],
    [Duration.hours(26), '26h'],
    [Duration.seconds(0), '0s'],
  ])('renders %p as %p', (duration, expected) => {
    // GIVEN a whole number of seconds
    // WHEN it is rendered
    // THEN it is the shortest Go duration string
    expect(goDuration(duration)).toBe(expected);
  });
});
