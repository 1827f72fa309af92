import { canonicalQuantity } from '../../src/drift/quantity';

// Expected forms follow k8s.io/apimachinery resource.Quantity (CanonicalizeBytes): decimal values take the
// largest SI suffix that keeps an integer mantissa, binary values the largest binary suffix at or above 1Ki.
describe('canonicalQuantity', () => {
  test.each([
    ['1000m', '1'], ['1', '1'], ['0.2', '200m'], ['1.5', '1500m'], ['1500', '1500'], ['2000', '2k'], ['1000000', '1M'],
    ['2048Mi', '2Gi'], ['1536Mi', '1536Mi'], ['1024Ki', '1Mi'], ['0.5Ki', '512'], ['1.5Gi', '1536Mi'], ['1Ki', '1Ki'],
    ['1e3', '1e3'], ['1E', '1E'], ['0', '0'], ['0Mi', '0'], ['-1000m', '-1'], ['0.0000000001', '1n'], ['100n', '100n'],
  ])('GIVEN %s WHEN canonicalized THEN it reads %s', (text, expected) => {
    expect(canonicalQuantity(text)).toBe(expected);
  });

  test('GIVEN a number as YAML parses `cpu: 0.5` WHEN canonicalized THEN it is 500m', () => {
    expect(canonicalQuantity(0.5)).toBe('500m');
    expect(canonicalQuantity(2)).toBe('2');
  });

  test.each([['invalid'], [''], ['1Qi'], ['1.2.3'], ['e3']])('GIVEN %j WHEN canonicalized THEN it is no quantity', (text) => {
    expect(canonicalQuantity(text)).toBeUndefined();
  });
});
