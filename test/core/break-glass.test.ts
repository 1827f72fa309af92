import { breakGlassOf, isCalendarDate } from '../../src/core/break-glass';

describe('isCalendarDate', () => {
  test.each([
    ['2026-12-03', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-04-31', false],
    ['2026-13-01', false],
    ['0000-00-00', false],
    ['2026-1-01', false],
    ['x2026-01-01', false],
    ['2026-01-01x', false],
    ['2026-01-01T00:00:00Z', false],
    ['', false],
  ])('%j: %s', (text, expected) => {
    expect(isCalendarDate(text)).toBe(expected);
  });
});

describe('breakGlassOf', () => {
  const app = (annotations: Record<string, string>) => ({ apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name: 'a', annotations } });

  test('the reason and the expiry, as written', () => {
    expect(breakGlassOf(app({ 'safe-argocd/break-glass-reason': 'INC-1 hotfix', 'safe-argocd/break-glass-expires': '2026-12-03' })))
      .toEqual({ reason: 'INC-1 hotfix', expires: '2026-12-03' });
  });

  test('a reason without an expiry has none', () => {
    expect(breakGlassOf(app({ 'safe-argocd/break-glass-reason': 'INC-1 hotfix' }))).toEqual({ reason: 'INC-1 hotfix', expires: undefined });
  });

  test('no reason, no break-glass, whatever else is annotated', () => {
    expect(breakGlassOf(app({ 'safe-argocd/break-glass-expires': '2026-12-03' }))).toBeUndefined();
  });
});
