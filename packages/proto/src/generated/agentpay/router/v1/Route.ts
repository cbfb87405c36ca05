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
  /**
   * Who created the route and who last changed it (the x-agentpay-actor label of the call; empty for a
   * seeded route), and the approval (four eyes) of the last change that had one.
   */
  'created_by'?: (string);
  'updated_by'?: (string);
  'approval_id'?: (string);
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
  /**
   * Who created the route and who last changed it (the x-agentpay-actor label of the call; empty for a
   * seeded route), and the approval (four eyes) of the last change that had one.
   */
  'created_by': (string);
  'updated_by': (string);
  'approval_id': (string);
}
