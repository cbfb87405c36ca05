import { waitFor } from '@agentpay/testing';
import { describe, expect, it } from 'vitest';
import { routeFiguresOfDay } from '../src/routes/route-figures.repository.js';
import { M_MAIN, no, useRouterStack } from './support/router-stack.js';

// RouteAdmin.RouteFigures reads: a day's pay-ins and payouts per route from the router's own records.

const t = useRouterStack();
const TZ = 'America/Mexico_City';
const today = () =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: TZ,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

describe('route figures', () => {
  it('counts the day’s accounts and payouts per route with how each ended, in centavos', async () => {
    const paid = await t.createVa(M_MAIN, no('P'), '10050');
    await t.createVa(M_MAIN, no('P'), '20000');
    await t.pay(paid.clabe, 100.5); // the sandbox takes pesos

    const ok = no('T');
    const rejected = no('T');
    const refused = no('T');
    await t.submit(M_MAIN, ok);
    await t.submit(M_MAIN, rejected, { payee_name: 'REJECT me' });
    await t.submit(M_MAIN, refused, { payee_name: 'SYNCREJECT me' });

    const sandbox = await waitFor(async () => {
      const figures = await routeFiguresOfDay(t.db, today(), TZ);
      const route = figures.find((r) => r.routeId === 'sandbox-default');
      return route && route.payIns.succeeded === 1 && route.payouts.pending === 0 && route;
    });
    expect(sandbox.payIns).toEqual({
      count: 2,
      amount: 30050,
      succeeded: 1,
      succeededAmount: 10050,
      failed: 0,
      pending: 1,
    });
    expect(sandbox.payouts).toEqual({
      count: 3,
      amount: 7500,
      succeeded: 1,
      succeededAmount: 2500,
      failed: 2,
      pending: 0,
    });
    expect(sandbox.name).not.toBe('');

    // Every route is listed, an idle one with zeros; another day has none of today's.
    const figures = await routeFiguresOfDay(t.db, today(), TZ);
    expect(figures.length).toBeGreaterThan(1);
    const yesterday = await routeFiguresOfDay(t.db, '2020-01-01', TZ);
    expect(yesterday.every((r) => r.payIns.count === 0 && r.payouts.count === 0)).toBe(true);
  });

  it('a payout that succeeds and is then returned is recorded as returned, with its amount', async () => {
    const transferNo = no('T');
    await t.submit(M_MAIN, transferNo, { payee_name: 'RETURN me' });
    const row = await waitFor(async () => {
      const found = await t.db
        .selectFrom('channel_payouts')
        .select(['status', 'amount', 'finished_at'])
        .where('transfer_no', '=', transferNo)
        .executeTakeFirst();
      return found?.status === 'returned' && found;
    });
    expect(Number(row.amount)).toBe(2500);
    expect(row.finished_at).toBeInstanceOf(Date);
  });
});
