// Original file: proto/router/v1/router.proto

import type { RouteSpec as _agentpay_router_v1_RouteSpec, RouteSpec__Output as _agentpay_router_v1_RouteSpec__Output } from '../../../agentpay/router/v1/RouteSpec.js';

export interface UpdateRouteRequest {
  'id'?: (string);
  /**
   * New values; only the fields named in `fields` are read (`changes.id` never is).
   */
  'changes'?: (_agentpay_router_v1_RouteSpec | null);
  /**
   * Field names of RouteSpec, e.g. "weight", "config_json".
   */
  'fields'?: (string)[];
}

export interface UpdateRouteRequest__Output {
  'id': (string);
  /**
   * New values; only the fields named in `fields` are read (`changes.id` never is).
   */
  'changes': (_agentpay_router_v1_RouteSpec__Output | null);
  /**
   * Field names of RouteSpec, e.g. "weight", "config_json".
   */
  'fields': (string)[];
}
