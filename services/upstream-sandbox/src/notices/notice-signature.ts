import { createHmac } from 'node:crypto';

/** Header carrying the hex HMAC-SHA256 of the raw notice body. */
export const SIGNATURE_HEADER = 'x-sandbox-signature';
/** Header repeating the notice id, so a receiver can log it before parsing. */
export const NOTICE_ID_HEADER = 'x-sandbox-notice-id';

/** Hex HMAC-SHA256 of `body` under `secret`: what a receiver recomputes over the bytes it got. */
export function signNotice(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}
