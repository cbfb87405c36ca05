import type { FlowFigures as FlowMessage, RouteFiguresList } from '@agentpay/proto';
import type { FlowFigures, RouteDayFigures } from './route-figures.repository.js';

// RouteAdmin.RouteFigures' wire shapes (proto/router/v1/router.proto): int64 counts and centavos as strings.

const toFlowMessage = (f: FlowFigures): FlowMessage => ({
  count: String(f.count),
  amount: String(f.amount),
  succeeded: String(f.succeeded),
  succeeded_amount: String(f.succeededAmount),
  failed: String(f.failed),
  pending: String(f.pending),
});

export function toRouteFiguresList(day: string, routes: RouteDayFigures[]): RouteFiguresList {
  return {
    day,
    routes: routes.map((r) => ({
      route_id: r.routeId,
      name: r.name,
      pay_ins: toFlowMessage(r.payIns),
      payouts: toFlowMessage(r.payouts),
    })),
  };
}
