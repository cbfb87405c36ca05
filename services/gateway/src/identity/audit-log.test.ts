import { describe, expect, it } from 'vitest';
import type { AuditLogRow } from '../db/schema.js';
import { canonicalJson, csvCell, entryHash, redact } from './audit-log.js';

const row: Omit<AuditLogRow, 'prev_hash' | 'hash'> = {
  id: '7',
  at: new Date('2026-11-26T12:00:00.000Z'),
  actor_id: 'user:1',
  actor_label: 'ana@example.com',
  actor_via: 'token',
  actor_token_id: 't1',
  actor_roles: ['owner'],
  mch_no: null,
  ip: '127.0.0.1',
  user_agent: 'test',
  action: 'merchant.update',
  target: 'merchant:M1',
  outcome: 'success',
  status: 200,
  reason: null,
  before: null,
  after: '{"name":"x"}',
  approval_id: null,
};

describe('the audit chain', () => {
  it('serialises the same value to the same text whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}',
    );
  });

  it('hashes over the previous hash and every field: changing either changes the hash', () => {
    const base = entryHash('0'.repeat(64), row);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(entryHash('1'.repeat(64), row)).not.toBe(base);
    for (const [key, value] of Object.entries({
      id: '8',
      outcome: 'failure',
      after: null,
      reason: 'x',
      actor_roles: ['admin'],
    })) {
      expect(entryHash('0'.repeat(64), { ...row, [key]: value }), key).not.toBe(base);
    }
  });

  it('redacts every field that could carry a credential, at any depth', () => {
    expect(
      redact({ id: 1, inviteToken: 'a', nested: [{ password: 'p', name: 'n' }], totpSecret: 's' }),
    ).toEqual({
      id: 1,
      inviteToken: '[redacted]',
      nested: [{ password: '[redacted]', name: 'n' }],
      totpSecret: '[redacted]',
    });
  });
});

describe('CSV cells', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])(
    'prefix %j with an apostrophe so it is no formula',
    (value) => {
      expect(csvCell(value).replace(/^"/, '')).toMatch(/^'/);
    },
  );

  it('quotes commas, quotes and line breaks, and leaves plain text alone', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=a,b')).toBe(`"'=a,b"`);
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell(['owner', 'admin'])).toBe('owner admin');
  });
});
