import { call } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { DAY, NOON, useReconciliation } from './support/reconciliation.js';
import { line, statementKey } from './support/statement-router.js';

// ListReconciliationRuns: what an operator sees of the runs, newest first, by day and route, paged by a
// keyset cursor; a failed run is listed with its error.

const t = useReconciliation();
const OTHER_DAY = '2026-11-19';

describe('the list of reconciliation runs', () => {
  it('lists every run newest first, filtered by day and route, page by page', async () => {
    for (const R of ['r-list-a', 'r-list-b']) {
      for (const day of [DAY, OTHER_DAY]) {
        t.router.statements.set(statementKey(R, day), {
          lines: [line({ kind: 'deposit', platform_ref: '', amount: 100, applied: false, at: NOON })],
        });
        await t.run(R, day);
      }
    }
    await t.run('r-list-a', DAY); // a second run of the same day and route is listed too

    const list = (request: { day?: string; route_id?: string; limit?: number; before_id?: string }) =>
      call(t.client, t.client.ListReconciliationRuns, {
        day: request.day ?? '',
        route_id: request.route_id ?? '',
        limit: request.limit ?? 0,
        before_id: request.before_id ?? '',
      });

    const ofA = await list({ route_id: 'r-list-a' });
    expect(ofA.items.map((r) => r.day)).toEqual([DAY, OTHER_DAY, DAY]);
    expect(ofA.next_before_id).toBe('');
    expect(ofA.items[0]).toMatchObject({
      route_id: 'r-list-a',
      status: 'succeeded',
      lines: '1',
      matched: '0',
      discrepancies: '1',
      error: '',
    });
    expect(Number(ofA.items[0]?.id)).toBeGreaterThan(Number(ofA.items[1]?.id));
    expect(ofA.items[0]?.finished_at).not.toBe('');

    const onDay = await list({ day: DAY, route_id: 'r-list-b' });
    expect(onDay.items.map((r) => [r.route_id, r.day])).toEqual([['r-list-b', DAY]]);

    // Two at a time: the pages together are the whole list, each run once.
    const seen: string[] = [];
    let before = '';
    for (let pages = 0; pages < 10; pages++) {
      const page = await list({ day: DAY, limit: 2, before_id: before });
      seen.push(...page.items.map((r) => r.id));
      before = page.next_before_id;
      if (!before) break;
    }
    const all = await list({ day: DAY, limit: 500 });
    expect(seen).toEqual(all.items.map((r) => r.id));
    expect(all.items.filter((r) => r.route_id.startsWith('r-list-'))).toHaveLength(3);
  });

  it('lists a failed run with its error', async () => {
    const R = 'r-list-failed';
    t.router.statements.set(statementKey(R, DAY), {
      lines: () =>
        Array.from({ length: 20 }, (_, i) =>
          line({ kind: 'deposit', platform_ref: '', amount: 100 + i, applied: false, at: NOON }),
        ),
      failAfter: 5,
    });
    // A route whose statement cannot be read fails alone: the run answers, naming it failed.
    const answer = await t.run(R);
    expect(answer.routes).toHaveLength(1);
    expect(answer.routes[0]).toMatchObject({ route_id: R, state: 'failed' });
    expect(answer.routes[0]?.error).not.toBe('');
    const page = await call(t.client, t.client.ListReconciliationRuns, {
      day: DAY,
      route_id: R,
      limit: 10,
      before_id: '',
    });
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ status: 'failed', lines: '0' });
    expect(page.items[0]?.error).not.toBe('');
  });

  it('refuses a malformed filter or cursor with INVALID_ARGUMENT', async () => {
    for (const request of [
      { day: '2026-1-1', route_id: '', limit: 0, before_id: '' },
      { day: '', route_id: 'Not A Route', limit: 0, before_id: '' },
      { day: '', route_id: '', limit: 501, before_id: '' },
      { day: '', route_id: '', limit: 0, before_id: 'abc' },
    ]) {
      const refused = await t.refusal('ListReconciliationRuns', request);
      expect(refused.code, JSON.stringify(request)).toBe(grpc.status.INVALID_ARGUMENT);
    }
  });
});
