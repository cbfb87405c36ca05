// Original file: proto/payments/v1/payments.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ClosePayOrderRequest as _agentpay_payments_v1_ClosePayOrderRequest, ClosePayOrderRequest__Output as _agentpay_payments_v1_ClosePayOrderRequest__Output } from '../../../agentpay/payments/v1/ClosePayOrderRequest.js';
import type { ClosePayOrderResponse as _agentpay_payments_v1_ClosePayOrderResponse, ClosePayOrderResponse__Output as _agentpay_payments_v1_ClosePayOrderResponse__Output } from '../../../agentpay/payments/v1/ClosePayOrderResponse.js';
import type { CreatePayOrderRequest as _agentpay_payments_v1_CreatePayOrderRequest, CreatePayOrderRequest__Output as _agentpay_payments_v1_CreatePayOrderRequest__Output } from '../../../agentpay/payments/v1/CreatePayOrderRequest.js';
import type { CreatePayOrderResponse as _agentpay_payments_v1_CreatePayOrderResponse, CreatePayOrderResponse__Output as _agentpay_payments_v1_CreatePayOrderResponse__Output } from '../../../agentpay/payments/v1/CreatePayOrderResponse.js';
import type { ListPayOrdersRequest as _agentpay_payments_v1_ListPayOrdersRequest, ListPayOrdersRequest__Output as _agentpay_payments_v1_ListPayOrdersRequest__Output } from '../../../agentpay/payments/v1/ListPayOrdersRequest.js';
import type { ListPayOrdersResponse as _agentpay_payments_v1_ListPayOrdersResponse, ListPayOrdersResponse__Output as _agentpay_payments_v1_ListPayOrdersResponse__Output } from '../../../agentpay/payments/v1/ListPayOrdersResponse.js';
import type { LocatePayOrderRequest as _agentpay_payments_v1_LocatePayOrderRequest, LocatePayOrderRequest__Output as _agentpay_payments_v1_LocatePayOrderRequest__Output } from '../../../agentpay/payments/v1/LocatePayOrderRequest.js';
import type { PayOrder as _agentpay_payments_v1_PayOrder, PayOrder__Output as _agentpay_payments_v1_PayOrder__Output } from '../../../agentpay/payments/v1/PayOrder.js';
import type { PayOrderHistory as _agentpay_payments_v1_PayOrderHistory, PayOrderHistory__Output as _agentpay_payments_v1_PayOrderHistory__Output } from '../../../agentpay/payments/v1/PayOrderHistory.js';
import type { PayOrderHistoryRequest as _agentpay_payments_v1_PayOrderHistoryRequest, PayOrderHistoryRequest__Output as _agentpay_payments_v1_PayOrderHistoryRequest__Output } from '../../../agentpay/payments/v1/PayOrderHistoryRequest.js';
import type { PayOrderRef as _agentpay_payments_v1_PayOrderRef, PayOrderRef__Output as _agentpay_payments_v1_PayOrderRef__Output } from '../../../agentpay/payments/v1/PayOrderRef.js';
import type { SyncPayOrderResponse as _agentpay_payments_v1_SyncPayOrderResponse, SyncPayOrderResponse__Output as _agentpay_payments_v1_SyncPayOrderResponse__Output } from '../../../agentpay/payments/v1/SyncPayOrderResponse.js';

