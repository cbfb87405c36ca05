import type { FastifyInstance } from '@agentpay/http';
import {
  callKeepingStatus,
  type FlowFigures__Output,
  type RouteAdminClient,
  type RouteFiguresList__Output,
  type RouteFiguresRequest,
} from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';
import { z } from 'zod';
import { adminCall, originOfRequest } from '../approvals/index.js';
import { badRequest } from '../shared/schema-problem.js';

// The console's home figures (docs/console.md "Home"): a day's pay-ins and payouts per route, from the router
// that owns routes and their channel records (the callback backlog beside them is deliveries/). Reads only.

export interface FiguresAdminDeps {
  routeAdmin: RouteAdminClient;
  timeoutMs: number;
  /** API_TIME_ZONE: the day `today` is. */
  timeZone: string;
}

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected yyyy-MM-dd')
  .refine(isCalendarDay, 'not a calendar day');
/** yyyy-MM-dd naming a day that exists (no 2021-02-30). */
function isCalendarDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}
const figuresQuery = z.object({ day: day.optional() }).strict();

/** Today in the platform's time zone, yyyy-MM-dd (en-CA writes dates in that order). */
export function today(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/**
 * One direction's figures as the admin API answers them: counts, integer centavos, and the share of the
 * finished ones that succeeded (null while none has finished).
 */
function flowJson(f: FlowFigures__Output | null | undefined) {
  const n = (v: string | undefined) => Number(v ?? 0);
  const succeeded = n(f?.succeeded);
  const failed = n(f?.failed);
  return {
    count: n(f?.count),
    amount: n(f?.amount),
    succeeded,
    succeededAmount: n(f?.succeeded_amount),
    failed,
    pending: n(f?.pending),
    successRate: succeeded + failed === 0 ? null : succeeded / (succeeded + failed),
  };
}

export function registerFiguresAdmin(app: FastifyInstance, deps: FiguresAdminDeps): void {
  app.get('/admin/figures', async (request, reply) => {
    const query = figuresQuery.safeParse(request.query ?? {});
    if (!query.success) return badRequest(reply, query.error);
    const wanted = query.data.day ?? today(deps.timeZone);
    let list: RouteFiguresList__Output;
    try {
      list = await callKeepingStatus<RouteFiguresRequest, RouteFiguresList__Output>(
        deps.routeAdmin,
        deps.routeAdmin.RouteFigures as never,
        { day: wanted },
        adminCall(originOfRequest(request), deps.timeoutMs),
      );
    } catch (err) {
      const code = (err as Partial<grpc.ServiceError>).code;
      if (code === grpc.status.INVALID_ARGUMENT)
        return reply.code(400).send({ error: 'bad_request', message: 'day: expected yyyy-MM-dd' });
      request.log.warn({ err }, 'route figures unavailable');
      return reply.code(503).send({ error: 'unavailable', message: 'the router did not answer; try again' });
    }
    return {
      day: list.day,
      routes: list.routes.map((r) => ({
        routeId: r.route_id,
        name: r.name,
        payIns: flowJson(r.pay_ins),
        payouts: flowJson(r.payouts),
      })),
    };
  });
}
