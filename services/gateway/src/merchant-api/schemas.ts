import { parseAmount, parseWireTime } from '@agentpay/wire';
import { z } from 'zod';

// Request schemas of the merchant API (seed section 4, CONTRACT.md sections 3 and 5). The canonical
// string drops empty strings, so an empty optional field is treated as absent everywhere.

const text = (max: number) => z.string().max(max, { message: `longer than ${max} characters` });
const required = (max: number) =>
  z
    .string()
    .min(1, { message: 'required' })
    .max(max, { message: `longer than ${max} characters` });
const optional = (max: number) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), text(max).optional());

/** Common parameters (seed 2.2), checked before the merchant is looked up. */
export const commonParams = z.object({
  mchNo: required(32),
  reqTime: z.string().refine((v) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(v), {
    message: 'must be yyyy-MM-dd HH:mm:ss',
  }),
  sign: required(1024),
  appId: optional(32),
  nonceStr: optional(32),
  clientIp: optional(64),
});

export type CommonParams = z.output<typeof commonParams>;

/** A JSON number with at most two decimals, 0.01..99,999,999.99, as integer centavos. */
export const amount = z.number({ message: 'must be a number' }).transform((value, ctx) => {
  const parsed = parseAmount(value);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.reason });
    return z.NEVER;
  }
  return parsed.centavos;
});

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

/** A wire date-time as an instant in the platform time zone. */
export const wireTime = (timeZone: string) =>
  optional(19).transform((v, ctx) => {
    if (v === undefined) return undefined;
    const date = parseWireTime(v, timeZone);
    if (!date) {
      ctx.addIssue({ code: 'custom', message: 'must be yyyy-MM-dd HH:mm:ss' });
      return z.NEVER;
    }
    return date;
  });

export const orderRef = z.object({ orderNo: optional(100), bizOrderNo: optional(100) });
export const transferRef = z.object({ transferNo: optional(32), bizTransferNo: optional(100) });

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
  close: orderRef.extend({ useCancel: z.boolean({ message: 'must be a boolean' }).optional() }),
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
  queryPay: orderRef,
  queryTransfer: transferRef,
  syncPay: orderRef,
});

export type Schemas = ReturnType<typeof schemas>;
