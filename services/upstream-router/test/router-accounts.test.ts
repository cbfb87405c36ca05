import { createHmac, randomBytes } from 'node:crypto';
import { call } from '@agentpay/proto';
import { validateClabe } from '@agentpay/spei';
import { waitFor } from '@agentpay/testing';
import { describe, expect, it } from 'vitest';
import { M_MAIN, no, rejection, useRouterStack } from './support/router-stack.js';

// Virtual accounts through the router, and the notice endpoint the channel reports to.

const t = useRouterStack();
const { createVa, sandboxNotices, pay, outboxRows, postNotice } = t;

describe('virtual accounts', () => {
  it('opens a virtual account with a valid CLABE and the public bank code, on a recorded route', async () => {
    const orderNo = no('P');
    const va = await createVa(M_MAIN, orderNo);
    expect(validateClabe(va.clabe).ok).toBe(true);
    expect(va).toMatchObject({
      route_id: 'sandbox-default',
      bank_code: '90646',
      bank_name: 'STP',
      upstream_ref: expect.stringMatching(/.+/),
      reference: expect.stringMatching(/^\d+$/),
    });
    expect((await createVa(M_MAIN, orderNo)).clabe).toBe(va.clabe);
  });

  it('a deposit is published as one NoticeReceived event, even when the channel delivers the notice twice', async () => {
    const orderNo = no('P');
    const va = await createVa(M_MAIN, orderNo);
    await pay(va.clabe, 100.5);
    const [applied] = await waitFor(
      () => t.notices.payments(orderNo).length > 0 && t.notices.payments(orderNo),
    );
    expect(applied).toMatchObject({
      subject: `${t.notices.prefix}.notice.payment`,
      notice: 'payment',
      payment: {
        order_no: orderNo,
        status: 'success',
        paid_amount: '10050',
        paid_at: expect.stringMatching(/Z$/),
      },
    });
    expect(applied!.header.msgId).toBe(applied!.event_id);

    const notice = await waitFor(async () => {
      const [n] = await sandboxNotices(orderNo);
      return n?.deliveredAt ? n : undefined;
    });
    expect(applied!.notice_id).toBe(notice.noticeId);
    expect(
      (await fetch(`${t.sandboxUrl}/sandbox/notices/${notice.noticeId}/resend`, { method: 'POST' })).status,
    ).toBe(200);
    const row = await waitFor(async () => {
      const r = await t.db
        .selectFrom('upstream_notices')
        .selectAll()
        .where('notice_id', '=', notice.noticeId)
        .executeTakeFirst();
      return r && r.deliveries === 2 ? r : undefined;
    });
    expect(row.kind).toBe('payment');
    await waitFor(async () => (await sandboxNotices(orderNo))[0]?.deliveredAt);
    expect(await outboxRows(orderNo)).toHaveLength(1);
    expect(t.notices.payments(orderNo)).toHaveLength(1);
  });

  it('answers the channel once the notice and its event are committed, without waiting for anyone to apply it', async () => {
    const orderNo = no('P');
    const at = new Date().toISOString();
    const body = JSON.stringify({
      id: `ntc_${orderNo}`,
      type: 'virtual_account.paid',
      createdAt: at,
      data: { orderRef: orderNo, paidAmount: 700, paidAt: at },
    });
    const signature = createHmac('sha256', 'sandbox-notice-secret').update(body).digest('hex');
    const response = await postNotice('sandbox-default', body, signature);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ result: 'recorded' });
    // By the time the channel has its answer, the notice and its event are both in the database.
    const [row] = await t.db.selectFrom('upstream_notices').selectAll().where('ref', '=', orderNo).execute();
    expect(row).toMatchObject({ kind: 'payment', status: 'success', deliveries: 1 });
    const [event] = await outboxRows(orderNo);
    expect(event).toMatchObject({
      subject: `${t.notices.prefix}.notice.payment`,
      payload: {
        notice_id: `ntc_${orderNo}`,
        payment: { order_no: orderNo, status: 'success', paid_amount: '700' },
      },
    });
    const [published] = await waitFor(
      () => t.notices.payments(orderNo).length > 0 && t.notices.payments(orderNo),
    );
    expect(published!.event_id).toBe(event!.id);
  });

  it('queries and closes on the recorded route: paid stays success, open becomes close', async () => {
    const paidNo = no('P');
    const paid = await createVa(M_MAIN, paidNo, '300');
    await pay(paid.clabe, 3);
    const paidRef = { route_id: paid.route_id, order_no: paidNo, upstream_ref: paid.upstream_ref };
    expect(await call(t.client, t.client.QueryVirtualAccount, paidRef)).toMatchObject({
      status: 'success',
      paid_amount: '300',
    });
    expect((await call(t.client, t.client.CloseVirtualAccount, paidRef)).status).toBe('success');

    const openNo = no('P');
    const open = await createVa(M_MAIN, openNo, '300');
    const openRef = { route_id: open.route_id, order_no: openNo, upstream_ref: '' };
    expect(await call(t.client, t.client.QueryVirtualAccount, openRef)).toMatchObject({
      status: 'wait',
      paid_amount: '0',
    });
    expect((await call(t.client, t.client.CloseVirtualAccount, openRef)).status).toBe('close');
    expect((await call(t.client, t.client.QueryVirtualAccount, openRef)).status).toBe('close');
  });

  it('never reselects: a close or query on an unknown route is NO_UPSTREAM_ROUTE', async () => {
    const ref = { route_id: 'no-such-route', order_no: no('P'), upstream_ref: '' };
    expect((await rejection(call(t.client, t.client.QueryVirtualAccount, ref))).codeName).toBe(
      'NO_UPSTREAM_ROUTE',
    );
    expect((await rejection(call(t.client, t.client.CloseVirtualAccount, ref))).codeName).toBe(
      'NO_UPSTREAM_ROUTE',
    );
  });
});

