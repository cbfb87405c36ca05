import { parseAmount, parseWireTime } from '@agentpay/wire';
import { z } from 'zod';
import { WIRE_TIME_PATTERN } from '../shared/wire-time.js';

export { WIRE_TIME_PATTERN };

// Request schemas of the merchant API (seed section 4, docs/merchant-api.md). The canonical
// string drops null and the empty string, so for every field, whatever its type, both mean absent: a
// required field given as null or '' is missing, an optional one is left out.

/** A value the canonical string leaves out counts as not given. */
const absentToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);
/** `schema` for a field where null and '' mean absent. */
const field = <T extends z.ZodType>(schema: T) => z.preprocess(absentToUndefined, schema);

const mustBe = (what: string) => ({
  error: (issue: { input: unknown }) => (issue.input === undefined ? 'required' : `must be ${what}`),
});
const text = (max: number) =>
  z.string(mustBe('a string')).max(max, { message: `longer than ${max} characters` });
// min(1) never fails after field() (it made '' absent); it tells the OpenAPI document '' is not a value.
const required = (max: number) => field(text(max).min(1, { message: 'required' }));
const optional = (max: number) => field(text(max).optional());

const WIRE_TIME = new RegExp(WIRE_TIME_PATTERN);
const WIRE_TIME_MESSAGE = 'must be a real date-time as yyyy-MM-dd HH:mm:ss';

/** Common parameters (seed 2.2), checked before the merchant is looked up. */
export const commonParams = z.object({
  mchNo: required(32),
  reqTime: field(z.string(mustBe('a string')).regex(WIRE_TIME, { message: WIRE_TIME_MESSAGE })),
  sign: required(1024),
  appId: optional(32),
  nonceStr: optional(32),
  clientIp: optional(64),
});

export type CommonParams = z.output<typeof commonParams>;

/** A JSON number with at most two decimals, 0.01..99,999,999.99, as integer centavos. */
export const amount = field(
  z.number(mustBe('a number')).transform((value, ctx) => {
    const parsed = parseAmount(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.reason });
      return z.NEVER;
    }
    return parsed.centavos;
  }),
);

/** `amount`'s rules for a field that may be left out (a refund's: absent means all that is left). */
export const optionalAmount = field(
  z
    .number(mustBe('a number'))
    .transform((value, ctx) => {
      const parsed = parseAmount(value);
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: parsed.reason });
        return z.NEVER;
      }
      return parsed.centavos;
    })
    .optional(),
);

const url = optional(200).refine(
  (v) => {
    if (v === undefined) return true;
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  },
  { message: 'must be an http(s) URL' },
);

const jsonText = optional(2048).refine(
  (v) => {
    if (v === undefined) return true;
    try {
      const parsed: unknown = JSON.parse(v);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    } catch {
      return false;
    }
  },
  { message: 'must be a JSON object in a string' },
);

/** The instant a wire date-time names in `timeZone`, or an issue. */
const toInstant =
  (timeZone: string) =>
  (v: string, ctx: z.RefinementCtx): Date => {
    // The pattern refuses impossible dates; parsing also refuses a wall time a DST change skipped.
    const date = WIRE_TIME.test(v) ? parseWireTime(v, timeZone) : null;
    if (!date) {
      ctx.addIssue({ code: 'custom', message: WIRE_TIME_MESSAGE });
      return z.NEVER;
    }
    return date;
  };

/** A wire date-time as an instant in the platform time zone. */
export const wireTime = (timeZone: string) =>
  optional(19).transform((v, ctx) => (v === undefined ? undefined : toInstant(timeZone)(v, ctx)));

/** A required wire date-time as an instant in the platform time zone. */
export const requiredWireTime = (timeZone: string) =>
  field(text(19).min(1, { message: 'required' }).transform(toInstant(timeZone)));

/** The longest statement one balanceRecords request may span (docs/merchant-api.md "Balance and statement"). */
export const MAX_RECORDS_SPAN_DAYS = 31;

/**
 * `schema` refusing a body that gives neither `a` nor `b` (10001 naming `a`). The `oneRequired` note is
 * what the OpenAPI document turns into `anyOf` (openapi/request-schemas.ts).
 */
function oneRequired<T extends z.ZodObject>(
  schema: T,
  a: keyof T['shape'] & string,
  b: keyof T['shape'] & string,
) {
  return schema
    .refine((v: Record<string, unknown>) => v[a] !== undefined || v[b] !== undefined, {
      message: `one of ${a}, ${b} is required`,
      path: [a],
    })
    .meta({ oneRequired: [a, b] });
}

