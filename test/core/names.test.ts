import { hasGlob, isDns1123Label, isDns1123Subdomain, isLabelValue, isQualifiedName, suggestDns1123Label } from '../../src/core/names';

describe('isDns1123Label', () => {
  test.each(['a', 'payments', 'team-a', '0', '9lives', 'a'.repeat(63)])('accepts %p', (value) => {
    // GIVEN / WHEN / THEN a valid label passes
    expect(isDns1123Label(value)).toBe(true);
  });

  test.each([
    ['64 characters', 'a'.repeat(64)],
    ['uppercase', 'Payments'],
    ['a leading "-"', '-payments'],
    ['a trailing "-"', 'payments-'],
    ['a dot', 'team.payments'],
    ['an underscore', 'pay_ments'],
    ['empty', ''],
  ])('refuses a label with %s', (_why, value) => {
    // GIVEN / WHEN / THEN an invalid label fails
    expect(isDns1123Label(value)).toBe(false);
  });
});

describe('isDns1123Subdomain', () => {
  test('accepts dotted names up to 253 characters', () => {
    // GIVEN / WHEN / THEN dotted names pass and over-long or malformed ones fail
    expect(isDns1123Subdomain('rollouts.argoproj.io')).toBe(true);
    expect(isDns1123Subdomain(`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`)).toBe(true);
    expect(isDns1123Subdomain('a'.repeat(254))).toBe(false);
    expect(isDns1123Subdomain('a..b')).toBe(false);
    expect(isDns1123Subdomain('.a')).toBe(false);
    expect(isDns1123Subdomain('A.b')).toBe(false);
  });
});

describe('suggestDns1123Label', () => {
  test.each([
    ['Checkout Web', 'checkout-web'],
    ['My_App!!', 'my-app'],
    ['--payments--', 'payments'],
    ['already-fine', 'already-fine'],
    ['', 'my-app'],
    ['***', 'my-app'],
    ['Ünïcode', 'n-code'],
  ])('turns %p into %p', (given, expected) => {
    // GIVEN any text
    // WHEN a label is suggested
    const suggestion = suggestDns1123Label(given);
    // THEN it is the expected, valid label
    expect(suggestion).toBe(expected);
    expect(isDns1123Label(suggestion)).toBe(true);
  });

  test('cuts to 63 characters without leaving a trailing "-"', () => {
    // GIVEN text whose 63rd character becomes a "-"
    const given = `${'a'.repeat(62)} tail`;
    // WHEN a label is suggested
    const suggestion = suggestDns1123Label(given);
    // THEN it is at most 63 characters and still valid
    expect(suggestion).toBe('a'.repeat(62));
    expect(isDns1123Label(suggestion)).toBe(true);
  });
});

describe('hasGlob', () => {
  test.each(['*', 'apps*', 'Deploy?', '[ab]pps', '{apps,batch}', 'a]'])('finds the glob in %p', (value) => {
    // GIVEN / WHEN / THEN text with a glob character is flagged
    expect(hasGlob(value)).toBe(true);
  });

  test.each(['', 'apps', 'Deployment', 'rbac.authorization.k8s.io', 'cert-manager.io'])('finds no glob in %p', (value) => {
    // GIVEN / WHEN / THEN plain text is not flagged
    expect(hasGlob(value)).toBe(false);
  });
});

describe('isQualifiedName', () => {
  test.each(['env', 'app.kubernetes.io/part-of', 'Team_Name', 'a', `acme.com/${'a'.repeat(63)}`, 'x.y-z_1'])('accepts %p', (key) => {
    expect(isQualifiedName(key)).toBe(true);
  });

  test.each(['', 'part of', '/env', 'acme.com/', 'Acme.com/env', '-env', 'env_', `acme.com/${'a'.repeat(64)}`, 'a/b/c', `${'a'.repeat(254)}/env`])('refuses %p', (key) => {
    expect(isQualifiedName(key)).toBe(false);
  });
});

describe('isLabelValue', () => {
  test.each(['', 'prod', 'v1.4.2', 'Payments_Team', 'a'.repeat(63)])('accepts %p', (value) => {
    expect(isLabelValue(value)).toBe(true);
  });

  test.each(['payments team', '-prod', 'prod.', 'a/b', 'a'.repeat(64)])('refuses %p', (value) => {
    expect(isLabelValue(value)).toBe(false);
  });
});
