import { z } from 'zod';
import { WIRE_TIME_PATTERN } from '../schemas.js';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type JsonSchema = Record<string, unknown>;

// What a zod refinement or transform checks, said in JSON Schema. z.toJSONSchema sees lengths and
// required-ness but not code inside refine/transform; every property that has such code must be listed
// here, or generation throws, so a new rule in schemas.ts cannot go undocumented. An entry also applies
// to a property without such code (reqTime's pattern is zod's own; its description and example are here).
const FIELD_RULES: Record<string, JsonSchema> = {
  reqTime: {
    pattern: WIRE_TIME_PATTERN,
    description:
      'Request time, `yyyy-MM-dd HH:mm:ss` on the platform wall clock (a real date and time: no month 13, no 30 February, no hour 24); within ±300 s of it.',
    examples: ['2026-11-21 10:15:00'],
  },
  expiredTime: {
    pattern: WIRE_TIME_PATTERN,
    description:
      'Order expiration, `yyyy-MM-dd HH:mm:ss` on the platform wall clock (a real date and time); in the future and within 30 days. Default: 24 h after creation.',
    examples: ['2026-11-22 10:15:00'],
  },
  startTime: {
    pattern: WIRE_TIME_PATTERN,
    description:
      'Start of the statement, included: `yyyy-MM-dd HH:mm:ss` on the platform wall clock (a real date and time).',
    examples: ['2026-11-01 00:00:00'],
  },
  endTime: {
    pattern: WIRE_TIME_PATTERN,
    description:
      'End of the statement, excluded: `yyyy-MM-dd HH:mm:ss` on the platform wall clock; after `startTime` and at most 31 days after it.',
    examples: ['2026-12-01 00:00:00'],
  },
  amount: {
    minimum: 0.01,
    maximum: 99_999_999.99,
    multipleOf: 0.01,
    description:
      'Amount in pesos (MXN) as a JSON number: 0.01 to 99,999,999.99, at most 2 decimal places (`100.5` is 100.50 MXN). Judged on the number as written: `0.30000000000000004` is refused.',
    examples: [100.5],
  },
  returnUrl: { format: 'uri', pattern: '^https?://', description: 'Browser return URL, http(s).' },
  quitUrl: { format: 'uri', pattern: '^https?://', description: 'Quit URL, http(s).' },
  notifyUrl: {
    format: 'uri',
    pattern: '^https?://',
    description: 'Where status-change callbacks are POSTed (see `webhooks`), http(s). None when absent.',
  },
  extraParam: {
    contentMediaType: 'application/json',
    contentSchema: { type: 'object' },
    description: 'Extension parameters: a JSON object serialized into this string.',
    examples: ['{"customer":"C-9"}'],
  },
};

// Field meanings (seed sections 2.2 and 4), joined to the generated constraints.
const FIELD_DESCRIPTIONS: Record<string, string> = {
  mchNo: 'Merchant number.',
  appId: 'Application ID; when given, it must be one of the merchant’s apps (20055).',
  nonceStr: 'Random nonce, unique per merchant within 24 h (20054 on reuse).',
  sign: 'Base64 RSA-SHA256 signature of the canonical string of every other field (see the signing rules).',
  clientIp: 'IP address of the end user.',
  bizOrderNo:
    'Merchant payment order number, unique per merchant: repeating it with the same parameters returns the same order; different parameters answer 30002.',
  orderNo: 'Platform payment order number.',
  title: 'Payment title.',
  description: 'Payment description.',
  method: 'Payment method code from `options/pay-methods`: `mex_virtual_account`.',
  limitPay: 'Payment restriction code: `no_credit`.',
  attach: 'Merchant attachment, returned unchanged in queries and callbacks.',
  payeeType:
    'Payee account type from `options/payee-types`: `spei_transfer`, `bank_card`, `user_id`, `open_id`, `login_name`.',
  payeeAccount:
    '`spei_transfer`: 18-digit CLABE with a valid check digit; `bank_card`: 16-digit debit card passing Luhn; wallet types: opaque.',
  payeeName: 'Payee name.',
  payeeCode:
    'Public payee code from `options/payee-codes` (Banxico institution code for SPEI, e.g. `40012`). For `spei_transfer` it must match the CLABE’s bank and is derived from it when absent; required for `bank_card`.',
  bizInquryNo: 'Merchant inquiry number, unique per merchant (40007 on different parameters).',
  bizTransferNo: 'Merchant transfer number, unique per merchant (40003 on different parameters).',
  transferNo: 'Platform transfer number.',
  reason: 'Reason or remark.',
  useCancel: 'Close by cancel mode: the order becomes `cancel` instead of `close`.',
  limit: 'Most records in one page, 1 to 500; default 100.',
  cursor: 'The previous page’s `nextCursor`, to read the next page; absent for the first.',
};

