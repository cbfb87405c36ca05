import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

// otpauth implements RFC 6238 (and 4226) on node:crypto's HMAC and is widely used and maintained; qrcode
// draws the enrolment QR as SVG on the server, so the console loads nothing from outside.
const PERIOD = 30;
const DIGITS = 6;

function totp(secretBase32: string, label: string, issuer: string) {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit secret, Base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads, and the same as an SVG QR code. */
export async function enrolment(secretBase32: string, label: string, issuer: string) {
  const uri = totp(secretBase32, label, issuer).toString();
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUri: uri, qrSvg };
}

/**
 * The 30-second step of `code` when it is valid now, one step early or late allowed for clock drift;
 * undefined otherwise. The caller refuses a step already used.
 */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totp(secretBase32, 'x', 'x').validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return undefined;
  return Math.floor(now / 1000 / PERIOD) + delta;
}
