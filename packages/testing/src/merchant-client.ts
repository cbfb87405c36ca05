import { createPrivateKey, createPublicKey, type KeyObject, randomBytes } from 'node:crypto';
import {
  type Envelope,
  formatWireTime,
  generateKeyPair,
  parsePublicKey,
  signObject,
  verifyEnvelope,
} from '@agentpay/wire';
import { adminRequest } from './four-eyes.js';

export const TIME_ZONE = 'America/Mexico_City';

export interface Reply {
  status: number;
  envelope: Envelope;
  /** Whether the envelope's signature verifies with the platform public key. */
  signed: boolean;
}

/** A merchant as the tests drive it: signs requests with its key, checks replies with the platform key. */
export interface TestMerchant {
  mchNo: string;
  privateKey: KeyObject;
  publicKeyPem: string;
  /** Signed request with fresh reqTime and nonceStr; `overrides` replace or add fields before signing. */
  request(
    path: string,
    params?: Record<string, unknown>,
    overrides?: Record<string, unknown>,
  ): Promise<Reply>;
  /** Sends `body` exactly as given (already signed or deliberately broken). */
  send(
    path: string,
    body: unknown,
    init?: { contentType?: string; raw?: string; method?: string },
  ): Promise<Reply>;
  /** Builds a signed body without sending it. */
  signed(params: Record<string, unknown>, overrides?: Record<string, unknown>): Record<string, unknown>;
}

export function now(offsetMs = 0): string {
  return formatWireTime(new Date(Date.now() + offsetMs), TIME_ZONE);
}

export function nonce(): string {
  return randomBytes(12).toString('hex');
}

/** Creates a merchant through the admin API and returns a client for it. */
export async function createTestMerchant(opts: {
  adminUrl: string;
  gatewayUrl: string;
  adminToken?: string;
  mchNo?: string;
  appIds?: string[];
  feeRate?: { percentBps: number; fixedCentavos: number };
  /**
   * Pesos credited to the merchant's available balance by an operator adjustment, so its transfers are
   * funded (a transfer freezes amount + fee first); default 1,000,000. `false` for tests of the books
   * that start from zero, or stacks without a ledger.
   */
  fund?: number | false;
}): Promise<TestMerchant & { platformKey: KeyObject }> {
  const token = opts.adminToken ?? 'dev-admin-token';
  const keys = generateKeyPair();
  const mchNo = opts.mchNo ?? `M${randomBytes(6).toString('hex')}`;
  const created = await fetch(`${opts.adminUrl}/admin/merchants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      mchNo,
      name: `Test merchant ${mchNo}`,
      publicKey: keys.publicKeyPem,
      appIds: opts.appIds,
      feeRate: opts.feeRate,
    }),
  });
  if (created.status !== 201)
    throw new Error(`creating merchant failed: ${created.status} ${await created.text()}`);
  const fund = opts.fund ?? 1_000_000;
  if (fund !== false) {
    // An adjustment needs four eyes: asked as `token`'s person, approved by the stack's approver.
    const funded = await adminRequest({
      adminUrl: opts.adminUrl,
      method: 'POST',
      path: `/admin/merchants/${mchNo}/adjustments`,
      body: { amount: fund, reason: 'test funding', reference: 'test-funding' },
      token,
    });
    if (funded.status !== 201)
      throw new Error(`funding merchant ${mchNo} failed: ${funded.status} ${JSON.stringify(funded.body)}`);
  }
  const platform = await fetch(`${opts.adminUrl}/admin/platform-key`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const platformKey = parsePublicKey(((await platform.json()) as { publicKey: string }).publicKey);
  return merchantClient({
    gatewayUrl: opts.gatewayUrl,
    mchNo,
    privateKeyPem: keys.privateKeyPem,
    platformKey,
  });
}

export function merchantClient(opts: {
  gatewayUrl: string;
  mchNo: string;
  privateKeyPem: string;
  platformKey: KeyObject;
}): TestMerchant & { platformKey: KeyObject } {
  const privateKey = createPrivateKey(opts.privateKeyPem);
  const publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();

  const signed = (params: Record<string, unknown>, overrides: Record<string, unknown> = {}) => {
    const body: Record<string, unknown> = {
      mchNo: opts.mchNo,
      reqTime: now(),
      nonceStr: nonce(),
      ...params,
      ...overrides,
    };
    return { ...body, sign: signObject(body, privateKey) };
  };

  const send = async (
    path: string,
    body: unknown,
    init: { contentType?: string; raw?: string; method?: string } = {},
  ) => {
    const response = await fetch(`${opts.gatewayUrl}${path}`, {
      method: init.method ?? 'POST',
      headers: { 'content-type': init.contentType ?? 'application/json' },
      ...(init.method === 'GET' ? {} : { body: init.raw ?? JSON.stringify(body) }),
    });
    const envelope = (await response.json()) as Envelope;
    return { status: response.status, envelope, signed: verifyEnvelope(envelope, opts.platformKey) };
  };

  return {
    mchNo: opts.mchNo,
    privateKey,
    publicKeyPem,
    platformKey: opts.platformKey,
    signed,
    send,
    request: (path, params = {}, overrides = {}) => send(path, signed(params, overrides)),
  };
}
