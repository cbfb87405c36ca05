// Original file: proto/ledger/v1/ledger.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AdjustRequest as _agentpay_ledger_v1_AdjustRequest, AdjustRequest__Output as _agentpay_ledger_v1_AdjustRequest__Output } from '../../../agentpay/ledger/v1/AdjustRequest.js';
import type { AdjustResponse as _agentpay_ledger_v1_AdjustResponse, AdjustResponse__Output as _agentpay_ledger_v1_AdjustResponse__Output } from '../../../agentpay/ledger/v1/AdjustResponse.js';
import type { CheckRequest as _agentpay_ledger_v1_CheckRequest, CheckRequest__Output as _agentpay_ledger_v1_CheckRequest__Output } from '../../../agentpay/ledger/v1/CheckRequest.js';
import type { CheckResponse as _agentpay_ledger_v1_CheckResponse, CheckResponse__Output as _agentpay_ledger_v1_CheckResponse__Output } from '../../../agentpay/ledger/v1/CheckResponse.js';
import type { Discrepancy as _agentpay_ledger_v1_Discrepancy, Discrepancy__Output as _agentpay_ledger_v1_Discrepancy__Output } from '../../../agentpay/ledger/v1/Discrepancy.js';
import type { DiscrepancyKey as _agentpay_ledger_v1_DiscrepancyKey, DiscrepancyKey__Output as _agentpay_ledger_v1_DiscrepancyKey__Output } from '../../../agentpay/ledger/v1/DiscrepancyKey.js';
import type { FreezeBatchRequest as _agentpay_ledger_v1_FreezeBatchRequest, FreezeBatchRequest__Output as _agentpay_ledger_v1_FreezeBatchRequest__Output } from '../../../agentpay/ledger/v1/FreezeBatchRequest.js';
import type { FreezeBatchResponse as _agentpay_ledger_v1_FreezeBatchResponse, FreezeBatchResponse__Output as _agentpay_ledger_v1_FreezeBatchResponse__Output } from '../../../agentpay/ledger/v1/FreezeBatchResponse.js';
import type { FreezeRequest as _agentpay_ledger_v1_FreezeRequest, FreezeRequest__Output as _agentpay_ledger_v1_FreezeRequest__Output } from '../../../agentpay/ledger/v1/FreezeRequest.js';
import type { FreezeResponse as _agentpay_ledger_v1_FreezeResponse, FreezeResponse__Output as _agentpay_ledger_v1_FreezeResponse__Output } from '../../../agentpay/ledger/v1/FreezeResponse.js';
import type { GetBalanceRequest as _agentpay_ledger_v1_GetBalanceRequest, GetBalanceRequest__Output as _agentpay_ledger_v1_GetBalanceRequest__Output } from '../../../agentpay/ledger/v1/GetBalanceRequest.js';
import type { GetPayoutUsageRequest as _agentpay_ledger_v1_GetPayoutUsageRequest, GetPayoutUsageRequest__Output as _agentpay_ledger_v1_GetPayoutUsageRequest__Output } from '../../../agentpay/ledger/v1/GetPayoutUsageRequest.js';
import type { GetStatementRequest as _agentpay_ledger_v1_GetStatementRequest, GetStatementRequest__Output as _agentpay_ledger_v1_GetStatementRequest__Output } from '../../../agentpay/ledger/v1/GetStatementRequest.js';
import type { GetStatementResponse as _agentpay_ledger_v1_GetStatementResponse, GetStatementResponse__Output as _agentpay_ledger_v1_GetStatementResponse__Output } from '../../../agentpay/ledger/v1/GetStatementResponse.js';
import type { ListDiscrepanciesRequest as _agentpay_ledger_v1_ListDiscrepanciesRequest, ListDiscrepanciesRequest__Output as _agentpay_ledger_v1_ListDiscrepanciesRequest__Output } from '../../../agentpay/ledger/v1/ListDiscrepanciesRequest.js';
import type { ListDiscrepanciesResponse as _agentpay_ledger_v1_ListDiscrepanciesResponse, ListDiscrepanciesResponse__Output as _agentpay_ledger_v1_ListDiscrepanciesResponse__Output } from '../../../agentpay/ledger/v1/ListDiscrepanciesResponse.js';
import type { ListReconciliationRunsRequest as _agentpay_ledger_v1_ListReconciliationRunsRequest, ListReconciliationRunsRequest__Output as _agentpay_ledger_v1_ListReconciliationRunsRequest__Output } from '../../../agentpay/ledger/v1/ListReconciliationRunsRequest.js';
import type { ListReconciliationRunsResponse as _agentpay_ledger_v1_ListReconciliationRunsResponse, ListReconciliationRunsResponse__Output as _agentpay_ledger_v1_ListReconciliationRunsResponse__Output } from '../../../agentpay/ledger/v1/ListReconciliationRunsResponse.js';
import type { ListRecordsRequest as _agentpay_ledger_v1_ListRecordsRequest, ListRecordsRequest__Output as _agentpay_ledger_v1_ListRecordsRequest__Output } from '../../../agentpay/ledger/v1/ListRecordsRequest.js';
import type { ListRecordsResponse as _agentpay_ledger_v1_ListRecordsResponse, ListRecordsResponse__Output as _agentpay_ledger_v1_ListRecordsResponse__Output } from '../../../agentpay/ledger/v1/ListRecordsResponse.js';
import type { ListSettlementRunsRequest as _agentpay_ledger_v1_ListSettlementRunsRequest, ListSettlementRunsRequest__Output as _agentpay_ledger_v1_ListSettlementRunsRequest__Output } from '../../../agentpay/ledger/v1/ListSettlementRunsRequest.js';
import type { ListSettlementRunsResponse as _agentpay_ledger_v1_ListSettlementRunsResponse, ListSettlementRunsResponse__Output as _agentpay_ledger_v1_ListSettlementRunsResponse__Output } from '../../../agentpay/ledger/v1/ListSettlementRunsResponse.js';
import type { ListSettlementsRequest as _agentpay_ledger_v1_ListSettlementsRequest, ListSettlementsRequest__Output as _agentpay_ledger_v1_ListSettlementsRequest__Output } from '../../../agentpay/ledger/v1/ListSettlementsRequest.js';
import type { ListSettlementsResponse as _agentpay_ledger_v1_ListSettlementsResponse, ListSettlementsResponse__Output as _agentpay_ledger_v1_ListSettlementsResponse__Output } from '../../../agentpay/ledger/v1/ListSettlementsResponse.js';
import type { MerchantBalance as _agentpay_ledger_v1_MerchantBalance, MerchantBalance__Output as _agentpay_ledger_v1_MerchantBalance__Output } from '../../../agentpay/ledger/v1/MerchantBalance.js';
import type { OrderEntriesRequest as _agentpay_ledger_v1_OrderEntriesRequest, OrderEntriesRequest__Output as _agentpay_ledger_v1_OrderEntriesRequest__Output } from '../../../agentpay/ledger/v1/OrderEntriesRequest.js';
import type { PayoutUsage as _agentpay_ledger_v1_PayoutUsage, PayoutUsage__Output as _agentpay_ledger_v1_PayoutUsage__Output } from '../../../agentpay/ledger/v1/PayoutUsage.js';
import type { ResolveDiscrepancyRequest as _agentpay_ledger_v1_ResolveDiscrepancyRequest, ResolveDiscrepancyRequest__Output as _agentpay_ledger_v1_ResolveDiscrepancyRequest__Output } from '../../../agentpay/ledger/v1/ResolveDiscrepancyRequest.js';
import type { RunReconciliationRequest as _agentpay_ledger_v1_RunReconciliationRequest, RunReconciliationRequest__Output as _agentpay_ledger_v1_RunReconciliationRequest__Output } from '../../../agentpay/ledger/v1/RunReconciliationRequest.js';
import type { RunReconciliationResponse as _agentpay_ledger_v1_RunReconciliationResponse, RunReconciliationResponse__Output as _agentpay_ledger_v1_RunReconciliationResponse__Output } from '../../../agentpay/ledger/v1/RunReconciliationResponse.js';
import type { RunSettlementRequest as _agentpay_ledger_v1_RunSettlementRequest, RunSettlementRequest__Output as _agentpay_ledger_v1_RunSettlementRequest__Output } from '../../../agentpay/ledger/v1/RunSettlementRequest.js';
import type { RunSettlementResponse as _agentpay_ledger_v1_RunSettlementResponse, RunSettlementResponse__Output as _agentpay_ledger_v1_RunSettlementResponse__Output } from '../../../agentpay/ledger/v1/RunSettlementResponse.js';
import type { VoidFreezeRequest as _agentpay_ledger_v1_VoidFreezeRequest, VoidFreezeRequest__Output as _agentpay_ledger_v1_VoidFreezeRequest__Output } from '../../../agentpay/ledger/v1/VoidFreezeRequest.js';
import type { VoidFreezeResponse as _agentpay_ledger_v1_VoidFreezeResponse, VoidFreezeResponse__Output as _agentpay_ledger_v1_VoidFreezeResponse__Output } from '../../../agentpay/ledger/v1/VoidFreezeResponse.js';

