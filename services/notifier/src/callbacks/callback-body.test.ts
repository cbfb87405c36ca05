import { createPrivateKey, createPublicKey } from 'node:crypto';
import { createEnvelopeSigner, generateKeyPair, verifyObject } from '@agentpay/wire';
import { describe, expect, it } from 'vitest';
import { parseOrderStatusChanged } from '../events/order-status-changed.schema.js';
import { buildCallbackBody } from './callback-body.js';

const keys = generateKeyPair();
const signer = createEnvelopeSigner({ privateKey: createPrivateKey(keys.privateKeyPem), timeZone: 'UTC' });

// The proto JSON mapping may leave fields at their default out; the schema fills them in.
const event = parseOrderStatusChanged(
  JSON.stringify({
    event_id: 'e1',
    mch_no: 'M1',
    kind: 'pay',
    order_no: 'P1',
    to_status: 'success',
    version: '2',
    pay_order: {
      order_no: 'P1',
      biz_order_no: 'B1',
      amount: '12345',
      status: 'success',
      pay_time: '2026-01-02T03:04:05Z',
    },
  }),
);

describe('buildCallbackBody', () => {
  it('signs the seed section 6 body with the platform key, leaving out empty fields and appId', async () => {
    const text = await buildCallbackBody(event, {
      signer,
      timeZone: 'UTC',
      traceId: 'a'.repeat(32),
      now: new Date('2026-01-02T03:04:06Z'),
    });
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(body).toEqual({
      code: 0,
      msg: 'success',
      data: {
        orderNo: 'P1',
        bizOrderNo: 'B1',
        amount: 123.45,
        fee: 0,
        realAmount: 0,
        status: 'success',
        payTime: '2026-01-02 03:04:05',
      },
      resTime: '2026-01-02 03:04:06',
      traceId: 'a'.repeat(32),
      noticeType: 'order_status_changed',
      mchNo: 'M1',
      sign: expect.any(String),
    });
    expect(verifyObject(body, body['sign'] as string, createPublicKey(keys.publicKeyPem))).toBe(true);
  });

  it('carries appId when the event has one', async () => {
    const body = JSON.parse(
      await buildCallbackBody({ ...event, app_id: 'app9' }, { signer, timeZone: 'UTC', traceId: 't' }),
    );
    expect(body.appId).toBe('app9');
    expect(verifyObject(body, body.sign, createPublicKey(keys.publicKeyPem))).toBe(true);
  });
});

describe('the SPEI tracking key in callbacks', () => {
  const verified = async (e: typeof event) => {
    const body = JSON.parse(await buildCallbackBody(e, { signer, timeZone: 'UTC', traceId: 't' }));
    expect(verifyObject(body, body.sign, createPublicKey(keys.publicKeyPem))).toBe(true);
    return body.data as Record<string, unknown>;
  };

  it("carries a paid order's claveRastreo from the event, signed", async () => {
    const paid = parseOrderStatusChanged(
      JSON.stringify({
        ...JSON.parse(JSON.stringify(event)),
        pay_order: { order_no: 'P1', status: 'success', clave_rastreo: 'AGP20261122000001' },
      }),
    );
    expect(await verified(paid)).toMatchObject({ orderNo: 'P1', claveRastreo: 'AGP20261122000001' });
  });

  it("carries a transfer's claveRastreo once the channel assigned one, and leaves it out before", async () => {
    const transferEvent = (claveRastreo: string) =>
      parseOrderStatusChanged(
        JSON.stringify({
          event_id: 'e2',
          mch_no: 'M1',
          kind: 'transfer',
          order_no: 'T1',
          to_status: 'success',
          version: '2',
          transfer: { transfer_no: 'T1', status: 'success', amount: '100', clave_rastreo: claveRastreo },
        }),
      );
    expect(await verified(transferEvent('AGPT0000000001'))).toMatchObject({
      transferNo: 'T1',
      claveRastreo: 'AGPT0000000001',
    });
    expect(await verified(transferEvent(''))).not.toHaveProperty('claveRastreo');
  });
});

describe('parseOrderStatusChanged', () => {
  it('refuses an event without its order, or of an unknown kind, naming the problem', () => {
    const base = { event_id: 'e', mch_no: 'M', order_no: 'P', to_status: 's', version: '1' };
    expect(() => parseOrderStatusChanged(JSON.stringify({ ...base, kind: 'pay' }))).toThrow(/pay_order/);
    expect(() => parseOrderStatusChanged(JSON.stringify({ ...base, kind: 'refund' }))).toThrow(/kind/);
    expect(() => parseOrderStatusChanged('{')).toThrow(/not JSON/);
  });
});
