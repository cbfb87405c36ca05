import type { Logger } from '@agentpay/logger';
import type { FlowFigures as FlowMessage, RouteAdminHandlers } from '@agentpay/proto';
import { toServiceError } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type FlowFigures, routeFiguresOfDay } from './route-figures.repository.js';

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

const flowMessage = (f: FlowFigures): FlowMessage => ({
  count: String(f.count),
  amount: String(f.amount),
  succeeded: String(f.succeeded),
  succeeded_amount: String(f.succeededAmount),
  failed: String(f.failed),
  pending: String(f.pending),
});

/** RouteAdmin.RouteFigures: a day's pay-ins and payouts per route (proto/router/v1/router.proto). */
export function createRouteFiguresHandler(deps: {
  db: Kysely<Database>;
  logger: Logger;
  /** API_TIME_ZONE: whose wall-clock day `day` is. */
  timeZone: string;
}): Pick<RouteAdminHandlers, 'RouteFigures'> {
  return {
    RouteFigures: (call, callback) => {
      const { day } = call.request;
      if (!DAY.test(day) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) {
        callback({ code: grpc.status.INVALID_ARGUMENT, details: 'day: expected yyyy-MM-dd' });
        return;
      }
      routeFiguresOfDay(deps.db, day, deps.timeZone).then(
        (routes) =>
          callback(null, {
            day,
            routes: routes.map((r) => ({
              route_id: r.routeId,
              name: r.name,
              pay_ins: flowMessage(r.payIns),
              payouts: flowMessage(r.payouts),
            })),
          }),
        (err: unknown) => callback(toServiceError(err, deps.logger)),
      );
    },
  };
}
