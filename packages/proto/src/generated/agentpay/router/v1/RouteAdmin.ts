// Original file: proto/router/v1/router.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ListRoutesRequest as _agentpay_router_v1_ListRoutesRequest, ListRoutesRequest__Output as _agentpay_router_v1_ListRoutesRequest__Output } from '../../../agentpay/router/v1/ListRoutesRequest.js';
import type { Route as _agentpay_router_v1_Route, Route__Output as _agentpay_router_v1_Route__Output } from '../../../agentpay/router/v1/Route.js';
import type { RouteFiguresList as _agentpay_router_v1_RouteFiguresList, RouteFiguresList__Output as _agentpay_router_v1_RouteFiguresList__Output } from '../../../agentpay/router/v1/RouteFiguresList.js';
import type { RouteFiguresRequest as _agentpay_router_v1_RouteFiguresRequest, RouteFiguresRequest__Output as _agentpay_router_v1_RouteFiguresRequest__Output } from '../../../agentpay/router/v1/RouteFiguresRequest.js';
import type { RouteKey as _agentpay_router_v1_RouteKey, RouteKey__Output as _agentpay_router_v1_RouteKey__Output } from '../../../agentpay/router/v1/RouteKey.js';
import type { RouteList as _agentpay_router_v1_RouteList, RouteList__Output as _agentpay_router_v1_RouteList__Output } from '../../../agentpay/router/v1/RouteList.js';
import type { RouteMerchantRequest as _agentpay_router_v1_RouteMerchantRequest, RouteMerchantRequest__Output as _agentpay_router_v1_RouteMerchantRequest__Output } from '../../../agentpay/router/v1/RouteMerchantRequest.js';
import type { RouteSpec as _agentpay_router_v1_RouteSpec, RouteSpec__Output as _agentpay_router_v1_RouteSpec__Output } from '../../../agentpay/router/v1/RouteSpec.js';
import type { SetRouteEnabledRequest as _agentpay_router_v1_SetRouteEnabledRequest, SetRouteEnabledRequest__Output as _agentpay_router_v1_SetRouteEnabledRequest__Output } from '../../../agentpay/router/v1/SetRouteEnabledRequest.js';
import type { SetRouteMerchantsRequest as _agentpay_router_v1_SetRouteMerchantsRequest, SetRouteMerchantsRequest__Output as _agentpay_router_v1_SetRouteMerchantsRequest__Output } from '../../../agentpay/router/v1/SetRouteMerchantsRequest.js';
import type { UpdateRouteRequest as _agentpay_router_v1_UpdateRouteRequest, UpdateRouteRequest__Output as _agentpay_router_v1_UpdateRouteRequest__Output } from '../../../agentpay/router/v1/UpdateRouteRequest.js';

/**
 * Operators' management of routes; the gateway's admin API (`/admin/routes`) forwards here, since the
 * router owns the routes. Changes apply to the next create call on every replica (routes are read from
 * the database per call). Errors are plain gRPC statuses whose details are meant for the operator and
 * name the field in the admin API's terms: INVALID_ARGUMENT (a value is refused), NOT_FOUND (no such
 * route), ALREADY_EXISTS (a route with this id exists).
 * Every change records who made it from the call's x-agentpay-actor metadata (and x-agentpay-approval when
 * four eyes approved it). A change called with x-agentpay-validate-only: 1 is checked in full and answered
 * as the route would be, and nothing is saved (the gateway's check before it asks for an approval).
 */