export interface PaymentServiceClient extends grpc.Client {
  /**
   * Closes (or cancels) an unfinished order. Errors: ORDER_NOT_FOUND, ORDER_STATUS_FORBIDS, ORDER_ALREADY_PAID.
   */
  ClosePayOrder(argument: _agentpay_payments_v1_ClosePayOrderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_ClosePayOrderResponse__Output>): grpc.ClientUnaryCall;
  ClosePayOrder(argument: _agentpay_payments_v1_ClosePayOrderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_ClosePayOrderResponse__Output>): grpc.ClientUnaryCall;
  ClosePayOrder(argument: _agentpay_payments_v1_ClosePayOrderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_ClosePayOrderResponse__Output>): grpc.ClientUnaryCall;
  ClosePayOrder(argument: _agentpay_payments_v1_ClosePayOrderRequest, callback: grpc.requestCallback<_agentpay_payments_v1_ClosePayOrderResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Closes (or cancels) an unfinished order. Errors: ORDER_NOT_FOUND, ORDER_STATUS_FORBIDS, ORDER_ALREADY_PAID.
   */
  closePayOrder(argument: _agentpay_payments_v1_ClosePayOrderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_ClosePayOrderResponse__Output>): grpc.ClientUnaryCall;
  closePayOrder(argument: _agentpay_payments_v1_ClosePayOrderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_ClosePayOrderResponse__Output>): grpc.ClientUnaryCall;
  closePayOrder(argument: _agentpay_payments_v1_ClosePayOrderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_ClosePayOrderResponse__Output>): grpc.ClientUnaryCall;
  closePayOrder(argument: _agentpay_payments_v1_ClosePayOrderRequest, callback: grpc.requestCallback<_agentpay_payments_v1_ClosePayOrderResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Creates a payment order, or returns the existing one for an identical repeat (idempotent on
   * mch_no + biz_order_no). Errors: PAY_METHOD_NOT_AVAILABLE, DUPLICATE_ORDER, NO_UPSTREAM_ROUTE,
   * UPSTREAM_UNAVAILABLE, INVALID_PARAMETER.
   */
  CreatePayOrder(argument: _agentpay_payments_v1_CreatePayOrderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_CreatePayOrderResponse__Output>): grpc.ClientUnaryCall;
  CreatePayOrder(argument: _agentpay_payments_v1_CreatePayOrderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_CreatePayOrderResponse__Output>): grpc.ClientUnaryCall;
  CreatePayOrder(argument: _agentpay_payments_v1_CreatePayOrderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_CreatePayOrderResponse__Output>): grpc.ClientUnaryCall;
  CreatePayOrder(argument: _agentpay_payments_v1_CreatePayOrderRequest, callback: grpc.requestCallback<_agentpay_payments_v1_CreatePayOrderResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Creates a payment order, or returns the existing one for an identical repeat (idempotent on
   * mch_no + biz_order_no). Errors: PAY_METHOD_NOT_AVAILABLE, DUPLICATE_ORDER, NO_UPSTREAM_ROUTE,
   * UPSTREAM_UNAVAILABLE, INVALID_PARAMETER.
   */
  createPayOrder(argument: _agentpay_payments_v1_CreatePayOrderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_CreatePayOrderResponse__Output>): grpc.ClientUnaryCall;
  createPayOrder(argument: _agentpay_payments_v1_CreatePayOrderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_CreatePayOrderResponse__Output>): grpc.ClientUnaryCall;
  createPayOrder(argument: _agentpay_payments_v1_CreatePayOrderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_CreatePayOrderResponse__Output>): grpc.ClientUnaryCall;
  createPayOrder(argument: _agentpay_payments_v1_CreatePayOrderRequest, callback: grpc.requestCallback<_agentpay_payments_v1_CreatePayOrderResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Reads one order by either identifier. Errors: ORDER_NOT_FOUND.
   */
  GetPayOrder(argument: _agentpay_payments_v1_PayOrderRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  GetPayOrder(argument: _agentpay_payments_v1_PayOrderRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  GetPayOrder(argument: _agentpay_payments_v1_PayOrderRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  GetPayOrder(argument: _agentpay_payments_v1_PayOrderRef, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  /**
   * Reads one order by either identifier. Errors: ORDER_NOT_FOUND.
   */
  getPayOrder(argument: _agentpay_payments_v1_PayOrderRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  getPayOrder(argument: _agentpay_payments_v1_PayOrderRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  getPayOrder(argument: _agentpay_payments_v1_PayOrderRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  getPayOrder(argument: _agentpay_payments_v1_PayOrderRef, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  
  /**
   * One opened order with its status changes, oldest first; within one merchant when mch_no is set.
   * Errors: ORDER_NOT_FOUND.
   */
  GetPayOrderHistory(argument: _agentpay_payments_v1_PayOrderHistoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrderHistory__Output>): grpc.ClientUnaryCall;
  GetPayOrderHistory(argument: _agentpay_payments_v1_PayOrderHistoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrderHistory__Output>): grpc.ClientUnaryCall;
  GetPayOrderHistory(argument: _agentpay_payments_v1_PayOrderHistoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrderHistory__Output>): grpc.ClientUnaryCall;
  GetPayOrderHistory(argument: _agentpay_payments_v1_PayOrderHistoryRequest, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrderHistory__Output>): grpc.ClientUnaryCall;
  /**
   * One opened order with its status changes, oldest first; within one merchant when mch_no is set.
   * Errors: ORDER_NOT_FOUND.
   */
  getPayOrderHistory(argument: _agentpay_payments_v1_PayOrderHistoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrderHistory__Output>): grpc.ClientUnaryCall;
  getPayOrderHistory(argument: _agentpay_payments_v1_PayOrderHistoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrderHistory__Output>): grpc.ClientUnaryCall;
  getPayOrderHistory(argument: _agentpay_payments_v1_PayOrderHistoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrderHistory__Output>): grpc.ClientUnaryCall;
  getPayOrderHistory(argument: _agentpay_payments_v1_PayOrderHistoryRequest, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrderHistory__Output>): grpc.ClientUnaryCall;
  
  /**
   * For operators and the merchant dashboard: opened orders newest first (created_at, then order_no),
   * keyset-paged; within one merchant when mch_no is set. Errors: INVALID_PARAMETER.
   */
  ListPayOrders(argument: _agentpay_payments_v1_ListPayOrdersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_ListPayOrdersResponse__Output>): grpc.ClientUnaryCall;
  ListPayOrders(argument: _agentpay_payments_v1_ListPayOrdersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_ListPayOrdersResponse__Output>): grpc.ClientUnaryCall;
  ListPayOrders(argument: _agentpay_payments_v1_ListPayOrdersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_ListPayOrdersResponse__Output>): grpc.ClientUnaryCall;
  ListPayOrders(argument: _agentpay_payments_v1_ListPayOrdersRequest, callback: grpc.requestCallback<_agentpay_payments_v1_ListPayOrdersResponse__Output>): grpc.ClientUnaryCall;
  /**
   * For operators and the merchant dashboard: opened orders newest first (created_at, then order_no),
   * keyset-paged; within one merchant when mch_no is set. Errors: INVALID_PARAMETER.
   */
  listPayOrders(argument: _agentpay_payments_v1_ListPayOrdersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_ListPayOrdersResponse__Output>): grpc.ClientUnaryCall;
  listPayOrders(argument: _agentpay_payments_v1_ListPayOrdersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_ListPayOrdersResponse__Output>): grpc.ClientUnaryCall;
  listPayOrders(argument: _agentpay_payments_v1_ListPayOrdersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_ListPayOrdersResponse__Output>): grpc.ClientUnaryCall;
  listPayOrders(argument: _agentpay_payments_v1_ListPayOrdersRequest, callback: grpc.requestCallback<_agentpay_payments_v1_ListPayOrdersResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * For operators (the admin API): reads an opened order by its platform number alone, whatever its
   * merchant, e.g. to name the order a channel's deposit belongs to. Errors: ORDER_NOT_FOUND.
   */
  LocatePayOrder(argument: _agentpay_payments_v1_LocatePayOrderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  LocatePayOrder(argument: _agentpay_payments_v1_LocatePayOrderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  LocatePayOrder(argument: _agentpay_payments_v1_LocatePayOrderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  LocatePayOrder(argument: _agentpay_payments_v1_LocatePayOrderRequest, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  /**
   * For operators (the admin API): reads an opened order by its platform number alone, whatever its
   * merchant, e.g. to name the order a channel's deposit belongs to. Errors: ORDER_NOT_FOUND.
   */
  locatePayOrder(argument: _agentpay_payments_v1_LocatePayOrderRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  locatePayOrder(argument: _agentpay_payments_v1_LocatePayOrderRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  locatePayOrder(argument: _agentpay_payments_v1_LocatePayOrderRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  locatePayOrder(argument: _agentpay_payments_v1_LocatePayOrderRequest, callback: grpc.requestCallback<_agentpay_payments_v1_PayOrder__Output>): grpc.ClientUnaryCall;
  
  /**
   * Asks upstream for the order's status and moves the local order to it. Errors: ORDER_NOT_FOUND.
   */
  SyncPayOrder(argument: _agentpay_payments_v1_PayOrderRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_SyncPayOrderResponse__Output>): grpc.ClientUnaryCall;
  SyncPayOrder(argument: _agentpay_payments_v1_PayOrderRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_SyncPayOrderResponse__Output>): grpc.ClientUnaryCall;
  SyncPayOrder(argument: _agentpay_payments_v1_PayOrderRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_SyncPayOrderResponse__Output>): grpc.ClientUnaryCall;
  SyncPayOrder(argument: _agentpay_payments_v1_PayOrderRef, callback: grpc.requestCallback<_agentpay_payments_v1_SyncPayOrderResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Asks upstream for the order's status and moves the local order to it. Errors: ORDER_NOT_FOUND.
   */
  syncPayOrder(argument: _agentpay_payments_v1_PayOrderRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_SyncPayOrderResponse__Output>): grpc.ClientUnaryCall;
  syncPayOrder(argument: _agentpay_payments_v1_PayOrderRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_payments_v1_SyncPayOrderResponse__Output>): grpc.ClientUnaryCall;
  syncPayOrder(argument: _agentpay_payments_v1_PayOrderRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_payments_v1_SyncPayOrderResponse__Output>): grpc.ClientUnaryCall;
  syncPayOrder(argument: _agentpay_payments_v1_PayOrderRef, callback: grpc.requestCallback<_agentpay_payments_v1_SyncPayOrderResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface PaymentServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Closes (or cancels) an unfinished order. Errors: ORDER_NOT_FOUND, ORDER_STATUS_FORBIDS, ORDER_ALREADY_PAID.
   */
  ClosePayOrder: grpc.handleUnaryCall<_agentpay_payments_v1_ClosePayOrderRequest__Output, _agentpay_payments_v1_ClosePayOrderResponse>;
  
  /**
   * Creates a payment order, or returns the existing one for an identical repeat (idempotent on
   * mch_no + biz_order_no). Errors: PAY_METHOD_NOT_AVAILABLE, DUPLICATE_ORDER, NO_UPSTREAM_ROUTE,
   * UPSTREAM_UNAVAILABLE, INVALID_PARAMETER.
   */
  CreatePayOrder: grpc.handleUnaryCall<_agentpay_payments_v1_CreatePayOrderRequest__Output, _agentpay_payments_v1_CreatePayOrderResponse>;
  
  /**
   * Reads one order by either identifier. Errors: ORDER_NOT_FOUND.
   */
  GetPayOrder: grpc.handleUnaryCall<_agentpay_payments_v1_PayOrderRef__Output, _agentpay_payments_v1_PayOrder>;
  
  /**
   * One opened order with its status changes, oldest first; within one merchant when mch_no is set.
   * Errors: ORDER_NOT_FOUND.
   */
  GetPayOrderHistory: grpc.handleUnaryCall<_agentpay_payments_v1_PayOrderHistoryRequest__Output, _agentpay_payments_v1_PayOrderHistory>;
  
  /**
   * For operators and the merchant dashboard: opened orders newest first (created_at, then order_no),
   * keyset-paged; within one merchant when mch_no is set. Errors: INVALID_PARAMETER.
   */
  ListPayOrders: grpc.handleUnaryCall<_agentpay_payments_v1_ListPayOrdersRequest__Output, _agentpay_payments_v1_ListPayOrdersResponse>;
  
  /**
   * For operators (the admin API): reads an opened order by its platform number alone, whatever its
   * merchant, e.g. to name the order a channel's deposit belongs to. Errors: ORDER_NOT_FOUND.
   */
  LocatePayOrder: grpc.handleUnaryCall<_agentpay_payments_v1_LocatePayOrderRequest__Output, _agentpay_payments_v1_PayOrder>;
  
  /**
   * Asks upstream for the order's status and moves the local order to it. Errors: ORDER_NOT_FOUND.
   */
  SyncPayOrder: grpc.handleUnaryCall<_agentpay_payments_v1_PayOrderRef__Output, _agentpay_payments_v1_SyncPayOrderResponse>;
  
}

export interface PaymentServiceDefinition extends grpc.ServiceDefinition {
  ClosePayOrder: MethodDefinition<_agentpay_payments_v1_ClosePayOrderRequest, _agentpay_payments_v1_ClosePayOrderResponse, _agentpay_payments_v1_ClosePayOrderRequest__Output, _agentpay_payments_v1_ClosePayOrderResponse__Output>
  CreatePayOrder: MethodDefinition<_agentpay_payments_v1_CreatePayOrderRequest, _agentpay_payments_v1_CreatePayOrderResponse, _agentpay_payments_v1_CreatePayOrderRequest__Output, _agentpay_payments_v1_CreatePayOrderResponse__Output>
  GetPayOrder: MethodDefinition<_agentpay_payments_v1_PayOrderRef, _agentpay_payments_v1_PayOrder, _agentpay_payments_v1_PayOrderRef__Output, _agentpay_payments_v1_PayOrder__Output>
  GetPayOrderHistory: MethodDefinition<_agentpay_payments_v1_PayOrderHistoryRequest, _agentpay_payments_v1_PayOrderHistory, _agentpay_payments_v1_PayOrderHistoryRequest__Output, _agentpay_payments_v1_PayOrderHistory__Output>
  ListPayOrders: MethodDefinition<_agentpay_payments_v1_ListPayOrdersRequest, _agentpay_payments_v1_ListPayOrdersResponse, _agentpay_payments_v1_ListPayOrdersRequest__Output, _agentpay_payments_v1_ListPayOrdersResponse__Output>
  LocatePayOrder: MethodDefinition<_agentpay_payments_v1_LocatePayOrderRequest, _agentpay_payments_v1_PayOrder, _agentpay_payments_v1_LocatePayOrderRequest__Output, _agentpay_payments_v1_PayOrder__Output>
  SyncPayOrder: MethodDefinition<_agentpay_payments_v1_PayOrderRef, _agentpay_payments_v1_SyncPayOrderResponse, _agentpay_payments_v1_PayOrderRef__Output, _agentpay_payments_v1_SyncPayOrderResponse__Output>
}
