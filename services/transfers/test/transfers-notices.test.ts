import { randomUUID } from 'node:crypto';
import {
  ackedThrough,
  connectNats,
  type NatsConnection,
  noticeSubject,
  publishEvent,
} from '@agentpay/messaging';
import { call, type NoticeReceived, type PayoutNotice } from '@agentpay/proto';
import { type Clock, createTestClock } from '@agentpay/runtime';
import { natsUrl, waitFor } from '@agentpay/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePayoutNotice } from '../src/notices/notice.consumer.js';
import { toTransfer } from '../src/transfers/transfer.mapper.js';
import type { UpstreamOutcome } from '../src/transfers/transfer.state-machine.js';
import { codeOf, merchant, opts, useTransfers } from './support/transfers.js';

// What upstream reports about a payout: notices applied by the use case and consumed from the stream, and
// the SPEI tracking key they (and the other answers) carry.

const t = useTransfers();
const { router, subjectPrefix, stream, transferRequest, create, eventsOf, directService } = t;

/** A payout notice applied straight through a service's use case, answered as GetTransfer shows it. */
const applyThrough = (
  service: ReturnType<typeof directService>['direct'],
  transferNo: string,
  status: UpstreamOutcome,
  extra: { finished_at?: string; notice_id?: string; clave_rastreo?: string } = {},
) =>
  service
    .applyNotice({
      transferNo,
      status,
      finishedAt: extra.finished_at ? new Date(extra.finished_at) : undefined,
      noticeId: extra.notice_id ?? '',
      claveRastreo: extra.clave_rastreo ?? '',
      traceparent: '',
    })
    .then(({ transfer, changed }) => ({ transfer: toTransfer(transfer), changed }));

