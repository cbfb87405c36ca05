// Original file: proto/router/v1/router.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ChannelFacts as _agentpay_router_v1_ChannelFacts, ChannelFacts__Output as _agentpay_router_v1_ChannelFacts__Output } from '../../../agentpay/router/v1/ChannelFacts.js';
import type { ChannelFactsRequest as _agentpay_router_v1_ChannelFactsRequest, ChannelFactsRequest__Output as _agentpay_router_v1_ChannelFactsRequest__Output } from '../../../agentpay/router/v1/ChannelFactsRequest.js';
import type { CreateVirtualAccountRequest as _agentpay_router_v1_CreateVirtualAccountRequest, CreateVirtualAccountRequest__Output as _agentpay_router_v1_CreateVirtualAccountRequest__Output } from '../../../agentpay/router/v1/CreateVirtualAccountRequest.js';
import type { InquirePayeeRequest as _agentpay_router_v1_InquirePayeeRequest, InquirePayeeRequest__Output as _agentpay_router_v1_InquirePayeeRequest__Output } from '../../../agentpay/router/v1/InquirePayeeRequest.js';
import type { InquirePayeeResponse as _agentpay_router_v1_InquirePayeeResponse, InquirePayeeResponse__Output as _agentpay_router_v1_InquirePayeeResponse__Output } from '../../../agentpay/router/v1/InquirePayeeResponse.js';
import type { ListPayeeCodesRequest as _agentpay_router_v1_ListPayeeCodesRequest, ListPayeeCodesRequest__Output as _agentpay_router_v1_ListPayeeCodesRequest__Output } from '../../../agentpay/router/v1/ListPayeeCodesRequest.js';
import type { MerchantRequest as _agentpay_router_v1_MerchantRequest, MerchantRequest__Output as _agentpay_router_v1_MerchantRequest__Output } from '../../../agentpay/router/v1/MerchantRequest.js';
import type { OptionList as _agentpay_common_v1_OptionList, OptionList__Output as _agentpay_common_v1_OptionList__Output } from '../../../agentpay/common/v1/OptionList.js';
import type { PayoutRef as _agentpay_router_v1_PayoutRef, PayoutRef__Output as _agentpay_router_v1_PayoutRef__Output } from '../../../agentpay/router/v1/PayoutRef.js';
import type { StatementLine as _agentpay_router_v1_StatementLine, StatementLine__Output as _agentpay_router_v1_StatementLine__Output } from '../../../agentpay/router/v1/StatementLine.js';
import type { StatementRequest as _agentpay_router_v1_StatementRequest, StatementRequest__Output as _agentpay_router_v1_StatementRequest__Output } from '../../../agentpay/router/v1/StatementRequest.js';
import type { SubmitPayoutRequest as _agentpay_router_v1_SubmitPayoutRequest, SubmitPayoutRequest__Output as _agentpay_router_v1_SubmitPayoutRequest__Output } from '../../../agentpay/router/v1/SubmitPayoutRequest.js';
import type { SubmitPayoutResponse as _agentpay_router_v1_SubmitPayoutResponse, SubmitPayoutResponse__Output as _agentpay_router_v1_SubmitPayoutResponse__Output } from '../../../agentpay/router/v1/SubmitPayoutResponse.js';
import type { UpstreamPayment as _agentpay_router_v1_UpstreamPayment, UpstreamPayment__Output as _agentpay_router_v1_UpstreamPayment__Output } from '../../../agentpay/router/v1/UpstreamPayment.js';
import type { UpstreamPayout as _agentpay_router_v1_UpstreamPayout, UpstreamPayout__Output as _agentpay_router_v1_UpstreamPayout__Output } from '../../../agentpay/router/v1/UpstreamPayout.js';
import type { VirtualAccount as _agentpay_router_v1_VirtualAccount, VirtualAccount__Output as _agentpay_router_v1_VirtualAccount__Output } from '../../../agentpay/router/v1/VirtualAccount.js';
import type { VirtualAccountRef as _agentpay_router_v1_VirtualAccountRef, VirtualAccountRef__Output as _agentpay_router_v1_VirtualAccountRef__Output } from '../../../agentpay/router/v1/VirtualAccountRef.js';

