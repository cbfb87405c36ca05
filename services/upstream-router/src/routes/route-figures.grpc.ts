import type { Logger } from '@agentpay/logger';
import type { RouteAdminHandlers } from '@agentpay/proto';
import { toServiceError } from '@agentpay/proto';
import * as grpc from '@grpc/grpc-js';
import { toRouteFiguresList } from './route-figures.mapper.js';
import { isDay, type RouteFigures } from './route-figures.service.js';

/** RouteAdmin.RouteFigures: a day's pay-ins and payouts per route (proto/router/v1/router.proto). */
export function createRouteFiguresHandler(deps: {
  figures: RouteFigures;
  logger: Logger;
}): Pick<RouteAdminHandlers, 'RouteFigures'> {
  return {
    RouteFigures: (call, callback) => {
      const { day } = call.request;
      if (!isDay(day)) {
        callback({ code: grpc.status.INVALID_ARGUMENT, details: 'day: expected yyyy-MM-dd' });
        return;
      }
      deps.figures.ofDay(day).then(
        (routes) => callback(null, toRouteFiguresList(day, routes)),
        (err: unknown) => callback(toServiceError(err, deps.logger)),
      );
    },
  };
}
