import { createHmac, hkdfSync, type KeyObject, timingSafeEqual } from 'node:crypto';

/**
 * Tokens of the payer's cashier links: base64url HMAC-SHA256 of the order number under the platform's
 * cashier secret. Nothing is stored per link, and a token opens its own order only.
 */
export interface CashierTokens {
  tokenFor(orderNo: string): string;
  /** Whether `token` is the order's; constant time whatever the token's length or content. */
  verify(orderNo: string, token: string | undefined): boolean;
}

export function createCashierTokens(secret: Buffer): CashierTokens {
  const tokenFor = (orderNo: string) =>
    createHmac('sha256', secret).update(`cashier:${orderNo}`).digest('base64url');
  // Both sides are HMAC'd again before comparing, so timingSafeEqual always sees two equal-length values
  // and the time taken says nothing about how much of a guess was right, nor about its length.
  const digest = (value: string) => createHmac('sha256', secret).update(`compare:${value}`).digest();
  return {
    tokenFor,
    verify(orderNo, token) {
      if (typeof token !== 'string' || token.length > 256) return false;
      return timingSafeEqual(digest(token), digest(tokenFor(orderNo)));
    },
  };
}

/**
 * The cashier secret: CASHIER_SECRET when set (production requires it); otherwise derived from the
 * platform private key, so every replica sharing that key issues and accepts the same links.
 */
export function cashierSecret(configured: string | undefined, platformPrivateKey: KeyObject): Buffer {
  if (configured) return Buffer.from(configured, 'utf8');
  const der = platformPrivateKey.export({ type: 'pkcs8', format: 'der' });
  return Buffer.from(hkdfSync('sha256', der, Buffer.alloc(0), 'agentpay cashier link tokens', 32));
}
