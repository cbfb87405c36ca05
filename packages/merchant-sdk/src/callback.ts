import type { IncomingMessage, ServerResponse } from 'node:http';
import { AgentpaySignatureError } from './errors.js';
import { type KeyInput, loadPublicKey, verifySignature } from './signing.js';
import type { Callback, PayOrderCallback, TransferCallback } from './types.js';

/** The reply body that acknowledges a callback. Anything else, or a non-2xx status, makes the platform retry. */
export const CALLBACK_SUCCESS = 'SUCCESS';

/**
 * Verifies a callback body with the platform public key and returns it typed. Pass the raw body text
 * (best) or the object your framework parsed from it. Throws AgentpaySignatureError when the body is
 * unsigned, tampered with, or signed by another key; never act on such a body.
 */
export function verifyCallback(body: string | Buffer | object, platformPublicKey: KeyInput): Callback {
  const key = loadPublicKey(platformPublicKey);
  let parsed: unknown = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      parsed = JSON.parse(body.toString());
    } catch {
      throw new AgentpaySignatureError('callback body is not JSON', String(body).slice(0, 500));
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AgentpaySignatureError('callback body is not a JSON object', parsed);
  }
  const record = parsed as Record<string, unknown>;
  if (typeof record['sign'] !== 'string' || record['sign'] === '') {
    throw new AgentpaySignatureError('callback is not signed', parsed);
  }
  if (!verifySignature(record, record['sign'], key)) {
    throw new AgentpaySignatureError(
      'callback signature does not verify with the platform public key',
      parsed,
    );
  }
  const data = record['data'];
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    // Signed by the platform but not a shape this SDK knows: refuse rather than guess.
    throw new AgentpaySignatureError('callback has no order in data', parsed);
  }
  return parsed as Callback;
}

/** True for a payment order's callback (its data carries `orderNo`). */
export function isPayOrderCallback(callback: Callback): callback is PayOrderCallback {
  return typeof (callback.data as { orderNo?: unknown }).orderNo === 'string';
}

/** True for a transfer's callback (its data carries `transferNo`). */
export function isTransferCallback(callback: Callback): callback is TransferCallback {
  return typeof (callback.data as { transferNo?: unknown }).transferNo === 'string';
}

/** Answers a callback on a node:http response (Express and Fastify's `reply.raw` are ones): 200 `SUCCESS`. */
export function acknowledgeCallback(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(CALLBACK_SUCCESS);
}

export interface CallbackListenerOptions {
  platformPublicKey: KeyInput;
  /**
   * Handles one verified callback. Resolve once the change is stored: the listener then answers
   * SUCCESS. Throw to have the platform retry later. The same change may arrive more than once: make
   * it idempotent on orderNo/transferNo and status.
   */
  onCallback(callback: Callback): Promise<void> | void;
  /** Called with a refused body or a handler failure, for logging. */
  onError?(error: unknown): void;
  /** Largest accepted body, bytes; default 65536. */
  maxBodyBytes?: number;
}

/**
 * A node:http request listener for your notifyUrl: reads the body, verifies it, calls `onCallback`,
 * answers `SUCCESS` (or 400 for a bad signature, 500 when the handler throws, so the platform retries).
 */
export function callbackListener(
  options: CallbackListenerOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const key = loadPublicKey(options.platformPublicKey);
  const limit = options.maxBodyBytes ?? 65_536;
  const answer = (res: ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(text);
  };
  return (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        answer(res, 413, 'FAIL');
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (res.headersSent) return;
      let callback: Callback;
      try {
        callback = verifyCallback(Buffer.concat(chunks), key);
      } catch (err) {
        options.onError?.(err);
        answer(res, 400, 'FAIL');
        return;
      }
      Promise.resolve()
        .then(() => options.onCallback(callback))
        .then(
          () => acknowledgeCallback(res),
          (err: unknown) => {
            options.onError?.(err);
            answer(res, 500, 'FAIL');
          },
        );
    });
  };
}
