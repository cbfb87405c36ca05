/** The string a request, response or callback signature covers (docs/merchant-api.md "Signing"). */
export function canonicalString(obj: Record<string, unknown>): string {
  const keys: string[] = [];
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (key === 'sign' || value === null || value === undefined || value === '') continue;
    keys.push(key);
  }
  keys.sort(compareCodePoints);
  let out = '';
  for (const key of keys) {
    out += `${out === '' ? '' : '&'}${key}=${renderValue(obj[key], key)}`;
  }
  return out;
}

/** RFC 8785 (JCS) canonical JSON text: keys sorted by UTF-16 code units, ECMAScript string and number forms. */
export function jcs(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`jcs: ${value} is not representable in JSON`);
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      // Honour toJSON (Date and friends) so the signed text matches what JSON.stringify puts on the wire.
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return jcs(toJSON.call(value));
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          out += `${i === 0 ? '' : ','}${item === undefined ? 'null' : jcs(item)}`;
        }
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      let out = '';
      // Default sort compares UTF-16 code units, which is exactly RFC 8785 §3.2.3.
      for (const key of Object.keys(record).sort()) {
        const item = record[key];
        if (item === undefined) continue;
        out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${jcs(item)}`;
      }
      return `{${out}}`;
    }
    default:
      throw new TypeError(`jcs: a ${typeof value} is not representable in JSON`);
  }
}

function renderValue(value: unknown, key: string): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (!Number.isFinite(value))
        throw new TypeError(`canonicalString: "${key}" is ${value}, not a JSON number`);
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return jcs(value);
    default:
      throw new TypeError(`canonicalString: "${key}" holds a ${typeof value}, not a JSON value`);
  }
}

// UTF-16 order and code point order disagree only where a surrogate (a code point above U+FFFF) meets
// U+E000..U+FFFF; lifting surrogates above that block makes a code-unit walk yield code point order.
function codePointRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}
