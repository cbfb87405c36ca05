import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/** One direction's figures on one route and day; counts and centavos as numbers (bigint sums fit 2^53). */
export interface FlowFigures {
  count: number;
  amount: number;
  succeeded: number;
  succeededAmount: number;
  failed: number;
  pending: number;
}

export interface RouteDayFigures {
  routeId: string;
  name: string;
  priority: number;
  payIns: FlowFigures;
  payouts: FlowFigures;
}

const NONE: FlowFigures = { count: 0, amount: 0, succeeded: 0, succeededAmount: 0, failed: 0, pending: 0 };

type FlowRow = {
  route_id: string;
  count: string;
  amount: string;
  succeeded: string;
  succeeded_amount: string;
  failed: string;
  pending: string;
};

const flow = (r: FlowRow): FlowFigures => ({
  count: Number(r.count),
  amount: Number(r.amount),
  succeeded: Number(r.succeeded),
  succeededAmount: Number(r.succeeded_amount),
  failed: Number(r.failed),
  pending: Number(r.pending),
});

/**
 * A wall-clock day's pay-ins (virtual accounts opened that day, by `virtual_accounts_created_idx`) and
 * payouts (sent that day, by `channel_payouts_sent_idx`) per route, every route listed even when idle. Each
 * read is bounded by the day's rows, so a route with years behind it answers as fast as a new one.
 */
export async function routeFiguresOfDay(
  db: Kysely<Database>,
  day: string,
  timeZone: string,
): Promise<RouteDayFigures[]> {
  const start = sql`(${day}::date::timestamp at time zone ${timeZone})`;
  const end = sql`((${day}::date + 1)::timestamp at time zone ${timeZone})`;
  const [routes, payIns, payouts] = await Promise.all([
    db.selectFrom('routes').select(['id', 'name', 'priority']).execute(),
    sql<FlowRow>`
      select route_id, count(*) as count, coalesce(sum(amount), 0) as amount,
             count(*) filter (where status = 'paid') as succeeded,
             coalesce(sum(paid_amount) filter (where status = 'paid'), 0) as succeeded_amount,
             count(*) filter (where status = 'closed') as failed,
             count(*) filter (where status = 'open') as pending
        from virtual_accounts
       where created_at >= ${start} and created_at < ${end}
       group by route_id`.execute(db),
    sql<FlowRow>`
      select route_id, count(*) as count, coalesce(sum(amount), 0) as amount,
             count(*) filter (where status = 'success') as succeeded,
             coalesce(sum(amount) filter (where status = 'success'), 0) as succeeded_amount,
             count(*) filter (where status in ('fail', 'returned')) as failed,
             count(*) filter (where status = 'progress') as pending
        from channel_payouts
       where sent_at >= ${start} and sent_at < ${end}
       group by route_id`.execute(db),
  ]);
  const byRoute = new Map<string, RouteDayFigures>();
  const of = (routeId: string) => {
    let figures = byRoute.get(routeId);
    if (!figures) {
      figures = { routeId, name: '', priority: Number.MAX_SAFE_INTEGER, payIns: NONE, payouts: NONE };
      byRoute.set(routeId, figures);
    }
    return figures;
  };
  for (const r of routes) Object.assign(of(r.id), { name: r.name, priority: r.priority });
  for (const r of payIns.rows) of(r.route_id).payIns = flow(r);
  for (const r of payouts.rows) of(r.route_id).payouts = flow(r);
  return [...byRoute.values()].sort((a, b) => a.priority - b.priority || a.routeId.localeCompare(b.routeId));
}
