import { call, type Discrepancy__Output } from '@agentpay/proto';
import { waitFor } from '@agentpay/testing';
import { formatWireTime } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookEvent } from '../src/events/status-changed.handler.js';
import { payEvent } from './support/events.js';
import { DAY, NOON, summary, useReconciliation } from './support/reconciliation.js';
import { line, statementKey } from './support/statement-router.js';

// A reconciliation run, resolving what it found, and the metrics of both (they read what the runs and
// resolutions above them left).

const t = useReconciliation();
const { deps, paid, transferred, run, discrepanciesOf, refusal, check } = t;

describe('a reconciliation run', () => {
  it('matches both ways and names each kind of discrepancy', async () => {
    const R = 'r-kinds';
    await paid('MR1', 'RK-P1', R, 10_000);
    await paid('MR1', 'RK-P2', R, 10_000);
    await paid('MR1', 'RK-P3', R, 10_000);
    await bookEvent(
      deps(),
      payEvent('MR1', 'RK-P5', { to: 'close', version: 3, routeId: R, amount: 10_000 }),
    );
    await bookEvent(deps(), payEvent('MR1', 'RK-P6', { to: 'wait', version: 1, routeId: R, amount: 10_000 }));
    await paid('MR1', 'RK-OTHER', 'r-other', 10_000);
    await transferred('MR2', 'RK-T1', R);
    await transferred('MR2', 'RK-T2', R);
    await transferred('MR2', 'RK-T3', R, { returned: true });
    t.router.statements.set(statementKey(R, DAY), {
      lines: [
        line({ kind: 'deposit', platform_ref: 'RK-P1', amount: 10_000, at: NOON }),
        line({ kind: 'deposit', platform_ref: 'RK-P2', amount: 9_000, at: NOON }),
        line({ kind: 'deposit', platform_ref: 'RK-P4', amount: 7_000, at: NOON }),
        line({ kind: 'deposit', platform_ref: 'RK-P5', amount: 10_000, at: NOON }),
        line({ kind: 'deposit', platform_ref: 'RK-P6', amount: 12_000, at: NOON }),
        line({
          kind: 'deposit',
          platform_ref: 'RK-P1',
          amount: 10_000,
          at: new Date(NOON.getTime() + 60_000),
        }),
        line({ kind: 'deposit', platform_ref: '', amount: 3_000, applied: false, at: NOON }),
        line({ kind: 'payout', platform_ref: 'RK-T1', amount: 5_000, at: NOON }),
        line({ kind: 'payout', platform_ref: 'RK-T2', amount: 4_000, at: NOON }),
        line({ kind: 'payout', platform_ref: 'RK-T9', amount: 2_000, at: NOON }),
        line({ kind: 'payout', platform_ref: 'RK-T3', amount: 5_000, at: NOON }),
        line({ kind: 'payout_return', platform_ref: 'RK-T3', amount: 5_000, at: NOON }),
      ],
    });

    const result = await run(R);
    expect(result.routes).toEqual([
      {
        route_id: R,
        state: 'succeeded',
        lines: '12',
        matched: '4',
        pending: '0',
        discrepancies: '9',
        returned: '0',
        error: '',
      },
    ]);
    const found = await discrepanciesOf(R);
    expect(summary(found)).toEqual(
      [
        'amount_mismatch:deposit:RK-P2:9000',
        'amount_mismatch:payout:RK-T2:4000',
        'missing_on_channel:deposit:RK-P3:10000',
        'missing_on_platform:deposit:RK-P4:7000',
        'missing_on_platform:payout:RK-T9:2000',
        'unmatched_deposit:deposit::3000',
        'unmatched_deposit:deposit:RK-P1:10000',
        'unmatched_deposit:deposit:RK-P5:10000',
        'unmatched_deposit:deposit:RK-P6:12000',
      ].sort(),
    );
    for (const d of found)
      expect(d).toMatchObject({ state: 'open', day: DAY, route_id: R, resolution_action: '' });
    // A deposit's platform side names the order its virtual account belongs to.
    const unknownOrder = found.find((d) => d.kind === 'missing_on_platform' && d.order_no === 'RK-P4');
    expect(JSON.parse(unknownOrder?.platform_json ?? '{}')).toEqual({ kind: 'deposit', orderNo: 'RK-P4' });
    const closed = found.find((d) => d.kind === 'unmatched_deposit' && d.order_no === 'RK-P5');
    expect(closed).toMatchObject({ mch_no: 'MR1' });
    expect(JSON.parse(closed?.platform_json ?? '{}')).toMatchObject({
      orderNo: 'RK-P5',
      mchNo: 'MR1',
      status: 'close',
    });
    // The unmatched money is on the books (clearing -, unmatched +) and the books still check out.
    const unmatched = await t.db
      .selectFrom('accounts')
      .select('balance')
      .where('id', '=', `unmatched:${R}`)
      .executeTakeFirst();
    expect(unmatched?.balance).toBe(3_000 + 10_000 + 10_000 + 12_000);
    expect(await check()).toMatchObject({ ok: true, problems: [] });
    const runs = await t.db.selectFrom('recon_runs').selectAll().where('route_id', '=', R).execute();
    expect(runs).toMatchObject([
      { status: 'succeeded', lines: 12, matched: 4, pending: 0, discrepancies: 9 },
    ]);
  });

  it('counts a deposit the channel sent back on arrival as returned, never as a discrepancy', async () => {
    const R = 'r-returned';
    await paid('MR1', 'RT-P1', R, 10_000);
    t.router.statements.set(statementKey(R, DAY), {
      lines: [
        line({ kind: 'deposit', platform_ref: 'RT-P1', amount: 10_000, at: NOON }),
        // Refused on arrival (a paid order's CLABE, an unknown one): the channel sent them straight back.
        line({ kind: 'deposit_returned', platform_ref: '', amount: 10_000, applied: false, at: NOON }),
        line({ kind: 'deposit_returned', platform_ref: '', amount: 4_321, applied: false, at: NOON }),
      ],
    });
    const result = await run(R);
    expect(result.routes).toEqual([
      {
        route_id: R,
        state: 'succeeded',
        lines: '3',
        matched: '1',
        pending: '0',
        discrepancies: '0',
        returned: '2',
        error: '',
      },
    ]);
    expect(await discrepanciesOf(R)).toEqual([]);
    // No money stayed: nothing recognised as unmatched, and the books check out.
    const unmatched = await t.db
      .selectFrom('accounts')
      .select('balance')
      .where('id', '=', `unmatched:${R}`)
      .executeTakeFirst();
    expect(unmatched?.balance ?? 0).toBe(0);
    expect(await check()).toMatchObject({ ok: true, problems: [] });
    const runs = await t.db.selectFrom('recon_runs').selectAll().where('route_id', '=', R).execute();
    expect(runs).toMatchObject([
      { status: 'succeeded', lines: 3, matched: 1, discrepancies: 0, returned: 2 },
    ]);
  });

  it('counts lines and movements within RECON_GRACE_MS as pending, not discrepancies', async () => {
    const R = 'r-grace';
    const now = new Date();
    const today = formatWireTime(now, 'America/Mexico_City').slice(0, 10);
    await paid('MR3', 'RG-P1', R, 10_000, now);
    t.router.statements.set(statementKey(R, today), {
      lines: [line({ kind: 'deposit', platform_ref: 'RG-P9', amount: 5_000, at: now })],
    });
    const result = await run(R, today);
    expect(result.routes).toEqual([
      {
        route_id: R,
        state: 'succeeded',
        lines: '1',
        matched: '0',
        pending: '2',
        discrepancies: '0',
        returned: '0',
        error: '',
      },
    ]);
    expect(await discrepanciesOf(R)).toEqual([]);
  });

  it('judges a movement near midnight once both days are stored, in whichever order the days run', async () => {
    const NEXT = '2026-11-21';
    /** 00:00 in Mexico City on NEXT. */
    const MIDNIGHT = new Date(`${NEXT}T06:00:00Z`);
    const at = (ms: number) => new Date(MIDNIGHT.getTime() + ms);
    for (const [R, order] of [
      ['r-edge-a', [DAY, NEXT]],
      ['r-edge-b', [NEXT, DAY]],
    ] as const) {
      // The platform heard of E1 just after midnight; the channel dated it 4 s before. E2 the other way round.
      // E3 the platform paid a second before midnight and the channel never had it.
      await paid('MRE', `${R}-E1`, R, 10_000, at(300));
      await paid('MRE', `${R}-E2`, R, 10_000, at(-200));
      await paid('MRE', `${R}-E3`, R, 10_000, at(-1_000));
      t.router.statements.set(statementKey(R, DAY), {
        lines: [line({ kind: 'deposit', platform_ref: `${R}-E1`, amount: 10_000, at: at(-4_000) })],
      });
      t.router.statements.set(statementKey(R, NEXT), {
        lines: [line({ kind: 'deposit', platform_ref: `${R}-E2`, amount: 10_000, at: at(1_000) })],
      });
      // The first day run cannot tell yet: the movements near its midnight wait for the other statement.
      const first = (await run(R, order[0])).routes[0]!;
      expect(first.discrepancies).toBe('0');
      // The second completes the pair: only E3 is missing, on its own day, whichever day ran first.
      await run(R, order[1]);
      expect(summary(await discrepanciesOf(R, DAY))).toEqual([`missing_on_channel:deposit:${R}-E3:10000`]);
      expect(await discrepanciesOf(R, NEXT)).toEqual([]);
      // Running either day again adds nothing.
      await run(R, order[0]);
      await run(R, order[1]);
      expect(await discrepanciesOf(R, DAY)).toHaveLength(1);
    }
  });

  it('matches a line naming a movement the platform recorded under another route or none', async () => {
    const R = 'r-cross';
    await paid('MR6', 'RX-P1', '', 10_000);
    await paid('MR6', 'RX-P2', 'r-cross-other', 10_000);
    t.router.statements.set(statementKey(R, DAY), {
      lines: [
        line({ kind: 'deposit', platform_ref: 'RX-P1', amount: 10_000, at: NOON }),
        line({ kind: 'deposit', platform_ref: 'RX-P2', amount: 10_000, at: NOON }),
      ],
    });
    const result = await run(R);
    expect(result.routes).toEqual([
      {
        route_id: R,
        state: 'succeeded',
        lines: '2',
        matched: '2',
        pending: '0',
        discrepancies: '0',
        returned: '0',
        error: '',
      },
    ]);
    // The other route's day does not call its pay-in missing: a line on some route names it.
    t.router.statements.set(statementKey('r-cross-other', DAY), { lines: [] });
    expect((await run('r-cross-other')).routes[0]).toMatchObject({ lines: '0', discrepancies: '0' });
  });

  it('running a day again adds nothing and leaves a resolved discrepancy resolved', async () => {
    const R = 'r-rerun';
    await paid('MR4', 'RR-P1', R, 10_000);
    t.router.statements.set(statementKey(R, DAY), {
      lines: [
        line({ kind: 'deposit', platform_ref: 'RR-P9', amount: 5_000, at: NOON }),
        line({ kind: 'deposit', platform_ref: '', amount: 2_000, applied: false, at: NOON }),
      ],
    });
    await run(R);
    const first = await discrepanciesOf(R);
    expect(first).toHaveLength(3);
    const missing = first.find((d) => d.kind === 'missing_on_platform');
    await call(t.client, t.client.ResolveDiscrepancy, {
      id: missing?.id ?? '',
      action: 'apply',
      reason: 'synced the order',
      operator: 'ops@example.com',
      mch_no: '',
    });
    const again = await run(R);
    expect(again.routes[0]).toMatchObject({ lines: '2', discrepancies: '3' });
    const second = await discrepanciesOf(R);
    expect(second.map((d) => d.id).sort()).toEqual(first.map((d) => d.id).sort());
    expect(second.find((d) => d.id === missing?.id)).toMatchObject({
      state: 'resolved',
      resolution_action: 'apply',
      resolution_operator: 'ops@example.com',
      resolution_reason: 'synced the order',
    });
    // The unmatched deposit was recognised once, however often the day runs.
    const entries = await t.db
      .selectFrom('entries')
      .select('key')
      .where('type', '=', 'unmatched_in')
      .execute();
    const unmatched = second.find((d) => d.kind === 'unmatched_deposit');
    expect(entries.filter((e) => e.key === `unmatched_in:${unmatched?.id}`)).toHaveLength(1);
  });

  it('a statement that fails mid-way leaves the run failed and stores nothing of that day', async () => {
    const R = 'r-broken';
    t.router.statements.set(statementKey(R, DAY), {
      lines: () =>
        Array.from({ length: 2_500 }, (_, i) =>
          line({ kind: 'deposit', platform_ref: '', amount: 100 + i, applied: false, at: NOON }),
        ),
      failAfter: 1_500,
    });
    const answer = await run(R);
    expect(answer.routes).toEqual([
      expect.objectContaining({
        route_id: R,
        state: 'failed',
        error: 'the router did not answer (service unavailable)',
      }),
    ]);
    const runs = await t.db.selectFrom('recon_runs').selectAll().where('route_id', '=', R).execute();
    expect(runs).toMatchObject([{ status: 'failed', lines: 0, discrepancies: 0 }]);
    expect(runs[0]?.finished_at).not.toBeNull();
    expect(runs[0]?.error).toBe(answer.routes[0]?.error);
    const lines = await t.db
      .selectFrom('statement_lines')
      .select('reference')
      .where('route_id', '=', R)
      .execute();
    expect(lines).toEqual([]);
    expect(await discrepanciesOf(R)).toEqual([]);
  });

  it('a statement of 20,000 lines runs, inserted in batches', async () => {
    const R = 'r-big';
    // A day of its own, so the other tests' listings of DAY stay short.
    const day = '2026-11-18';
    const at = new Date(`${day}T18:00:00Z`);
    await paid('MR5', 'RB-P1', R, 10_000, at);
    t.router.statements.set(statementKey(R, day), {
      lines: function* () {
        yield line({ kind: 'deposit', platform_ref: 'RB-P1', amount: 10_000, at });
        for (let i = 1; i < 20_000; i++)
          yield line({ kind: 'payout', platform_ref: `RB-T${i}`, amount: i, at });
      },
    });
    const result = await run(R, day);
    expect(result.routes).toEqual([
      {
        route_id: R,
        state: 'succeeded',
        lines: '20000',
        matched: '1',
        pending: '0',
        discrepancies: '19999',
        returned: '0',
        error: '',
      },
    ]);
    const stored = await t.db
      .selectFrom('statement_lines')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('route_id', '=', R)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(20_000);
  });

  it('with no route runs every route the router lists', async () => {
    t.router.routes = ['r-all-1', 'r-all-2'];
    for (const R of t.router.routes) {
      t.router.statements.set(statementKey(R, DAY), {
        lines: [line({ kind: 'deposit', platform_ref: '', amount: 1, applied: false, at: NOON })],
      });
    }
    const result = await run('');
    expect(result.routes.map((r) => [r.route_id, r.lines, r.discrepancies])).toEqual([
      ['r-all-1', '1', '1'],
      ['r-all-2', '1', '1'],
    ]);
  });

  it('with no route, a route whose channel fails is named failed and every other route still runs', async () => {
    t.router.routes = ['r-some-1', 'r-some-down', 'r-some-2'];
    for (const R of ['r-some-1', 'r-some-2']) {
      t.router.statements.set(statementKey(R, DAY), {
        lines: [line({ kind: 'deposit', platform_ref: '', amount: 2, applied: false, at: NOON })],
      });
    }
    t.router.statements.set(statementKey('r-some-down', DAY), { lines: [], failAfter: 0 });
    const result = await run('');
    expect(result.routes.map((r) => [r.route_id, r.state, r.lines, r.discrepancies, r.error])).toEqual([
      ['r-some-1', 'succeeded', '1', '1', ''],
      ['r-some-down', 'failed', '0', '0', 'the router did not answer (service unavailable)'],
      ['r-some-2', 'succeeded', '1', '1', ''],
    ]);
    const stored = await t.db
      .selectFrom('recon_runs')
      .select(['route_id', 'status'])
      .where('route_id', 'like', 'r-some-%')
      .orderBy('route_id')
      .execute();
    expect(stored).toEqual([
      { route_id: 'r-some-1', status: 'succeeded' },
      { route_id: 'r-some-2', status: 'succeeded' },
      { route_id: 'r-some-down', status: 'failed' },
    ]);
  });

  it('refuses a malformed day', async () => {
    const refused = await refusal('RunReconciliation', { day: '2026-13-01', route_id: 'x' });
    expect(refused).toMatchObject({ code: grpc.status.INVALID_ARGUMENT, appCode: 'INVALID_PARAMETER' });
  });
});

