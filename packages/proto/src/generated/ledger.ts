import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Limit as _agentpay_common_v1_Limit, Limit__Output as _agentpay_common_v1_Limit__Output } from './agentpay/common/v1/Limit.js';
import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from './agentpay/common/v1/MerchantContext.js';
import type { Option as _agentpay_common_v1_Option, Option__Output as _agentpay_common_v1_Option__Output } from './agentpay/common/v1/Option.js';
import type { OptionList as _agentpay_common_v1_OptionList, OptionList__Output as _agentpay_common_v1_OptionList__Output } from './agentpay/common/v1/OptionList.js';
import type { PayoutLimits as _agentpay_common_v1_PayoutLimits, PayoutLimits__Output as _agentpay_common_v1_PayoutLimits__Output } from './agentpay/common/v1/PayoutLimits.js';
import type { AdjustRequest as _agentpay_ledger_v1_AdjustRequest, AdjustRequest__Output as _agentpay_ledger_v1_AdjustRequest__Output } from './agentpay/ledger/v1/AdjustRequest.js';
import type { AdjustResponse as _agentpay_ledger_v1_AdjustResponse, AdjustResponse__Output as _agentpay_ledger_v1_AdjustResponse__Output } from './agentpay/ledger/v1/AdjustResponse.js';
import type { CheckRequest as _agentpay_ledger_v1_CheckRequest, CheckRequest__Output as _agentpay_ledger_v1_CheckRequest__Output } from './agentpay/ledger/v1/CheckRequest.js';
import type { CheckResponse as _agentpay_ledger_v1_CheckResponse, CheckResponse__Output as _agentpay_ledger_v1_CheckResponse__Output } from './agentpay/ledger/v1/CheckResponse.js';
import type { Discrepancy as _agentpay_ledger_v1_Discrepancy, Discrepancy__Output as _agentpay_ledger_v1_Discrepancy__Output } from './agentpay/ledger/v1/Discrepancy.js';
import type { DiscrepancyKey as _agentpay_ledger_v1_DiscrepancyKey, DiscrepancyKey__Output as _agentpay_ledger_v1_DiscrepancyKey__Output } from './agentpay/ledger/v1/DiscrepancyKey.js';
import type { FreezeBatchItem as _agentpay_ledger_v1_FreezeBatchItem, FreezeBatchItem__Output as _agentpay_ledger_v1_FreezeBatchItem__Output } from './agentpay/ledger/v1/FreezeBatchItem.js';
import type { FreezeBatchRequest as _agentpay_ledger_v1_FreezeBatchRequest, FreezeBatchRequest__Output as _agentpay_ledger_v1_FreezeBatchRequest__Output } from './agentpay/ledger/v1/FreezeBatchRequest.js';
import type { FreezeBatchResponse as _agentpay_ledger_v1_FreezeBatchResponse, FreezeBatchResponse__Output as _agentpay_ledger_v1_FreezeBatchResponse__Output } from './agentpay/ledger/v1/FreezeBatchResponse.js';
import type { FreezeRequest as _agentpay_ledger_v1_FreezeRequest, FreezeRequest__Output as _agentpay_ledger_v1_FreezeRequest__Output } from './agentpay/ledger/v1/FreezeRequest.js';
import type { FreezeResponse as _agentpay_ledger_v1_FreezeResponse, FreezeResponse__Output as _agentpay_ledger_v1_FreezeResponse__Output } from './agentpay/ledger/v1/FreezeResponse.js';
import type { GetBalanceRequest as _agentpay_ledger_v1_GetBalanceRequest, GetBalanceRequest__Output as _agentpay_ledger_v1_GetBalanceRequest__Output } from './agentpay/ledger/v1/GetBalanceRequest.js';
import type { GetPayoutUsageRequest as _agentpay_ledger_v1_GetPayoutUsageRequest, GetPayoutUsageRequest__Output as _agentpay_ledger_v1_GetPayoutUsageRequest__Output } from './agentpay/ledger/v1/GetPayoutUsageRequest.js';
import type { GetStatementRequest as _agentpay_ledger_v1_GetStatementRequest, GetStatementRequest__Output as _agentpay_ledger_v1_GetStatementRequest__Output } from './agentpay/ledger/v1/GetStatementRequest.js';
import type { GetStatementResponse as _agentpay_ledger_v1_GetStatementResponse, GetStatementResponse__Output as _agentpay_ledger_v1_GetStatementResponse__Output } from './agentpay/ledger/v1/GetStatementResponse.js';
import type { LedgerRecord as _agentpay_ledger_v1_LedgerRecord, LedgerRecord__Output as _agentpay_ledger_v1_LedgerRecord__Output } from './agentpay/ledger/v1/LedgerRecord.js';
import type { LedgerServiceClient as _agentpay_ledger_v1_LedgerServiceClient, LedgerServiceDefinition as _agentpay_ledger_v1_LedgerServiceDefinition } from './agentpay/ledger/v1/LedgerService.js';
import type { ListDiscrepanciesRequest as _agentpay_ledger_v1_ListDiscrepanciesRequest, ListDiscrepanciesRequest__Output as _agentpay_ledger_v1_ListDiscrepanciesRequest__Output } from './agentpay/ledger/v1/ListDiscrepanciesRequest.js';
import type { ListDiscrepanciesResponse as _agentpay_ledger_v1_ListDiscrepanciesResponse, ListDiscrepanciesResponse__Output as _agentpay_ledger_v1_ListDiscrepanciesResponse__Output } from './agentpay/ledger/v1/ListDiscrepanciesResponse.js';
import type { ListReconciliationRunsRequest as _agentpay_ledger_v1_ListReconciliationRunsRequest, ListReconciliationRunsRequest__Output as _agentpay_ledger_v1_ListReconciliationRunsRequest__Output } from './agentpay/ledger/v1/ListReconciliationRunsRequest.js';
import type { ListReconciliationRunsResponse as _agentpay_ledger_v1_ListReconciliationRunsResponse, ListReconciliationRunsResponse__Output as _agentpay_ledger_v1_ListReconciliationRunsResponse__Output } from './agentpay/ledger/v1/ListReconciliationRunsResponse.js';
import type { ListRecordsRequest as _agentpay_ledger_v1_ListRecordsRequest, ListRecordsRequest__Output as _agentpay_ledger_v1_ListRecordsRequest__Output } from './agentpay/ledger/v1/ListRecordsRequest.js';
import type { ListRecordsResponse as _agentpay_ledger_v1_ListRecordsResponse, ListRecordsResponse__Output as _agentpay_ledger_v1_ListRecordsResponse__Output } from './agentpay/ledger/v1/ListRecordsResponse.js';
import type { ListSettlementRunsRequest as _agentpay_ledger_v1_ListSettlementRunsRequest, ListSettlementRunsRequest__Output as _agentpay_ledger_v1_ListSettlementRunsRequest__Output } from './agentpay/ledger/v1/ListSettlementRunsRequest.js';
import type { ListSettlementRunsResponse as _agentpay_ledger_v1_ListSettlementRunsResponse, ListSettlementRunsResponse__Output as _agentpay_ledger_v1_ListSettlementRunsResponse__Output } from './agentpay/ledger/v1/ListSettlementRunsResponse.js';
import type { ListSettlementsRequest as _agentpay_ledger_v1_ListSettlementsRequest, ListSettlementsRequest__Output as _agentpay_ledger_v1_ListSettlementsRequest__Output } from './agentpay/ledger/v1/ListSettlementsRequest.js';
import type { ListSettlementsResponse as _agentpay_ledger_v1_ListSettlementsResponse, ListSettlementsResponse__Output as _agentpay_ledger_v1_ListSettlementsResponse__Output } from './agentpay/ledger/v1/ListSettlementsResponse.js';
import type { MerchantBalance as _agentpay_ledger_v1_MerchantBalance, MerchantBalance__Output as _agentpay_ledger_v1_MerchantBalance__Output } from './agentpay/ledger/v1/MerchantBalance.js';
import type { MerchantSettlement as _agentpay_ledger_v1_MerchantSettlement, MerchantSettlement__Output as _agentpay_ledger_v1_MerchantSettlement__Output } from './agentpay/ledger/v1/MerchantSettlement.js';
import type { OrderEntriesRequest as _agentpay_ledger_v1_OrderEntriesRequest, OrderEntriesRequest__Output as _agentpay_ledger_v1_OrderEntriesRequest__Output } from './agentpay/ledger/v1/OrderEntriesRequest.js';
import type { PayoutUsage as _agentpay_ledger_v1_PayoutUsage, PayoutUsage__Output as _agentpay_ledger_v1_PayoutUsage__Output } from './agentpay/ledger/v1/PayoutUsage.js';
import type { ReconciliationRouteResult as _agentpay_ledger_v1_ReconciliationRouteResult, ReconciliationRouteResult__Output as _agentpay_ledger_v1_ReconciliationRouteResult__Output } from './agentpay/ledger/v1/ReconciliationRouteResult.js';
import type { ReconciliationRun as _agentpay_ledger_v1_ReconciliationRun, ReconciliationRun__Output as _agentpay_ledger_v1_ReconciliationRun__Output } from './agentpay/ledger/v1/ReconciliationRun.js';
import type { ResolveDiscrepancyRequest as _agentpay_ledger_v1_ResolveDiscrepancyRequest, ResolveDiscrepancyRequest__Output as _agentpay_ledger_v1_ResolveDiscrepancyRequest__Output } from './agentpay/ledger/v1/ResolveDiscrepancyRequest.js';
import type { RunReconciliationRequest as _agentpay_ledger_v1_RunReconciliationRequest, RunReconciliationRequest__Output as _agentpay_ledger_v1_RunReconciliationRequest__Output } from './agentpay/ledger/v1/RunReconciliationRequest.js';
import type { RunReconciliationResponse as _agentpay_ledger_v1_RunReconciliationResponse, RunReconciliationResponse__Output as _agentpay_ledger_v1_RunReconciliationResponse__Output } from './agentpay/ledger/v1/RunReconciliationResponse.js';
import type { RunSettlementRequest as _agentpay_ledger_v1_RunSettlementRequest, RunSettlementRequest__Output as _agentpay_ledger_v1_RunSettlementRequest__Output } from './agentpay/ledger/v1/RunSettlementRequest.js';
import type { RunSettlementResponse as _agentpay_ledger_v1_RunSettlementResponse, RunSettlementResponse__Output as _agentpay_ledger_v1_RunSettlementResponse__Output } from './agentpay/ledger/v1/RunSettlementResponse.js';
import type { SettlementRun as _agentpay_ledger_v1_SettlementRun, SettlementRun__Output as _agentpay_ledger_v1_SettlementRun__Output } from './agentpay/ledger/v1/SettlementRun.js';
import type { VoidFreezeRequest as _agentpay_ledger_v1_VoidFreezeRequest, VoidFreezeRequest__Output as _agentpay_ledger_v1_VoidFreezeRequest__Output } from './agentpay/ledger/v1/VoidFreezeRequest.js';
import type { VoidFreezeResponse as _agentpay_ledger_v1_VoidFreezeResponse, VoidFreezeResponse__Output as _agentpay_ledger_v1_VoidFreezeResponse__Output } from './agentpay/ledger/v1/VoidFreezeResponse.js';

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
    ledger: {
      v1: {
        AdjustRequest: MessageTypeDefinition<_agentpay_ledger_v1_AdjustRequest, _agentpay_ledger_v1_AdjustRequest__Output>
        AdjustResponse: MessageTypeDefinition<_agentpay_ledger_v1_AdjustResponse, _agentpay_ledger_v1_AdjustResponse__Output>
        CheckRequest: MessageTypeDefinition<_agentpay_ledger_v1_CheckRequest, _agentpay_ledger_v1_CheckRequest__Output>
        CheckResponse: MessageTypeDefinition<_agentpay_ledger_v1_CheckResponse, _agentpay_ledger_v1_CheckResponse__Output>
        Discrepancy: MessageTypeDefinition<_agentpay_ledger_v1_Discrepancy, _agentpay_ledger_v1_Discrepancy__Output>
        DiscrepancyKey: MessageTypeDefinition<_agentpay_ledger_v1_DiscrepancyKey, _agentpay_ledger_v1_DiscrepancyKey__Output>
        FreezeBatchItem: MessageTypeDefinition<_agentpay_ledger_v1_FreezeBatchItem, _agentpay_ledger_v1_FreezeBatchItem__Output>
        FreezeBatchRequest: MessageTypeDefinition<_agentpay_ledger_v1_FreezeBatchRequest, _agentpay_ledger_v1_FreezeBatchRequest__Output>
        FreezeBatchResponse: MessageTypeDefinition<_agentpay_ledger_v1_FreezeBatchResponse, _agentpay_ledger_v1_FreezeBatchResponse__Output>
        FreezeRequest: MessageTypeDefinition<_agentpay_ledger_v1_FreezeRequest, _agentpay_ledger_v1_FreezeRequest__Output>
        FreezeResponse: MessageTypeDefinition<_agentpay_ledger_v1_FreezeResponse, _agentpay_ledger_v1_FreezeResponse__Output>
        GetBalanceRequest: MessageTypeDefinition<_agentpay_ledger_v1_GetBalanceRequest, _agentpay_ledger_v1_GetBalanceRequest__Output>
        GetPayoutUsageRequest: MessageTypeDefinition<_agentpay_ledger_v1_GetPayoutUsageRequest, _agentpay_ledger_v1_GetPayoutUsageRequest__Output>
        GetStatementRequest: MessageTypeDefinition<_agentpay_ledger_v1_GetStatementRequest, _agentpay_ledger_v1_GetStatementRequest__Output>
        GetStatementResponse: MessageTypeDefinition<_agentpay_ledger_v1_GetStatementResponse, _agentpay_ledger_v1_GetStatementResponse__Output>
        LedgerRecord: MessageTypeDefinition<_agentpay_ledger_v1_LedgerRecord, _agentpay_ledger_v1_LedgerRecord__Output>
        LedgerService: SubtypeConstructor<typeof grpc.Client, _agentpay_ledger_v1_LedgerServiceClient> & { service: _agentpay_ledger_v1_LedgerServiceDefinition }
        ListDiscrepanciesRequest: MessageTypeDefinition<_agentpay_ledger_v1_ListDiscrepanciesRequest, _agentpay_ledger_v1_ListDiscrepanciesRequest__Output>
        ListDiscrepanciesResponse: MessageTypeDefinition<_agentpay_ledger_v1_ListDiscrepanciesResponse, _agentpay_ledger_v1_ListDiscrepanciesResponse__Output>
        ListReconciliationRunsRequest: MessageTypeDefinition<_agentpay_ledger_v1_ListReconciliationRunsRequest, _agentpay_ledger_v1_ListReconciliationRunsRequest__Output>
        ListReconciliationRunsResponse: MessageTypeDefinition<_agentpay_ledger_v1_ListReconciliationRunsResponse, _agentpay_ledger_v1_ListReconciliationRunsResponse__Output>
        ListRecordsRequest: MessageTypeDefinition<_agentpay_ledger_v1_ListRecordsRequest, _agentpay_ledger_v1_ListRecordsRequest__Output>
        ListRecordsResponse: MessageTypeDefinition<_agentpay_ledger_v1_ListRecordsResponse, _agentpay_ledger_v1_ListRecordsResponse__Output>
        ListSettlementRunsRequest: MessageTypeDefinition<_agentpay_ledger_v1_ListSettlementRunsRequest, _agentpay_ledger_v1_ListSettlementRunsRequest__Output>
        ListSettlementRunsResponse: MessageTypeDefinition<_agentpay_ledger_v1_ListSettlementRunsResponse, _agentpay_ledger_v1_ListSettlementRunsResponse__Output>
        ListSettlementsRequest: MessageTypeDefinition<_agentpay_ledger_v1_ListSettlementsRequest, _agentpay_ledger_v1_ListSettlementsRequest__Output>
        ListSettlementsResponse: MessageTypeDefinition<_agentpay_ledger_v1_ListSettlementsResponse, _agentpay_ledger_v1_ListSettlementsResponse__Output>
        MerchantBalance: MessageTypeDefinition<_agentpay_ledger_v1_MerchantBalance, _agentpay_ledger_v1_MerchantBalance__Output>
        MerchantSettlement: MessageTypeDefinition<_agentpay_ledger_v1_MerchantSettlement, _agentpay_ledger_v1_MerchantSettlement__Output>
        OrderEntriesRequest: MessageTypeDefinition<_agentpay_ledger_v1_OrderEntriesRequest, _agentpay_ledger_v1_OrderEntriesRequest__Output>
        PayoutUsage: MessageTypeDefinition<_agentpay_ledger_v1_PayoutUsage, _agentpay_ledger_v1_PayoutUsage__Output>
        ReconciliationRouteResult: MessageTypeDefinition<_agentpay_ledger_v1_ReconciliationRouteResult, _agentpay_ledger_v1_ReconciliationRouteResult__Output>
        ReconciliationRun: MessageTypeDefinition<_agentpay_ledger_v1_ReconciliationRun, _agentpay_ledger_v1_ReconciliationRun__Output>
        ResolveDiscrepancyRequest: MessageTypeDefinition<_agentpay_ledger_v1_ResolveDiscrepancyRequest, _agentpay_ledger_v1_ResolveDiscrepancyRequest__Output>
        RunReconciliationRequest: MessageTypeDefinition<_agentpay_ledger_v1_RunReconciliationRequest, _agentpay_ledger_v1_RunReconciliationRequest__Output>
        RunReconciliationResponse: MessageTypeDefinition<_agentpay_ledger_v1_RunReconciliationResponse, _agentpay_ledger_v1_RunReconciliationResponse__Output>
        RunSettlementRequest: MessageTypeDefinition<_agentpay_ledger_v1_RunSettlementRequest, _agentpay_ledger_v1_RunSettlementRequest__Output>
        RunSettlementResponse: MessageTypeDefinition<_agentpay_ledger_v1_RunSettlementResponse, _agentpay_ledger_v1_RunSettlementResponse__Output>
        SettlementRun: MessageTypeDefinition<_agentpay_ledger_v1_SettlementRun, _agentpay_ledger_v1_SettlementRun__Output>
        VoidFreezeRequest: MessageTypeDefinition<_agentpay_ledger_v1_VoidFreezeRequest, _agentpay_ledger_v1_VoidFreezeRequest__Output>
        VoidFreezeResponse: MessageTypeDefinition<_agentpay_ledger_v1_VoidFreezeResponse, _agentpay_ledger_v1_VoidFreezeResponse__Output>
      }
    }
  }
}

