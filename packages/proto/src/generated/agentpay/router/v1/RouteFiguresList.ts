// Original file: proto/router/v1/router.proto

import type { RouteDayFigures as _agentpay_router_v1_RouteDayFigures, RouteDayFigures__Output as _agentpay_router_v1_RouteDayFigures__Output } from '../../../agentpay/router/v1/RouteDayFigures.js';

export interface RouteFiguresList {
  'day'?: (string);
  /**
   * Every route that exists or had a movement that day, by priority then id.
   */
  'routes'?: (_agentpay_router_v1_RouteDayFigures)[];
}

export interface RouteFiguresList__Output {
  'day': (string);
  /**
   * Every route that exists or had a movement that day, by priority then id.
   */
  'routes': (_agentpay_router_v1_RouteDayFigures__Output)[];
}
