import type { KeyObject } from 'node:crypto';
import { type AppError, type CodeName, Codes } from './codes.js';
import { signObject, signObjectAsync, verifyObject } from './signing.js';
import { formatWireTime } from './time.js';

/** The signed reply of every merchant API call (docs/merchant-api.md "Codes"). */
export interface Envelope {
  code: number;
  msg: string;
  data: unknown | null;
  sign: string;
  resTime: string;
  traceId: string;
}

/** What createEnvelopeSigner needs: the platform private key and the wire time zone. */
export interface EnvelopeSignerOptions {
  privateKey: KeyObject;
  timeZone: string;
  /** Clock for `resTime`; tests pin it. */
  now?: () => Date;
}

/** Builds signed envelopes and callback bodies with the platform key. */
export interface EnvelopeSigner {
  /** Code 0 envelope around `data` (null/undefined fields left out). */
  success(data: unknown, traceId: string): Envelope;
  /** Error envelope with `data: null`; `detail` (default: the error's own) is appended to `msg`. */
  error(err: AppError | CodeName, traceId: string, detail?: string): Envelope;
  /** `body` plus its `sign`; a `data` member is pruned of null/undefined fields first, as in envelopes. */
  sign<T extends Record<string, unknown>>(body: T): T & { sign: string };
  /** `sign` with the RSA operation on the thread pool; the same result. */
  signAsync<T extends Record<string, unknown>>(body: T): Promise<T & { sign: string }>;
}

/** Creates the signer the gateway and notifier use for every reply and callback. */
export function createEnvelopeSigner(opts: EnvelopeSignerOptions): EnvelopeSigner {
  const { privateKey, timeZone, now = () => new Date() } = opts;

  const seal = (code: number, msg: string, data: unknown, traceId: string): Envelope => {
    const body = { code, msg, data, resTime: formatWireTime(now(), timeZone), traceId };
    return { code, msg, data, sign: signObject(body, privateKey), resTime: body.resTime, traceId };
  };

  return {
    success(data, traceId) {
      return seal(Codes.SUCCESS.code, Codes.SUCCESS.msg, pruneEmpty(data) ?? null, traceId);
    },
    error(err, traceId, detail) {
      const codeName = typeof err === 'string' ? err : err.codeName;
      const extra = detail ?? (typeof err === 'string' ? undefined : err.detail);
      const { code, msg } = Codes[codeName];
      return seal(code, extra ? `${msg}: ${extra}` : msg, null, traceId);
    },
    sign(body) {
      const pruned = prunedBody(body);
      return { ...pruned, sign: signObject(pruned, privateKey) } as typeof body & { sign: string };
    },
    async signAsync(body) {
      const pruned = prunedBody(body);
      return { ...pruned, sign: await signObjectAsync(pruned, privateKey) } as typeof body & { sign: string };
    },
  };
}

/** True when `env.sign` is a valid platform signature over the envelope. */
export function verifyEnvelope(env: Envelope, publicKey: KeyObject | readonly KeyObject[]): boolean {
  return verifyObject(env as unknown as Record<string, unknown>, env.sign, publicKey);
}

function prunedBody(body: Record<string, unknown>): Record<string, unknown> {
  return 'data' in body ? { ...body, data: pruneEmpty(body.data) ?? null } : { ...body };
}

// docs/merchant-api.md "Codes": inside `data` a field without a value is left out, never null. Signing the pruned copy
// keeps the signature and the serialized body in agreement.
function pruneEmpty(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(pruneEmpty);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== null && item !== undefined) out[key] = pruneEmpty(item);
  }
  return out;
}