const orderRefFields = { orderNo: optional(100), bizOrderNo: optional(100) };
export const orderRef = oneRequired(z.object(orderRefFields), 'orderNo', 'bizOrderNo');
export const transferRef = oneRequired(
  z.object({ transferNo: optional(32), bizTransferNo: optional(100) }),
  'transferNo',
  'bizTransferNo',
);

export const refundRef = oneRequired(
  z.object({ refundNo: optional(32), bizRefundNo: optional(100) }),
  'refundNo',
  'bizRefundNo',
);
/** Most items in one batch payout, and the body limit of its path (CONTRACT section 21). */
export const MAX_BATCH_ITEMS = 1_000;
export const BATCH_BODY_LIMIT_BYTES = 1_048_576;

/** One item of a batch payout: a transfer's fields, without its own notifyUrl or extraParam. */
const batchItem = z.object({
  bizTransferNo: required(100),
  amount,
  title: optional(100),
  reason: optional(50),
  payeeType: required(32),
  payeeAccount: required(100),
  payeeName: optional(50),
  payeeCode: optional(64),
  attach: optional(500),
});

export const schemas = (timeZone: string) => ({
  none: z.object({}),
  pay: z.object({
    bizOrderNo: required(100),
    title: required(100),
    description: optional(50),
    expiredTime: wireTime(timeZone),
    method: required(32),
    limitPay: optional(128),
    amount,
    extraParam: jsonText,
    attach: optional(500),
    returnUrl: url,
    quitUrl: url,
    notifyUrl: url,
  }),
  payeeCodes: z.object({ payeeType: required(32) }),
  close: oneRequired(
    z.object({ ...orderRefFields, useCancel: field(z.boolean(mustBe('a boolean')).optional()) }),
    'orderNo',
    'bizOrderNo',
  ),
  inquiry: z.object({
    bizInquryNo: required(100),
    payeeType: required(32),
    payeeAccount: required(100),
    payeeName: optional(50),
    payeeCode: optional(64),
    extraParam: jsonText,
    attach: optional(500),
  }),
  transfer: z.object({
    bizTransferNo: required(100),
    amount,
    title: optional(100),
    reason: optional(50),
    payeeType: required(32),
    payeeAccount: required(100),
    payeeName: optional(50),
    payeeCode: optional(64),
    extraParam: jsonText,
    attach: optional(500),
    notifyUrl: url,
  }),
  transferBatch: z.object({
    bizBatchNo: required(100),
    notifyUrl: url,
    items: field(
      z
        .array(batchItem, mustBe('an array'))
        .min(1, { message: `must hold 1..${MAX_BATCH_ITEMS} items` })
        .max(MAX_BATCH_ITEMS, { message: `must hold 1..${MAX_BATCH_ITEMS} items` }),
    ),
  }),
  queryTransferBatch: oneRequired(
    z.object({
      batchNo: optional(32),
      bizBatchNo: optional(100),
      cursor: optional(100),
      limit: field(
        z
          .number(mustBe('an integer'))
          .int({ message: 'must be an integer' })
          .min(1, { message: 'must be 1..500' })
          .max(500, { message: 'must be 1..500' })
          .optional(),
      ),
    }),
    'batchNo',
    'bizBatchNo',
  ),
  payeeRegister: z.object({
    payeeType: required(32),
    payeeAccount: required(100),
    payeeName: required(100),
    payeeCode: optional(64),
  }),
  queryPayees: z.object({
    limit: field(
      z
        .number(mustBe('an integer'))
        .int({ message: 'must be an integer' })
        .min(1, { message: 'must be 1..200' })
        .max(200, { message: 'must be 1..200' })
        .optional(),
    ),
    cursor: optional(200),
  }),
  payeeRemove: z.object({ payeeId: required(64) }),
  queryPay: orderRef,
  queryTransfer: transferRef,
  refund: oneRequired(
    z.object({
      ...orderRefFields,
      bizRefundNo: required(100),
      amount: optionalAmount,
      reason: optional(50),
      notifyUrl: url,
    }),
    'orderNo',
    'bizOrderNo',
  ),
  queryRefund: refundRef,
  syncPay: orderRef,
  // startTime < endTime and the span are checked by the route: a rule across two fields has no JSON
  // Schema form for the OpenAPI document, and still answers 10001 naming the field.
  balanceRecords: z.object({
    startTime: requiredWireTime(timeZone),
    endTime: requiredWireTime(timeZone),
    limit: field(
      z
        .number(mustBe('an integer'))
        .int({ message: 'must be an integer' })
        .min(1, { message: 'must be 1..500' })
        .max(500, { message: 'must be 1..500' })
        .optional(),
    ),
    cursor: optional(100),
  }),
});

export type Schemas = ReturnType<typeof schemas>;
