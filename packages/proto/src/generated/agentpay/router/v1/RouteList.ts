// Original file: proto/router/v1/router.proto

import type { Route as _agentpay_router_v1_Route, Route__Output as _agentpay_router_v1_Route__Output } from '../../../agentpay/router/v1/Route.js';

export interface RouteList {
  'routes'?: (_agentpay_router_v1_Route)[];
}

export interface RouteList__Output {
  'routes': (_agentpay_router_v1_Route__Output)[];
}
