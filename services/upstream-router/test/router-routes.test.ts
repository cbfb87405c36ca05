import { call } from '@agentpay/proto';
import { validateClabe } from '@agentpay/spei';
import { waitFor } from '@agentpay/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ROUTES_CHANNEL } from '../src/db/channels.js';
import { bindMerchant } from '../src/routes/route.repository.js';
import {
  inAnHour,
  M_DEAD,
  M_FAILOVER,
  M_MAIN,
  M_NONE,
  M_SLOW,
  no,
  rejection,
  useRouterStack,
} from './support/router-stack.js';

// Routes: changes announced to every replica, selection and failover, and what no route serves.

const t = useRouterStack();
const { createVa, submit, inquire } = t;

describe('route changes', () => {
  it('are announced to every replica by NOTIFY, for routes and for their merchants, and reach the cache', async () => {
    const listener = new pg.Client({ connectionString: t.routerDatabase.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.channel));
    await listener.query(`listen ${ROUTES_CHANNEL}`);
    try {
      // M_NONE has no route: the answer is cached, until a binding made elsewhere announces itself.
      expect((await rejection(createVa(M_NONE, no('P')))).codeName).toBe('PAY_METHOD_NOT_AVAILABLE');
      await bindMerchant(t.db, 'sandbox-default', M_NONE);
      await waitFor(() => heard.length === 1, { message: 'a NOTIFY for the binding' });
      expect((await waitFor(async () => createVa(M_NONE, no('P')).catch(() => undefined))).route_id).toBe(
        'sandbox-default',
      );
      await t.db.updateTable('routes').set({ weight: 100 }).where('id', '=', 'sandbox-default').execute();
      await waitFor(() => heard.length === 2, { message: 'a NOTIFY for the route update' });
    } finally {
      await t.db
        .deleteFrom('route_merchants')
        .where('route_id', '=', 'sandbox-default')
        .where('mch_no', '=', M_NONE)
        .execute();
      // Later tests need M_NONE unserved again, in the router's cache too.
      await waitFor(
        async () =>
          await createVa(M_NONE, no('P')).then(
            () => false,
            () => true,
          ),
      );
      await listener.end();
    }
  });
});

describe('route selection and failover', () => {
  it('when the preferred route is down, creates succeed through the next one', async () => {
    const va = await createVa(M_FAILOVER, no('P'));
    expect(va.route_id).toBe('sandbox-default');
    expect(validateClabe(va.clabe).ok).toBe(true);
    expect((await inquire(M_FAILOVER)).status).toBe('valid');
    expect((await submit(M_FAILOVER, no('T'))).route_id).toBe('sandbox-default');
  });

  it('after a timeout, a virtual account is opened on the next route', async () => {
    expect((await createVa(M_SLOW, no('P'))).route_id).toBe('sandbox-default');
  });

  it('after a timeout, a payout stays in progress on that route instead of going to another (no double pay)', async () => {
    expect(await submit(M_SLOW, no('T'))).toEqual({
      route_id: 'slow-first',
      status: 'progress',
      upstream_ref: '',
      clave_rastreo: '',
      // The sending bank comes with the channel's answer; a timed-out submission has none yet.
      sender_bank: '',
    });
  });

  it('when every route is down, answers UPSTREAM_UNAVAILABLE without naming a route', async () => {
    for (const attempt of [
      () => createVa(M_DEAD, no('P')),
      () => inquire(M_DEAD),
      () => submit(M_DEAD, no('T')),
    ]) {
      const err = await rejection(attempt());
      expect(err.codeName).toBe('UPSTREAM_UNAVAILABLE');
      expect(err.detail).toBeUndefined();
      expect(err.message).not.toMatch(/dead|sandbox|route|127\.0\.0\.1/i);
    }
  });

  it('a merchant no route serves gets PAY_METHOD_NOT_AVAILABLE and PAYEE_TYPE_NOT_AVAILABLE', async () => {
    expect((await rejection(createVa(M_NONE, no('P')))).codeName).toBe('PAY_METHOD_NOT_AVAILABLE');
    expect((await rejection(inquire(M_NONE))).codeName).toBe('PAYEE_TYPE_NOT_AVAILABLE');
    expect((await rejection(submit(M_NONE, no('T')))).codeName).toBe('PAYEE_TYPE_NOT_AVAILABLE');
  });

  it('an unknown method or payee type is not available either', async () => {
    const err = await rejection(
      call(t.client, t.client.CreateVirtualAccount, {
        mch_no: M_MAIN,
        method: 'cash',
        order_no: no('P'),
        amount: '100',
        expired_time: inAnHour(),
      }),
    );
    expect(err.codeName).toBe('PAY_METHOD_NOT_AVAILABLE');
    expect((await rejection(inquire(M_MAIN, { payee_type: 'paypal' }))).codeName).toBe(
      'PAYEE_TYPE_NOT_AVAILABLE',
    );
  });

  it('a raw upstream code such as 012, or a code outside the public list, is PAYEE_CODE_NOT_AVAILABLE', async () => {
    expect((await rejection(submit(M_MAIN, no('T'), { payee_code: '012' }))).codeName).toBe(
      'PAYEE_CODE_NOT_AVAILABLE',
    );
    expect((await rejection(inquire(M_MAIN, { payee_code: '012' }))).codeName).toBe(
      'PAYEE_CODE_NOT_AVAILABLE',
    );
    expect((await rejection(inquire(M_MAIN, { payee_code: '99999' }))).codeName).toBe(
      'PAYEE_CODE_NOT_AVAILABLE',
    );
    expect(
      (
        await rejection(
          inquire(M_MAIN, { payee_type: 'bank_card', payee_account: '4111111111111111', payee_code: '' }),
        )
      ).codeName,
    ).toBe('PAYEE_CODE_NOT_AVAILABLE');
  });

  it('refuses a malformed amount by field name', async () => {
    const err = await rejection(createVa(M_MAIN, no('P'), '0'));
    expect(err).toMatchObject({ codeName: 'INVALID_PARAMETER', detail: 'amount' });
  });
});