export interface LedgerServiceClient extends grpc.Client {
  /**
   * An operator's correction of available, against the adjustments account. Idempotent by reference;
   * a debit beyond available is refused with FAILED_PRECONDITION / INSUFFICIENT_BALANCE.
   */
  Adjust(argument: _agentpay_ledger_v1_AdjustRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_AdjustResponse__Output>): grpc.ClientUnaryCall;
  Adjust(argument: _agentpay_ledger_v1_AdjustRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_AdjustResponse__Output>): grpc.ClientUnaryCall;
  Adjust(argument: _agentpay_ledger_v1_AdjustRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_AdjustResponse__Output>): grpc.ClientUnaryCall;
  Adjust(argument: _agentpay_ledger_v1_AdjustRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_AdjustResponse__Output>): grpc.ClientUnaryCall;
  /**
   * An operator's correction of available, against the adjustments account. Idempotent by reference;
   * a debit beyond available is refused with FAILED_PRECONDITION / INSUFFICIENT_BALANCE.
   */
  adjust(argument: _agentpay_ledger_v1_AdjustRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_AdjustResponse__Output>): grpc.ClientUnaryCall;
  adjust(argument: _agentpay_ledger_v1_AdjustRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_AdjustResponse__Output>): grpc.ClientUnaryCall;
  adjust(argument: _agentpay_ledger_v1_AdjustRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_AdjustResponse__Output>): grpc.ClientUnaryCall;
  adjust(argument: _agentpay_ledger_v1_AdjustRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_AdjustResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Verifies the books' invariants.
   */
  Check(argument: _agentpay_ledger_v1_CheckRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  Check(argument: _agentpay_ledger_v1_CheckRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  Check(argument: _agentpay_ledger_v1_CheckRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  Check(argument: _agentpay_ledger_v1_CheckRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Verifies the books' invariants.
   */
  check(argument: _agentpay_ledger_v1_CheckRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  check(argument: _agentpay_ledger_v1_CheckRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  check(argument: _agentpay_ledger_v1_CheckRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  check(argument: _agentpay_ledger_v1_CheckRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Holds amount + fee of a transfer (available -> frozen) and counts its amount in the merchant's
   * payout usage of the day and month, in one transaction. Idempotent by transfer_no. Refused with
   * FAILED_PRECONDITION / PAYOUT_LIMIT_EXCEEDED (the message names the limit, e.g. payout.daily) when it
   * would pass one of `limits`, with FAILED_PRECONDITION / INSUFFICIENT_BALANCE when available < amount +
   * fee (nothing is written in either case), and with FAILED_PRECONDITION / DUPLICATE_TRANSFER when the
   * transfer_no was voided before.
   */
  Freeze(argument: _agentpay_ledger_v1_FreezeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeResponse__Output>): grpc.ClientUnaryCall;
  Freeze(argument: _agentpay_ledger_v1_FreezeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeResponse__Output>): grpc.ClientUnaryCall;
  Freeze(argument: _agentpay_ledger_v1_FreezeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeResponse__Output>): grpc.ClientUnaryCall;
  Freeze(argument: _agentpay_ledger_v1_FreezeRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Holds amount + fee of a transfer (available -> frozen) and counts its amount in the merchant's
   * payout usage of the day and month, in one transaction. Idempotent by transfer_no. Refused with
   * FAILED_PRECONDITION / PAYOUT_LIMIT_EXCEEDED (the message names the limit, e.g. payout.daily) when it
   * would pass one of `limits`, with FAILED_PRECONDITION / INSUFFICIENT_BALANCE when available < amount +
   * fee (nothing is written in either case), and with FAILED_PRECONDITION / DUPLICATE_TRANSFER when the
   * transfer_no was voided before.
   */
  freeze(argument: _agentpay_ledger_v1_FreezeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeResponse__Output>): grpc.ClientUnaryCall;
  freeze(argument: _agentpay_ledger_v1_FreezeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeResponse__Output>): grpc.ClientUnaryCall;
  freeze(argument: _agentpay_ledger_v1_FreezeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeResponse__Output>): grpc.ClientUnaryCall;
  freeze(argument: _agentpay_ledger_v1_FreezeRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Holds every transfer of a batch payout (CONTRACT section 21) and counts each in the merchant's payout
   * usage, all in one transaction: either every item is frozen or none is. Each item is checked against
   * `limits` and the balance as the ones before it left them, so the batch is funded and limited as one.
   * Idempotent by transfer_no (a repeat of frozen items books nothing). Refusals as Freeze's.
   */
  FreezeBatch(argument: _agentpay_ledger_v1_FreezeBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeBatchResponse__Output>): grpc.ClientUnaryCall;
  FreezeBatch(argument: _agentpay_ledger_v1_FreezeBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeBatchResponse__Output>): grpc.ClientUnaryCall;
  FreezeBatch(argument: _agentpay_ledger_v1_FreezeBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeBatchResponse__Output>): grpc.ClientUnaryCall;
  FreezeBatch(argument: _agentpay_ledger_v1_FreezeBatchRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeBatchResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Holds every transfer of a batch payout (CONTRACT section 21) and counts each in the merchant's payout
   * usage, all in one transaction: either every item is frozen or none is. Each item is checked against
   * `limits` and the balance as the ones before it left them, so the batch is funded and limited as one.
   * Idempotent by transfer_no (a repeat of frozen items books nothing). Refusals as Freeze's.
   */
  freezeBatch(argument: _agentpay_ledger_v1_FreezeBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeBatchResponse__Output>): grpc.ClientUnaryCall;
  freezeBatch(argument: _agentpay_ledger_v1_FreezeBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeBatchResponse__Output>): grpc.ClientUnaryCall;
  freezeBatch(argument: _agentpay_ledger_v1_FreezeBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeBatchResponse__Output>): grpc.ClientUnaryCall;
  freezeBatch(argument: _agentpay_ledger_v1_FreezeBatchRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_FreezeBatchResponse__Output>): grpc.ClientUnaryCall;
  
  GetBalance(argument: _agentpay_ledger_v1_GetBalanceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_MerchantBalance__Output>): grpc.ClientUnaryCall;
  GetBalance(argument: _agentpay_ledger_v1_GetBalanceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_MerchantBalance__Output>): grpc.ClientUnaryCall;
  GetBalance(argument: _agentpay_ledger_v1_GetBalanceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_MerchantBalance__Output>): grpc.ClientUnaryCall;
  GetBalance(argument: _agentpay_ledger_v1_GetBalanceRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_MerchantBalance__Output>): grpc.ClientUnaryCall;
  getBalance(argument: _agentpay_ledger_v1_GetBalanceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_MerchantBalance__Output>): grpc.ClientUnaryCall;
  getBalance(argument: _agentpay_ledger_v1_GetBalanceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_MerchantBalance__Output>): grpc.ClientUnaryCall;
  getBalance(argument: _agentpay_ledger_v1_GetBalanceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_MerchantBalance__Output>): grpc.ClientUnaryCall;
  getBalance(argument: _agentpay_ledger_v1_GetBalanceRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_MerchantBalance__Output>): grpc.ClientUnaryCall;
  
  /**
   * Errors: NOT_FOUND.
   */
  GetDiscrepancy(argument: _agentpay_ledger_v1_DiscrepancyKey, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  GetDiscrepancy(argument: _agentpay_ledger_v1_DiscrepancyKey, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  GetDiscrepancy(argument: _agentpay_ledger_v1_DiscrepancyKey, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  GetDiscrepancy(argument: _agentpay_ledger_v1_DiscrepancyKey, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  /**
   * Errors: NOT_FOUND.
   */
  getDiscrepancy(argument: _agentpay_ledger_v1_DiscrepancyKey, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  getDiscrepancy(argument: _agentpay_ledger_v1_DiscrepancyKey, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  getDiscrepancy(argument: _agentpay_ledger_v1_DiscrepancyKey, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  getDiscrepancy(argument: _agentpay_ledger_v1_DiscrepancyKey, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  
  /**
   * A merchant's payout usage today and this month (Mexico City), as Freeze counts it.
   */
  GetPayoutUsage(argument: _agentpay_ledger_v1_GetPayoutUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_PayoutUsage__Output>): grpc.ClientUnaryCall;
  GetPayoutUsage(argument: _agentpay_ledger_v1_GetPayoutUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_PayoutUsage__Output>): grpc.ClientUnaryCall;
  GetPayoutUsage(argument: _agentpay_ledger_v1_GetPayoutUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_PayoutUsage__Output>): grpc.ClientUnaryCall;
  GetPayoutUsage(argument: _agentpay_ledger_v1_GetPayoutUsageRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_PayoutUsage__Output>): grpc.ClientUnaryCall;
  /**
   * A merchant's payout usage today and this month (Mexico City), as Freeze counts it.
   */
  getPayoutUsage(argument: _agentpay_ledger_v1_GetPayoutUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_PayoutUsage__Output>): grpc.ClientUnaryCall;
  getPayoutUsage(argument: _agentpay_ledger_v1_GetPayoutUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_PayoutUsage__Output>): grpc.ClientUnaryCall;
  getPayoutUsage(argument: _agentpay_ledger_v1_GetPayoutUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_PayoutUsage__Output>): grpc.ClientUnaryCall;
  getPayoutUsage(argument: _agentpay_ledger_v1_GetPayoutUsageRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_PayoutUsage__Output>): grpc.ClientUnaryCall;
  
  /**
   * A merchant's statement of [start_time, end_time): the balance at its start and at its end, and its
   * entries oldest first, keyset-paged like ListRecords but with no limit on the span (the console's and
   * the dashboard's statements and their CSV). Errors: INVALID_ARGUMENT.
   */
  GetStatement(argument: _agentpay_ledger_v1_GetStatementRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_GetStatementResponse__Output>): grpc.ClientUnaryCall;
  GetStatement(argument: _agentpay_ledger_v1_GetStatementRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_GetStatementResponse__Output>): grpc.ClientUnaryCall;
  GetStatement(argument: _agentpay_ledger_v1_GetStatementRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_GetStatementResponse__Output>): grpc.ClientUnaryCall;
  GetStatement(argument: _agentpay_ledger_v1_GetStatementRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_GetStatementResponse__Output>): grpc.ClientUnaryCall;
  /**
   * A merchant's statement of [start_time, end_time): the balance at its start and at its end, and its
   * entries oldest first, keyset-paged like ListRecords but with no limit on the span (the console's and
   * the dashboard's statements and their CSV). Errors: INVALID_ARGUMENT.
   */
  getStatement(argument: _agentpay_ledger_v1_GetStatementRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_GetStatementResponse__Output>): grpc.ClientUnaryCall;
  getStatement(argument: _agentpay_ledger_v1_GetStatementRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_GetStatementResponse__Output>): grpc.ClientUnaryCall;
  getStatement(argument: _agentpay_ledger_v1_GetStatementRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_GetStatementResponse__Output>): grpc.ClientUnaryCall;
  getStatement(argument: _agentpay_ledger_v1_GetStatementRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_GetStatementResponse__Output>): grpc.ClientUnaryCall;
  
  ListDiscrepancies(argument: _agentpay_ledger_v1_ListDiscrepanciesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListDiscrepanciesResponse__Output>): grpc.ClientUnaryCall;
  ListDiscrepancies(argument: _agentpay_ledger_v1_ListDiscrepanciesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_ListDiscrepanciesResponse__Output>): grpc.ClientUnaryCall;
  ListDiscrepancies(argument: _agentpay_ledger_v1_ListDiscrepanciesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListDiscrepanciesResponse__Output>): grpc.ClientUnaryCall;
  ListDiscrepancies(argument: _agentpay_ledger_v1_ListDiscrepanciesRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_ListDiscrepanciesResponse__Output>): grpc.ClientUnaryCall;
  listDiscrepancies(argument: _agentpay_ledger_v1_ListDiscrepanciesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListDiscrepanciesResponse__Output>): grpc.ClientUnaryCall;
  listDiscrepancies(argument: _agentpay_ledger_v1_ListDiscrepanciesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_ListDiscrepanciesResponse__Output>): grpc.ClientUnaryCall;
  listDiscrepancies(argument: _agentpay_ledger_v1_ListDiscrepanciesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListDiscrepanciesResponse__Output>): grpc.ClientUnaryCall;
  listDiscrepancies(argument: _agentpay_ledger_v1_ListDiscrepanciesRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_ListDiscrepanciesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Every entry citing one pay order or one transfer, oldest first (at most a handful; not paged).
   */
  ListOrderEntries(argument: _agentpay_ledger_v1_OrderEntriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  ListOrderEntries(argument: _agentpay_ledger_v1_OrderEntriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  ListOrderEntries(argument: _agentpay_ledger_v1_OrderEntriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  ListOrderEntries(argument: _agentpay_ledger_v1_OrderEntriesRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Every entry citing one pay order or one transfer, oldest first (at most a handful; not paged).
   */
  listOrderEntries(argument: _agentpay_ledger_v1_OrderEntriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  listOrderEntries(argument: _agentpay_ledger_v1_OrderEntriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  listOrderEntries(argument: _agentpay_ledger_v1_OrderEntriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  listOrderEntries(argument: _agentpay_ledger_v1_OrderEntriesRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The runs (recon_runs) newest first, keyset-paged, by day and route; every attempt, failed ones too.
   * Errors: INVALID_ARGUMENT (a bad filter or cursor).
   */
  ListReconciliationRuns(argument: _agentpay_ledger_v1_ListReconciliationRunsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListReconciliationRunsResponse__Output>): grpc.ClientUnaryCall;
  ListReconciliationRuns(argument: _agentpay_ledger_v1_ListReconciliationRunsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_ListReconciliationRunsResponse__Output>): grpc.ClientUnaryCall;
  ListReconciliationRuns(argument: _agentpay_ledger_v1_ListReconciliationRunsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListReconciliationRunsResponse__Output>): grpc.ClientUnaryCall;
  ListReconciliationRuns(argument: _agentpay_ledger_v1_ListReconciliationRunsRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_ListReconciliationRunsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The runs (recon_runs) newest first, keyset-paged, by day and route; every attempt, failed ones too.
   * Errors: INVALID_ARGUMENT (a bad filter or cursor).
   */
  listReconciliationRuns(argument: _agentpay_ledger_v1_ListReconciliationRunsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListReconciliationRunsResponse__Output>): grpc.ClientUnaryCall;
  listReconciliationRuns(argument: _agentpay_ledger_v1_ListReconciliationRunsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_ListReconciliationRunsResponse__Output>): grpc.ClientUnaryCall;
  listReconciliationRuns(argument: _agentpay_ledger_v1_ListReconciliationRunsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListReconciliationRunsResponse__Output>): grpc.ClientUnaryCall;
  listReconciliationRuns(argument: _agentpay_ledger_v1_ListReconciliationRunsRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_ListReconciliationRunsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The merchant's entries in [start_time, end_time), oldest first, keyset-paged.
   */
  ListRecords(argument: _agentpay_ledger_v1_ListRecordsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  ListRecords(argument: _agentpay_ledger_v1_ListRecordsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  ListRecords(argument: _agentpay_ledger_v1_ListRecordsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  ListRecords(argument: _agentpay_ledger_v1_ListRecordsRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The merchant's entries in [start_time, end_time), oldest first, keyset-paged.
   */
  listRecords(argument: _agentpay_ledger_v1_ListRecordsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  listRecords(argument: _agentpay_ledger_v1_ListRecordsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  listRecords(argument: _agentpay_ledger_v1_ListRecordsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  listRecords(argument: _agentpay_ledger_v1_ListRecordsRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_ListRecordsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The settlement runs (settlement_runs) newest first, keyset-paged: every RunSettlement, and each timer
   * round that settled something or failed. Errors: INVALID_ARGUMENT (a bad limit or cursor).
   */
  ListSettlementRuns(argument: _agentpay_ledger_v1_ListSettlementRunsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementRunsResponse__Output>): grpc.ClientUnaryCall;
  ListSettlementRuns(argument: _agentpay_ledger_v1_ListSettlementRunsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementRunsResponse__Output>): grpc.ClientUnaryCall;
  ListSettlementRuns(argument: _agentpay_ledger_v1_ListSettlementRunsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementRunsResponse__Output>): grpc.ClientUnaryCall;
  ListSettlementRuns(argument: _agentpay_ledger_v1_ListSettlementRunsRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementRunsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The settlement runs (settlement_runs) newest first, keyset-paged: every RunSettlement, and each timer
   * round that settled something or failed. Errors: INVALID_ARGUMENT (a bad limit or cursor).
   */
  listSettlementRuns(argument: _agentpay_ledger_v1_ListSettlementRunsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementRunsResponse__Output>): grpc.ClientUnaryCall;
  listSettlementRuns(argument: _agentpay_ledger_v1_ListSettlementRunsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementRunsResponse__Output>): grpc.ClientUnaryCall;
  listSettlementRuns(argument: _agentpay_ledger_v1_ListSettlementRunsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementRunsResponse__Output>): grpc.ClientUnaryCall;
  listSettlementRuns(argument: _agentpay_ledger_v1_ListSettlementRunsRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementRunsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Each merchant's last settlement (its latest settled pay-in, a REALTIME one at its pay time) and what
   * still waits in pending, keyset-paged by merchant. Errors: INVALID_ARGUMENT.
   */
  ListSettlements(argument: _agentpay_ledger_v1_ListSettlementsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementsResponse__Output>): grpc.ClientUnaryCall;
  ListSettlements(argument: _agentpay_ledger_v1_ListSettlementsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementsResponse__Output>): grpc.ClientUnaryCall;
  ListSettlements(argument: _agentpay_ledger_v1_ListSettlementsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementsResponse__Output>): grpc.ClientUnaryCall;
  ListSettlements(argument: _agentpay_ledger_v1_ListSettlementsRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Each merchant's last settlement (its latest settled pay-in, a REALTIME one at its pay time) and what
   * still waits in pending, keyset-paged by merchant. Errors: INVALID_ARGUMENT.
   */
  listSettlements(argument: _agentpay_ledger_v1_ListSettlementsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementsResponse__Output>): grpc.ClientUnaryCall;
  listSettlements(argument: _agentpay_ledger_v1_ListSettlementsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementsResponse__Output>): grpc.ClientUnaryCall;
  listSettlements(argument: _agentpay_ledger_v1_ListSettlementsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementsResponse__Output>): grpc.ClientUnaryCall;
  listSettlements(argument: _agentpay_ledger_v1_ListSettlementsRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_ListSettlementsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Records an operator's resolution. `credit` books an adjust entry for the order's merchant citing the
   * discrepancy; `return` books and submits a payout back to the sender; `apply` records that the order
   * was synced (the caller syncs it; the pay-in books from its event as usual). Errors: NOT_FOUND,
   * INVALID_ARGUMENT (the action does not fit the kind), FAILED_PRECONDITION / ALREADY_RESOLVED.
   */
  ResolveDiscrepancy(argument: _agentpay_ledger_v1_ResolveDiscrepancyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  ResolveDiscrepancy(argument: _agentpay_ledger_v1_ResolveDiscrepancyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  ResolveDiscrepancy(argument: _agentpay_ledger_v1_ResolveDiscrepancyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  ResolveDiscrepancy(argument: _agentpay_ledger_v1_ResolveDiscrepancyRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  /**
   * Records an operator's resolution. `credit` books an adjust entry for the order's merchant citing the
   * discrepancy; `return` books and submits a payout back to the sender; `apply` records that the order
   * was synced (the caller syncs it; the pay-in books from its event as usual). Errors: NOT_FOUND,
   * INVALID_ARGUMENT (the action does not fit the kind), FAILED_PRECONDITION / ALREADY_RESOLVED.
   */
  resolveDiscrepancy(argument: _agentpay_ledger_v1_ResolveDiscrepancyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  resolveDiscrepancy(argument: _agentpay_ledger_v1_ResolveDiscrepancyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  resolveDiscrepancy(argument: _agentpay_ledger_v1_ResolveDiscrepancyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  resolveDiscrepancy(argument: _agentpay_ledger_v1_ResolveDiscrepancyRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_Discrepancy__Output>): grpc.ClientUnaryCall;
  
  /**
   * Reconciliation (CONTRACT.md section 14). Runs one day for one route, or for every route when
   * route_id is empty; idempotent (a discrepancy already found is kept, a resolved one never reopened).
   * A route whose statement cannot be read is answered with state failed and the others still run; the
   * call itself fails only for a bad day (INVALID_ARGUMENT) or when the router's list of routes cannot be
   * read. The admin API answers 503 when every route asked for failed.
   */
  RunReconciliation(argument: _agentpay_ledger_v1_RunReconciliationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_RunReconciliationResponse__Output>): grpc.ClientUnaryCall;
  RunReconciliation(argument: _agentpay_ledger_v1_RunReconciliationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_RunReconciliationResponse__Output>): grpc.ClientUnaryCall;
  RunReconciliation(argument: _agentpay_ledger_v1_RunReconciliationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_RunReconciliationResponse__Output>): grpc.ClientUnaryCall;
  RunReconciliation(argument: _agentpay_ledger_v1_RunReconciliationRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_RunReconciliationResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Reconciliation (CONTRACT.md section 14). Runs one day for one route, or for every route when
   * route_id is empty; idempotent (a discrepancy already found is kept, a resolved one never reopened).
   * A route whose statement cannot be read is answered with state failed and the others still run; the
   * call itself fails only for a bad day (INVALID_ARGUMENT) or when the router's list of routes cannot be
   * read. The admin API answers 503 when every route asked for failed.
   */
  runReconciliation(argument: _agentpay_ledger_v1_RunReconciliationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_RunReconciliationResponse__Output>): grpc.ClientUnaryCall;
  runReconciliation(argument: _agentpay_ledger_v1_RunReconciliationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_RunReconciliationResponse__Output>): grpc.ClientUnaryCall;
  runReconciliation(argument: _agentpay_ledger_v1_RunReconciliationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_RunReconciliationResponse__Output>): grpc.ClientUnaryCall;
  runReconciliation(argument: _agentpay_ledger_v1_RunReconciliationRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_RunReconciliationResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Settles every pay-in due by `until` (default now).
   */
  RunSettlement(argument: _agentpay_ledger_v1_RunSettlementRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_RunSettlementResponse__Output>): grpc.ClientUnaryCall;
  RunSettlement(argument: _agentpay_ledger_v1_RunSettlementRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_RunSettlementResponse__Output>): grpc.ClientUnaryCall;
  RunSettlement(argument: _agentpay_ledger_v1_RunSettlementRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_RunSettlementResponse__Output>): grpc.ClientUnaryCall;
  RunSettlement(argument: _agentpay_ledger_v1_RunSettlementRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_RunSettlementResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Settles every pay-in due by `until` (default now).
   */
  runSettlement(argument: _agentpay_ledger_v1_RunSettlementRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_RunSettlementResponse__Output>): grpc.ClientUnaryCall;
  runSettlement(argument: _agentpay_ledger_v1_RunSettlementRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_RunSettlementResponse__Output>): grpc.ClientUnaryCall;
  runSettlement(argument: _agentpay_ledger_v1_RunSettlementRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_RunSettlementResponse__Output>): grpc.ClientUnaryCall;
  runSettlement(argument: _agentpay_ledger_v1_RunSettlementRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_RunSettlementResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Releases the freeze of a transfer that was never created, and leaves a tombstone so that a late
   * Freeze of the same transfer_no is refused. Idempotent.
   */
  VoidFreeze(argument: _agentpay_ledger_v1_VoidFreezeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_VoidFreezeResponse__Output>): grpc.ClientUnaryCall;
  VoidFreeze(argument: _agentpay_ledger_v1_VoidFreezeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_VoidFreezeResponse__Output>): grpc.ClientUnaryCall;
  VoidFreeze(argument: _agentpay_ledger_v1_VoidFreezeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_VoidFreezeResponse__Output>): grpc.ClientUnaryCall;
  VoidFreeze(argument: _agentpay_ledger_v1_VoidFreezeRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_VoidFreezeResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Releases the freeze of a transfer that was never created, and leaves a tombstone so that a late
   * Freeze of the same transfer_no is refused. Idempotent.
   */
  voidFreeze(argument: _agentpay_ledger_v1_VoidFreezeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_VoidFreezeResponse__Output>): grpc.ClientUnaryCall;
  voidFreeze(argument: _agentpay_ledger_v1_VoidFreezeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_ledger_v1_VoidFreezeResponse__Output>): grpc.ClientUnaryCall;
  voidFreeze(argument: _agentpay_ledger_v1_VoidFreezeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_ledger_v1_VoidFreezeResponse__Output>): grpc.ClientUnaryCall;
  voidFreeze(argument: _agentpay_ledger_v1_VoidFreezeRequest, callback: grpc.requestCallback<_agentpay_ledger_v1_VoidFreezeResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface LedgerServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * An operator's correction of available, against the adjustments account. Idempotent by reference;
   * a debit beyond available is refused with FAILED_PRECONDITION / INSUFFICIENT_BALANCE.
   */
  Adjust: grpc.handleUnaryCall<_agentpay_ledger_v1_AdjustRequest__Output, _agentpay_ledger_v1_AdjustResponse>;
  
  /**
   * Verifies the books' invariants.
   */
  Check: grpc.handleUnaryCall<_agentpay_ledger_v1_CheckRequest__Output, _agentpay_ledger_v1_CheckResponse>;
  
  /**
   * Holds amount + fee of a transfer (available -> frozen) and counts its amount in the merchant's
   * payout usage of the day and month, in one transaction. Idempotent by transfer_no. Refused with
   * FAILED_PRECONDITION / PAYOUT_LIMIT_EXCEEDED (the message names the limit, e.g. payout.daily) when it
   * would pass one of `limits`, with FAILED_PRECONDITION / INSUFFICIENT_BALANCE when available < amount +
   * fee (nothing is written in either case), and with FAILED_PRECONDITION / DUPLICATE_TRANSFER when the
   * transfer_no was voided before.
   */
  Freeze: grpc.handleUnaryCall<_agentpay_ledger_v1_FreezeRequest__Output, _agentpay_ledger_v1_FreezeResponse>;
  
  /**
   * Holds every transfer of a batch payout (CONTRACT section 21) and counts each in the merchant's payout
   * usage, all in one transaction: either every item is frozen or none is. Each item is checked against
   * `limits` and the balance as the ones before it left them, so the batch is funded and limited as one.
   * Idempotent by transfer_no (a repeat of frozen items books nothing). Refusals as Freeze's.
   */
  FreezeBatch: grpc.handleUnaryCall<_agentpay_ledger_v1_FreezeBatchRequest__Output, _agentpay_ledger_v1_FreezeBatchResponse>;
  
  GetBalance: grpc.handleUnaryCall<_agentpay_ledger_v1_GetBalanceRequest__Output, _agentpay_ledger_v1_MerchantBalance>;
  
  /**
   * Errors: NOT_FOUND.
   */
  GetDiscrepancy: grpc.handleUnaryCall<_agentpay_ledger_v1_DiscrepancyKey__Output, _agentpay_ledger_v1_Discrepancy>;
  
  /**
   * A merchant's payout usage today and this month (Mexico City), as Freeze counts it.
   */
  GetPayoutUsage: grpc.handleUnaryCall<_agentpay_ledger_v1_GetPayoutUsageRequest__Output, _agentpay_ledger_v1_PayoutUsage>;
  
  /**
   * A merchant's statement of [start_time, end_time): the balance at its start and at its end, and its
   * entries oldest first, keyset-paged like ListRecords but with no limit on the span (the console's and
   * the dashboard's statements and their CSV). Errors: INVALID_ARGUMENT.
   */
  GetStatement: grpc.handleUnaryCall<_agentpay_ledger_v1_GetStatementRequest__Output, _agentpay_ledger_v1_GetStatementResponse>;
  
  ListDiscrepancies: grpc.handleUnaryCall<_agentpay_ledger_v1_ListDiscrepanciesRequest__Output, _agentpay_ledger_v1_ListDiscrepanciesResponse>;
  
  /**
   * Every entry citing one pay order or one transfer, oldest first (at most a handful; not paged).
   */
  ListOrderEntries: grpc.handleUnaryCall<_agentpay_ledger_v1_OrderEntriesRequest__Output, _agentpay_ledger_v1_ListRecordsResponse>;
  
  /**
   * The runs (recon_runs) newest first, keyset-paged, by day and route; every attempt, failed ones too.
   * Errors: INVALID_ARGUMENT (a bad filter or cursor).
   */
  ListReconciliationRuns: grpc.handleUnaryCall<_agentpay_ledger_v1_ListReconciliationRunsRequest__Output, _agentpay_ledger_v1_ListReconciliationRunsResponse>;
  
  /**
   * The merchant's entries in [start_time, end_time), oldest first, keyset-paged.
   */
  ListRecords: grpc.handleUnaryCall<_agentpay_ledger_v1_ListRecordsRequest__Output, _agentpay_ledger_v1_ListRecordsResponse>;
  
  /**
   * The settlement runs (settlement_runs) newest first, keyset-paged: every RunSettlement, and each timer
   * round that settled something or failed. Errors: INVALID_ARGUMENT (a bad limit or cursor).
   */
  ListSettlementRuns: grpc.handleUnaryCall<_agentpay_ledger_v1_ListSettlementRunsRequest__Output, _agentpay_ledger_v1_ListSettlementRunsResponse>;
  
  /**
   * Each merchant's last settlement (its latest settled pay-in, a REALTIME one at its pay time) and what
   * still waits in pending, keyset-paged by merchant. Errors: INVALID_ARGUMENT.
   */
  ListSettlements: grpc.handleUnaryCall<_agentpay_ledger_v1_ListSettlementsRequest__Output, _agentpay_ledger_v1_ListSettlementsResponse>;
  
  /**
   * Records an operator's resolution. `credit` books an adjust entry for the order's merchant citing the
   * discrepancy; `return` books and submits a payout back to the sender; `apply` records that the order
   * was synced (the caller syncs it; the pay-in books from its event as usual). Errors: NOT_FOUND,
   * INVALID_ARGUMENT (the action does not fit the kind), FAILED_PRECONDITION / ALREADY_RESOLVED.
   */
  ResolveDiscrepancy: grpc.handleUnaryCall<_agentpay_ledger_v1_ResolveDiscrepancyRequest__Output, _agentpay_ledger_v1_Discrepancy>;
  
  /**
   * Reconciliation (CONTRACT.md section 14). Runs one day for one route, or for every route when
   * route_id is empty; idempotent (a discrepancy already found is kept, a resolved one never reopened).
   * A route whose statement cannot be read is answered with state failed and the others still run; the
   * call itself fails only for a bad day (INVALID_ARGUMENT) or when the router's list of routes cannot be
   * read. The admin API answers 503 when every route asked for failed.
   */
  RunReconciliation: grpc.handleUnaryCall<_agentpay_ledger_v1_RunReconciliationRequest__Output, _agentpay_ledger_v1_RunReconciliationResponse>;
  
  /**
   * Settles every pay-in due by `until` (default now).
   */
  RunSettlement: grpc.handleUnaryCall<_agentpay_ledger_v1_RunSettlementRequest__Output, _agentpay_ledger_v1_RunSettlementResponse>;
  
  /**
   * Releases the freeze of a transfer that was never created, and leaves a tombstone so that a late
   * Freeze of the same transfer_no is refused. Idempotent.
   */
  VoidFreeze: grpc.handleUnaryCall<_agentpay_ledger_v1_VoidFreezeRequest__Output, _agentpay_ledger_v1_VoidFreezeResponse>;
  
}

export interface LedgerServiceDefinition extends grpc.ServiceDefinition {
  Adjust: MethodDefinition<_agentpay_ledger_v1_AdjustRequest, _agentpay_ledger_v1_AdjustResponse, _agentpay_ledger_v1_AdjustRequest__Output, _agentpay_ledger_v1_AdjustResponse__Output>
  Check: MethodDefinition<_agentpay_ledger_v1_CheckRequest, _agentpay_ledger_v1_CheckResponse, _agentpay_ledger_v1_CheckRequest__Output, _agentpay_ledger_v1_CheckResponse__Output>
  Freeze: MethodDefinition<_agentpay_ledger_v1_FreezeRequest, _agentpay_ledger_v1_FreezeResponse, _agentpay_ledger_v1_FreezeRequest__Output, _agentpay_ledger_v1_FreezeResponse__Output>
  FreezeBatch: MethodDefinition<_agentpay_ledger_v1_FreezeBatchRequest, _agentpay_ledger_v1_FreezeBatchResponse, _agentpay_ledger_v1_FreezeBatchRequest__Output, _agentpay_ledger_v1_FreezeBatchResponse__Output>
  GetBalance: MethodDefinition<_agentpay_ledger_v1_GetBalanceRequest, _agentpay_ledger_v1_MerchantBalance, _agentpay_ledger_v1_GetBalanceRequest__Output, _agentpay_ledger_v1_MerchantBalance__Output>
  GetDiscrepancy: MethodDefinition<_agentpay_ledger_v1_DiscrepancyKey, _agentpay_ledger_v1_Discrepancy, _agentpay_ledger_v1_DiscrepancyKey__Output, _agentpay_ledger_v1_Discrepancy__Output>
  GetPayoutUsage: MethodDefinition<_agentpay_ledger_v1_GetPayoutUsageRequest, _agentpay_ledger_v1_PayoutUsage, _agentpay_ledger_v1_GetPayoutUsageRequest__Output, _agentpay_ledger_v1_PayoutUsage__Output>
  GetStatement: MethodDefinition<_agentpay_ledger_v1_GetStatementRequest, _agentpay_ledger_v1_GetStatementResponse, _agentpay_ledger_v1_GetStatementRequest__Output, _agentpay_ledger_v1_GetStatementResponse__Output>
  ListDiscrepancies: MethodDefinition<_agentpay_ledger_v1_ListDiscrepanciesRequest, _agentpay_ledger_v1_ListDiscrepanciesResponse, _agentpay_ledger_v1_ListDiscrepanciesRequest__Output, _agentpay_ledger_v1_ListDiscrepanciesResponse__Output>
  ListOrderEntries: MethodDefinition<_agentpay_ledger_v1_OrderEntriesRequest, _agentpay_ledger_v1_ListRecordsResponse, _agentpay_ledger_v1_OrderEntriesRequest__Output, _agentpay_ledger_v1_ListRecordsResponse__Output>
  ListReconciliationRuns: MethodDefinition<_agentpay_ledger_v1_ListReconciliationRunsRequest, _agentpay_ledger_v1_ListReconciliationRunsResponse, _agentpay_ledger_v1_ListReconciliationRunsRequest__Output, _agentpay_ledger_v1_ListReconciliationRunsResponse__Output>
  ListRecords: MethodDefinition<_agentpay_ledger_v1_ListRecordsRequest, _agentpay_ledger_v1_ListRecordsResponse, _agentpay_ledger_v1_ListRecordsRequest__Output, _agentpay_ledger_v1_ListRecordsResponse__Output>
  ListSettlementRuns: MethodDefinition<_agentpay_ledger_v1_ListSettlementRunsRequest, _agentpay_ledger_v1_ListSettlementRunsResponse, _agentpay_ledger_v1_ListSettlementRunsRequest__Output, _agentpay_ledger_v1_ListSettlementRunsResponse__Output>
  ListSettlements: MethodDefinition<_agentpay_ledger_v1_ListSettlementsRequest, _agentpay_ledger_v1_ListSettlementsResponse, _agentpay_ledger_v1_ListSettlementsRequest__Output, _agentpay_ledger_v1_ListSettlementsResponse__Output>
  ResolveDiscrepancy: MethodDefinition<_agentpay_ledger_v1_ResolveDiscrepancyRequest, _agentpay_ledger_v1_Discrepancy, _agentpay_ledger_v1_ResolveDiscrepancyRequest__Output, _agentpay_ledger_v1_Discrepancy__Output>
  RunReconciliation: MethodDefinition<_agentpay_ledger_v1_RunReconciliationRequest, _agentpay_ledger_v1_RunReconciliationResponse, _agentpay_ledger_v1_RunReconciliationRequest__Output, _agentpay_ledger_v1_RunReconciliationResponse__Output>
  RunSettlement: MethodDefinition<_agentpay_ledger_v1_RunSettlementRequest, _agentpay_ledger_v1_RunSettlementResponse, _agentpay_ledger_v1_RunSettlementRequest__Output, _agentpay_ledger_v1_RunSettlementResponse__Output>
  VoidFreeze: MethodDefinition<_agentpay_ledger_v1_VoidFreezeRequest, _agentpay_ledger_v1_VoidFreezeResponse, _agentpay_ledger_v1_VoidFreezeRequest__Output, _agentpay_ledger_v1_VoidFreezeResponse__Output>
}