/**
 * The JSON Schema (request side) of a zod object the gateway validates with, with refinements spelled out:
 * optional properties also accept null and '' (both mean absent), and a `oneRequired` pair becomes `anyOf`.
 */
export function requestSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    // Refinements and transforms have no JSON Schema form; FIELD_RULES supplies what they check.
    unrepresentable: 'any',
  }) as JsonSchema;
  delete json['$schema'];
  const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
  const properties = (json['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json['required'] ?? []) as string[]);
  for (const [field, property] of Object.entries(properties)) {
    const description = FIELD_DESCRIPTIONS[field];
    if (description) property['description'] = description;
    const rule = FIELD_RULES[field];
    if (hasCode(shape[field]) && !rule) {
      throw new Error(`openapi: "${field}" has a refinement or transform that FIELD_RULES does not document`);
    }
    if (rule) Object.assign(property, rule);
    if (!required.has(field)) properties[field] = absentAllowed(property);
  }

  const pair = json['oneRequired'] as [string, string] | undefined;
  delete json['oneRequired'];
  if (hasObjectCheck(schema) && !pair) {
    throw new Error('openapi: an object-level refinement has no JSON Schema form; use oneRequired()');
  }
  if (pair) {
    // Given means neither null nor '' (the canonical string drops both).
    json['anyOf'] = pair.map((name) => ({
      required: [name],
      properties: { [name]: { not: { enum: [null, ''] } } },
    }));
  }
  return json;
}

/** An optional property that also takes null and '', which the gateway treats as absent. */
function absentAllowed(property: JsonSchema): JsonSchema {
  const { description, ...rest } = property;
  if (rest['type'] === 'string' && !('pattern' in rest) && !('format' in rest)) {
    return { ...property, type: ['string', 'null'] };
  }
  return {
    anyOf: [rest, { enum: [null, ''], description: 'Absent.' }],
    ...(description === undefined ? {} : { description }),
  };
}

/** Both JSON objects in one flat object, as the API takes them: properties merged, required joined. */
export function mergeObjects(a: JsonSchema, b: JsonSchema): JsonSchema {
  const properties = {
    ...((a['properties'] ?? {}) as Record<string, unknown>),
    ...((b['properties'] ?? {}) as Record<string, unknown>),
  };
  const required = [...((a['required'] ?? []) as string[]), ...((b['required'] ?? []) as string[])];
  const anyOf = [a['anyOf'], b['anyOf']].filter((x) => x !== undefined);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(anyOf.length === 1 ? { anyOf: anyOf[0] } : {}),
    ...(anyOf.length > 1 ? { allOf: anyOf.map((branches) => ({ anyOf: branches })) } : {}),
    description:
      'Common parameters and business parameters in one flat JSON object. Optional fields may be left out; null or an empty string counts as absent, for every type. Unknown extra fields are covered by the signature and otherwise ignored.',
  };
}

function hasObjectCheck(schema: z.ZodType): boolean {
  const def = (schema as { _zod?: { def?: ZodDefLike } })._zod?.def;
  return (def?.checks ?? []).some((c) => c._zod?.def?.check === 'custom');
}

// True when a zod schema runs code JSON Schema cannot express: a refine/superRefine check, or a pipe into
// a transform, anywhere inside it. z.preprocess is a pipe *from* a transform; it only maps '' and null to
// absent, which mergeObjects says once for every field.
function hasCode(schema: unknown): boolean {
  const def = (schema as { _zod?: { def?: ZodDefLike } } | undefined)?._zod?.def;
  if (!def) return false;
  if ((def.checks ?? []).some((c) => c._zod?.def?.check === 'custom')) return true;
  if (def.type === 'transform') return true;
  if (def.type === 'pipe')
    return hasCode(def.out) || (def.in?._zod?.def?.type !== 'transform' && hasCode(def.in));
  return hasCode(def.innerType);
}

interface ZodDefLike {
  type?: string;
  checks?: { _zod?: { def?: { check?: string } } }[];
  in?: { _zod?: { def?: { type?: string } } };
  out?: unknown;
  innerType?: unknown;
}
