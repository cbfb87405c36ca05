// The canonical string of the agentpay signing rules. The SDK carries its own copy, so that a merchant
// installs one package with no other agentpay code in it; the project's tests hold it to the published
// signing vectors and to the platform's implementation.

/**
 * The text a signature covers: keys other than `sign` whose value is not null, undefined or `""`,
 * sorted by code point, rendered as `key=value` and joined with `&`.
 */
export function canonicalString(obj: Record<string, unknown>): string {
  const keys = Object.keys(obj).filter((key) => {
    const value = obj[key];
    return key !== 'sign' && value !== null && value !== undefined && value !== '';
  });
  keys.sort(byCodePoint);
  return keys.map((key) => `${key}=${render(obj[key], key)}`).join('&');
}

/** RFC 8785 (JCS) canonical JSON: object keys sorted by UTF-16 code units, ECMAScript number text. */
export function jcs(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`jcs: ${value} has no JSON form`);
      return String(value);
    case 'boolean':
      return String(value);
    case 'object': {
      // A Date (or anything with toJSON) is signed as JSON.stringify would send it.
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return jcs(toJSON.call(value));
      if (Array.isArray(value)) {
        return `[${value.map((item: unknown) => (item === undefined ? 'null' : jcs(item))).join(',')}]`;
      }
      const record = value as Record<string, unknown>;
      // Array.prototype.sort without a comparator orders by UTF-16 code units: RFC 8785 section 3.2.3.
      const members = Object.keys(record)
        .sort()
        .filter((key) => record[key] !== undefined)
        .map((key) => `${JSON.stringify(key)}:${jcs(record[key])}`);
      return `{${members.join(',')}}`;
    }
    default:
      throw new TypeError(`jcs: a ${typeof value} has no JSON form`);
  }
}

function render(value: unknown, key: string): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalString: "${key}" is ${value}`);
      return String(value);
    case 'boolean':
      return String(value);
    case 'object':
      return jcs(value);
    default:
      throw new TypeError(`canonicalString: "${key}" is a ${typeof value}, not a JSON value`);
  }
}

// Code point order differs from UTF-16 order only where a surrogate half meets U+E000..U+FFFF; moving
// surrogates above that block makes a code unit comparison give code point order.
function rank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}
