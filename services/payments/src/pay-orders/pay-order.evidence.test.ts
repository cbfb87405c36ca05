import { createLogger } from '@agentpay/logger';
import { describe, expect, it } from 'vitest';
import type { PayOrderRow } from '../db/schema.js';
import type { UpstreamState } from '../upstream/router.client.js';
import { decideFromUpstream } from './pay-order.evidence.js';
import { isAllowed, PAY_STATUSES, type PayStatus } from './pay-order.state-machine.js';

const now = new Date('2026-11-22T12:00:00.000Z');
const context = { now, traceparent: 't', logger: createLogger({ service: 'test', level: 'silent' }) };

function order(status: PayStatus, expiresInMs = 60_000): PayOrderRow {
  return {
    status,
    amount: 10_000,
    order_no: 'P1',
    expired_time: new Date(now.getTime() + expiresInMs),
  } as PayOrderRow;
}

const paid: UpstreamState = {
  status: 'success',
  paidAmount: 10_000,
  paidAt: new Date('2026-11-22T11:59:00.000Z'),
  claveRastreo: 'AGP20261122000001',
};
const closed: UpstreamState = { status: 'close', paidAmount: 0, paidAt: undefined, claveRastreo: '' };
const failed: UpstreamState = { status: 'fail', paidAmount: 0, paidAt: undefined, claveRastreo: '' };
const waiting: UpstreamState = { status: 'wait', paidAmount: 0, paidAt: undefined, claveRastreo: '' };

describe('decideFromUpstream', () => {
  it('turns a payment into success from every status but success, with the upstream pay time', () => {
    for (const status of PAY_STATUSES) {
      const change = decideFromUpstream(order(status), paid, context);
      if (status === 'success') expect(change).toBeUndefined();
      else expect(change).toMatchObject({ to: 'success', cause: 'upstream', set: { pay_time: paid.paidAt } });
    }
  });

  it("records the paying deposit's tracking key with the payment, and sets none when upstream gave none", () => {
    expect(decideFromUpstream(order('wait'), paid, context)?.set).toMatchObject({
      clave_rastreo: 'AGP20261122000001',
    });
    const withoutKey = decideFromUpstream(order('wait'), { ...paid, claveRastreo: '' }, context);
    expect(withoutKey?.set).not.toHaveProperty('clave_rastreo');
  });

  it('ignores a payment of another amount', () => {
    expect(decideFromUpstream(order('wait'), { ...paid, paidAmount: 9_999 }, context)).toBeUndefined();
  });

  it('closes only an open order, as timeout once it has expired', () => {
    expect(decideFromUpstream(order('wait'), closed, context)).toMatchObject({
      to: 'close',
      cause: 'upstream',
    });
    expect(decideFromUpstream(order('progress', -1), closed, context)).toMatchObject({
      to: 'timeout',
      cause: 'expiry',
    });
    for (const status of ['success', 'close', 'cancel', 'fail', 'timeout'] as const) {
      expect(decideFromUpstream(order(status), closed, context)).toBeUndefined();
    }
  });

  it('fails only an open order, and a waiting upstream changes nothing', () => {
    expect(decideFromUpstream(order('wait'), failed, context)).toMatchObject({ to: 'fail' });
    expect(decideFromUpstream(order('close'), failed, context)).toBeUndefined();
    for (const status of PAY_STATUSES)
      expect(decideFromUpstream(order(status), waiting, context)).toBeUndefined();
  });

  it('only ever proposes a change the state machine allows', () => {
    for (const status of PAY_STATUSES) {
      for (const state of [paid, closed, failed, waiting]) {
        for (const expiresInMs of [-1, 60_000]) {
          const change = decideFromUpstream(order(status, expiresInMs), state, context);
          if (change) expect(isAllowed(status, change.to, change.cause)).toBe(true);
        }
      }
    }
  });
});
