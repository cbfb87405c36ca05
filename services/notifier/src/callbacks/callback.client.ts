import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { forbiddenAddressReason } from './address-policy.js';

/** Reply bytes kept with an attempt, for operators. */
export const EXCERPT_BYTES = 512;
/** A reply longer than this cannot be `SUCCESS` with sane padding; reading stops there. */
const MAX_REPLY_BYTES = 4_096;

export interface CallbackRequest {
  url: string;
  /** The signed JSON body, sent as is. */
  body: string;
  /** Deadline for the whole exchange: DNS, connect, TLS, request and reply. */
  timeoutMs: number;
  /** Skip the SSRF guard (development and tests). */
  allowPrivate: boolean;
  headers?: Record<string, string>;
}

export interface CallbackOutcome {
  /** HTTP 2xx and a body that trims to SUCCESS, any case. */
  ok: boolean;
  httpStatus: number | null;
  latencyMs: number;
  /** First bytes of the reply body. */
  excerpt: string | null;
  /** Why it failed, when it did. */
  error: string | null;
  /** Retrying cannot help (the URL itself is unusable or names a forbidden address). */
  permanent: boolean;
}

/** A resolved or literal address the SSRF guard refuses. */
export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError';
  readonly code = 'ERR_NOTIFY_ADDRESS_REFUSED';
}

/** True when a merchant's reply acknowledges the callback (docs/merchant-api.md "Callbacks"). */
export function isAcknowledged(httpStatus: number, body: string): boolean {
  return httpStatus >= 200 && httpStatus < 300 && body.trim().toUpperCase() === 'SUCCESS';
}

/**
 * A DNS lookup that refuses forbidden addresses. It runs inside the connection, on the addresses the
 * socket will actually use, so a name that resolved to a public address a moment ago (DNS rebinding)
 * cannot slip through. Any forbidden address among the answers refuses the whole name, since connection
 * racing (happy eyeballs) could pick any of them.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const refused = addresses
      .map((a) => ({ address: a.address, reason: forbiddenAddressReason(a.address) }))
      .find((a) => a.reason !== undefined);
    if (refused) {
      const error = new AddressRefusedError(
        `refused: ${hostname} resolves to ${refused.address}, a ${refused.reason} address`,
      );
      return callback(error as NodeJS.ErrnoException, '', 0);
    }
    const first = addresses[0];
    if (!first)
      return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
    if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
    return callback(null, first.address, first.family);
  });
};

function refusal(error: string, permanent: boolean): CallbackOutcome {
  return { ok: false, httpStatus: null, latencyMs: 0, excerpt: null, error, permanent };
}

function describeError(err: unknown): string {
  if (err instanceof AddressRefusedError) return err.message;
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ECONNREFUSED':
      return `connection refused (${e.message})`;
    case 'ECONNRESET':
      return `connection reset by the endpoint (${e.message})`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `DNS lookup failed (${e.message})`;
    default:
      return e.message || String(err);
  }
}

/**
 * POSTs one callback with node:http(s) directly: no redirects (a 3xx is a failure), no proxy, a fresh
 * connection, one deadline for the whole exchange, and the SSRF guard on the resolved address.
 * Never throws: every failure comes back as an outcome to record.
 */
export function postCallback(req: CallbackRequest): Promise<CallbackOutcome> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return Promise.resolve(refusal('notify URL is not a valid URL', true));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.resolve(refusal(`notify URL scheme ${url.protocol} is not http or https`, true));
  }
  // Literal addresses never go through `lookup`, so they are judged here; URL parsing has already
  // normalised forms such as 2130706433 or 0x7f.1 to dotted quads.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!req.allowPrivate && isIP(host)) {
    const reason = forbiddenAddressReason(host);
    if (reason) return Promise.resolve(refusal(`refused: ${host} is a ${reason} address`, true));
  }

  const started = performance.now();
  return new Promise<CallbackOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<CallbackOutcome, 'latencyMs' | 'permanent'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ ...outcome, latencyMs: Math.round(performance.now() - started), permanent: false });
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request({
      protocol: url.protocol,
      hostname: host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      agent: false,
      lookup: req.allowPrivate ? undefined : guardedLookup,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(req.body),
        'user-agent': 'agentpay-notifier/1',
        connection: 'close',
        ...req.headers,
      },
    });
    const deadline = setTimeout(() => {
      const error = `timed out after ${req.timeoutMs} ms`;
      finish({ ok: false, httpStatus: null, excerpt: null, error });
      request.destroy(new Error(error));
    }, req.timeoutMs);

    request.on('error', (err) =>
      finish({ ok: false, httpStatus: null, excerpt: null, error: describeError(err) }),
    );
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      let tooLong = false;
      response.on('data', (chunk: Buffer) => {
        if (tooLong) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size > MAX_REPLY_BYTES) {
          tooLong = true;
          response.destroy();
          done();
        }
      });
      response.on('end', () => done());
      response.on('error', (err) =>
        finish({ ok: false, httpStatus: status, excerpt: excerptOf(chunks), error: describeError(err) }),
      );
      function done() {
        const text = Buffer.concat(chunks).toString('utf8');
        const excerpt = excerptOf(chunks);
        if (tooLong) {
          finish({
            ok: false,
            httpStatus: status,
            excerpt,
            error: `reply longer than ${MAX_REPLY_BYTES} bytes`,
          });
        } else if (isAcknowledged(status, text)) {
          finish({ ok: true, httpStatus: status, excerpt, error: null });
        } else {
          const why =
            status >= 200 && status < 300
              ? 'reply body is not SUCCESS'
              : status >= 300 && status < 400
                ? `HTTP ${status} (redirects are not followed)`
                : `HTTP ${status}`;
          finish({ ok: false, httpStatus: status, excerpt, error: why });
        }
        request.destroy();
      }
    });
    request.end(req.body);
  });
}

function excerptOf(chunks: Buffer[]): string {
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
}