describe('notice endpoint', () => {
  it('refuses a notice with a bad signature with 401 and applies nothing', async () => {
    const orderNo = no('P');
    const body = JSON.stringify({
      id: 'ntc_forged',
      type: 'virtual_account.paid',
      createdAt: new Date().toISOString(),
      data: { orderRef: orderNo, paidAmount: 100, paidAt: new Date().toISOString() },
    });
    const forged = createHmac('sha256', 'not-the-secret').update(body).digest('hex');
    expect((await postNotice('sandbox-default', body, forged)).status).toBe(401);
    expect((await postNotice('sandbox-default', body, '')).status).toBe(401);
    expect(await outboxRows(orderNo)).toEqual([]);
    expect(
      await t.db.selectFrom('upstream_notices').selectAll().where('ref', '=', orderNo).execute(),
    ).toEqual([]);
  });

  it('records a notice delivered several times at once exactly once, and acknowledges later repeats', async () => {
    const orderNo = no('P');
    const at = new Date().toISOString();
    const body = JSON.stringify({
      id: `ntc_${orderNo}`,
      type: 'virtual_account.paid',
      createdAt: at,
      data: { orderRef: orderNo, paidAmount: 100, paidAt: at },
    });
    const signature = createHmac('sha256', 'sandbox-notice-secret').update(body).digest('hex');
    const statuses = await Promise.all(
      Array.from({ length: 6 }, () => postNotice('sandbox-default', body, signature).then((r) => r.status)),
    );
    // Each delivery waits for the one that records it to commit, then is acknowledged as a repeat.
    expect(statuses).toEqual(Array.from({ length: 6 }, () => 200));
    expect((await postNotice('sandbox-default', body, signature)).status).toBe(200);
    const [row] = await t.db.selectFrom('upstream_notices').selectAll().where('ref', '=', orderNo).execute();
    expect(row?.deliveries).toBe(7);
    expect(await outboxRows(orderNo)).toHaveLength(1);
    await waitFor(() => t.notices.payments(orderNo).length > 0);
    expect(t.notices.payments(orderNo)).toHaveLength(1);
  });

  it("carries the channel's traceparent on the NoticeReceived event, or starts a trace when none came", async () => {
    const traceId = randomBytes(16).toString('hex');
    const signedNotice = (orderNo: string) => {
      const at = new Date().toISOString();
      const body = JSON.stringify({
        id: `ntc_${orderNo}`,
        type: 'virtual_account.paid',
        createdAt: at,
        data: { orderRef: orderNo, paidAmount: 100, paidAt: at },
      });
      return { body, signature: createHmac('sha256', 'sandbox-notice-secret').update(body).digest('hex') };
    };

    const traced = no('P');
    const first = signedNotice(traced);
    const response = await fetch(`${t.noticeUrl}/notices/sandbox-default`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-sandbox-signature': first.signature,
        traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
      },
      body: first.body,
    });
    expect(response.status).toBe(200);
    const [tracedEvent] = await waitFor(
      () => t.notices.payments(traced).length > 0 && t.notices.payments(traced),
    );
    expect(tracedEvent!.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(tracedEvent!.header.traceparent).toBe(tracedEvent!.traceparent);

    const untraced = no('P');
    const second = signedNotice(untraced);
    expect((await postNotice('sandbox-default', second.body, second.signature)).status).toBe(200);
    const [untracedEvent] = await waitFor(
      () => t.notices.payments(untraced).length > 0 && t.notices.payments(untraced),
    );
    const fresh = untracedEvent!.traceparent;
    expect(fresh).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(fresh).not.toContain(traceId);
    expect(fresh).not.toMatch(/^00-0{32}-/);
  });

  it('answers 404 for an unknown route and 400 for a signed notice it cannot read', async () => {
    const body = JSON.stringify({ id: 'ntc_odd', type: 'something.else', data: {} });
    const signature = createHmac('sha256', 'sandbox-notice-secret').update(body).digest('hex');
    expect((await postNotice('no-such-route', body, signature)).status).toBe(404);
    expect((await postNotice('sandbox-default', body, signature)).status).toBe(400);
  });
});