describe('payout notices, applied by the use case', () => {
  let direct: ReturnType<typeof directService>;
  beforeAll(() => {
    direct = directService();
  });
  afterAll(() => direct?.stubRouter.close());
  const apply = (
    transferNo: string,
    status: UpstreamOutcome,
    extra: { finished_at?: string; notice_id?: string; clave_rastreo?: string } = {},
  ) => applyThrough(direct.direct, transferNo, status, extra);

  it('moves progress to success once, with one event carrying the transfer as GetTransfer returns it', async () => {
    const { transfer } = await create(transferRequest());
    const finishedAt = new Date(Date.now() - 1_000).toISOString();
    const first = await apply(transfer!.transfer_no, 'success', { finished_at: finishedAt, notice_id: 'n1' });
    const repeat = await apply(transfer!.transfer_no, 'success', { notice_id: 'n1' });
    expect(first).toMatchObject({ changed: true, transfer: { status: 'success', version: '2' } });
    expect(first.transfer!.finish_time).toBe(finishedAt);
    expect(repeat).toEqual({ ...first, changed: false });

    const current = await call(
      t.client,
      t.client.GetTransfer,
      { merchant: merchant(), transfer_no: transfer!.transfer_no },
      opts,
    );
    const events = await eventsOf(transfer!.transfer_no);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'transfer',
      mch_no: 'M1',
      app_id: 'app1',
      order_no: transfer!.transfer_no,
      from_status: 'progress',
      to_status: 'success',
      version: '2',
      notify_url: 'http://127.0.0.1:9/notify',
    });
    expect(events[0]!.transfer).toEqual(current);
    expect(events[0]!.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });

  it('teaches a transfer whose submission answer was lost the route its notice came on, before the change', async () => {
    const { transfer } = await create(transferRequest());
    const transferNo = transfer!.transfer_no;
    await sql`update transfers set route_id = null, upstream_ref = null where transfer_no = ${transferNo}`.execute(
      t.db,
    );
    const { transfer: after } = await direct.direct.applyNotice({
      transferNo,
      status: 'success',
      finishedAt: undefined,
      noticeId: 'n-route',
      claveRastreo: '',
      routeId: 'route-b',
      upstreamRef: 'up-b',
      traceparent: '',
    });
    expect(after).toMatchObject({ status: 'success', route_id: 'route-b', upstream_ref: 'up-b' });
    const [event] = await eventsOf(transferNo);
    expect(event).toMatchObject({ to_status: 'success', route_id: 'route-b' });
    // A route already recorded is never changed by a notice.
    await direct.direct.applyNotice({
      transferNo,
      status: 'returned',
      finishedAt: undefined,
      noticeId: 'n-route-2',
      claveRastreo: '',
      routeId: 'route-c',
      upstreamRef: 'up-c',
      traceparent: '',
    });
    const row = await t.db
      .selectFrom('transfers')
      .selectAll()
      .where('transfer_no', '=', transferNo)
      .executeTakeFirst();
    expect(row).toMatchObject({ route_id: 'route-b', status: 'close' });
  });

  it('moves progress to fail', async () => {
    const { transfer } = await create(transferRequest());
    expect(await apply(transfer!.transfer_no, 'fail')).toMatchObject({
      changed: true,
      transfer: { status: 'fail' },
    });
    expect((await eventsOf(transfer!.transfer_no)).map((e) => e.to_status)).toEqual(['fail']);
  });

  it('closes a successful transfer that is returned, with its own event', async () => {
    const { transfer } = await create(transferRequest());
    await apply(transfer!.transfer_no, 'success');
    const returned = await apply(transfer!.transfer_no, 'returned');
    expect(returned).toMatchObject({ changed: true, transfer: { status: 'close', version: '3' } });
    expect((await apply(transfer!.transfer_no, 'returned')).changed).toBe(false);
    const events = await eventsOf(transfer!.transfer_no);
    expect(events.map((e) => [e.from_status, e.to_status, e.version])).toEqual([
      ['progress', 'success', '2'],
      ['success', 'close', '3'],
    ]);
  });

  it('takes a return reported while still in progress as success then close: two events', async () => {
    const { transfer } = await create(transferRequest());
    const returned = await apply(transfer!.transfer_no, 'returned');
    expect(returned).toMatchObject({ changed: true, transfer: { status: 'close', version: '3' } });
    const events = await eventsOf(transfer!.transfer_no);
    expect(events.map((e) => [e.from_status, e.to_status])).toEqual([
      ['progress', 'success'],
      ['success', 'close'],
    ]);
    expect(events[0]!.transfer?.status).toBe('success');
    expect(events[1]!.transfer?.status).toBe('close');
  });

  it('ignores an outcome that contradicts a final status and answers OK', async () => {
    const { transfer } = await create(transferRequest());
    await apply(transfer!.transfer_no, 'fail');
    expect(await apply(transfer!.transfer_no, 'success')).toMatchObject({
      changed: false,
      transfer: { status: 'fail' },
    });
    expect(await apply(transfer!.transfer_no, 'returned')).toMatchObject({ changed: false });
    expect(await eventsOf(transfer!.transfer_no)).toHaveLength(1);
  });

  it('applies concurrent duplicate notices once', async () => {
    const { transfer } = await create(transferRequest());
    const results = await Promise.all(
      Array.from({ length: 6 }, () => apply(transfer!.transfer_no, 'success')),
    );
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    expect(await eventsOf(transfer!.transfer_no)).toHaveLength(1);
  });

  it('waits for a submission in flight before applying its outcome', async () => {
    let release = () => {};
    router.onSubmit = (req) =>
      new Promise((resolve) => {
        release = () => resolve({ route_id: 'route-a', status: 'progress', upstream_ref: req.transfer_no });
      });
    // The notice's service waits on this clock, which records each wait: the race is proven only when the
    // notice is seen waiting on the transfer while the router still holds its submission.
    const clock = createTestClock();
    let waits = 0;
    const observed: Clock = {
      now: () => clock.now(),
      sleep: (ms) => {
        waits++;
        return clock.sleep(ms);
      },
    };
    const racing = directService(observed);
    try {
      const creating = create(transferRequest());
      const { transfer_no: transferNo } = await waitFor(() => router.submits[0]);
      const applying = applyThrough(racing.direct, transferNo, 'success');
      await waitFor(() => waits > 0, { message: 'the notice waiting on the submission in flight' });
      release();
      const [created, applied] = await Promise.all([creating, applying]);
      expect(created.transfer!.status).toBe('progress');
      expect(applied).toMatchObject({ changed: true, transfer: { status: 'success' } });
    } finally {
      racing.stubRouter.close();
    }
  });

  it('answers TRANSFER_NOT_FOUND for an unknown transfer, and reads no notice with an unknown status', async () => {
    expect(await codeOf(apply('T0000', 'success'))).toBe('TRANSFER_NOT_FOUND');
    const { transfer } = await create(transferRequest());
    const event = (status: string) =>
      JSON.stringify({ notice_id: 'n', payout: { transfer_no: transfer!.transfer_no, status } });
    expect(decodePayoutNotice(event('paid'))).toBeUndefined();
    expect(decodePayoutNotice(event('returned'))).toMatchObject({
      status: 'returned',
      finishedAt: undefined,
      claveRastreo: '',
    });
  });
});

