import { createServer } from 'node:http';
import { call } from '@agentpay/proto';
import { waitFor } from '@agentpay/testing';
import { describe, expect, it } from 'vitest';
import { insertRoute } from '../src/routes/route.repository.js';
import { M_MAIN, no, rejection, useRouterStack } from './support/router-stack.js';

// Payee inquiries and payouts through the router.

const t = useRouterStack();
const { submit, inquire } = t;

describe('payee inquiry', () => {
  it('answers valid, unknown or invalid from the channel', async () => {
    expect((await inquire(M_MAIN)).status).toBe('valid');
    expect((await inquire(M_MAIN, { payee_name: 'UNKNOWN person' })).status).toBe('unknown');
    // A BBVA code for a Banamex CLABE: the channel finds the account does not belong to that bank.
    expect((await inquire(M_MAIN, { payee_code: '40012' })).status).toBe('invalid');
    expect(
      (await inquire(M_MAIN, { payee_type: 'user_id', payee_account: 'wallet-1', payee_code: '' })).status,
    ).toBe('valid');
  });

  it('derives the public code from the CLABE when none is given', async () => {
    expect((await inquire(M_MAIN, { payee_code: '' })).status).toBe('valid');
  });
});

describe('payouts', () => {
  const appliedPayouts = (transferNo: string) =>
    t.notices.payouts(transferNo).map((n) => ({ ...n.payout!, notice_id: n.notice_id, subject: n.subject }));

  it('a payout is accepted in progress and its success is published as a payout notice', async () => {
    const transferNo = no('T');
    const answer = await submit(M_MAIN, transferNo);
    expect(answer).toMatchObject({
      route_id: 'sandbox-default',
      status: 'progress',
      upstream_ref: expect.stringMatching(/.+/),
    });
    const [applied] = await waitFor(
      () => appliedPayouts(transferNo).length === 1 && appliedPayouts(transferNo),
    );
    expect(applied).toMatchObject({
      subject: `${t.notices.prefix}.notice.payout`,
      status: 'success',
      finished_at: expect.stringMatching(/Z$/),
      notice_id: expect.stringMatching(/.+/),
    });
    const ref = { route_id: answer.route_id, transfer_no: transferNo, upstream_ref: answer.upstream_ref };
    expect((await call(t.client, t.client.QueryPayout, ref)).status).toBe('success');
  });

  it('REJECT in the payee name fails by notice', async () => {
    const transferNo = no('T');
    expect((await submit(M_MAIN, transferNo, { payee_name: 'REJECT me' })).status).toBe('progress');
    const [applied] = await waitFor(
      () => appliedPayouts(transferNo).length === 1 && appliedPayouts(transferNo),
    );
    expect(applied!.status).toBe('fail');
  });

  it('RETURN in the payee name succeeds, then is returned', async () => {
    const transferNo = no('T');
    const answer = await submit(M_MAIN, transferNo, { payee_name: 'RETURN me' });
    const applied = await waitFor(
      () => appliedPayouts(transferNo).length === 2 && appliedPayouts(transferNo),
    );
    expect(applied.map((p) => p.status)).toEqual(['success', 'returned']);
    const ref = { route_id: answer.route_id, transfer_no: transferNo, upstream_ref: '' };
    expect((await call(t.client, t.client.QueryPayout, ref)).status).toBe('returned');
  });

  it('SYNCREJECT in the payee name is refused synchronously as fail', async () => {
    const transferNo = no('T');
    const answer = await submit(M_MAIN, transferNo, { payee_name: 'SYNCREJECT me' });
    expect(answer).toMatchObject({ route_id: 'sandbox-default', status: 'fail' });
    const ref = { route_id: answer.route_id, transfer_no: transferNo, upstream_ref: answer.upstream_ref };
    expect((await call(t.client, t.client.QueryPayout, ref)).status).toBe('fail');
  });

  it('a payout the channel never accepted queries as fail', async () => {
    const ref = { route_id: 'sandbox-default', transfer_no: no('T'), upstream_ref: '' };
    expect((await call(t.client, t.client.QueryPayout, ref)).status).toBe('fail');
  });

  // A submission whose answer was lost before the route was known (the router died mid-call): the
  // transfer has no route_id, so QueryPayout with none asks every payout route, enabled or not.
  describe('queried with no route recorded', () => {
    const unrecorded = (transferNo: string) => ({ route_id: '', transfer_no: transferNo, upstream_ref: '' });

    it('finds the payout on the route that holds it, even a disabled one, and names that route and its reference', async () => {
      const transferNo = no('T');
      const answer = await submit(M_MAIN, transferNo);
      await t.db.updateTable('routes').set({ enabled: false }).where('id', '=', 'sandbox-default').execute();
      try {
        expect(await call(t.client, t.client.QueryPayout, unrecorded(transferNo))).toMatchObject({
          status: expect.stringMatching(/^(progress|success)$/),
          route_id: 'sandbox-default',
          upstream_ref: answer.upstream_ref,
        });
      } finally {
        await t.db.updateTable('routes').set({ enabled: true }).where('id', '=', 'sandbox-default').execute();
      }
    });

    it('finds the payout on the route that holds it while another payout route hangs past the caller’s deadline', async () => {
      // A channel that accepts connections and never answers, asked first and given 20 s before it gives up.
      const hung = createServer(() => {});
      await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
      await insertRoute(t.db, {
        id: 'hung-long',
        name: 'Hung channel, long timeout',
        adapter: 'sandbox',
        config: {
          baseUrl: `http://127.0.0.1:${(hung.address() as { port: number }).port}`,
          noticeUrl: 'http://127.0.0.1:1/notices/hung-long',
          timeoutMs: 20_000,
        },
        credentialsRef: 'SANDBOX_API_KEY',
        enabled: false,
        methods: [],
        payeeTypes: ['spei_transfer'],
        priority: 0,
        weight: 100,
        merchantScope: 'list',
        codeMap: {},
      });
      try {
        const transferNo = no('T');
        const answer = await submit(M_MAIN, transferNo);
        // The caller (transfers' reconciliation sweep) waits 5 s here: far less than the hung route's 20.
        expect(
          await call(t.client, t.client.QueryPayout, unrecorded(transferNo), { timeoutMs: 5_000 }),
        ).toMatchObject({
          status: expect.stringMatching(/^(progress|success)$/),
          route_id: 'sandbox-default',
          upstream_ref: answer.upstream_ref,
        });
      } finally {
        await t.db.deleteFrom('routes').where('id', '=', 'hung-long').execute();
        hung.closeAllConnections();
        await new Promise((resolve) => hung.close(resolve));
      }
    });

    it('answers UPSTREAM_UNAVAILABLE, not fail, while some payout route cannot be asked', async () => {
      // dead-first refuses connections and slow-first never answers: either might hold it.
      const err = await rejection(call(t.client, t.client.QueryPayout, unrecorded(no('T'))));
      expect(err.codeName).toBe('UPSTREAM_UNAVAILABLE');
    });

    it('answers fail once every payout route says it never took the payout', async () => {
      const others = ['dead-first', 'slow-first'];
      const saved = await t.db
        .selectFrom('routes')
        .select(['id', 'payee_types'])
        .where('id', 'in', others)
        .execute();
      await t.db.updateTable('routes').set({ payee_types: [] }).where('id', 'in', others).execute();
      try {
        expect(await call(t.client, t.client.QueryPayout, unrecorded(no('T')))).toMatchObject({
          status: 'fail',
          route_id: '',
        });
      } finally {
        for (const route of saved)
          await t.db
            .updateTable('routes')
            .set({ payee_types: route.payee_types })
            .where('id', '=', route.id)
            .execute();
      }
    });
  });
});
