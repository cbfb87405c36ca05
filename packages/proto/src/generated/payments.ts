import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Limit as _agentpay_common_v1_Limit, Limit__Output as _agentpay_common_v1_Limit__Output } from './agentpay/common/v1/Limit.js';
import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from './agentpay/common/v1/MerchantContext.js';
import type { Option as _agentpay_common_v1_Option, Option__Output as _agentpay_common_v1_Option__Output } from './agentpay/common/v1/Option.js';
import type { OptionList as _agentpay_common_v1_OptionList, OptionList__Output as _agentpay_common_v1_OptionList__Output } from './agentpay/common/v1/OptionList.js';
import type { PayoutLimits as _agentpay_common_v1_PayoutLimits, PayoutLimits__Output as _agentpay_common_v1_PayoutLimits__Output } from './agentpay/common/v1/PayoutLimits.js';
import type { ClosePayOrderRequest as _agentpay_payments_v1_ClosePayOrderRequest, ClosePayOrderRequest__Output as _agentpay_payments_v1_ClosePayOrderRequest__Output } from './agentpay/payments/v1/ClosePayOrderRequest.js';
import type { ClosePayOrderResponse as _agentpay_payments_v1_ClosePayOrderResponse, ClosePayOrderResponse__Output as _agentpay_payments_v1_ClosePayOrderResponse__Output } from './agentpay/payments/v1/ClosePayOrderResponse.js';
import type { CreatePayOrderRequest as _agentpay_payments_v1_CreatePayOrderRequest, CreatePayOrderRequest__Output as _agentpay_payments_v1_CreatePayOrderRequest__Output } from './agentpay/payments/v1/CreatePayOrderRequest.js';
import type { CreatePayOrderResponse as _agentpay_payments_v1_CreatePayOrderResponse, CreatePayOrderResponse__Output as _agentpay_payments_v1_CreatePayOrderResponse__Output } from './agentpay/payments/v1/CreatePayOrderResponse.js';
import type { ListPayOrdersRequest as _agentpay_payments_v1_ListPayOrdersRequest, ListPayOrdersRequest__Output as _agentpay_payments_v1_ListPayOrdersRequest__Output } from './agentpay/payments/v1/ListPayOrdersRequest.js';
import type { ListPayOrdersResponse as _agentpay_payments_v1_ListPayOrdersResponse, ListPayOrdersResponse__Output as _agentpay_payments_v1_ListPayOrdersResponse__Output } from './agentpay/payments/v1/ListPayOrdersResponse.js';
import type { LocatePayOrderRequest as _agentpay_payments_v1_LocatePayOrderRequest, LocatePayOrderRequest__Output as _agentpay_payments_v1_LocatePayOrderRequest__Output } from './agentpay/payments/v1/LocatePayOrderRequest.js';
import type { PayOrder as _agentpay_payments_v1_PayOrder, PayOrder__Output as _agentpay_payments_v1_PayOrder__Output } from './agentpay/payments/v1/PayOrder.js';
import type { PayOrderHistory as _agentpay_payments_v1_PayOrderHistory, PayOrderHistory__Output as _agentpay_payments_v1_PayOrderHistory__Output } from './agentpay/payments/v1/PayOrderHistory.js';
import type { PayOrderHistoryRequest as _agentpay_payments_v1_PayOrderHistoryRequest, PayOrderHistoryRequest__Output as _agentpay_payments_v1_PayOrderHistoryRequest__Output } from './agentpay/payments/v1/PayOrderHistoryRequest.js';
import type { PayOrderRef as _agentpay_payments_v1_PayOrderRef, PayOrderRef__Output as _agentpay_payments_v1_PayOrderRef__Output } from './agentpay/payments/v1/PayOrderRef.js';
import type { PayOrderStatusChange as _agentpay_payments_v1_PayOrderStatusChange, PayOrderStatusChange__Output as _agentpay_payments_v1_PayOrderStatusChange__Output } from './agentpay/payments/v1/PayOrderStatusChange.js';
import type { PaymentServiceClient as _agentpay_payments_v1_PaymentServiceClient, PaymentServiceDefinition as _agentpay_payments_v1_PaymentServiceDefinition } from './agentpay/payments/v1/PaymentService.js';
import type { SyncPayOrderResponse as _agentpay_payments_v1_SyncPayOrderResponse, SyncPayOrderResponse__Output as _agentpay_payments_v1_SyncPayOrderResponse__Output } from './agentpay/payments/v1/SyncPayOrderResponse.js';

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
    payments: {
      v1: {
        ClosePayOrderRequest: MessageTypeDefinition<_agentpay_payments_v1_ClosePayOrderRequest, _agentpay_payments_v1_ClosePayOrderRequest__Output>
        ClosePayOrderResponse: MessageTypeDefinition<_agentpay_payments_v1_ClosePayOrderResponse, _agentpay_payments_v1_ClosePayOrderResponse__Output>
        CreatePayOrderRequest: MessageTypeDefinition<_agentpay_payments_v1_CreatePayOrderRequest, _agentpay_payments_v1_CreatePayOrderRequest__Output>
        CreatePayOrderResponse: MessageTypeDefinition<_agentpay_payments_v1_CreatePayOrderResponse, _agentpay_payments_v1_CreatePayOrderResponse__Output>
        ListPayOrdersRequest: MessageTypeDefinition<_agentpay_payments_v1_ListPayOrdersRequest, _agentpay_payments_v1_ListPayOrdersRequest__Output>
        ListPayOrdersResponse: MessageTypeDefinition<_agentpay_payments_v1_ListPayOrdersResponse, _agentpay_payments_v1_ListPayOrdersResponse__Output>
        LocatePayOrderRequest: MessageTypeDefinition<_agentpay_payments_v1_LocatePayOrderRequest, _agentpay_payments_v1_LocatePayOrderRequest__Output>
        PayOrder: MessageTypeDefinition<_agentpay_payments_v1_PayOrder, _agentpay_payments_v1_PayOrder__Output>
        PayOrderHistory: MessageTypeDefinition<_agentpay_payments_v1_PayOrderHistory, _agentpay_payments_v1_PayOrderHistory__Output>
        PayOrderHistoryRequest: MessageTypeDefinition<_agentpay_payments_v1_PayOrderHistoryRequest, _agentpay_payments_v1_PayOrderHistoryRequest__Output>
        PayOrderRef: MessageTypeDefinition<_agentpay_payments_v1_PayOrderRef, _agentpay_payments_v1_PayOrderRef__Output>
        PayOrderStatusChange: MessageTypeDefinition<_agentpay_payments_v1_PayOrderStatusChange, _agentpay_payments_v1_PayOrderStatusChange__Output>
        PaymentService: SubtypeConstructor<typeof grpc.Client, _agentpay_payments_v1_PaymentServiceClient> & { service: _agentpay_payments_v1_PaymentServiceDefinition }
        SyncPayOrderResponse: MessageTypeDefinition<_agentpay_payments_v1_SyncPayOrderResponse, _agentpay_payments_v1_SyncPayOrderResponse__Output>
      }
    }
  }
}

