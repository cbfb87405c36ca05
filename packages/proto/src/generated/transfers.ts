import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Limit as _agentpay_common_v1_Limit, Limit__Output as _agentpay_common_v1_Limit__Output } from './agentpay/common/v1/Limit.js';
import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from './agentpay/common/v1/MerchantContext.js';
import type { Option as _agentpay_common_v1_Option, Option__Output as _agentpay_common_v1_Option__Output } from './agentpay/common/v1/Option.js';
import type { OptionList as _agentpay_common_v1_OptionList, OptionList__Output as _agentpay_common_v1_OptionList__Output } from './agentpay/common/v1/OptionList.js';
import type { PayoutLimits as _agentpay_common_v1_PayoutLimits, PayoutLimits__Output as _agentpay_common_v1_PayoutLimits__Output } from './agentpay/common/v1/PayoutLimits.js';
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

