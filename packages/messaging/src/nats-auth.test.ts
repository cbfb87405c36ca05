import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { natsAuthOptions } from './nats.js';

const dir = mkdtempSync(join(tmpdir(), 'agentpay-nats-creds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('natsAuthOptions', () => {
  it('is an anonymous plain connection when nothing is set', () => {
    expect(natsAuthOptions({})).toEqual({});
  });

  it('passes user, password and the CA file for TLS', () => {
    expect(natsAuthOptions({ user: 'payments', password: 's3cret', tlsCaFile: '/ca.crt' })).toEqual({
      user: 'payments',
      pass: 's3cret',
      tls: { caFile: '/ca.crt' },
    });
  });

  it('reads a creds file into an authenticator, and names a missing one without its content', () => {
    const creds = join(dir, 'payments.creds');
    writeFileSync(creds, '-----BEGIN NATS USER JWT-----\nx\n------END NATS USER JWT------\n');
    expect(typeof natsAuthOptions({ credsFile: creds }).authenticator).toBe('function');
    expect(() => natsAuthOptions({ credsFile: join(dir, 'missing.creds') })).toThrow(
      /cannot read NATS_CREDS_FILE .*missing\.creds/,
    );
  });

  it('refuses a user without a password, and a creds file together with a user', () => {
    expect(() => natsAuthOptions({ user: 'payments' })).toThrow(/without NATS_PASSWORD/);
    expect(() => natsAuthOptions({ user: 'payments', password: 'x', credsFile: '/c' })).toThrow(/not both/);
  });
});
