import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { ERROR_MEANINGS, errorTable } from '../../src/core/error-meanings';
import { badValue, describe as describeValue, ErrorCode, failure } from '../../src/core/errors';

describe('badValue', () => {
  test('names the code, the construct path, the prop, the value, what is allowed and the fix', () => {
    // GIVEN a construct deep in a tree
    const chart = new Chart(Testing.app(), 'payments');
    const app = new Construct(chart, 'checkout');
    // WHEN a bad value is reported on it
    const error = badValue(ErrorCode.INVALID_NAMESPACE, app, 'namespace', 'Pay_Ments',
      'must be a DNS-1123 label', 'use lowercase letters, digits and "-"');
    // THEN the message has every part, in order
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe(
      '[SAFE-004] payments/checkout: namespace is "Pay_Ments"; it must be a DNS-1123 label. Fix: use lowercase letters, digits and "-"',
    );
  });

  test('uses the label when the value was given outside the construct tree', () => {
    // GIVEN a label instead of a construct
    // WHEN a bad value is reported
    const error = badValue(ErrorCode.INVALID_POINTER, 'IgnoreRule.jsonPointer', 'pointer', 'spec/replicas',
      'is not a valid RFC 6901 pointer', 'start with "/"');
    // THEN the label stands where the path would be
    expect(error.message).toMatch(/^\[SAFE-007\] IgnoreRule\.jsonPointer: pointer is "spec\/replicas"; it is not a valid RFC 6901 pointer\. Fix: start with "\/"$/);
  });

  test('names the root "<root>"', () => {
    // GIVEN the root of a construct tree, whose path is empty
    const root = Testing.app();
    // WHEN a bad value is reported on it
    const error = badValue(ErrorCode.WRONG_SCOPE, root, 'scope', '', 'must be a Chart', 'x');
    // THEN the message says <root>
    expect(error.message).toContain('[SAFE-010] <root>: scope is ""');
  });

  test('renders non-string values as JSON and a missing value as missing', () => {
    // GIVEN values of several types
    const make = (value: unknown) => badValue(ErrorCode.DUPLICATE, 'X', 'p', value, 'must be ok', 'f').message;
    // WHEN they are reported
    // THEN each is unambiguous
    expect(make(['a', 'b'])).toContain('p is ["a","b"]; it must be ok');
    expect(make({ limit: -2 })).toContain('p is {"limit":-2}; it must be ok');
    expect(make(3)).toContain('p is 3; it must be ok');
    expect(make(null)).toContain('p is null; it must be ok');
    expect(make(undefined)).toContain('p is missing; it must be ok');
    expect(make('with "quotes"')).toContain('p is "with \\"quotes\\""; it');
  });
});

describe('describe', () => {
  test('shortens long values to 120 characters', () => {
    // GIVEN a value whose JSON is longer than 120 characters
    const text = describeValue('x'.repeat(500));
    // WHEN / THEN it is cut with an ellipsis
    expect(text).toBe(`is "${'x'.repeat(116)}...; it`);
  });

  test('falls back to String() for values JSON cannot render', () => {
    // GIVEN a function, a bigint and a cyclic object
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    // WHEN they are described
    // THEN none throws
    expect(describeValue(() => 1)).toMatch(/^is .+; it$/);
    expect(describeValue(BigInt(7))).toBe('is 7; it');
    expect(describeValue(cyclic)).toBe('is [object Object]; it');
  });
});

describe('failure', () => {
  test('prefixes the code', () => {
    // GIVEN / WHEN a failure that is not about one value is made
    const error = failure(ErrorCode.RULE_VIOLATIONS, '2 rule violations');
    // THEN it starts with the code
    expect(error.message).toBe('[SAFE-100] 2 rule violations');
  });
});

describe('ErrorCode', () => {
  test('codes are unique and well formed', () => {
    // GIVEN every code
    const codes = Object.values(ErrorCode);
    // WHEN / THEN none is reused and all read SAFE-nnn
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) {
      expect(code).toMatch(/^SAFE-\d{3}$/);
    }
  });
});

describe('every error code', () => {
  const SRC = join(__dirname, '..', '..', 'src');
  const sources = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    return e.isDirectory() ? sources(full) : e.name.endsWith('.ts') ? [full] : [];
  });
  // Where codes are defined and described, not used.
  const DEFINITIONS = ['errors.ts', 'error-meanings.ts'].map((f) => join(SRC, 'core', f));
  const code = sources(SRC).filter((f) => !DEFINITIONS.includes(f)).map((f) => readFileSync(f, 'utf8')).join('\n');

  test.each(Object.keys(ErrorCode))('%s is used somewhere in the library', (key) => {
    expect(code).toMatch(new RegExp(`\\bErrorCode\\.${key}\\b`));
  });

  test('has a meaning, and the README\'s table is generated from the meanings', () => {
    expect(Object.keys(ERROR_MEANINGS).sort()).toEqual(Object.values(ErrorCode).sort());
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    expect(readme).toContain(`<!-- errors: generated from src/core/error-meanings.ts -->\n${errorTable()}<!-- errors: end -->`);
  });
});