export interface RouteAdminClient extends grpc.Client {
  BindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  BindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  BindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  BindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  bindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  bindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  bindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  bindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  
  CreateRoute(argument: _agentpay_router_v1_RouteSpec, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  CreateRoute(argument: _agentpay_router_v1_RouteSpec, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  CreateRoute(argument: _agentpay_router_v1_RouteSpec, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  CreateRoute(argument: _agentpay_router_v1_RouteSpec, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  createRoute(argument: _agentpay_router_v1_RouteSpec, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  createRoute(argument: _agentpay_router_v1_RouteSpec, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  createRoute(argument: _agentpay_router_v1_RouteSpec, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  createRoute(argument: _agentpay_router_v1_RouteSpec, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  
  GetRoute(argument: _agentpay_router_v1_RouteKey, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  GetRoute(argument: _agentpay_router_v1_RouteKey, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  GetRoute(argument: _agentpay_router_v1_RouteKey, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  GetRoute(argument: _agentpay_router_v1_RouteKey, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  getRoute(argument: _agentpay_router_v1_RouteKey, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  getRoute(argument: _agentpay_router_v1_RouteKey, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  getRoute(argument: _agentpay_router_v1_RouteKey, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  getRoute(argument: _agentpay_router_v1_RouteKey, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  
  /**
   * Every route, by priority then id, each with its merchant bindings and the answering replica's breaker state.
   */
  ListRoutes(argument: _agentpay_router_v1_ListRoutesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_RouteList__Output>): grpc.ClientUnaryCall;
  ListRoutes(argument: _agentpay_router_v1_ListRoutesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_RouteList__Output>): grpc.ClientUnaryCall;
  ListRoutes(argument: _agentpay_router_v1_ListRoutesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_RouteList__Output>): grpc.ClientUnaryCall;
  ListRoutes(argument: _agentpay_router_v1_ListRoutesRequest, callback: grpc.requestCallback<_agentpay_router_v1_RouteList__Output>): grpc.ClientUnaryCall;
  /**
   * Every route, by priority then id, each with its merchant bindings and the answering replica's breaker state.
   */
  listRoutes(argument: _agentpay_router_v1_ListRoutesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_RouteList__Output>): grpc.ClientUnaryCall;
  listRoutes(argument: _agentpay_router_v1_ListRoutesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_RouteList__Output>): grpc.ClientUnaryCall;
  listRoutes(argument: _agentpay_router_v1_ListRoutesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_RouteList__Output>): grpc.ClientUnaryCall;
  listRoutes(argument: _agentpay_router_v1_ListRoutesRequest, callback: grpc.requestCallback<_agentpay_router_v1_RouteList__Output>): grpc.ClientUnaryCall;
  
  /**
   * One day's pay-ins and payouts per route (the console's home page): the pay orders whose virtual account
   * was opened on the route that day and the payouts sent on it that day, with how each has ended so far.
   * Errors: INVALID_ARGUMENT (day is not yyyy-MM-dd).
   */
  RouteFigures(argument: _agentpay_router_v1_RouteFiguresRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_RouteFiguresList__Output>): grpc.ClientUnaryCall;
  RouteFigures(argument: _agentpay_router_v1_RouteFiguresRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_RouteFiguresList__Output>): grpc.ClientUnaryCall;
  RouteFigures(argument: _agentpay_router_v1_RouteFiguresRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_RouteFiguresList__Output>): grpc.ClientUnaryCall;
  RouteFigures(argument: _agentpay_router_v1_RouteFiguresRequest, callback: grpc.requestCallback<_agentpay_router_v1_RouteFiguresList__Output>): grpc.ClientUnaryCall;
  /**
   * One day's pay-ins and payouts per route (the console's home page): the pay orders whose virtual account
   * was opened on the route that day and the payouts sent on it that day, with how each has ended so far.
   * Errors: INVALID_ARGUMENT (day is not yyyy-MM-dd).
   */
  routeFigures(argument: _agentpay_router_v1_RouteFiguresRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_RouteFiguresList__Output>): grpc.ClientUnaryCall;
  routeFigures(argument: _agentpay_router_v1_RouteFiguresRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_RouteFiguresList__Output>): grpc.ClientUnaryCall;
  routeFigures(argument: _agentpay_router_v1_RouteFiguresRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_RouteFiguresList__Output>): grpc.ClientUnaryCall;
  routeFigures(argument: _agentpay_router_v1_RouteFiguresRequest, callback: grpc.requestCallback<_agentpay_router_v1_RouteFiguresList__Output>): grpc.ClientUnaryCall;
  
  SetRouteEnabled(argument: _agentpay_router_v1_SetRouteEnabledRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  SetRouteEnabled(argument: _agentpay_router_v1_SetRouteEnabledRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  SetRouteEnabled(argument: _agentpay_router_v1_SetRouteEnabledRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  SetRouteEnabled(argument: _agentpay_router_v1_SetRouteEnabledRequest, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  setRouteEnabled(argument: _agentpay_router_v1_SetRouteEnabledRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  setRouteEnabled(argument: _agentpay_router_v1_SetRouteEnabledRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  setRouteEnabled(argument: _agentpay_router_v1_SetRouteEnabledRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  setRouteEnabled(argument: _agentpay_router_v1_SetRouteEnabledRequest, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  
  /**
   * Replaces the merchants a `list`-scoped route serves.
   */
  SetRouteMerchants(argument: _agentpay_router_v1_SetRouteMerchantsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  SetRouteMerchants(argument: _agentpay_router_v1_SetRouteMerchantsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  SetRouteMerchants(argument: _agentpay_router_v1_SetRouteMerchantsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  SetRouteMerchants(argument: _agentpay_router_v1_SetRouteMerchantsRequest, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  /**
   * Replaces the merchants a `list`-scoped route serves.
   */
  setRouteMerchants(argument: _agentpay_router_v1_SetRouteMerchantsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  setRouteMerchants(argument: _agentpay_router_v1_SetRouteMerchantsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  setRouteMerchants(argument: _agentpay_router_v1_SetRouteMerchantsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  setRouteMerchants(argument: _agentpay_router_v1_SetRouteMerchantsRequest, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  
  UnbindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  UnbindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  UnbindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  UnbindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  unbindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  unbindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  unbindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  unbindRouteMerchant(argument: _agentpay_router_v1_RouteMerchantRequest, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  
  /**
   * Changes the fields named in `fields`; `config_json` is merged key by key (a JSON null removes a key).
   */
  UpdateRoute(argument: _agentpay_router_v1_UpdateRouteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  UpdateRoute(argument: _agentpay_router_v1_UpdateRouteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  UpdateRoute(argument: _agentpay_router_v1_UpdateRouteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  UpdateRoute(argument: _agentpay_router_v1_UpdateRouteRequest, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  /**
   * Changes the fields named in `fields`; `config_json` is merged key by key (a JSON null removes a key).
   */
  updateRoute(argument: _agentpay_router_v1_UpdateRouteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  updateRoute(argument: _agentpay_router_v1_UpdateRouteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  updateRoute(argument: _agentpay_router_v1_UpdateRouteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  updateRoute(argument: _agentpay_router_v1_UpdateRouteRequest, callback: grpc.requestCallback<_agentpay_router_v1_Route__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Operators' management of routes; the gateway's admin API (`/admin/routes`) forwards here, since the
 * router owns the routes. Changes apply to the next create call on every replica (routes are read from
 * the database per call). Errors are plain gRPC statuses whose details are meant for the operator and
 * name the field in the admin API's terms: INVALID_ARGUMENT (a value is refused), NOT_FOUND (no such
 * route), ALREADY_EXISTS (a route with this id exists).
 * Every change records who made it from the call's x-agentpay-actor metadata (and x-agentpay-approval when
 * four eyes approved it). A change called with x-agentpay-validate-only: 1 is checked in full and answered
 * as the route would be, and nothing is saved (the gateway's check before it asks for an approval).
 */
export interface RouteAdminHandlers extends grpc.UntypedServiceImplementation {
  BindRouteMerchant: grpc.handleUnaryCall<_agentpay_router_v1_RouteMerchantRequest__Output, _agentpay_router_v1_Route>;
  
  CreateRoute: grpc.handleUnaryCall<_agentpay_router_v1_RouteSpec__Output, _agentpay_router_v1_Route>;
  
  GetRoute: grpc.handleUnaryCall<_agentpay_router_v1_RouteKey__Output, _agentpay_router_v1_Route>;
  
  /**
   * Every route, by priority then id, each with its merchant bindings and the answering replica's breaker state.
   */
  ListRoutes: grpc.handleUnaryCall<_agentpay_router_v1_ListRoutesRequest__Output, _agentpay_router_v1_RouteList>;
  
  /**
   * One day's pay-ins and payouts per route (the console's home page): the pay orders whose virtual account
   * was opened on the route that day and the payouts sent on it that day, with how each has ended so far.
   * Errors: INVALID_ARGUMENT (day is not yyyy-MM-dd).
   */
  RouteFigures: grpc.handleUnaryCall<_agentpay_router_v1_RouteFiguresRequest__Output, _agentpay_router_v1_RouteFiguresList>;
  
  SetRouteEnabled: grpc.handleUnaryCall<_agentpay_router_v1_SetRouteEnabledRequest__Output, _agentpay_router_v1_Route>;
  
  /**
   * Replaces the merchants a `list`-scoped route serves.
   */
  SetRouteMerchants: grpc.handleUnaryCall<_agentpay_router_v1_SetRouteMerchantsRequest__Output, _agentpay_router_v1_Route>;
  
  UnbindRouteMerchant: grpc.handleUnaryCall<_agentpay_router_v1_RouteMerchantRequest__Output, _agentpay_router_v1_Route>;
  
  /**
   * Changes the fields named in `fields`; `config_json` is merged key by key (a JSON null removes a key).
   */
  UpdateRoute: grpc.handleUnaryCall<_agentpay_router_v1_UpdateRouteRequest__Output, _agentpay_router_v1_Route>;
  
}

export interface RouteAdminDefinition extends grpc.ServiceDefinition {
  BindRouteMerchant: MethodDefinition<_agentpay_router_v1_RouteMerchantRequest, _agentpay_router_v1_Route, _agentpay_router_v1_RouteMerchantRequest__Output, _agentpay_router_v1_Route__Output>
  CreateRoute: MethodDefinition<_agentpay_router_v1_RouteSpec, _agentpay_router_v1_Route, _agentpay_router_v1_RouteSpec__Output, _agentpay_router_v1_Route__Output>
  GetRoute: MethodDefinition<_agentpay_router_v1_RouteKey, _agentpay_router_v1_Route, _agentpay_router_v1_RouteKey__Output, _agentpay_router_v1_Route__Output>
  ListRoutes: MethodDefinition<_agentpay_router_v1_ListRoutesRequest, _agentpay_router_v1_RouteList, _agentpay_router_v1_ListRoutesRequest__Output, _agentpay_router_v1_RouteList__Output>
  RouteFigures: MethodDefinition<_agentpay_router_v1_RouteFiguresRequest, _agentpay_router_v1_RouteFiguresList, _agentpay_router_v1_RouteFiguresRequest__Output, _agentpay_router_v1_RouteFiguresList__Output>
  SetRouteEnabled: MethodDefinition<_agentpay_router_v1_SetRouteEnabledRequest, _agentpay_router_v1_Route, _agentpay_router_v1_SetRouteEnabledRequest__Output, _agentpay_router_v1_Route__Output>
  SetRouteMerchants: MethodDefinition<_agentpay_router_v1_SetRouteMerchantsRequest, _agentpay_router_v1_Route, _agentpay_router_v1_SetRouteMerchantsRequest__Output, _agentpay_router_v1_Route__Output>
  UnbindRouteMerchant: MethodDefinition<_agentpay_router_v1_RouteMerchantRequest, _agentpay_router_v1_Route, _agentpay_router_v1_RouteMerchantRequest__Output, _agentpay_router_v1_Route__Output>
  UpdateRoute: MethodDefinition<_agentpay_router_v1_UpdateRouteRequest, _agentpay_router_v1_Route, _agentpay_router_v1_UpdateRouteRequest__Output, _agentpay_router_v1_Route__Output>
}