describe('payout notices, consumed from the stream', () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connectNats(await natsUrl(), { name: 'transfers-test' });
  });
  afterAll(() => nc?.close());

  /** Publishes a payout notice as the router does; resolves once transfers applied (or dropped) it. */
  async function notify(payout: PayoutNotice, noticeId = 'n1'): Promise<void> {
    const event: NoticeReceived & { event_id: string } = {
      event_id: randomUUID(),
      notice_id: noticeId,
      received_at: new Date().toISOString(),
      traceparent: '',
      notice: 'payout',
      payout,
    };
    const seq = await publishEvent(nc, noticeSubject(subjectPrefix, 'payout'), event);
    await waitFor(async () => (await ackedThrough(nc, stream, 'transfers-notices')) >= seq);
  }

  async function dropped(reason: string): Promise<number> {
    const text = await (await fetch(`http://127.0.0.1:${t.service.metricsPort}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith('notices_dropped_total{') && l.includes(`reason="${reason}"`));
    return Number(line?.split(' ').at(-1) ?? 0);
  }

  it('applies a returned payout once, however often its notice is delivered', async () => {
    const { transfer } = await create(transferRequest());
    await notify({ transfer_no: transfer!.transfer_no, status: 'returned' });
    await notify({ transfer_no: transfer!.transfer_no, status: 'returned' });
    const events = await eventsOf(transfer!.transfer_no);
    expect(events.map((e) => [e.from_status, e.to_status])).toEqual([
      ['progress', 'success'],
      ['success', 'close'],
    ]);
  });

  it("stores the payout's tracking key a notice carries, shown by GetTransfer and the status event", async () => {
    const { transfer } = await create(transferRequest());
    await notify(
      { transfer_no: transfer!.transfer_no, status: 'success', clave_rastreo: 'AGPSTREAM000000001' },
      'n-key',
    );
    const current = await call(
      t.client,
      t.client.GetTransfer,
      { merchant: merchant(), transfer_no: transfer!.transfer_no },
      opts,
    );
    expect(current).toMatchObject({ status: 'success', clave_rastreo: 'AGPSTREAM000000001' });
    const [event] = await eventsOf(transfer!.transfer_no);
    expect(event!.transfer).toEqual(current);
  });

  it('drops a notice for an unknown transfer after a few tries, and one it cannot read at once', async () => {
    const [unknown, unreadable] = [await dropped('unknown_target'), await dropped('unreadable')];
    await notify({ transfer_no: 'T0000', status: 'success' });
    await notify({ transfer_no: 'T0001', status: 'paid' });
    expect(await dropped('unknown_target')).toBe(unknown + 1);
    expect(await dropped('unreadable')).toBe(unreadable + 1);
  });
});

describe('the SPEI tracking key (claveRastreo)', () => {
  let direct: ReturnType<typeof directService>;
  beforeAll(() => {
    direct = directService();
  });
  afterAll(() => direct?.stubRouter.close());
  const notice = (transferNo: string, status: UpstreamOutcome, claveRastreo = '') =>
    direct.direct.applyNotice({
      transferNo,
      status,
      finishedAt: undefined,
      noticeId: '',
      claveRastreo,
      traceparent: '',
    });
  const get = (transferNo: string) =>
    call(t.client, t.client.GetTransfer, { merchant: merchant(), transfer_no: transferNo }, opts);

  it('shows the key the submission answer carried in the create answer, the query and later events', async () => {
    router.onSubmit = async () => ({
      route_id: 'route-a',
      status: 'progress',
      upstream_ref: 'up-k',
      clave_rastreo: 'AGPSUBMIT000000001',
    });
    const { transfer } = await create(transferRequest());
    expect(transfer).toMatchObject({ status: 'progress', clave_rastreo: 'AGPSUBMIT000000001' });
    expect(await get(transfer!.transfer_no)).toEqual(transfer);
    // The success notice says nothing of the key: the event still shows it.
    await notice(transfer!.transfer_no, 'success');
    const [event] = await eventsOf(transfer!.transfer_no);
    expect(event!.transfer).toMatchObject({ status: 'success', clave_rastreo: 'AGPSUBMIT000000001' });
  });

  it('shows the key of a synchronously rejected payout', async () => {
    router.onSubmit = async () => ({
      route_id: 'route-a',
      status: 'fail',
      upstream_ref: 'up-r',
      clave_rastreo: 'AGPREJECT000000001',
    });
    const { transfer } = await create(transferRequest());
    expect(transfer).toMatchObject({ status: 'fail', clave_rastreo: 'AGPREJECT000000001' });
  });

  it('takes the key from a notice into the status event, and a later notice without one keeps it', async () => {
    const { transfer } = await create(transferRequest());
    expect(transfer!.clave_rastreo).toBe('');
    const transferNo = transfer!.transfer_no;
    await notice(transferNo, 'success', 'AGPNOTICE000000001');
    await notice(transferNo, 'returned');
    const events = await eventsOf(transferNo);
    expect(events.map((e) => [e.to_status, e.transfer?.clave_rastreo])).toEqual([
      ['success', 'AGPNOTICE000000001'],
      ['close', 'AGPNOTICE000000001'],
    ]);
    expect(await get(transferNo)).toMatchObject({ status: 'close', clave_rastreo: 'AGPNOTICE000000001' });
  });

  it('records a key a repeated notice brings without an event, and keeps the first key against another', async () => {
    const { transfer } = await create(transferRequest());
    const transferNo = transfer!.transfer_no;
    await notice(transferNo, 'success');
    const repeat = await notice(transferNo, 'success', 'AGPLATE0000000001');
    expect(repeat.changed).toBe(false);
    expect(repeat.transfer.clave_rastreo).toBe('AGPLATE0000000001');
    await notice(transferNo, 'success', 'AGPOTHER000000001');
    expect(await get(transferNo)).toMatchObject({ version: '2', clave_rastreo: 'AGPLATE0000000001' });
    expect(await eventsOf(transferNo)).toHaveLength(1);
  });

  it('takes the key from a reconciliation query, while the payout is in flight and when it finished', async () => {
    const { transfer } = await create(transferRequest());
    const transferNo = transfer!.transfer_no;
    const backdate = () =>
      sql`update transfers set updated_at = now() - interval '10 minutes', checked_at = null
        where transfer_no = ${transferNo}`.execute(t.db);
    try {
      await backdate();
      router.onQuery = async (ref) =>
        ref.transfer_no === transferNo
          ? { status: 'progress', finished_at: '', clave_rastreo: 'AGPQUERY000000001' }
          : { status: 'progress', finished_at: '' };
      await direct.direct.reconcileProgress(60_000);
      expect(await get(transferNo)).toMatchObject({
        status: 'progress',
        version: '1',
        clave_rastreo: 'AGPQUERY000000001',
      });
      expect(await eventsOf(transferNo)).toEqual([]);

      // The final answer without the key: the transfer keeps it, and its event shows it.
      await backdate();
      router.onQuery = async (ref) =>
        ref.transfer_no === transferNo
          ? { status: 'success', finished_at: '' }
          : { status: 'progress', finished_at: '' };
      await direct.direct.reconcileProgress(60_000);
      const [event] = await eventsOf(transferNo);
      expect(event!.transfer).toMatchObject({ status: 'success', clave_rastreo: 'AGPQUERY000000001' });
    } finally {
      router.onQuery = async () => ({ status: 'progress', finished_at: '' });
    }
  });
});
