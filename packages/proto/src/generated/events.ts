import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Limit as _agentpay_common_v1_Limit, Limit__Output as _agentpay_common_v1_Limit__Output } from './agentpay/common/v1/Limit.js';
import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from './agentpay/common/v1/MerchantContext.js';
import type { Option as _agentpay_common_v1_Option, Option__Output as _agentpay_common_v1_Option__Output } from './agentpay/common/v1/Option.js';
import type { OptionList as _agentpay_common_v1_OptionList, OptionList__Output as _agentpay_common_v1_OptionList__Output } from './agentpay/common/v1/OptionList.js';
import type { PayoutLimits as _agentpay_common_v1_PayoutLimits, PayoutLimits__Output as _agentpay_common_v1_PayoutLimits__Output } from './agentpay/common/v1/PayoutLimits.js';
import type { NoticeReceived as _agentpay_events_v1_NoticeReceived, NoticeReceived__Output as _agentpay_events_v1_NoticeReceived__Output } from './agentpay/events/v1/NoticeReceived.js';
import type { OrderSettled as _agentpay_events_v1_OrderSettled, OrderSettled__Output as _agentpay_events_v1_OrderSettled__Output } from './agentpay/events/v1/OrderSettled.js';
import type { OrderStatusChanged as _agentpay_events_v1_OrderStatusChanged, OrderStatusChanged__Output as _agentpay_events_v1_OrderStatusChanged__Output } from './agentpay/events/v1/OrderStatusChanged.js';
import type { PaymentNotice as _agentpay_events_v1_PaymentNotice, PaymentNotice__Output as _agentpay_events_v1_PaymentNotice__Output } from './agentpay/events/v1/PaymentNotice.js';
import type { PayoutNotice as _agentpay_events_v1_PayoutNotice, PayoutNotice__Output as _agentpay_events_v1_PayoutNotice__Output } from './agentpay/events/v1/PayoutNotice.js';
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
import type { CreateRefundRequest as _agentpay_transfers_v1_CreateRefundRequest, CreateRefundRequest__Output as _agentpay_transfers_v1_CreateRefundRequest__Output } from './agentpay/transfers/v1/CreateRefundRequest.js';
import type { CreateTransferBatchRequest as _agentpay_transfers_v1_CreateTransferBatchRequest, CreateTransferBatchRequest__Output as _agentpay_transfers_v1_CreateTransferBatchRequest__Output } from './agentpay/transfers/v1/CreateTransferBatchRequest.js';
import type { CreateTransferBatchResponse as _agentpay_transfers_v1_CreateTransferBatchResponse, CreateTransferBatchResponse__Output as _agentpay_transfers_v1_CreateTransferBatchResponse__Output } from './agentpay/transfers/v1/CreateTransferBatchResponse.js';
import type { CreateTransferRequest as _agentpay_transfers_v1_CreateTransferRequest, CreateTransferRequest__Output as _agentpay_transfers_v1_CreateTransferRequest__Output } from './agentpay/transfers/v1/CreateTransferRequest.js';
import type { CreateTransferResponse as _agentpay_transfers_v1_CreateTransferResponse, CreateTransferResponse__Output as _agentpay_transfers_v1_CreateTransferResponse__Output } from './agentpay/transfers/v1/CreateTransferResponse.js';
import type { HeldTransferRef as _agentpay_transfers_v1_HeldTransferRef, HeldTransferRef__Output as _agentpay_transfers_v1_HeldTransferRef__Output } from './agentpay/transfers/v1/HeldTransferRef.js';
import type { InquireRequest as _agentpay_transfers_v1_InquireRequest, InquireRequest__Output as _agentpay_transfers_v1_InquireRequest__Output } from './agentpay/transfers/v1/InquireRequest.js';
import type { Inquiry as _agentpay_transfers_v1_Inquiry, Inquiry__Output as _agentpay_transfers_v1_Inquiry__Output } from './agentpay/transfers/v1/Inquiry.js';
import type { ListPayeesRequest as _agentpay_transfers_v1_ListPayeesRequest, ListPayeesRequest__Output as _agentpay_transfers_v1_ListPayeesRequest__Output } from './agentpay/transfers/v1/ListPayeesRequest.js';
import type { ListPayeesResponse as _agentpay_transfers_v1_ListPayeesResponse, ListPayeesResponse__Output as _agentpay_transfers_v1_ListPayeesResponse__Output } from './agentpay/transfers/v1/ListPayeesResponse.js';
import type { ListTransfersRequest as _agentpay_transfers_v1_ListTransfersRequest, ListTransfersRequest__Output as _agentpay_transfers_v1_ListTransfersRequest__Output } from './agentpay/transfers/v1/ListTransfersRequest.js';
import type { ListTransfersResponse as _agentpay_transfers_v1_ListTransfersResponse, ListTransfersResponse__Output as _agentpay_transfers_v1_ListTransfersResponse__Output } from './agentpay/transfers/v1/ListTransfersResponse.js';
import type { PayeeAction as _agentpay_transfers_v1_PayeeAction, PayeeAction__Output as _agentpay_transfers_v1_PayeeAction__Output } from './agentpay/transfers/v1/PayeeAction.js';
import type { RefundRef as _agentpay_transfers_v1_RefundRef, RefundRef__Output as _agentpay_transfers_v1_RefundRef__Output } from './agentpay/transfers/v1/RefundRef.js';
import type { RegisterPayeeRequest as _agentpay_transfers_v1_RegisterPayeeRequest, RegisterPayeeRequest__Output as _agentpay_transfers_v1_RegisterPayeeRequest__Output } from './agentpay/transfers/v1/RegisterPayeeRequest.js';
import type { RegisterPayeeResponse as _agentpay_transfers_v1_RegisterPayeeResponse, RegisterPayeeResponse__Output as _agentpay_transfers_v1_RegisterPayeeResponse__Output } from './agentpay/transfers/v1/RegisterPayeeResponse.js';
import type { RegisteredPayee as _agentpay_transfers_v1_RegisteredPayee, RegisteredPayee__Output as _agentpay_transfers_v1_RegisteredPayee__Output } from './agentpay/transfers/v1/RegisteredPayee.js';
import type { Transfer as _agentpay_transfers_v1_Transfer, Transfer__Output as _agentpay_transfers_v1_Transfer__Output } from './agentpay/transfers/v1/Transfer.js';
import type { TransferBatch as _agentpay_transfers_v1_TransferBatch, TransferBatch__Output as _agentpay_transfers_v1_TransferBatch__Output } from './agentpay/transfers/v1/TransferBatch.js';
import type { TransferBatchItem as _agentpay_transfers_v1_TransferBatchItem, TransferBatchItem__Output as _agentpay_transfers_v1_TransferBatchItem__Output } from './agentpay/transfers/v1/TransferBatchItem.js';
import type { TransferBatchPage as _agentpay_transfers_v1_TransferBatchPage, TransferBatchPage__Output as _agentpay_transfers_v1_TransferBatchPage__Output } from './agentpay/transfers/v1/TransferBatchPage.js';
import type { TransferBatchRef as _agentpay_transfers_v1_TransferBatchRef, TransferBatchRef__Output as _agentpay_transfers_v1_TransferBatchRef__Output } from './agentpay/transfers/v1/TransferBatchRef.js';
import type { TransferHistory as _agentpay_transfers_v1_TransferHistory, TransferHistory__Output as _agentpay_transfers_v1_TransferHistory__Output } from './agentpay/transfers/v1/TransferHistory.js';
import type { TransferHistoryRequest as _agentpay_transfers_v1_TransferHistoryRequest, TransferHistoryRequest__Output as _agentpay_transfers_v1_TransferHistoryRequest__Output } from './agentpay/transfers/v1/TransferHistoryRequest.js';
import type { TransferRef as _agentpay_transfers_v1_TransferRef, TransferRef__Output as _agentpay_transfers_v1_TransferRef__Output } from './agentpay/transfers/v1/TransferRef.js';
import type { TransferServiceClient as _agentpay_transfers_v1_TransferServiceClient, TransferServiceDefinition as _agentpay_transfers_v1_TransferServiceDefinition } from './agentpay/transfers/v1/TransferService.js';
import type { TransferStatusChange as _agentpay_transfers_v1_TransferStatusChange, TransferStatusChange__Output as _agentpay_transfers_v1_TransferStatusChange__Output } from './agentpay/transfers/v1/TransferStatusChange.js';

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
    events: {
      v1: {
        NoticeReceived: MessageTypeDefinition<_agentpay_events_v1_NoticeReceived, _agentpay_events_v1_NoticeReceived__Output>
        OrderSettled: MessageTypeDefinition<_agentpay_events_v1_OrderSettled, _agentpay_events_v1_OrderSettled__Output>
        OrderStatusChanged: MessageTypeDefinition<_agentpay_events_v1_OrderStatusChanged, _agentpay_events_v1_OrderStatusChanged__Output>
        PaymentNotice: MessageTypeDefinition<_agentpay_events_v1_PaymentNotice, _agentpay_events_v1_PaymentNotice__Output>
        PayoutNotice: MessageTypeDefinition<_agentpay_events_v1_PayoutNotice, _agentpay_events_v1_PayoutNotice__Output>
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
    transfers: {
      v1: {
        CreateRefundRequest: MessageTypeDefinition<_agentpay_transfers_v1_CreateRefundRequest, _agentpay_transfers_v1_CreateRefundRequest__Output>
        CreateTransferBatchRequest: MessageTypeDefinition<_agentpay_transfers_v1_CreateTransferBatchRequest, _agentpay_transfers_v1_CreateTransferBatchRequest__Output>
        CreateTransferBatchResponse: MessageTypeDefinition<_agentpay_transfers_v1_CreateTransferBatchResponse, _agentpay_transfers_v1_CreateTransferBatchResponse__Output>
        CreateTransferRequest: MessageTypeDefinition<_agentpay_transfers_v1_CreateTransferRequest, _agentpay_transfers_v1_CreateTransferRequest__Output>
        CreateTransferResponse: MessageTypeDefinition<_agentpay_transfers_v1_CreateTransferResponse, _agentpay_transfers_v1_CreateTransferResponse__Output>
        HeldTransferRef: MessageTypeDefinition<_agentpay_transfers_v1_HeldTransferRef, _agentpay_transfers_v1_HeldTransferRef__Output>
        InquireRequest: MessageTypeDefinition<_agentpay_transfers_v1_InquireRequest, _agentpay_transfers_v1_InquireRequest__Output>
        Inquiry: MessageTypeDefinition<_agentpay_transfers_v1_Inquiry, _agentpay_transfers_v1_Inquiry__Output>
        ListPayeesRequest: MessageTypeDefinition<_agentpay_transfers_v1_ListPayeesRequest, _agentpay_transfers_v1_ListPayeesRequest__Output>
        ListPayeesResponse: MessageTypeDefinition<_agentpay_transfers_v1_ListPayeesResponse, _agentpay_transfers_v1_ListPayeesResponse__Output>
        ListTransfersRequest: MessageTypeDefinition<_agentpay_transfers_v1_ListTransfersRequest, _agentpay_transfers_v1_ListTransfersRequest__Output>
        ListTransfersResponse: MessageTypeDefinition<_agentpay_transfers_v1_ListTransfersResponse, _agentpay_transfers_v1_ListTransfersResponse__Output>
        PayeeAction: MessageTypeDefinition<_agentpay_transfers_v1_PayeeAction, _agentpay_transfers_v1_PayeeAction__Output>
        RefundRef: MessageTypeDefinition<_agentpay_transfers_v1_RefundRef, _agentpay_transfers_v1_RefundRef__Output>
        RegisterPayeeRequest: MessageTypeDefinition<_agentpay_transfers_v1_RegisterPayeeRequest, _agentpay_transfers_v1_RegisterPayeeRequest__Output>
        RegisterPayeeResponse: MessageTypeDefinition<_agentpay_transfers_v1_RegisterPayeeResponse, _agentpay_transfers_v1_RegisterPayeeResponse__Output>
        RegisteredPayee: MessageTypeDefinition<_agentpay_transfers_v1_RegisteredPayee, _agentpay_transfers_v1_RegisteredPayee__Output>
        Transfer: MessageTypeDefinition<_agentpay_transfers_v1_Transfer, _agentpay_transfers_v1_Transfer__Output>
        TransferBatch: MessageTypeDefinition<_agentpay_transfers_v1_TransferBatch, _agentpay_transfers_v1_TransferBatch__Output>
        TransferBatchItem: MessageTypeDefinition<_agentpay_transfers_v1_TransferBatchItem, _agentpay_transfers_v1_TransferBatchItem__Output>
        TransferBatchPage: MessageTypeDefinition<_agentpay_transfers_v1_TransferBatchPage, _agentpay_transfers_v1_TransferBatchPage__Output>
        TransferBatchRef: MessageTypeDefinition<_agentpay_transfers_v1_TransferBatchRef, _agentpay_transfers_v1_TransferBatchRef__Output>
        TransferHistory: MessageTypeDefinition<_agentpay_transfers_v1_TransferHistory, _agentpay_transfers_v1_TransferHistory__Output>
        TransferHistoryRequest: MessageTypeDefinition<_agentpay_transfers_v1_TransferHistoryRequest, _agentpay_transfers_v1_TransferHistoryRequest__Output>
        TransferRef: MessageTypeDefinition<_agentpay_transfers_v1_TransferRef, _agentpay_transfers_v1_TransferRef__Output>
        TransferService: SubtypeConstructor<typeof grpc.Client, _agentpay_transfers_v1_TransferServiceClient> & { service: _agentpay_transfers_v1_TransferServiceDefinition }
        TransferStatusChange: MessageTypeDefinition<_agentpay_transfers_v1_TransferStatusChange, _agentpay_transfers_v1_TransferStatusChange__Output>
      }
    }
  }
}

