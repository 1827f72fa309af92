import { compareStrings } from '../../src/core/order';

describe('compareStrings', () => {
  test.each([
    ['a', 'b', -1],
    ['b', 'a', 1],
    ['same', 'same', 0],
    // by code unit: upper case before lower case, and "é" after "z", whatever the locale
    ['Z', 'a', -1],
    ['z', 'é', -1],
    ['apps/a.yaml', 'apps-b/a.yaml', 1],
  ])('%j against %j is %d', (a, b, expected) => {
    expect(compareStrings(a, b)).toBe(expected);
  });

  test('sorts by code unit, not by locale', () => {
    expect(['é', 'b', 'B', 'a'].sort(compareStrings)).toEqual(['B', 'a', 'b', 'é']);
  });
});
