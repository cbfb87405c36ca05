// Original file: proto/router/v1/router.proto

import type { FlowFigures as _agentpay_router_v1_FlowFigures, FlowFigures__Output as _agentpay_router_v1_FlowFigures__Output } from '../../../agentpay/router/v1/FlowFigures.js';

export interface RouteDayFigures {
  'route_id'?: (string);
  /**
   * The route's name; '' for a route deleted since.
   */
  'name'?: (string);
  'pay_ins'?: (_agentpay_router_v1_FlowFigures | null);
  'payouts'?: (_agentpay_router_v1_FlowFigures | null);
}

export interface RouteDayFigures__Output {
  'route_id': (string);
  /**
   * The route's name; '' for a route deleted since.
   */
  'name': (string);
  'pay_ins': (_agentpay_router_v1_FlowFigures__Output | null);
  'payouts': (_agentpay_router_v1_FlowFigures__Output | null);
}