describe('resolutions', () => {
  const R = 'r-resolve';
  let found: Discrepancy__Output[] = [];
  const byAmount = (amount: number) => {
    const d = found.find((x) => x.amount === String(amount));
    if (!d) throw new Error(`no discrepancy of ${amount}`);
    return d;
  };
  const resolve = (id: string, action: string, mchNo = '') =>
    call(t.client, t.client.ResolveDiscrepancy, {
      id,
      action,
      reason: `because ${action}`,
      operator: 'ana@ops',
      mch_no: mchNo,
    });
  const balance = async (account: string) =>
    (await t.db.selectFrom('accounts').select('balance').where('id', '=', account).executeTakeFirst())
      ?.balance ?? 0;

  beforeAll(async () => {
    await bookEvent(
      deps(),
      payEvent('MR9', 'RS-P1', { to: 'close', version: 3, routeId: R, amount: 50_000 }),
    );
    await paid('MR9', 'RS-P2', R, 10_000);
    t.router.statements.set(statementKey(R, DAY), {
      lines: [1_001, 1_002, 1_003, 1_004, 1_005].map((amount) =>
        line({
          kind: 'deposit',
          platform_ref: 'RS-P1',
          amount,
          at: NOON,
          sender_account: `01218000123456789${amount % 10}`,
          sender_name: 'Juan Pagador',
        }),
      ),
    });
    await run(R);
    found = await discrepanciesOf(R);
    expect(found).toHaveLength(6);
  });

  it('refuses an action that does not fit the kind with INVALID_ARGUMENT, and an unknown id with NOT_FOUND', async () => {
    const missing = found.find((d) => d.kind === 'missing_on_channel');
    for (const [id, action] of [
      [missing?.id, 'credit'],
      [missing?.id, 'return'],
      [missing?.id, 'apply'],
      [byAmount(1_001).id, 'apply'],
      [byAmount(1_001).id, 'refund'],
    ]) {
      const refused = await refusal('ResolveDiscrepancy', {
        id,
        action,
        reason: 'r',
        operator: 'o',
        mch_no: '',
      });
      expect(refused).toMatchObject({ code: grpc.status.INVALID_ARGUMENT, appCode: 'INVALID_PARAMETER' });
    }
    for (const id of ['999999', 'does-not-exist']) {
      expect(await refusal('GetDiscrepancy', { id })).toMatchObject({
        code: grpc.status.NOT_FOUND,
        appCode: 'NOT_FOUND',
      });
      expect(
        await refusal('ResolveDiscrepancy', { id, action: 'credit', reason: 'r', operator: 'o', mch_no: '' }),
      ).toMatchObject({ code: grpc.status.NOT_FOUND, appCode: 'NOT_FOUND' });
    }
    // The action is judged first: a malformed request is INVALID_ARGUMENT whatever id it names.
    expect(
      await refusal('ResolveDiscrepancy', {
        id: 'x',
        action: 'forgive',
        reason: 'r',
        operator: 'o',
        mch_no: '',
      }),
    ).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    const after = await call(t.client, t.client.GetDiscrepancy, { id: byAmount(1_001).id });
    expect(after).toMatchObject({ state: 'open', resolution_action: '' });
  });

  it("credit books a balanced adjust for the order's merchant citing the discrepancy; the books check out", async () => {
    const d = byAmount(1_001);
    const before = await t.ledger.ledger.balance('MR9');
    const unmatchedBefore = await balance(`unmatched:${R}`);
    const resolved = await resolve(d.id, 'credit');
    expect(resolved).toMatchObject({
      state: 'resolved',
      resolution_action: 'credit',
      resolution_operator: 'ana@ops',
      resolution_reason: 'because credit',
      mch_no: 'MR9',
    });
    expect(resolved.resolved_at).not.toBe('');
    expect((await t.ledger.ledger.balance('MR9')).available).toBe(before.available + 1_001);
    expect(await balance(`unmatched:${R}`)).toBe(unmatchedBefore - 1_001);
    const entry = await t.db
      .selectFrom('entries')
      .selectAll()
      .where('id', '=', Number(resolved.resolution_ref))
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      type: 'adjust',
      mch_no: 'MR9',
      order_no: 'RS-P1',
      amount: 1_001,
      available_change: 1_001,
    });
    expect(entry.remark).toContain(`discrepancy ${d.id}`);
    expect(await check()).toMatchObject({ ok: true, problems: [] });
  });

  it('a second resolution answers FAILED_PRECONDITION / ALREADY_RESOLVED and books nothing', async () => {
    const d = byAmount(1_001);
    const entries = await t.db.selectFrom('entries').select('id').execute();
    for (const action of ['credit', 'return']) {
      const refused = await refusal('ResolveDiscrepancy', {
        id: d.id,
        action,
        reason: 'again',
        operator: 'bob',
        mch_no: '',
      });
      expect(refused).toMatchObject({ code: grpc.status.FAILED_PRECONDITION, appCode: 'ALREADY_RESOLVED' });
    }
    expect(await t.db.selectFrom('entries').select('id').execute()).toHaveLength(entries.length);
    expect(await call(t.client, t.client.GetDiscrepancy, { id: d.id })).toMatchObject({
      resolution_operator: 'ana@ops',
    });
  });

  it('two resolutions at once: one wins, the other is refused, one credit is booked', async () => {
    const d = byAmount(1_002);
    const results = await Promise.allSettled([
      resolve(d.id, 'credit'),
      resolve(d.id, 'credit'),
      resolve(d.id, 'return'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const credits = await t.db
      .selectFrom('entries')
      .select('id')
      .where('key', '=', `credit:${d.id}`)
      .execute();
    const returns = await t.db
      .selectFrom('entries')
      .select('id')
      .where('key', 'like', `unmatched_return:RET${d.id}A%`)
      .execute();
    expect(credits.length + returns.length).toBe(1);
    expect(await check()).toMatchObject({ ok: true, problems: [] });
  });

  it('return books the payout, submits it to the sender on the route, and marks it done when it succeeds', async () => {
    t.router.submitStatus = 'progress';
    const d = byAmount(1_003);
    const unmatchedBefore = await balance(`unmatched:${R}`);
    const resolved = await resolve(d.id, 'return');
    expect(resolved).toMatchObject({
      state: 'resolved',
      resolution_action: 'return',
      resolution_status: 'pending',
    });
    const payout = t.router.payouts.get(resolved.resolution_ref);
    expect(payout?.request).toMatchObject({
      mch_no: 'MR9',
      transfer_no: resolved.resolution_ref,
      amount: '1003',
      payee_type: 'spei_transfer',
      payee_account: '012180001234567893',
      payee_name: 'Juan Pagador',
    });
    expect(await balance(`unmatched:${R}`)).toBe(unmatchedBefore - 1_003);
    expect(await check()).toMatchObject({ ok: true, problems: [] });
    if (payout) payout.status = 'success';
    const done = await waitFor(
      async () => {
        const now = await call(t.client, t.client.GetDiscrepancy, { id: d.id });
        return now.resolution_status === 'success' ? now : undefined;
      },
      { message: 'the return payout succeeded' },
    );
    expect(done).toMatchObject({ state: 'resolved', resolution_action: 'return' });
    expect(await balance(`unmatched:${R}`)).toBe(unmatchedBefore - 1_003);
  });

  it('a failed return reverses its booking and opens the discrepancy again, so an operator can act', async () => {
    t.router.submitStatus = 'progress';
    const d = byAmount(1_004);
    const unmatchedBefore = await balance(`unmatched:${R}`);
    const resolved = await resolve(d.id, 'return');
    const payout = t.router.payouts.get(resolved.resolution_ref);
    if (payout) payout.status = 'fail';
    const reopened = await waitFor(
      async () => {
        const now = await call(t.client, t.client.GetDiscrepancy, { id: d.id });
        return now.state === 'open' ? now : undefined;
      },
      { message: 'the failed return reopened the discrepancy' },
    );
    expect(reopened).toMatchObject({ resolution_status: 'fail', resolution_ref: resolved.resolution_ref });
    expect(await balance(`unmatched:${R}`)).toBe(unmatchedBefore);
    const keys = (
      await t.db
        .selectFrom('entries')
        .select('key')
        .where('key', 'like', `%${resolved.resolution_ref}`)
        .execute()
    ).map((e) => e.key);
    expect(keys.sort()).toEqual([
      `unmatched_return:${resolved.resolution_ref}`,
      `unmatched_return_reversal:${resolved.resolution_ref}`,
    ]);
    expect(await check()).toMatchObject({ ok: true, problems: [] });
    // The operator credits it instead.
    expect(await resolve(d.id, 'credit')).toMatchObject({ state: 'resolved', resolution_action: 'credit' });
  });

  it('a return the router rejects at once is reversed at once', async () => {
    t.router.submitStatus = 'fail';
    const d = byAmount(1_005);
    const resolved = await resolve(d.id, 'return');
    expect(resolved).toMatchObject({ state: 'open', resolution_action: 'return', resolution_status: 'fail' });
    t.router.submitStatus = 'progress';
    const retried = await resolve(d.id, 'return');
    expect(retried).toMatchObject({ state: 'resolved', resolution_status: 'pending' });
    expect(retried.resolution_ref).not.toBe(resolved.resolution_ref);
    expect(await check()).toMatchObject({ ok: true, problems: [] });
  });
});

describe('metrics', () => {
  it("exports open discrepancies by kind and route, the oldest one's age and each route's last successful run", async () => {
    const text = await (await fetch(`http://127.0.0.1:${t.ledger.metricsPort}/metrics`)).text();
    // Every series also carries the registry's default label service="ledger".
    const value = (series: string) => {
      const name = series.includes('{')
        ? series.replace('}', ',service="ledger"}')
        : `${series}{service="ledger"}`;
      const row = text.split('\n').find((l) => l.startsWith(`${name} `));
      return row === undefined ? undefined : Number(row.slice(name.length + 1));
    };
    // From the first test: r-kinds has two amount mismatches and four unmatched deposits, all still open.
    expect(value('ledger_recon_open_discrepancies{kind="amount_mismatch",route="r-kinds"}')).toBe(2);
    expect(value('ledger_recon_open_discrepancies{kind="unmatched_deposit",route="r-kinds"}')).toBe(4);
    // r-resolve: of five unmatched deposits, 1,001, 1,002, 1,003 (returned) and 1,004 (credited) are resolved;
    // 1,005's retried return is pending, resolved too.
    expect(
      value('ledger_recon_open_discrepancies{kind="unmatched_deposit",route="r-resolve"}'),
    ).toBeUndefined();
    expect(value('ledger_recon_open_discrepancies{kind="missing_on_channel",route="r-resolve"}')).toBe(1);
    const oldest = await t.db
      .selectFrom('discrepancies')
      .select((eb) => eb.fn.min('created_at').as('at'))
      .where('state', '=', 'open')
      .executeTakeFirstOrThrow();
    const age = value('ledger_recon_oldest_open_discrepancy_age_seconds') ?? -1;
    expect(age).toBeGreaterThanOrEqual((Date.now() - new Date(oldest.at as Date).getTime()) / 1000 - 5);
    const lastKinds = value('ledger_recon_last_success_timestamp_seconds{route="r-kinds"}') ?? 0;
    const run = await t.db
      .selectFrom('recon_runs')
      .select('finished_at')
      .where('route_id', '=', 'r-kinds')
      .where('status', '=', 'succeeded')
      .executeTakeFirstOrThrow();
    expect(lastKinds).toBeCloseTo((run.finished_at as Date).getTime() / 1000, 2);
    // A route whose only run failed has no last success.
    expect(value('ledger_recon_last_success_timestamp_seconds{route="r-broken"}')).toBeUndefined();
  });
});
