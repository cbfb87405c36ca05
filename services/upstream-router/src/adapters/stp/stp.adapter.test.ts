import { generateKeyPairSync } from 'node:crypto';
import { STP_DEMO_PASSPHRASE, STP_DEMO_PRIVATE_KEY_PEM } from '@agentpay/spei';
import { describe, expect, it } from 'vitest';
import { claveRastreoOf, createStpAdapter } from './stp.adapter.js';
import { allowed } from './stp.route.js';

const adapter = createStpAdapter({ timeoutMs: 1_000 });

const config = {
  empresa: 'AGENTPAY',
  speiBase: 'http://127.0.0.1:1/speiws/rest',
  efwsBase: 'http://127.0.0.1:1/efws/API',
  clabePrefix: '6461805555',
  cuentaOrdenante: '646180555500000009',
  privateKeyRef: 'CHANNEL_STP_PRIVATE_KEY',
  passphraseRef: 'CHANNEL_STP_PASSPHRASE',
  webhookAllow: ['10.1.0.0/16', '2001:db8::/32', '192.0.2.7'],
};
const demo = { privateKey: STP_DEMO_PRIVATE_KEY_PEM, passphrase: STP_DEMO_PASSPHRASE };

describe('STP route settings', () => {
  it('accepts a usable route with a key that loads', () => {
    expect(adapter.configProblem(config, demo)).toBeUndefined();
  });

  it('names the field of each refusal: prefix, own CLABE, allow-list, unknown setting', () => {
    expect(adapter.configProblem({ ...config, clabePrefix: '0121801234' }, demo)).toMatch(
      /^config\.clabePrefix:/,
    );
    expect(adapter.configProblem({ ...config, clabePrefix: '646180123' }, demo)).toMatch(
      /^config\.clabePrefix:/,
    );
    expect(adapter.configProblem({ ...config, cuentaOrdenante: '646180555500000001' }, demo)).toMatch(
      /^config\.cuentaOrdenante:/,
    );
    expect(adapter.configProblem({ ...config, webhookAllow: ['10.0.0.0/33'] }, demo)).toMatch(
      /^config\.webhookAllow\.0:/,
    );
    expect(adapter.configProblem({ ...config, clabePrefx: '6461805555' }, demo)).toBe(
      'config.clabePrefx: unknown setting',
    );
  });

  it('refuses a key that does not load or is not set, naming privateKeyRef and never the key', () => {
    const wrong = adapter.configProblem(config, { ...demo, passphrase: 'not-it' });
    expect(wrong).toMatch(/^config\.privateKeyRef: .*does not load/);
    expect(wrong).not.toContain('PRIVATE KEY');
    expect(wrong).not.toContain('not-it');
    expect(adapter.configProblem(config, { privateKey: '', passphrase: '' })).toMatch(
      /^config\.privateKeyRef:/,
    );
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const plain = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(adapter.configProblem(config, { privateKey: plain, passphrase: '' })).toBeUndefined();
  });
});

describe('the webhook allow-list', () => {
  it('lets in addresses inside a CIDR or equal to a listed one, IPv4-mapped IPv6 included', () => {
    expect(allowed(config.webhookAllow, '10.1.200.3')).toBe(true);
    expect(allowed(config.webhookAllow, '::ffff:10.1.0.1')).toBe(true);
    expect(allowed(config.webhookAllow, '192.0.2.7')).toBe(true);
    expect(allowed(config.webhookAllow, '2001:db8::1')).toBe(true);
  });

  it('keeps out everyone else, and anything that is not an address', () => {
    expect(allowed(config.webhookAllow, '10.2.0.1')).toBe(false);
    expect(allowed(config.webhookAllow, '192.0.2.8')).toBe(false);
    expect(allowed(config.webhookAllow, '2001:db9::1')).toBe(false);
    expect(allowed(config.webhookAllow, '')).toBe(false);
    expect(allowed(config.webhookAllow, 'localhost')).toBe(false);
    expect(allowed([], '127.0.0.1')).toBe(false);
  });
});

describe('the payout tracking key', () => {
  it('is the transfer number behind AP, the same every time, within SPEI rules', () => {
    const key = claveRastreoOf('T20261126223000000000000001');
    expect(key).toBe('APT20261126223000000000000001');
    expect(claveRastreoOf('T20261126223000000000000001')).toBe(key);
    expect(key).toMatch(/^[A-Z0-9]{1,29}$/);
  });

  it('is a digest for a number that does not fit, still within SPEI rules and stable', () => {
    const long = claveRastreoOf('t-2026-11-26-000000000000000000000001');
    expect(long).toMatch(/^AP[A-F0-9]{27}$/);
    expect(claveRastreoOf('t-2026-11-26-000000000000000000000001')).toBe(long);
    expect(claveRastreoOf('t-2026-11-26-000000000000000000000002')).not.toBe(long);
  });
});
