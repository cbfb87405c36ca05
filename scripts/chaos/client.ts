import type { KeyObject } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { Stack } from '@agentpay/stack';
import type { TestMerchant } from '@agentpay/testing';
import { type Envelope, verifyEnvelope } from '@agentpay/wire';
import type { ChaosOptions } from './options.js';
import type { RequestRecord } from './records.js';

export interface HttpResult {
  status: number;
  body: string;
}

/** One POST on a fresh connection (no keep-alive, so a restarted server never meets a stale socket). */
export function post(url: string, body: string, timeoutMs: number): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: string }).code;
    return code ? `${code} ${err.message}` : err.message || err.name;
  }
  return String(err);
}

/** What a gateway call needs, and where it records what happened. */
export interface GatewayContext {
  options: Pick<ChaosOptions, 'requestTimeoutMs'>;
  /** With `gatewayUrls`, requests are spread over every gateway replica. */
  stack: Pick<Stack, 'urls'> & Partial<Pick<Stack, 'gatewayUrls'>>;
  platformKey: KeyObject;
  requests: RequestRecord[];
}

/**
 * Sends to the gateway replicas in turn, as the Service in front of them would, and to the next one when
 * a replica refuses the connection (it is down: the request never reached it, so sending it elsewhere
 * is no retry). A connection that breaks after it was accepted is reported, as a merchant would see it.
 */
async function postToGateway(ctx: GatewayContext, path: string, body: string): Promise<HttpResult> {
  const urls = ctx.stack.gatewayUrls ?? [ctx.stack.urls.gateway];
  const first = ctx.requests.length % urls.length;
  for (let i = 0; ; i++) {
    const url = urls[(first + i) % urls.length]!;
    try {
      return await post(`${url}${path}`, body, ctx.options.requestTimeoutMs);
    } catch (err) {
      const refused = (err as { code?: string }).code === 'ECONNREFUSED';
      if (!refused || i === urls.length - 1) throw err;
    }
  }
}

/** One signed merchant request through the gateway, recorded with its outcome whatever it was. */
export async function gatewayCall(
  ctx: GatewayContext,
  merchant: TestMerchant,
  path: string,
  params: Record<string, unknown>,
): Promise<RequestRecord & { envelope?: Envelope }> {
  const startedAt = Date.now();
  const base = { target: 'gateway' as const, path, mchNo: merchant.mchNo, startedAt };
  let record: RequestRecord & { envelope?: Envelope };
  try {
    const reply = await postToGateway(ctx, path, JSON.stringify(merchant.signed(params)));
    let envelope: Envelope | undefined;
    try {
      envelope = JSON.parse(reply.body) as Envelope;
    } catch {
      envelope = undefined;
    }
    if (!envelope || typeof envelope !== 'object') {
      record = { ...base, endedAt: Date.now(), outcome: 'not-json', status: reply.status };
    } else if (!verifyEnvelope(envelope, ctx.platformKey)) {
      record = {
        ...base,
        endedAt: Date.now(),
        outcome: 'unsigned',
        status: reply.status,
        code: envelope.code,
      };
    } else {
      record = {
        ...base,
        endedAt: Date.now(),
        outcome: 'envelope',
        status: reply.status,
        code: envelope.code,
        envelope,
      };
    }
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    record = {
      ...base,
      endedAt: Date.now(),
      outcome: timedOut ? 'timeout' : 'connection',
      error: errorText(err),
    };
  }
  const { envelope: _e, ...kept } = record;
  ctx.requests.push(kept);
  return record;
}
