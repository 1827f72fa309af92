/**
 * Kubernetes resource quantities in their canonical form, as the API server stores them and Argo CD's typed
 * round trip writes them (k8s.io/apimachinery pkg/api/resource/quantity.go, Quantity.CanonicalizeBytes):
 * `1000m` is `1`, `0.2` is `200m`, `2048Mi` is `2Gi`, `1500` stays `1500`.
 *
 * The value is kept exactly, in nano units (a BigInt): like Quantity, a value finer than 1n is rounded up.
 */

const BINARY: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const DECIMAL: Record<string, number> = { 'n': -9, 'u': -6, 'm': -3, '': 0, 'k': 3, 'M': 6, 'G': 9, 'T': 12, 'P': 15, 'E': 18 };
const DECIMAL_SUFFIX: Record<number, string> = Object.fromEntries(Object.entries(DECIMAL).map(([s, e]) => [e, s]));
const BINARY_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

type Format = 'binary' | 'decimal' | 'exponent';

const NANO = 9;
const pow = (base: bigint, exp: number): bigint => base ** BigInt(exp);

/** Ceiling division for a positive divisor. */
function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n ? q + 1n : q;
}

/** The quantity as nano units and the format its suffix asks for, or undefined when it is no quantity. */
function parse(text: string): { nanos: bigint; format: Format } | undefined {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) {
    return undefined;
  }
  const [, sign, whole, fraction = '', suffix] = match;
  const digits = BigInt(`${whole}${fraction}` || '0');
  // value = digits × 10^-fraction.length × multiplier
  let numerator = digits * pow(10n, NANO);
  let denominator = pow(10n, fraction.length);
  let format: Format;
  if (suffix in BINARY) {
    numerator *= pow(1024n, BINARY[suffix]);
    format = 'binary';
  } else if (suffix in DECIMAL) {
    const e = DECIMAL[suffix];
    if (e >= 0) {
      numerator *= pow(10n, e);
    } else {
      denominator *= pow(10n, -e);
    }
    format = 'decimal';
  } else {
    const exp = /^[eE]([+-]?\d+)$/.exec(suffix);
    if (!exp) {
      return undefined;
    }
    const e = Number(exp[1]);
    if (Math.abs(e) > 100) {
      return undefined;
    }
    if (e >= 0) {
      numerator *= pow(10n, e);
    } else {
      denominator *= pow(10n, -e);
    }
    format = 'exponent';
  }
  const magnitude = ceilDiv(numerator, denominator);
  // Negative values round towards +infinity too, as Quantity rounds up.
  const nanos = sign === '-' ? -(numerator / denominator) : magnitude;
  return { nanos, format };
}

/** Mantissa and a power-of-ten exponent that is a multiple of 3, with the fewest trailing zeros. */
function decimalParts(nanos: bigint): { mantissa: bigint; exponent: number } {
  let mantissa = nanos;
  let exponent = -NANO;
  while (mantissa % 1000n === 0n && mantissa !== 0n) {
    mantissa /= 1000n;
    exponent += 3;
  }
  return { mantissa, exponent };
}

/**
 * The canonical text of a quantity (a string, or a number as YAML gives `cpu: 0.5`), or undefined when the
 * value is no quantity (Argo CD then leaves it as it is).
 */
export function canonicalQuantity(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') {
    return undefined;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return undefined;
  }
  const parsed = parse(typeof value === 'number' ? numberText(value) : value.trim());
  if (!parsed) {
    return undefined;
  }
  const { nanos } = parsed;
  let format = parsed.format;
  if (nanos === 0n) {
    return '0';
  }
  const one = pow(10n, NANO);
  if (format === 'binary') {
    // Below 1Ki, or not a whole number of units: shown as decimal so that nothing is rounded.
    const abs = nanos < 0n ? -nanos : nanos;
    if (abs < 1024n * one || nanos % one !== 0n) {
      format = 'decimal';
    } else {
      let mantissa = nanos / one;
      let power = 0;
      while (power < 6 && mantissa % 1024n === 0n) {
        mantissa /= 1024n;
        power++;
      }
      return `${mantissa}${BINARY_SUFFIX[power]}`;
    }
  }
  const { mantissa, exponent } = decimalParts(nanos);
  if (format === 'exponent') {
    return exponent === 0 ? `${mantissa}` : `${mantissa}e${exponent}`;
  }
  const suffix = DECIMAL_SUFFIX[exponent];
  return suffix === undefined ? `${mantissa}e${exponent}` : `${mantissa}${suffix}`;
}

/** A JSON number as decimal text without an exponent where it is short (`1e-7` is `0.0000001`). */
function numberText(n: number): string {
  const text = String(n);
  if (!/e/.test(text)) {
    return text;
  }
  const [m, e] = text.split('e');
  return `${m}e${Number(e)}`;
}
