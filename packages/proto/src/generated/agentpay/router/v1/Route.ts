// Original file: proto/router/v1/router.proto

import type { RouteSpec as _agentpay_router_v1_RouteSpec, RouteSpec__Output as _agentpay_router_v1_RouteSpec__Output } from '../../../agentpay/router/v1/RouteSpec.js';
import type { RouteHealth as _agentpay_router_v1_RouteHealth, RouteHealth__Output as _agentpay_router_v1_RouteHealth__Output } from '../../../agentpay/router/v1/RouteHealth.js';

export interface Route {
  'spec'?: (_agentpay_router_v1_RouteSpec | null);
  /**
   * Merchants bound to the route (used when merchant_scope is `list`).
   */
  'mch_nos'?: (string)[];
  'created_at'?: (string);
  'updated_at'?: (string);
  'health'?: (_agentpay_router_v1_RouteHealth | null);
}

export interface Route__Output {
  'spec': (_agentpay_router_v1_RouteSpec__Output | null);
  /**
   * Merchants bound to the route (used when merchant_scope is `list`).
   */
  'mch_nos': (string)[];
  'created_at': (string);
  'updated_at': (string);
  'health': (_agentpay_router_v1_RouteHealth__Output | null);
}
