import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { createSecretBox } from './secret-box.js';
import { newTotpSecret, totpStep } from './totp.js';

describe('passwords', () => {
  it('hash with scrypt, parameters and salt in the hash, and verify only the same password', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$N=32768,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'not a hash')).toBe(false);
  });

  it('refuses fewer than 12 characters and the most common passwords, whatever their case', () => {
    expect(passwordProblem('eleven-char')).toMatch(/12 characters/);
    expect(passwordProblem('Unbelievable')).toMatch(/common/);
    expect(passwordProblem('MASTERBATING')).toMatch(/common/);
    expect(passwordProblem('a long and rare passphrase')).toBeUndefined();
  });
});

describe('the secret box', () => {
  it('opens what it sealed for the same row only, and never shows the plain text', () => {
    const box = createSecretBox(Buffer.from('k'.repeat(32)));
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user-1');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'user-1')).toBe('JBSWY3DPEHPK3PXP');
    expect(() => box.open(sealed, 'user-2')).toThrow();
    expect(() => createSecretBox(Buffer.from('x'.repeat(32))).open(sealed, 'user-1')).toThrow();
  });
});

describe('TOTP', () => {
  it('accepts the code of now and one step either side, nothing else, and tells its step', async () => {
    const { Secret, TOTP } = await import('otpauth');
    const secret = newTotpSecret();
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const now = 1_800_000_015_000;
    const step = Math.floor(now / 30_000);
    expect(totpStep(secret, totp.generate({ timestamp: now }), now)).toBe(step);
    expect(totpStep(secret, totp.generate({ timestamp: now + 30_000 }), now)).toBe(step + 1);
    expect(totpStep(secret, totp.generate({ timestamp: now - 30_000 }), now)).toBe(step - 1);
    expect(totpStep(secret, totp.generate({ timestamp: now + 90_000 }), now)).toBeUndefined();
    expect(totpStep(secret, 'abcdef', now)).toBeUndefined();
  });
});
