import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Limit as _agentpay_common_v1_Limit, Limit__Output as _agentpay_common_v1_Limit__Output } from './agentpay/common/v1/Limit.js';
import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from './agentpay/common/v1/MerchantContext.js';
import type { Option as _agentpay_common_v1_Option, Option__Output as _agentpay_common_v1_Option__Output } from './agentpay/common/v1/Option.js';
import type { OptionList as _agentpay_common_v1_OptionList, OptionList__Output as _agentpay_common_v1_OptionList__Output } from './agentpay/common/v1/OptionList.js';
import type { PayoutLimits as _agentpay_common_v1_PayoutLimits, PayoutLimits__Output as _agentpay_common_v1_PayoutLimits__Output } from './agentpay/common/v1/PayoutLimits.js';
import type { ChannelFact as _agentpay_router_v1_ChannelFact, ChannelFact__Output as _agentpay_router_v1_ChannelFact__Output } from './agentpay/router/v1/ChannelFact.js';
import type { ChannelFacts as _agentpay_router_v1_ChannelFacts, ChannelFacts__Output as _agentpay_router_v1_ChannelFacts__Output } from './agentpay/router/v1/ChannelFacts.js';
import type { ChannelFactsRequest as _agentpay_router_v1_ChannelFactsRequest, ChannelFactsRequest__Output as _agentpay_router_v1_ChannelFactsRequest__Output } from './agentpay/router/v1/ChannelFactsRequest.js';
import type { CreateVirtualAccountRequest as _agentpay_router_v1_CreateVirtualAccountRequest, CreateVirtualAccountRequest__Output as _agentpay_router_v1_CreateVirtualAccountRequest__Output } from './agentpay/router/v1/CreateVirtualAccountRequest.js';
import type { FlowFigures as _agentpay_router_v1_FlowFigures, FlowFigures__Output as _agentpay_router_v1_FlowFigures__Output } from './agentpay/router/v1/FlowFigures.js';
import type { InquirePayeeRequest as _agentpay_router_v1_InquirePayeeRequest, InquirePayeeRequest__Output as _agentpay_router_v1_InquirePayeeRequest__Output } from './agentpay/router/v1/InquirePayeeRequest.js';
import type { InquirePayeeResponse as _agentpay_router_v1_InquirePayeeResponse, InquirePayeeResponse__Output as _agentpay_router_v1_InquirePayeeResponse__Output } from './agentpay/router/v1/InquirePayeeResponse.js';
import type { ListPayeeCodesRequest as _agentpay_router_v1_ListPayeeCodesRequest, ListPayeeCodesRequest__Output as _agentpay_router_v1_ListPayeeCodesRequest__Output } from './agentpay/router/v1/ListPayeeCodesRequest.js';
import type { ListRoutesRequest as _agentpay_router_v1_ListRoutesRequest, ListRoutesRequest__Output as _agentpay_router_v1_ListRoutesRequest__Output } from './agentpay/router/v1/ListRoutesRequest.js';
import type { MerchantRequest as _agentpay_router_v1_MerchantRequest, MerchantRequest__Output as _agentpay_router_v1_MerchantRequest__Output } from './agentpay/router/v1/MerchantRequest.js';
import type { PayoutRef as _agentpay_router_v1_PayoutRef, PayoutRef__Output as _agentpay_router_v1_PayoutRef__Output } from './agentpay/router/v1/PayoutRef.js';
import type { Route as _agentpay_router_v1_Route, Route__Output as _agentpay_router_v1_Route__Output } from './agentpay/router/v1/Route.js';
import type { RouteAdminClient as _agentpay_router_v1_RouteAdminClient, RouteAdminDefinition as _agentpay_router_v1_RouteAdminDefinition } from './agentpay/router/v1/RouteAdmin.js';
import type { RouteDayFigures as _agentpay_router_v1_RouteDayFigures, RouteDayFigures__Output as _agentpay_router_v1_RouteDayFigures__Output } from './agentpay/router/v1/RouteDayFigures.js';
import type { RouteFiguresList as _agentpay_router_v1_RouteFiguresList, RouteFiguresList__Output as _agentpay_router_v1_RouteFiguresList__Output } from './agentpay/router/v1/RouteFiguresList.js';
import type { RouteFiguresRequest as _agentpay_router_v1_RouteFiguresRequest, RouteFiguresRequest__Output as _agentpay_router_v1_RouteFiguresRequest__Output } from './agentpay/router/v1/RouteFiguresRequest.js';
import type { RouteHealth as _agentpay_router_v1_RouteHealth, RouteHealth__Output as _agentpay_router_v1_RouteHealth__Output } from './agentpay/router/v1/RouteHealth.js';
import type { RouteKey as _agentpay_router_v1_RouteKey, RouteKey__Output as _agentpay_router_v1_RouteKey__Output } from './agentpay/router/v1/RouteKey.js';
import type { RouteList as _agentpay_router_v1_RouteList, RouteList__Output as _agentpay_router_v1_RouteList__Output } from './agentpay/router/v1/RouteList.js';
import type { RouteMerchantRequest as _agentpay_router_v1_RouteMerchantRequest, RouteMerchantRequest__Output as _agentpay_router_v1_RouteMerchantRequest__Output } from './agentpay/router/v1/RouteMerchantRequest.js';
import type { RouteSpec as _agentpay_router_v1_RouteSpec, RouteSpec__Output as _agentpay_router_v1_RouteSpec__Output } from './agentpay/router/v1/RouteSpec.js';
import type { SetRouteEnabledRequest as _agentpay_router_v1_SetRouteEnabledRequest, SetRouteEnabledRequest__Output as _agentpay_router_v1_SetRouteEnabledRequest__Output } from './agentpay/router/v1/SetRouteEnabledRequest.js';
import type { SetRouteMerchantsRequest as _agentpay_router_v1_SetRouteMerchantsRequest, SetRouteMerchantsRequest__Output as _agentpay_router_v1_SetRouteMerchantsRequest__Output } from './agentpay/router/v1/SetRouteMerchantsRequest.js';
import type { StatementLine as _agentpay_router_v1_StatementLine, StatementLine__Output as _agentpay_router_v1_StatementLine__Output } from './agentpay/router/v1/StatementLine.js';
import type { StatementRequest as _agentpay_router_v1_StatementRequest, StatementRequest__Output as _agentpay_router_v1_StatementRequest__Output } from './agentpay/router/v1/StatementRequest.js';
import type { SubmitPayoutRequest as _agentpay_router_v1_SubmitPayoutRequest, SubmitPayoutRequest__Output as _agentpay_router_v1_SubmitPayoutRequest__Output } from './agentpay/router/v1/SubmitPayoutRequest.js';
import type { SubmitPayoutResponse as _agentpay_router_v1_SubmitPayoutResponse, SubmitPayoutResponse__Output as _agentpay_router_v1_SubmitPayoutResponse__Output } from './agentpay/router/v1/SubmitPayoutResponse.js';
import type { UpdateRouteRequest as _agentpay_router_v1_UpdateRouteRequest, UpdateRouteRequest__Output as _agentpay_router_v1_UpdateRouteRequest__Output } from './agentpay/router/v1/UpdateRouteRequest.js';
import type { UpstreamPayment as _agentpay_router_v1_UpstreamPayment, UpstreamPayment__Output as _agentpay_router_v1_UpstreamPayment__Output } from './agentpay/router/v1/UpstreamPayment.js';
import type { UpstreamPayout as _agentpay_router_v1_UpstreamPayout, UpstreamPayout__Output as _agentpay_router_v1_UpstreamPayout__Output } from './agentpay/router/v1/UpstreamPayout.js';
import type { UpstreamRouterClient as _agentpay_router_v1_UpstreamRouterClient, UpstreamRouterDefinition as _agentpay_router_v1_UpstreamRouterDefinition } from './agentpay/router/v1/UpstreamRouter.js';
import type { VirtualAccount as _agentpay_router_v1_VirtualAccount, VirtualAccount__Output as _agentpay_router_v1_VirtualAccount__Output } from './agentpay/router/v1/VirtualAccount.js';
import type { VirtualAccountRef as _agentpay_router_v1_VirtualAccountRef, VirtualAccountRef__Output as _agentpay_router_v1_VirtualAccountRef__Output } from './agentpay/router/v1/VirtualAccountRef.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  agentpay: {
    common: {
      v1: {
        Limit: MessageTypeDefinition<_agentpay_common_v1_Limit, _agentpay_common_v1_Limit__Output>
        MerchantContext: MessageTypeDefinition<_agentpay_common_v1_MerchantContext, _agentpay_common_v1_MerchantContext__Output>
        Option: MessageTypeDefinition<_agentpay_common_v1_Option, _agentpay_common_v1_Option__Output>
        OptionList: MessageTypeDefinition<_agentpay_common_v1_OptionList, _agentpay_common_v1_OptionList__Output>
        PayoutLimits: MessageTypeDefinition<_agentpay_common_v1_PayoutLimits, _agentpay_common_v1_PayoutLimits__Output>
      }
    }
    router: {
      v1: {
        ChannelFact: MessageTypeDefinition<_agentpay_router_v1_ChannelFact, _agentpay_router_v1_ChannelFact__Output>
        ChannelFacts: MessageTypeDefinition<_agentpay_router_v1_ChannelFacts, _agentpay_router_v1_ChannelFacts__Output>
        ChannelFactsRequest: MessageTypeDefinition<_agentpay_router_v1_ChannelFactsRequest, _agentpay_router_v1_ChannelFactsRequest__Output>
        CreateVirtualAccountRequest: MessageTypeDefinition<_agentpay_router_v1_CreateVirtualAccountRequest, _agentpay_router_v1_CreateVirtualAccountRequest__Output>
        FlowFigures: MessageTypeDefinition<_agentpay_router_v1_FlowFigures, _agentpay_router_v1_FlowFigures__Output>
        InquirePayeeRequest: MessageTypeDefinition<_agentpay_router_v1_InquirePayeeRequest, _agentpay_router_v1_InquirePayeeRequest__Output>
        InquirePayeeResponse: MessageTypeDefinition<_agentpay_router_v1_InquirePayeeResponse, _agentpay_router_v1_InquirePayeeResponse__Output>
        ListPayeeCodesRequest: MessageTypeDefinition<_agentpay_router_v1_ListPayeeCodesRequest, _agentpay_router_v1_ListPayeeCodesRequest__Output>
        ListRoutesRequest: MessageTypeDefinition<_agentpay_router_v1_ListRoutesRequest, _agentpay_router_v1_ListRoutesRequest__Output>
        MerchantRequest: MessageTypeDefinition<_agentpay_router_v1_MerchantRequest, _agentpay_router_v1_MerchantRequest__Output>
        PayoutRef: MessageTypeDefinition<_agentpay_router_v1_PayoutRef, _agentpay_router_v1_PayoutRef__Output>
        Route: MessageTypeDefinition<_agentpay_router_v1_Route, _agentpay_router_v1_Route__Output>
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
        RouteAdmin: SubtypeConstructor<typeof grpc.Client, _agentpay_router_v1_RouteAdminClient> & { service: _agentpay_router_v1_RouteAdminDefinition }
        RouteDayFigures: MessageTypeDefinition<_agentpay_router_v1_RouteDayFigures, _agentpay_router_v1_RouteDayFigures__Output>
        RouteFiguresList: MessageTypeDefinition<_agentpay_router_v1_RouteFiguresList, _agentpay_router_v1_RouteFiguresList__Output>
        RouteFiguresRequest: MessageTypeDefinition<_agentpay_router_v1_RouteFiguresRequest, _agentpay_router_v1_RouteFiguresRequest__Output>
        RouteHealth: MessageTypeDefinition<_agentpay_router_v1_RouteHealth, _agentpay_router_v1_RouteHealth__Output>
        RouteKey: MessageTypeDefinition<_agentpay_router_v1_RouteKey, _agentpay_router_v1_RouteKey__Output>
        RouteList: MessageTypeDefinition<_agentpay_router_v1_RouteList, _agentpay_router_v1_RouteList__Output>
        RouteMerchantRequest: MessageTypeDefinition<_agentpay_router_v1_RouteMerchantRequest, _agentpay_router_v1_RouteMerchantRequest__Output>
        RouteSpec: MessageTypeDefinition<_agentpay_router_v1_RouteSpec, _agentpay_router_v1_RouteSpec__Output>
        SetRouteEnabledRequest: MessageTypeDefinition<_agentpay_router_v1_SetRouteEnabledRequest, _agentpay_router_v1_SetRouteEnabledRequest__Output>
        SetRouteMerchantsRequest: MessageTypeDefinition<_agentpay_router_v1_SetRouteMerchantsRequest, _agentpay_router_v1_SetRouteMerchantsRequest__Output>
        StatementLine: MessageTypeDefinition<_agentpay_router_v1_StatementLine, _agentpay_router_v1_StatementLine__Output>
        StatementRequest: MessageTypeDefinition<_agentpay_router_v1_StatementRequest, _agentpay_router_v1_StatementRequest__Output>
        SubmitPayoutRequest: MessageTypeDefinition<_agentpay_router_v1_SubmitPayoutRequest, _agentpay_router_v1_SubmitPayoutRequest__Output>
        SubmitPayoutResponse: MessageTypeDefinition<_agentpay_router_v1_SubmitPayoutResponse, _agentpay_router_v1_SubmitPayoutResponse__Output>
        UpdateRouteRequest: MessageTypeDefinition<_agentpay_router_v1_UpdateRouteRequest, _agentpay_router_v1_UpdateRouteRequest__Output>
        UpstreamPayment: MessageTypeDefinition<_agentpay_router_v1_UpstreamPayment, _agentpay_router_v1_UpstreamPayment__Output>
        UpstreamPayout: MessageTypeDefinition<_agentpay_router_v1_UpstreamPayout, _agentpay_router_v1_UpstreamPayout__Output>
        UpstreamRouter: SubtypeConstructor<typeof grpc.Client, _agentpay_router_v1_UpstreamRouterClient> & { service: _agentpay_router_v1_UpstreamRouterDefinition }
        VirtualAccount: MessageTypeDefinition<_agentpay_router_v1_VirtualAccount, _agentpay_router_v1_VirtualAccount__Output>
        VirtualAccountRef: MessageTypeDefinition<_agentpay_router_v1_VirtualAccountRef, _agentpay_router_v1_VirtualAccountRef__Output>
      }
    }
  }
}

