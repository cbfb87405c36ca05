import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from './agentpay/common/v1/MerchantContext.js';
import type { Option as _agentpay_common_v1_Option, Option__Output as _agentpay_common_v1_Option__Output } from './agentpay/common/v1/Option.js';
import type { OptionList as _agentpay_common_v1_OptionList, OptionList__Output as _agentpay_common_v1_OptionList__Output } from './agentpay/common/v1/OptionList.js';
import type { OrderStatusChanged as _agentpay_events_v1_OrderStatusChanged, OrderStatusChanged__Output as _agentpay_events_v1_OrderStatusChanged__Output } from './agentpay/events/v1/OrderStatusChanged.js';
import type { ApplyUpstreamPaymentRequest as _agentpay_payments_v1_ApplyUpstreamPaymentRequest, ApplyUpstreamPaymentRequest__Output as _agentpay_payments_v1_ApplyUpstreamPaymentRequest__Output } from './agentpay/payments/v1/ApplyUpstreamPaymentRequest.js';
import type { ApplyUpstreamPaymentResponse as _agentpay_payments_v1_ApplyUpstreamPaymentResponse, ApplyUpstreamPaymentResponse__Output as _agentpay_payments_v1_ApplyUpstreamPaymentResponse__Output } from './agentpay/payments/v1/ApplyUpstreamPaymentResponse.js';
import type { ClosePayOrderRequest as _agentpay_payments_v1_ClosePayOrderRequest, ClosePayOrderRequest__Output as _agentpay_payments_v1_ClosePayOrderRequest__Output } from './agentpay/payments/v1/ClosePayOrderRequest.js';
import type { ClosePayOrderResponse as _agentpay_payments_v1_ClosePayOrderResponse, ClosePayOrderResponse__Output as _agentpay_payments_v1_ClosePayOrderResponse__Output } from './agentpay/payments/v1/ClosePayOrderResponse.js';
import type { CreatePayOrderRequest as _agentpay_payments_v1_CreatePayOrderRequest, CreatePayOrderRequest__Output as _agentpay_payments_v1_CreatePayOrderRequest__Output } from './agentpay/payments/v1/CreatePayOrderRequest.js';
import type { CreatePayOrderResponse as _agentpay_payments_v1_CreatePayOrderResponse, CreatePayOrderResponse__Output as _agentpay_payments_v1_CreatePayOrderResponse__Output } from './agentpay/payments/v1/CreatePayOrderResponse.js';
import type { PayOrder as _agentpay_payments_v1_PayOrder, PayOrder__Output as _agentpay_payments_v1_PayOrder__Output } from './agentpay/payments/v1/PayOrder.js';
import type { PayOrderRef as _agentpay_payments_v1_PayOrderRef, PayOrderRef__Output as _agentpay_payments_v1_PayOrderRef__Output } from './agentpay/payments/v1/PayOrderRef.js';
import type { PaymentServiceClient as _agentpay_payments_v1_PaymentServiceClient, PaymentServiceDefinition as _agentpay_payments_v1_PaymentServiceDefinition } from './agentpay/payments/v1/PaymentService.js';
import type { SyncPayOrderResponse as _agentpay_payments_v1_SyncPayOrderResponse, SyncPayOrderResponse__Output as _agentpay_payments_v1_SyncPayOrderResponse__Output } from './agentpay/payments/v1/SyncPayOrderResponse.js';
import type { ApplyUpstreamPayoutRequest as _agentpay_transfers_v1_ApplyUpstreamPayoutRequest, ApplyUpstreamPayoutRequest__Output as _agentpay_transfers_v1_ApplyUpstreamPayoutRequest__Output } from './agentpay/transfers/v1/ApplyUpstreamPayoutRequest.js';
import type { ApplyUpstreamPayoutResponse as _agentpay_transfers_v1_ApplyUpstreamPayoutResponse, ApplyUpstreamPayoutResponse__Output as _agentpay_transfers_v1_ApplyUpstreamPayoutResponse__Output } from './agentpay/transfers/v1/ApplyUpstreamPayoutResponse.js';
import type { CreateTransferRequest as _agentpay_transfers_v1_CreateTransferRequest, CreateTransferRequest__Output as _agentpay_transfers_v1_CreateTransferRequest__Output } from './agentpay/transfers/v1/CreateTransferRequest.js';
import type { CreateTransferResponse as _agentpay_transfers_v1_CreateTransferResponse, CreateTransferResponse__Output as _agentpay_transfers_v1_CreateTransferResponse__Output } from './agentpay/transfers/v1/CreateTransferResponse.js';
import type { InquireRequest as _agentpay_transfers_v1_InquireRequest, InquireRequest__Output as _agentpay_transfers_v1_InquireRequest__Output } from './agentpay/transfers/v1/InquireRequest.js';
import type { Inquiry as _agentpay_transfers_v1_Inquiry, Inquiry__Output as _agentpay_transfers_v1_Inquiry__Output } from './agentpay/transfers/v1/Inquiry.js';
import type { Transfer as _agentpay_transfers_v1_Transfer, Transfer__Output as _agentpay_transfers_v1_Transfer__Output } from './agentpay/transfers/v1/Transfer.js';
import type { TransferRef as _agentpay_transfers_v1_TransferRef, TransferRef__Output as _agentpay_transfers_v1_TransferRef__Output } from './agentpay/transfers/v1/TransferRef.js';
import type { TransferServiceClient as _agentpay_transfers_v1_TransferServiceClient, TransferServiceDefinition as _agentpay_transfers_v1_TransferServiceDefinition } from './agentpay/transfers/v1/TransferService.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  agentpay: {
    common: {
      v1: {
        MerchantContext: MessageTypeDefinition<_agentpay_common_v1_MerchantContext, _agentpay_common_v1_MerchantContext__Output>
        Option: MessageTypeDefinition<_agentpay_common_v1_Option, _agentpay_common_v1_Option__Output>
        OptionList: MessageTypeDefinition<_agentpay_common_v1_OptionList, _agentpay_common_v1_OptionList__Output>
      }
    }
    events: {
      v1: {
        OrderStatusChanged: MessageTypeDefinition<_agentpay_events_v1_OrderStatusChanged, _agentpay_events_v1_OrderStatusChanged__Output>
      }
    }
    payments: {
      v1: {
        ApplyUpstreamPaymentRequest: MessageTypeDefinition<_agentpay_payments_v1_ApplyUpstreamPaymentRequest, _agentpay_payments_v1_ApplyUpstreamPaymentRequest__Output>
        ApplyUpstreamPaymentResponse: MessageTypeDefinition<_agentpay_payments_v1_ApplyUpstreamPaymentResponse, _agentpay_payments_v1_ApplyUpstreamPaymentResponse__Output>
        ClosePayOrderRequest: MessageTypeDefinition<_agentpay_payments_v1_ClosePayOrderRequest, _agentpay_payments_v1_ClosePayOrderRequest__Output>
        ClosePayOrderResponse: MessageTypeDefinition<_agentpay_payments_v1_ClosePayOrderResponse, _agentpay_payments_v1_ClosePayOrderResponse__Output>
        CreatePayOrderRequest: MessageTypeDefinition<_agentpay_payments_v1_CreatePayOrderRequest, _agentpay_payments_v1_CreatePayOrderRequest__Output>
        CreatePayOrderResponse: MessageTypeDefinition<_agentpay_payments_v1_CreatePayOrderResponse, _agentpay_payments_v1_CreatePayOrderResponse__Output>
        PayOrder: MessageTypeDefinition<_agentpay_payments_v1_PayOrder, _agentpay_payments_v1_PayOrder__Output>
        PayOrderRef: MessageTypeDefinition<_agentpay_payments_v1_PayOrderRef, _agentpay_payments_v1_PayOrderRef__Output>
        PaymentService: SubtypeConstructor<typeof grpc.Client, _agentpay_payments_v1_PaymentServiceClient> & { service: _agentpay_payments_v1_PaymentServiceDefinition }
        SyncPayOrderResponse: MessageTypeDefinition<_agentpay_payments_v1_SyncPayOrderResponse, _agentpay_payments_v1_SyncPayOrderResponse__Output>
      }
    }
    transfers: {
      v1: {
        ApplyUpstreamPayoutRequest: MessageTypeDefinition<_agentpay_transfers_v1_ApplyUpstreamPayoutRequest, _agentpay_transfers_v1_ApplyUpstreamPayoutRequest__Output>
        ApplyUpstreamPayoutResponse: MessageTypeDefinition<_agentpay_transfers_v1_ApplyUpstreamPayoutResponse, _agentpay_transfers_v1_ApplyUpstreamPayoutResponse__Output>
        CreateTransferRequest: MessageTypeDefinition<_agentpay_transfers_v1_CreateTransferRequest, _agentpay_transfers_v1_CreateTransferRequest__Output>
        CreateTransferResponse: MessageTypeDefinition<_agentpay_transfers_v1_CreateTransferResponse, _agentpay_transfers_v1_CreateTransferResponse__Output>
        InquireRequest: MessageTypeDefinition<_agentpay_transfers_v1_InquireRequest, _agentpay_transfers_v1_InquireRequest__Output>
        Inquiry: MessageTypeDefinition<_agentpay_transfers_v1_Inquiry, _agentpay_transfers_v1_Inquiry__Output>
        Transfer: MessageTypeDefinition<_agentpay_transfers_v1_Transfer, _agentpay_transfers_v1_Transfer__Output>
        TransferRef: MessageTypeDefinition<_agentpay_transfers_v1_TransferRef, _agentpay_transfers_v1_TransferRef__Output>
        TransferService: SubtypeConstructor<typeof grpc.Client, _agentpay_transfers_v1_TransferServiceClient> & { service: _agentpay_transfers_v1_TransferServiceDefinition }
      }
    }
  }
}