export interface UpstreamRouterClient extends grpc.Client {
  /**
   * Closes the virtual account of an order upstream; answers the upstream status after the attempt.
   */
  CloseVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  CloseVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  CloseVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  CloseVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  /**
   * Closes the virtual account of an order upstream; answers the upstream status after the attempt.
   */
  closeVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  closeVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  closeVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  closeVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  
  /**
   * Opens a virtual account for a payment order on a route chosen for the merchant and method.
   * Errors: PAY_METHOD_NOT_AVAILABLE, NO_UPSTREAM_ROUTE, UPSTREAM_UNAVAILABLE.
   */
  CreateVirtualAccount(argument: _agentpay_router_v1_CreateVirtualAccountRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_VirtualAccount__Output>): grpc.ClientUnaryCall;
  CreateVirtualAccount(argument: _agentpay_router_v1_CreateVirtualAccountRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_VirtualAccount__Output>): grpc.ClientUnaryCall;
  CreateVirtualAccount(argument: _agentpay_router_v1_CreateVirtualAccountRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_VirtualAccount__Output>): grpc.ClientUnaryCall;
  CreateVirtualAccount(argument: _agentpay_router_v1_CreateVirtualAccountRequest, callback: grpc.requestCallback<_agentpay_router_v1_VirtualAccount__Output>): grpc.ClientUnaryCall;
  /**
   * Opens a virtual account for a payment order on a route chosen for the merchant and method.
   * Errors: PAY_METHOD_NOT_AVAILABLE, NO_UPSTREAM_ROUTE, UPSTREAM_UNAVAILABLE.
   */
  createVirtualAccount(argument: _agentpay_router_v1_CreateVirtualAccountRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_VirtualAccount__Output>): grpc.ClientUnaryCall;
  createVirtualAccount(argument: _agentpay_router_v1_CreateVirtualAccountRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_VirtualAccount__Output>): grpc.ClientUnaryCall;
  createVirtualAccount(argument: _agentpay_router_v1_CreateVirtualAccountRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_VirtualAccount__Output>): grpc.ClientUnaryCall;
  createVirtualAccount(argument: _agentpay_router_v1_CreateVirtualAccountRequest, callback: grpc.requestCallback<_agentpay_router_v1_VirtualAccount__Output>): grpc.ClientUnaryCall;
  
  /**
   * Validates a payee account upstream. Errors: PAYEE_TYPE_NOT_AVAILABLE, PAYEE_CODE_NOT_AVAILABLE,
   * NO_UPSTREAM_ROUTE, UPSTREAM_UNAVAILABLE.
   */
  InquirePayee(argument: _agentpay_router_v1_InquirePayeeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_InquirePayeeResponse__Output>): grpc.ClientUnaryCall;
  InquirePayee(argument: _agentpay_router_v1_InquirePayeeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_InquirePayeeResponse__Output>): grpc.ClientUnaryCall;
  InquirePayee(argument: _agentpay_router_v1_InquirePayeeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_InquirePayeeResponse__Output>): grpc.ClientUnaryCall;
  InquirePayee(argument: _agentpay_router_v1_InquirePayeeRequest, callback: grpc.requestCallback<_agentpay_router_v1_InquirePayeeResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Validates a payee account upstream. Errors: PAYEE_TYPE_NOT_AVAILABLE, PAYEE_CODE_NOT_AVAILABLE,
   * NO_UPSTREAM_ROUTE, UPSTREAM_UNAVAILABLE.
   */
  inquirePayee(argument: _agentpay_router_v1_InquirePayeeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_InquirePayeeResponse__Output>): grpc.ClientUnaryCall;
  inquirePayee(argument: _agentpay_router_v1_InquirePayeeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_InquirePayeeResponse__Output>): grpc.ClientUnaryCall;
  inquirePayee(argument: _agentpay_router_v1_InquirePayeeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_InquirePayeeResponse__Output>): grpc.ClientUnaryCall;
  inquirePayee(argument: _agentpay_router_v1_InquirePayeeRequest, callback: grpc.requestCallback<_agentpay_router_v1_InquirePayeeResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * For operators (the admin API's timeline): what the router recorded for one pay order or transfer,
   * oldest first: its virtual account, the deposits and payouts on it, the channel's notices. Route ids
   * are answered; the gateway keeps them from merchants.
   */
  ListChannelFacts(argument: _agentpay_router_v1_ChannelFactsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_ChannelFacts__Output>): grpc.ClientUnaryCall;
  ListChannelFacts(argument: _agentpay_router_v1_ChannelFactsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_ChannelFacts__Output>): grpc.ClientUnaryCall;
  ListChannelFacts(argument: _agentpay_router_v1_ChannelFactsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_ChannelFacts__Output>): grpc.ClientUnaryCall;
  ListChannelFacts(argument: _agentpay_router_v1_ChannelFactsRequest, callback: grpc.requestCallback<_agentpay_router_v1_ChannelFacts__Output>): grpc.ClientUnaryCall;
  /**
   * For operators (the admin API's timeline): what the router recorded for one pay order or transfer,
   * oldest first: its virtual account, the deposits and payouts on it, the channel's notices. Route ids
   * are answered; the gateway keeps them from merchants.
   */
  listChannelFacts(argument: _agentpay_router_v1_ChannelFactsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_ChannelFacts__Output>): grpc.ClientUnaryCall;
  listChannelFacts(argument: _agentpay_router_v1_ChannelFactsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_ChannelFacts__Output>): grpc.ClientUnaryCall;
  listChannelFacts(argument: _agentpay_router_v1_ChannelFactsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_ChannelFacts__Output>): grpc.ClientUnaryCall;
  listChannelFacts(argument: _agentpay_router_v1_ChannelFactsRequest, callback: grpc.requestCallback<_agentpay_router_v1_ChannelFacts__Output>): grpc.ClientUnaryCall;
  
  /**
   * Public payment method codes the merchant's enabled routes offer.
   */
  ListPayMethods(argument: _agentpay_router_v1_MerchantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  ListPayMethods(argument: _agentpay_router_v1_MerchantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  ListPayMethods(argument: _agentpay_router_v1_MerchantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  ListPayMethods(argument: _agentpay_router_v1_MerchantRequest, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  /**
   * Public payment method codes the merchant's enabled routes offer.
   */
  listPayMethods(argument: _agentpay_router_v1_MerchantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  listPayMethods(argument: _agentpay_router_v1_MerchantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  listPayMethods(argument: _agentpay_router_v1_MerchantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  listPayMethods(argument: _agentpay_router_v1_MerchantRequest, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  
  /**
   * Public payee codes for one payee type. Errors: PAYEE_TYPE_NOT_AVAILABLE.
   */
  ListPayeeCodes(argument: _agentpay_router_v1_ListPayeeCodesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  ListPayeeCodes(argument: _agentpay_router_v1_ListPayeeCodesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  ListPayeeCodes(argument: _agentpay_router_v1_ListPayeeCodesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  ListPayeeCodes(argument: _agentpay_router_v1_ListPayeeCodesRequest, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  /**
   * Public payee codes for one payee type. Errors: PAYEE_TYPE_NOT_AVAILABLE.
   */
  listPayeeCodes(argument: _agentpay_router_v1_ListPayeeCodesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  listPayeeCodes(argument: _agentpay_router_v1_ListPayeeCodesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  listPayeeCodes(argument: _agentpay_router_v1_ListPayeeCodesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  listPayeeCodes(argument: _agentpay_router_v1_ListPayeeCodesRequest, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  
  /**
   * Public payee types the merchant's enabled routes offer.
   */
  ListPayeeTypes(argument: _agentpay_router_v1_MerchantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  ListPayeeTypes(argument: _agentpay_router_v1_MerchantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  ListPayeeTypes(argument: _agentpay_router_v1_MerchantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  ListPayeeTypes(argument: _agentpay_router_v1_MerchantRequest, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  /**
   * Public payee types the merchant's enabled routes offer.
   */
  listPayeeTypes(argument: _agentpay_router_v1_MerchantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  listPayeeTypes(argument: _agentpay_router_v1_MerchantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  listPayeeTypes(argument: _agentpay_router_v1_MerchantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  listPayeeTypes(argument: _agentpay_router_v1_MerchantRequest, callback: grpc.requestCallback<_agentpay_common_v1_OptionList__Output>): grpc.ClientUnaryCall;
  
  /**
   * Reads the upstream status of a payout on its route or, with no route_id, on whichever route holds it
   * (fail when every payout route answers that it never took it). Errors: NO_UPSTREAM_ROUTE,
   * UPSTREAM_UNAVAILABLE (some route could not be asked, so the answer is unknown).
   */
  QueryPayout(argument: _agentpay_router_v1_PayoutRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayout__Output>): grpc.ClientUnaryCall;
  QueryPayout(argument: _agentpay_router_v1_PayoutRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayout__Output>): grpc.ClientUnaryCall;
  QueryPayout(argument: _agentpay_router_v1_PayoutRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayout__Output>): grpc.ClientUnaryCall;
  QueryPayout(argument: _agentpay_router_v1_PayoutRef, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayout__Output>): grpc.ClientUnaryCall;
  /**
   * Reads the upstream status of a payout on its route or, with no route_id, on whichever route holds it
   * (fail when every payout route answers that it never took it). Errors: NO_UPSTREAM_ROUTE,
   * UPSTREAM_UNAVAILABLE (some route could not be asked, so the answer is unknown).
   */
  queryPayout(argument: _agentpay_router_v1_PayoutRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayout__Output>): grpc.ClientUnaryCall;
  queryPayout(argument: _agentpay_router_v1_PayoutRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayout__Output>): grpc.ClientUnaryCall;
  queryPayout(argument: _agentpay_router_v1_PayoutRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayout__Output>): grpc.ClientUnaryCall;
  queryPayout(argument: _agentpay_router_v1_PayoutRef, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayout__Output>): grpc.ClientUnaryCall;
  
  /**
   * Reads the upstream status of an order's virtual account.
   */
  QueryVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  QueryVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  QueryVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  QueryVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  /**
   * Reads the upstream status of an order's virtual account.
   */
  queryVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  queryVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  queryVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  queryVirtualAccount(argument: _agentpay_router_v1_VirtualAccountRef, callback: grpc.requestCallback<_agentpay_router_v1_UpstreamPayment__Output>): grpc.ClientUnaryCall;
  
  /**
   * A route's channel statement for one day (CONTRACT.md section 14), line by line as the channel
   * serves it, so a day of a million movements never sits in memory. Errors: NOT_FOUND (no such route),
   * UPSTREAM_UNAVAILABLE (the channel could not be read; nothing partial is answered as complete: the
   * stream ends with the error).
   */
  StreamStatement(argument: _agentpay_router_v1_StatementRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_agentpay_router_v1_StatementLine__Output>;
  StreamStatement(argument: _agentpay_router_v1_StatementRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_agentpay_router_v1_StatementLine__Output>;
  /**
   * A route's channel statement for one day (CONTRACT.md section 14), line by line as the channel
   * serves it, so a day of a million movements never sits in memory. Errors: NOT_FOUND (no such route),
   * UPSTREAM_UNAVAILABLE (the channel could not be read; nothing partial is answered as complete: the
   * stream ends with the error).
   */
  streamStatement(argument: _agentpay_router_v1_StatementRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_agentpay_router_v1_StatementLine__Output>;
  streamStatement(argument: _agentpay_router_v1_StatementRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_agentpay_router_v1_StatementLine__Output>;
  
  /**
   * Submits a payout. Errors: PAYEE_TYPE_NOT_AVAILABLE, PAYEE_CODE_NOT_AVAILABLE, NO_UPSTREAM_ROUTE,
   * UPSTREAM_UNAVAILABLE (nothing was created upstream).
   */
  SubmitPayout(argument: _agentpay_router_v1_SubmitPayoutRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_SubmitPayoutResponse__Output>): grpc.ClientUnaryCall;
  SubmitPayout(argument: _agentpay_router_v1_SubmitPayoutRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_SubmitPayoutResponse__Output>): grpc.ClientUnaryCall;
  SubmitPayout(argument: _agentpay_router_v1_SubmitPayoutRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_SubmitPayoutResponse__Output>): grpc.ClientUnaryCall;
  SubmitPayout(argument: _agentpay_router_v1_SubmitPayoutRequest, callback: grpc.requestCallback<_agentpay_router_v1_SubmitPayoutResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Submits a payout. Errors: PAYEE_TYPE_NOT_AVAILABLE, PAYEE_CODE_NOT_AVAILABLE, NO_UPSTREAM_ROUTE,
   * UPSTREAM_UNAVAILABLE (nothing was created upstream).
   */
  submitPayout(argument: _agentpay_router_v1_SubmitPayoutRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_SubmitPayoutResponse__Output>): grpc.ClientUnaryCall;
  submitPayout(argument: _agentpay_router_v1_SubmitPayoutRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_router_v1_SubmitPayoutResponse__Output>): grpc.ClientUnaryCall;
  submitPayout(argument: _agentpay_router_v1_SubmitPayoutRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_router_v1_SubmitPayoutResponse__Output>): grpc.ClientUnaryCall;
  submitPayout(argument: _agentpay_router_v1_SubmitPayoutRequest, callback: grpc.requestCallback<_agentpay_router_v1_SubmitPayoutResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface UpstreamRouterHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Closes the virtual account of an order upstream; answers the upstream status after the attempt.
   */
  CloseVirtualAccount: grpc.handleUnaryCall<_agentpay_router_v1_VirtualAccountRef__Output, _agentpay_router_v1_UpstreamPayment>;
  
  /**
   * Opens a virtual account for a payment order on a route chosen for the merchant and method.
   * Errors: PAY_METHOD_NOT_AVAILABLE, NO_UPSTREAM_ROUTE, UPSTREAM_UNAVAILABLE.
   */
  CreateVirtualAccount: grpc.handleUnaryCall<_agentpay_router_v1_CreateVirtualAccountRequest__Output, _agentpay_router_v1_VirtualAccount>;
  
  /**
   * Validates a payee account upstream. Errors: PAYEE_TYPE_NOT_AVAILABLE, PAYEE_CODE_NOT_AVAILABLE,
   * NO_UPSTREAM_ROUTE, UPSTREAM_UNAVAILABLE.
   */
  InquirePayee: grpc.handleUnaryCall<_agentpay_router_v1_InquirePayeeRequest__Output, _agentpay_router_v1_InquirePayeeResponse>;
  
  /**
   * For operators (the admin API's timeline): what the router recorded for one pay order or transfer,
   * oldest first: its virtual account, the deposits and payouts on it, the channel's notices. Route ids
   * are answered; the gateway keeps them from merchants.
   */
  ListChannelFacts: grpc.handleUnaryCall<_agentpay_router_v1_ChannelFactsRequest__Output, _agentpay_router_v1_ChannelFacts>;
  
  /**
   * Public payment method codes the merchant's enabled routes offer.
   */
  ListPayMethods: grpc.handleUnaryCall<_agentpay_router_v1_MerchantRequest__Output, _agentpay_common_v1_OptionList>;
  
  /**
   * Public payee codes for one payee type. Errors: PAYEE_TYPE_NOT_AVAILABLE.
   */
  ListPayeeCodes: grpc.handleUnaryCall<_agentpay_router_v1_ListPayeeCodesRequest__Output, _agentpay_common_v1_OptionList>;
  
  /**
   * Public payee types the merchant's enabled routes offer.
   */
  ListPayeeTypes: grpc.handleUnaryCall<_agentpay_router_v1_MerchantRequest__Output, _agentpay_common_v1_OptionList>;
  
  /**
   * Reads the upstream status of a payout on its route or, with no route_id, on whichever route holds it
   * (fail when every payout route answers that it never took it). Errors: NO_UPSTREAM_ROUTE,
   * UPSTREAM_UNAVAILABLE (some route could not be asked, so the answer is unknown).
   */
  QueryPayout: grpc.handleUnaryCall<_agentpay_router_v1_PayoutRef__Output, _agentpay_router_v1_UpstreamPayout>;
  
  /**
   * Reads the upstream status of an order's virtual account.
   */
  QueryVirtualAccount: grpc.handleUnaryCall<_agentpay_router_v1_VirtualAccountRef__Output, _agentpay_router_v1_UpstreamPayment>;
  
  /**
   * A route's channel statement for one day (CONTRACT.md section 14), line by line as the channel
   * serves it, so a day of a million movements never sits in memory. Errors: NOT_FOUND (no such route),
   * UPSTREAM_UNAVAILABLE (the channel could not be read; nothing partial is answered as complete: the
   * stream ends with the error).
   */
  StreamStatement: grpc.handleServerStreamingCall<_agentpay_router_v1_StatementRequest__Output, _agentpay_router_v1_StatementLine>;
  
  /**
   * Submits a payout. Errors: PAYEE_TYPE_NOT_AVAILABLE, PAYEE_CODE_NOT_AVAILABLE, NO_UPSTREAM_ROUTE,
   * UPSTREAM_UNAVAILABLE (nothing was created upstream).
   */
  SubmitPayout: grpc.handleUnaryCall<_agentpay_router_v1_SubmitPayoutRequest__Output, _agentpay_router_v1_SubmitPayoutResponse>;
  
}

export interface UpstreamRouterDefinition extends grpc.ServiceDefinition {
  CloseVirtualAccount: MethodDefinition<_agentpay_router_v1_VirtualAccountRef, _agentpay_router_v1_UpstreamPayment, _agentpay_router_v1_VirtualAccountRef__Output, _agentpay_router_v1_UpstreamPayment__Output>
  CreateVirtualAccount: MethodDefinition<_agentpay_router_v1_CreateVirtualAccountRequest, _agentpay_router_v1_VirtualAccount, _agentpay_router_v1_CreateVirtualAccountRequest__Output, _agentpay_router_v1_VirtualAccount__Output>
  InquirePayee: MethodDefinition<_agentpay_router_v1_InquirePayeeRequest, _agentpay_router_v1_InquirePayeeResponse, _agentpay_router_v1_InquirePayeeRequest__Output, _agentpay_router_v1_InquirePayeeResponse__Output>
  ListChannelFacts: MethodDefinition<_agentpay_router_v1_ChannelFactsRequest, _agentpay_router_v1_ChannelFacts, _agentpay_router_v1_ChannelFactsRequest__Output, _agentpay_router_v1_ChannelFacts__Output>
  ListPayMethods: MethodDefinition<_agentpay_router_v1_MerchantRequest, _agentpay_common_v1_OptionList, _agentpay_router_v1_MerchantRequest__Output, _agentpay_common_v1_OptionList__Output>
  ListPayeeCodes: MethodDefinition<_agentpay_router_v1_ListPayeeCodesRequest, _agentpay_common_v1_OptionList, _agentpay_router_v1_ListPayeeCodesRequest__Output, _agentpay_common_v1_OptionList__Output>
  ListPayeeTypes: MethodDefinition<_agentpay_router_v1_MerchantRequest, _agentpay_common_v1_OptionList, _agentpay_router_v1_MerchantRequest__Output, _agentpay_common_v1_OptionList__Output>
  QueryPayout: MethodDefinition<_agentpay_router_v1_PayoutRef, _agentpay_router_v1_UpstreamPayout, _agentpay_router_v1_PayoutRef__Output, _agentpay_router_v1_UpstreamPayout__Output>
  QueryVirtualAccount: MethodDefinition<_agentpay_router_v1_VirtualAccountRef, _agentpay_router_v1_UpstreamPayment, _agentpay_router_v1_VirtualAccountRef__Output, _agentpay_router_v1_UpstreamPayment__Output>
  StreamStatement: MethodDefinition<_agentpay_router_v1_StatementRequest, _agentpay_router_v1_StatementLine, _agentpay_router_v1_StatementRequest__Output, _agentpay_router_v1_StatementLine__Output>
  SubmitPayout: MethodDefinition<_agentpay_router_v1_SubmitPayoutRequest, _agentpay_router_v1_SubmitPayoutResponse, _agentpay_router_v1_SubmitPayoutRequest__Output, _agentpay_router_v1_SubmitPayoutResponse__Output>
}
