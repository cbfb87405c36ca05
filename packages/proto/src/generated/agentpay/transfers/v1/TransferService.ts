// Original file: proto/transfers/v1/transfers.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateRefundRequest as _agentpay_transfers_v1_CreateRefundRequest, CreateRefundRequest__Output as _agentpay_transfers_v1_CreateRefundRequest__Output } from '../../../agentpay/transfers/v1/CreateRefundRequest.js';
import type { CreateTransferBatchRequest as _agentpay_transfers_v1_CreateTransferBatchRequest, CreateTransferBatchRequest__Output as _agentpay_transfers_v1_CreateTransferBatchRequest__Output } from '../../../agentpay/transfers/v1/CreateTransferBatchRequest.js';
import type { CreateTransferBatchResponse as _agentpay_transfers_v1_CreateTransferBatchResponse, CreateTransferBatchResponse__Output as _agentpay_transfers_v1_CreateTransferBatchResponse__Output } from '../../../agentpay/transfers/v1/CreateTransferBatchResponse.js';
import type { CreateTransferRequest as _agentpay_transfers_v1_CreateTransferRequest, CreateTransferRequest__Output as _agentpay_transfers_v1_CreateTransferRequest__Output } from '../../../agentpay/transfers/v1/CreateTransferRequest.js';
import type { CreateTransferResponse as _agentpay_transfers_v1_CreateTransferResponse, CreateTransferResponse__Output as _agentpay_transfers_v1_CreateTransferResponse__Output } from '../../../agentpay/transfers/v1/CreateTransferResponse.js';
import type { HeldTransferRef as _agentpay_transfers_v1_HeldTransferRef, HeldTransferRef__Output as _agentpay_transfers_v1_HeldTransferRef__Output } from '../../../agentpay/transfers/v1/HeldTransferRef.js';
import type { InquireRequest as _agentpay_transfers_v1_InquireRequest, InquireRequest__Output as _agentpay_transfers_v1_InquireRequest__Output } from '../../../agentpay/transfers/v1/InquireRequest.js';
import type { Inquiry as _agentpay_transfers_v1_Inquiry, Inquiry__Output as _agentpay_transfers_v1_Inquiry__Output } from '../../../agentpay/transfers/v1/Inquiry.js';
import type { ListPayeesRequest as _agentpay_transfers_v1_ListPayeesRequest, ListPayeesRequest__Output as _agentpay_transfers_v1_ListPayeesRequest__Output } from '../../../agentpay/transfers/v1/ListPayeesRequest.js';
import type { ListPayeesResponse as _agentpay_transfers_v1_ListPayeesResponse, ListPayeesResponse__Output as _agentpay_transfers_v1_ListPayeesResponse__Output } from '../../../agentpay/transfers/v1/ListPayeesResponse.js';
import type { ListTransfersRequest as _agentpay_transfers_v1_ListTransfersRequest, ListTransfersRequest__Output as _agentpay_transfers_v1_ListTransfersRequest__Output } from '../../../agentpay/transfers/v1/ListTransfersRequest.js';
import type { ListTransfersResponse as _agentpay_transfers_v1_ListTransfersResponse, ListTransfersResponse__Output as _agentpay_transfers_v1_ListTransfersResponse__Output } from '../../../agentpay/transfers/v1/ListTransfersResponse.js';
import type { PayeeAction as _agentpay_transfers_v1_PayeeAction, PayeeAction__Output as _agentpay_transfers_v1_PayeeAction__Output } from '../../../agentpay/transfers/v1/PayeeAction.js';
import type { RefundRef as _agentpay_transfers_v1_RefundRef, RefundRef__Output as _agentpay_transfers_v1_RefundRef__Output } from '../../../agentpay/transfers/v1/RefundRef.js';
import type { RegisterPayeeRequest as _agentpay_transfers_v1_RegisterPayeeRequest, RegisterPayeeRequest__Output as _agentpay_transfers_v1_RegisterPayeeRequest__Output } from '../../../agentpay/transfers/v1/RegisterPayeeRequest.js';
import type { RegisterPayeeResponse as _agentpay_transfers_v1_RegisterPayeeResponse, RegisterPayeeResponse__Output as _agentpay_transfers_v1_RegisterPayeeResponse__Output } from '../../../agentpay/transfers/v1/RegisterPayeeResponse.js';
import type { RegisteredPayee as _agentpay_transfers_v1_RegisteredPayee, RegisteredPayee__Output as _agentpay_transfers_v1_RegisteredPayee__Output } from '../../../agentpay/transfers/v1/RegisteredPayee.js';
import type { Transfer as _agentpay_transfers_v1_Transfer, Transfer__Output as _agentpay_transfers_v1_Transfer__Output } from '../../../agentpay/transfers/v1/Transfer.js';
import type { TransferBatchPage as _agentpay_transfers_v1_TransferBatchPage, TransferBatchPage__Output as _agentpay_transfers_v1_TransferBatchPage__Output } from '../../../agentpay/transfers/v1/TransferBatchPage.js';
import type { TransferBatchRef as _agentpay_transfers_v1_TransferBatchRef, TransferBatchRef__Output as _agentpay_transfers_v1_TransferBatchRef__Output } from '../../../agentpay/transfers/v1/TransferBatchRef.js';
import type { TransferHistory as _agentpay_transfers_v1_TransferHistory, TransferHistory__Output as _agentpay_transfers_v1_TransferHistory__Output } from '../../../agentpay/transfers/v1/TransferHistory.js';
import type { TransferHistoryRequest as _agentpay_transfers_v1_TransferHistoryRequest, TransferHistoryRequest__Output as _agentpay_transfers_v1_TransferHistoryRequest__Output } from '../../../agentpay/transfers/v1/TransferHistoryRequest.js';
import type { TransferRef as _agentpay_transfers_v1_TransferRef, TransferRef__Output as _agentpay_transfers_v1_TransferRef__Output } from '../../../agentpay/transfers/v1/TransferRef.js';

export interface TransferServiceClient extends grpc.Client {
  /**
   * A second merchant person makes a cooling payee usable now. Errors: PAYEE_NOT_REGISTERED,
   * INVALID_PARAMETER (the approver registered it).
   */
  ApprovePayee(argument: _agentpay_transfers_v1_PayeeAction, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  ApprovePayee(argument: _agentpay_transfers_v1_PayeeAction, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  ApprovePayee(argument: _agentpay_transfers_v1_PayeeAction, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  ApprovePayee(argument: _agentpay_transfers_v1_PayeeAction, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  /**
   * A second merchant person makes a cooling payee usable now. Errors: PAYEE_NOT_REGISTERED,
   * INVALID_PARAMETER (the approver registered it).
   */
  approvePayee(argument: _agentpay_transfers_v1_PayeeAction, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  approvePayee(argument: _agentpay_transfers_v1_PayeeAction, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  approvePayee(argument: _agentpay_transfers_v1_PayeeAction, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  approvePayee(argument: _agentpay_transfers_v1_PayeeAction, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  
  /**
   * Refunds a paid order to its payer's account (CONTRACT section 21): a payout of kind `refund`;
   * idempotent on mch_no + biz_refund_no. Errors: REFUND_NOT_POSSIBLE (naming why), DUPLICATE_REFUND,
   * INSUFFICIENT_BALANCE, PAYOUT_LIMIT_EXCEEDED, NO_UPSTREAM_ROUTE, UPSTREAM_UNAVAILABLE.
   */
  CreateRefund(argument: _agentpay_transfers_v1_CreateRefundRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  CreateRefund(argument: _agentpay_transfers_v1_CreateRefundRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  CreateRefund(argument: _agentpay_transfers_v1_CreateRefundRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  CreateRefund(argument: _agentpay_transfers_v1_CreateRefundRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Refunds a paid order to its payer's account (CONTRACT section 21): a payout of kind `refund`;
   * idempotent on mch_no + biz_refund_no. Errors: REFUND_NOT_POSSIBLE (naming why), DUPLICATE_REFUND,
   * INSUFFICIENT_BALANCE, PAYOUT_LIMIT_EXCEEDED, NO_UPSTREAM_ROUTE, UPSTREAM_UNAVAILABLE.
   */
  createRefund(argument: _agentpay_transfers_v1_CreateRefundRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  createRefund(argument: _agentpay_transfers_v1_CreateRefundRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  createRefund(argument: _agentpay_transfers_v1_CreateRefundRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  createRefund(argument: _agentpay_transfers_v1_CreateRefundRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Creates and submits a transfer; idempotent on mch_no + biz_transfer_no. Errors: PAYEE_TYPE_NOT_AVAILABLE,
   * PAYEE_CODE_NOT_AVAILABLE, INVALID_PAYEE_ACCOUNT, DUPLICATE_TRANSFER, INSUFFICIENT_BALANCE,
   * NO_UPSTREAM_ROUTE, UPSTREAM_UNAVAILABLE.
   */
  CreateTransfer(argument: _agentpay_transfers_v1_CreateTransferRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  CreateTransfer(argument: _agentpay_transfers_v1_CreateTransferRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  CreateTransfer(argument: _agentpay_transfers_v1_CreateTransferRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  CreateTransfer(argument: _agentpay_transfers_v1_CreateTransferRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Creates and submits a transfer; idempotent on mch_no + biz_transfer_no. Errors: PAYEE_TYPE_NOT_AVAILABLE,
   * PAYEE_CODE_NOT_AVAILABLE, INVALID_PAYEE_ACCOUNT, DUPLICATE_TRANSFER, INSUFFICIENT_BALANCE,
   * NO_UPSTREAM_ROUTE, UPSTREAM_UNAVAILABLE.
   */
  createTransfer(argument: _agentpay_transfers_v1_CreateTransferRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  createTransfer(argument: _agentpay_transfers_v1_CreateTransferRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  createTransfer(argument: _agentpay_transfers_v1_CreateTransferRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  createTransfer(argument: _agentpay_transfers_v1_CreateTransferRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Creates a batch payout (CONTRACT section 21): every item validated as a transfer, all inserted and
   * frozen as one, then each sent as an ordinary transfer without waiting for the others. Idempotent on
   * mch_no + biz_batch_no. Errors: INVALID_PARAMETER / INVALID_PAYEE_ACCOUNT / PAYEE_NOT_REGISTERED /
   * DUPLICATE_TRANSFER naming items[i], DUPLICATE_BATCH, INSUFFICIENT_BALANCE, PAYOUT_LIMIT_EXCEEDED.
   */
  CreateTransferBatch(argument: _agentpay_transfers_v1_CreateTransferBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferBatchResponse__Output>): grpc.ClientUnaryCall;
  CreateTransferBatch(argument: _agentpay_transfers_v1_CreateTransferBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferBatchResponse__Output>): grpc.ClientUnaryCall;
  CreateTransferBatch(argument: _agentpay_transfers_v1_CreateTransferBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferBatchResponse__Output>): grpc.ClientUnaryCall;
  CreateTransferBatch(argument: _agentpay_transfers_v1_CreateTransferBatchRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferBatchResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Creates a batch payout (CONTRACT section 21): every item validated as a transfer, all inserted and
   * frozen as one, then each sent as an ordinary transfer without waiting for the others. Idempotent on
   * mch_no + biz_batch_no. Errors: INVALID_PARAMETER / INVALID_PAYEE_ACCOUNT / PAYEE_NOT_REGISTERED /
   * DUPLICATE_TRANSFER naming items[i], DUPLICATE_BATCH, INSUFFICIENT_BALANCE, PAYOUT_LIMIT_EXCEEDED.
   */
  createTransferBatch(argument: _agentpay_transfers_v1_CreateTransferBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferBatchResponse__Output>): grpc.ClientUnaryCall;
  createTransferBatch(argument: _agentpay_transfers_v1_CreateTransferBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferBatchResponse__Output>): grpc.ClientUnaryCall;
  createTransferBatch(argument: _agentpay_transfers_v1_CreateTransferBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferBatchResponse__Output>): grpc.ClientUnaryCall;
  createTransferBatch(argument: _agentpay_transfers_v1_CreateTransferBatchRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_CreateTransferBatchResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Reads one refund by either identifier. Errors: REFUND_NOT_FOUND.
   */
  GetRefund(argument: _agentpay_transfers_v1_RefundRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  GetRefund(argument: _agentpay_transfers_v1_RefundRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  GetRefund(argument: _agentpay_transfers_v1_RefundRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  GetRefund(argument: _agentpay_transfers_v1_RefundRef, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  /**
   * Reads one refund by either identifier. Errors: REFUND_NOT_FOUND.
   */
  getRefund(argument: _agentpay_transfers_v1_RefundRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  getRefund(argument: _agentpay_transfers_v1_RefundRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  getRefund(argument: _agentpay_transfers_v1_RefundRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  getRefund(argument: _agentpay_transfers_v1_RefundRef, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  
  /**
   * Reads one transfer by either identifier. Errors: TRANSFER_NOT_FOUND.
   */
  GetTransfer(argument: _agentpay_transfers_v1_TransferRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  GetTransfer(argument: _agentpay_transfers_v1_TransferRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  GetTransfer(argument: _agentpay_transfers_v1_TransferRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  GetTransfer(argument: _agentpay_transfers_v1_TransferRef, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  /**
   * Reads one transfer by either identifier. Errors: TRANSFER_NOT_FOUND.
   */
  getTransfer(argument: _agentpay_transfers_v1_TransferRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  getTransfer(argument: _agentpay_transfers_v1_TransferRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  getTransfer(argument: _agentpay_transfers_v1_TransferRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  getTransfer(argument: _agentpay_transfers_v1_TransferRef, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  
  /**
   * A batch with its counts per status and one page of its items. Errors: TRANSFER_NOT_FOUND.
   */
  GetTransferBatch(argument: _agentpay_transfers_v1_TransferBatchRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferBatchPage__Output>): grpc.ClientUnaryCall;
  GetTransferBatch(argument: _agentpay_transfers_v1_TransferBatchRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferBatchPage__Output>): grpc.ClientUnaryCall;
  GetTransferBatch(argument: _agentpay_transfers_v1_TransferBatchRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferBatchPage__Output>): grpc.ClientUnaryCall;
  GetTransferBatch(argument: _agentpay_transfers_v1_TransferBatchRef, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferBatchPage__Output>): grpc.ClientUnaryCall;
  /**
   * A batch with its counts per status and one page of its items. Errors: TRANSFER_NOT_FOUND.
   */
  getTransferBatch(argument: _agentpay_transfers_v1_TransferBatchRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferBatchPage__Output>): grpc.ClientUnaryCall;
  getTransferBatch(argument: _agentpay_transfers_v1_TransferBatchRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferBatchPage__Output>): grpc.ClientUnaryCall;
  getTransferBatch(argument: _agentpay_transfers_v1_TransferBatchRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferBatchPage__Output>): grpc.ClientUnaryCall;
  getTransferBatch(argument: _agentpay_transfers_v1_TransferBatchRef, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferBatchPage__Output>): grpc.ClientUnaryCall;
  
  /**
   * One transfer with its status changes, oldest first; within one merchant when mch_no is set.
   * Errors: TRANSFER_NOT_FOUND.
   */
  GetTransferHistory(argument: _agentpay_transfers_v1_TransferHistoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferHistory__Output>): grpc.ClientUnaryCall;
  GetTransferHistory(argument: _agentpay_transfers_v1_TransferHistoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferHistory__Output>): grpc.ClientUnaryCall;
  GetTransferHistory(argument: _agentpay_transfers_v1_TransferHistoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferHistory__Output>): grpc.ClientUnaryCall;
  GetTransferHistory(argument: _agentpay_transfers_v1_TransferHistoryRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferHistory__Output>): grpc.ClientUnaryCall;
  /**
   * One transfer with its status changes, oldest first; within one merchant when mch_no is set.
   * Errors: TRANSFER_NOT_FOUND.
   */
  getTransferHistory(argument: _agentpay_transfers_v1_TransferHistoryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferHistory__Output>): grpc.ClientUnaryCall;
  getTransferHistory(argument: _agentpay_transfers_v1_TransferHistoryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferHistory__Output>): grpc.ClientUnaryCall;
  getTransferHistory(argument: _agentpay_transfers_v1_TransferHistoryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferHistory__Output>): grpc.ClientUnaryCall;
  getTransferHistory(argument: _agentpay_transfers_v1_TransferHistoryRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_TransferHistory__Output>): grpc.ClientUnaryCall;
  
  /**
   * Validates a payee account; idempotent on mch_no + biz_inqury_no. Errors: DUPLICATE_INQUIRY,
   * PAYEE_TYPE_NOT_AVAILABLE, PAYEE_CODE_NOT_AVAILABLE.
   */
  Inquire(argument: _agentpay_transfers_v1_InquireRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Inquiry__Output>): grpc.ClientUnaryCall;
  Inquire(argument: _agentpay_transfers_v1_InquireRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_Inquiry__Output>): grpc.ClientUnaryCall;
  Inquire(argument: _agentpay_transfers_v1_InquireRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Inquiry__Output>): grpc.ClientUnaryCall;
  Inquire(argument: _agentpay_transfers_v1_InquireRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_Inquiry__Output>): grpc.ClientUnaryCall;
  /**
   * Validates a payee account; idempotent on mch_no + biz_inqury_no. Errors: DUPLICATE_INQUIRY,
   * PAYEE_TYPE_NOT_AVAILABLE, PAYEE_CODE_NOT_AVAILABLE.
   */
  inquire(argument: _agentpay_transfers_v1_InquireRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Inquiry__Output>): grpc.ClientUnaryCall;
  inquire(argument: _agentpay_transfers_v1_InquireRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_Inquiry__Output>): grpc.ClientUnaryCall;
  inquire(argument: _agentpay_transfers_v1_InquireRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Inquiry__Output>): grpc.ClientUnaryCall;
  inquire(argument: _agentpay_transfers_v1_InquireRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_Inquiry__Output>): grpc.ClientUnaryCall;
  
  /**
   * The merchant's payees newest first, keyset-paged. Errors: INVALID_PARAMETER (a bad cursor).
   */
  ListPayees(argument: _agentpay_transfers_v1_ListPayeesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_ListPayeesResponse__Output>): grpc.ClientUnaryCall;
  ListPayees(argument: _agentpay_transfers_v1_ListPayeesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_ListPayeesResponse__Output>): grpc.ClientUnaryCall;
  ListPayees(argument: _agentpay_transfers_v1_ListPayeesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_ListPayeesResponse__Output>): grpc.ClientUnaryCall;
  ListPayees(argument: _agentpay_transfers_v1_ListPayeesRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_ListPayeesResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The merchant's payees newest first, keyset-paged. Errors: INVALID_PARAMETER (a bad cursor).
   */
  listPayees(argument: _agentpay_transfers_v1_ListPayeesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_ListPayeesResponse__Output>): grpc.ClientUnaryCall;
  listPayees(argument: _agentpay_transfers_v1_ListPayeesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_ListPayeesResponse__Output>): grpc.ClientUnaryCall;
  listPayees(argument: _agentpay_transfers_v1_ListPayeesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_ListPayeesResponse__Output>): grpc.ClientUnaryCall;
  listPayees(argument: _agentpay_transfers_v1_ListPayeesRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_ListPayeesResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * For operators and the merchant dashboard: transfers newest first (created_at, then transfer_no),
   * keyset-paged; within one merchant when mch_no is set. Errors: INVALID_PARAMETER.
   */
  ListTransfers(argument: _agentpay_transfers_v1_ListTransfersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_ListTransfersResponse__Output>): grpc.ClientUnaryCall;
  ListTransfers(argument: _agentpay_transfers_v1_ListTransfersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_ListTransfersResponse__Output>): grpc.ClientUnaryCall;
  ListTransfers(argument: _agentpay_transfers_v1_ListTransfersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_ListTransfersResponse__Output>): grpc.ClientUnaryCall;
  ListTransfers(argument: _agentpay_transfers_v1_ListTransfersRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_ListTransfersResponse__Output>): grpc.ClientUnaryCall;
  /**
   * For operators and the merchant dashboard: transfers newest first (created_at, then transfer_no),
   * keyset-paged; within one merchant when mch_no is set. Errors: INVALID_PARAMETER.
   */
  listTransfers(argument: _agentpay_transfers_v1_ListTransfersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_ListTransfersResponse__Output>): grpc.ClientUnaryCall;
  listTransfers(argument: _agentpay_transfers_v1_ListTransfersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_ListTransfersResponse__Output>): grpc.ClientUnaryCall;
  listTransfers(argument: _agentpay_transfers_v1_ListTransfersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_ListTransfersResponse__Output>): grpc.ClientUnaryCall;
  listTransfers(argument: _agentpay_transfers_v1_ListTransfersRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_ListTransfersResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Registered payees (CONTRACT section 19). Registers one, cooling off until PAYEE_COOLING_MINUTES passed;
   * a repeat for an account registered already answers that registration (created false). Errors:
   * INVALID_PAYEE_ACCOUNT, PAYEE_TYPE_NOT_AVAILABLE, INVALID_PARAMETER.
   */
  RegisterPayee(argument: _agentpay_transfers_v1_RegisterPayeeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisterPayeeResponse__Output>): grpc.ClientUnaryCall;
  RegisterPayee(argument: _agentpay_transfers_v1_RegisterPayeeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisterPayeeResponse__Output>): grpc.ClientUnaryCall;
  RegisterPayee(argument: _agentpay_transfers_v1_RegisterPayeeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisterPayeeResponse__Output>): grpc.ClientUnaryCall;
  RegisterPayee(argument: _agentpay_transfers_v1_RegisterPayeeRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisterPayeeResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Registered payees (CONTRACT section 19). Registers one, cooling off until PAYEE_COOLING_MINUTES passed;
   * a repeat for an account registered already answers that registration (created false). Errors:
   * INVALID_PAYEE_ACCOUNT, PAYEE_TYPE_NOT_AVAILABLE, INVALID_PARAMETER.
   */
  registerPayee(argument: _agentpay_transfers_v1_RegisterPayeeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisterPayeeResponse__Output>): grpc.ClientUnaryCall;
  registerPayee(argument: _agentpay_transfers_v1_RegisterPayeeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisterPayeeResponse__Output>): grpc.ClientUnaryCall;
  registerPayee(argument: _agentpay_transfers_v1_RegisterPayeeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisterPayeeResponse__Output>): grpc.ClientUnaryCall;
  registerPayee(argument: _agentpay_transfers_v1_RegisterPayeeRequest, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisterPayeeResponse__Output>): grpc.ClientUnaryCall;
  
  RejectHeld(argument: _agentpay_transfers_v1_HeldTransferRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  RejectHeld(argument: _agentpay_transfers_v1_HeldTransferRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  RejectHeld(argument: _agentpay_transfers_v1_HeldTransferRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  RejectHeld(argument: _agentpay_transfers_v1_HeldTransferRef, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  rejectHeld(argument: _agentpay_transfers_v1_HeldTransferRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  rejectHeld(argument: _agentpay_transfers_v1_HeldTransferRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  rejectHeld(argument: _agentpay_transfers_v1_HeldTransferRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  rejectHeld(argument: _agentpay_transfers_v1_HeldTransferRef, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  
  /**
   * Held transfers (docs/compliance.md): the gateway calls these after compliance recorded a person's
   * decision. Release sends the payout now (the router's answer as in a create); reject fails the transfer
   * (funds back, callback). Idempotent. Errors: TRANSFER_NOT_FOUND, ORDER_STATUS_FORBIDS (not held),
   * SERVICE_UNAVAILABLE (release: the router created nothing; held again, try later).
   */
  ReleaseHeld(argument: _agentpay_transfers_v1_HeldTransferRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  ReleaseHeld(argument: _agentpay_transfers_v1_HeldTransferRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  ReleaseHeld(argument: _agentpay_transfers_v1_HeldTransferRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  ReleaseHeld(argument: _agentpay_transfers_v1_HeldTransferRef, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  /**
   * Held transfers (docs/compliance.md): the gateway calls these after compliance recorded a person's
   * decision. Release sends the payout now (the router's answer as in a create); reject fails the transfer
   * (funds back, callback). Idempotent. Errors: TRANSFER_NOT_FOUND, ORDER_STATUS_FORBIDS (not held),
   * SERVICE_UNAVAILABLE (release: the router created nothing; held again, try later).
   */
  releaseHeld(argument: _agentpay_transfers_v1_HeldTransferRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  releaseHeld(argument: _agentpay_transfers_v1_HeldTransferRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  releaseHeld(argument: _agentpay_transfers_v1_HeldTransferRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  releaseHeld(argument: _agentpay_transfers_v1_HeldTransferRef, callback: grpc.requestCallback<_agentpay_transfers_v1_Transfer__Output>): grpc.ClientUnaryCall;
  
  /**
   * Removes a payee at once (transfers to it are refused from now). Errors: PAYEE_NOT_REGISTERED.
   */
  RemovePayee(argument: _agentpay_transfers_v1_PayeeAction, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  RemovePayee(argument: _agentpay_transfers_v1_PayeeAction, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  RemovePayee(argument: _agentpay_transfers_v1_PayeeAction, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  RemovePayee(argument: _agentpay_transfers_v1_PayeeAction, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  /**
   * Removes a payee at once (transfers to it are refused from now). Errors: PAYEE_NOT_REGISTERED.
   */
  removePayee(argument: _agentpay_transfers_v1_PayeeAction, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  removePayee(argument: _agentpay_transfers_v1_PayeeAction, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  removePayee(argument: _agentpay_transfers_v1_PayeeAction, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  removePayee(argument: _agentpay_transfers_v1_PayeeAction, callback: grpc.requestCallback<_agentpay_transfers_v1_RegisteredPayee__Output>): grpc.ClientUnaryCall;
  
}

export interface TransferServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * A second merchant person makes a cooling payee usable now. Errors: PAYEE_NOT_REGISTERED,
   * INVALID_PARAMETER (the approver registered it).
   */
  ApprovePayee: grpc.handleUnaryCall<_agentpay_transfers_v1_PayeeAction__Output, _agentpay_transfers_v1_RegisteredPayee>;
  
  /**
   * Refunds a paid order to its payer's account (CONTRACT section 21): a payout of kind `refund`;
   * idempotent on mch_no + biz_refund_no. Errors: REFUND_NOT_POSSIBLE (naming why), DUPLICATE_REFUND,
   * INSUFFICIENT_BALANCE, PAYOUT_LIMIT_EXCEEDED, NO_UPSTREAM_ROUTE, UPSTREAM_UNAVAILABLE.
   */
  CreateRefund: grpc.handleUnaryCall<_agentpay_transfers_v1_CreateRefundRequest__Output, _agentpay_transfers_v1_CreateTransferResponse>;
  
  /**
   * Creates and submits a transfer; idempotent on mch_no + biz_transfer_no. Errors: PAYEE_TYPE_NOT_AVAILABLE,
   * PAYEE_CODE_NOT_AVAILABLE, INVALID_PAYEE_ACCOUNT, DUPLICATE_TRANSFER, INSUFFICIENT_BALANCE,
   * NO_UPSTREAM_ROUTE, UPSTREAM_UNAVAILABLE.
   */
  CreateTransfer: grpc.handleUnaryCall<_agentpay_transfers_v1_CreateTransferRequest__Output, _agentpay_transfers_v1_CreateTransferResponse>;
  
  /**
   * Creates a batch payout (CONTRACT section 21): every item validated as a transfer, all inserted and
   * frozen as one, then each sent as an ordinary transfer without waiting for the others. Idempotent on
   * mch_no + biz_batch_no. Errors: INVALID_PARAMETER / INVALID_PAYEE_ACCOUNT / PAYEE_NOT_REGISTERED /
   * DUPLICATE_TRANSFER naming items[i], DUPLICATE_BATCH, INSUFFICIENT_BALANCE, PAYOUT_LIMIT_EXCEEDED.
   */
  CreateTransferBatch: grpc.handleUnaryCall<_agentpay_transfers_v1_CreateTransferBatchRequest__Output, _agentpay_transfers_v1_CreateTransferBatchResponse>;
  
  /**
   * Reads one refund by either identifier. Errors: REFUND_NOT_FOUND.
   */
  GetRefund: grpc.handleUnaryCall<_agentpay_transfers_v1_RefundRef__Output, _agentpay_transfers_v1_Transfer>;
  
  /**
   * Reads one transfer by either identifier. Errors: TRANSFER_NOT_FOUND.
   */
  GetTransfer: grpc.handleUnaryCall<_agentpay_transfers_v1_TransferRef__Output, _agentpay_transfers_v1_Transfer>;
  
  /**
   * A batch with its counts per status and one page of its items. Errors: TRANSFER_NOT_FOUND.
   */
  GetTransferBatch: grpc.handleUnaryCall<_agentpay_transfers_v1_TransferBatchRef__Output, _agentpay_transfers_v1_TransferBatchPage>;
  
  /**
   * One transfer with its status changes, oldest first; within one merchant when mch_no is set.
   * Errors: TRANSFER_NOT_FOUND.
   */
  GetTransferHistory: grpc.handleUnaryCall<_agentpay_transfers_v1_TransferHistoryRequest__Output, _agentpay_transfers_v1_TransferHistory>;
  
  /**
   * Validates a payee account; idempotent on mch_no + biz_inqury_no. Errors: DUPLICATE_INQUIRY,
   * PAYEE_TYPE_NOT_AVAILABLE, PAYEE_CODE_NOT_AVAILABLE.
   */
  Inquire: grpc.handleUnaryCall<_agentpay_transfers_v1_InquireRequest__Output, _agentpay_transfers_v1_Inquiry>;
  
  /**
   * The merchant's payees newest first, keyset-paged. Errors: INVALID_PARAMETER (a bad cursor).
   */
  ListPayees: grpc.handleUnaryCall<_agentpay_transfers_v1_ListPayeesRequest__Output, _agentpay_transfers_v1_ListPayeesResponse>;
  
  /**
   * For operators and the merchant dashboard: transfers newest first (created_at, then transfer_no),
   * keyset-paged; within one merchant when mch_no is set. Errors: INVALID_PARAMETER.
   */
  ListTransfers: grpc.handleUnaryCall<_agentpay_transfers_v1_ListTransfersRequest__Output, _agentpay_transfers_v1_ListTransfersResponse>;
  
  /**
   * Registered payees (CONTRACT section 19). Registers one, cooling off until PAYEE_COOLING_MINUTES passed;
   * a repeat for an account registered already answers that registration (created false). Errors:
   * INVALID_PAYEE_ACCOUNT, PAYEE_TYPE_NOT_AVAILABLE, INVALID_PARAMETER.
   */
  RegisterPayee: grpc.handleUnaryCall<_agentpay_transfers_v1_RegisterPayeeRequest__Output, _agentpay_transfers_v1_RegisterPayeeResponse>;
  
  RejectHeld: grpc.handleUnaryCall<_agentpay_transfers_v1_HeldTransferRef__Output, _agentpay_transfers_v1_Transfer>;
  
  /**
   * Held transfers (docs/compliance.md): the gateway calls these after compliance recorded a person's
   * decision. Release sends the payout now (the router's answer as in a create); reject fails the transfer
   * (funds back, callback). Idempotent. Errors: TRANSFER_NOT_FOUND, ORDER_STATUS_FORBIDS (not held),
   * SERVICE_UNAVAILABLE (release: the router created nothing; held again, try later).
   */
  ReleaseHeld: grpc.handleUnaryCall<_agentpay_transfers_v1_HeldTransferRef__Output, _agentpay_transfers_v1_Transfer>;
  
  /**
   * Removes a payee at once (transfers to it are refused from now). Errors: PAYEE_NOT_REGISTERED.
   */
  RemovePayee: grpc.handleUnaryCall<_agentpay_transfers_v1_PayeeAction__Output, _agentpay_transfers_v1_RegisteredPayee>;
  
}

export interface TransferServiceDefinition extends grpc.ServiceDefinition {
  ApprovePayee: MethodDefinition<_agentpay_transfers_v1_PayeeAction, _agentpay_transfers_v1_RegisteredPayee, _agentpay_transfers_v1_PayeeAction__Output, _agentpay_transfers_v1_RegisteredPayee__Output>
  CreateRefund: MethodDefinition<_agentpay_transfers_v1_CreateRefundRequest, _agentpay_transfers_v1_CreateTransferResponse, _agentpay_transfers_v1_CreateRefundRequest__Output, _agentpay_transfers_v1_CreateTransferResponse__Output>
  CreateTransfer: MethodDefinition<_agentpay_transfers_v1_CreateTransferRequest, _agentpay_transfers_v1_CreateTransferResponse, _agentpay_transfers_v1_CreateTransferRequest__Output, _agentpay_transfers_v1_CreateTransferResponse__Output>
  CreateTransferBatch: MethodDefinition<_agentpay_transfers_v1_CreateTransferBatchRequest, _agentpay_transfers_v1_CreateTransferBatchResponse, _agentpay_transfers_v1_CreateTransferBatchRequest__Output, _agentpay_transfers_v1_CreateTransferBatchResponse__Output>
  GetRefund: MethodDefinition<_agentpay_transfers_v1_RefundRef, _agentpay_transfers_v1_Transfer, _agentpay_transfers_v1_RefundRef__Output, _agentpay_transfers_v1_Transfer__Output>
  GetTransfer: MethodDefinition<_agentpay_transfers_v1_TransferRef, _agentpay_transfers_v1_Transfer, _agentpay_transfers_v1_TransferRef__Output, _agentpay_transfers_v1_Transfer__Output>
  GetTransferBatch: MethodDefinition<_agentpay_transfers_v1_TransferBatchRef, _agentpay_transfers_v1_TransferBatchPage, _agentpay_transfers_v1_TransferBatchRef__Output, _agentpay_transfers_v1_TransferBatchPage__Output>
  GetTransferHistory: MethodDefinition<_agentpay_transfers_v1_TransferHistoryRequest, _agentpay_transfers_v1_TransferHistory, _agentpay_transfers_v1_TransferHistoryRequest__Output, _agentpay_transfers_v1_TransferHistory__Output>
  Inquire: MethodDefinition<_agentpay_transfers_v1_InquireRequest, _agentpay_transfers_v1_Inquiry, _agentpay_transfers_v1_InquireRequest__Output, _agentpay_transfers_v1_Inquiry__Output>
  ListPayees: MethodDefinition<_agentpay_transfers_v1_ListPayeesRequest, _agentpay_transfers_v1_ListPayeesResponse, _agentpay_transfers_v1_ListPayeesRequest__Output, _agentpay_transfers_v1_ListPayeesResponse__Output>
  ListTransfers: MethodDefinition<_agentpay_transfers_v1_ListTransfersRequest, _agentpay_transfers_v1_ListTransfersResponse, _agentpay_transfers_v1_ListTransfersRequest__Output, _agentpay_transfers_v1_ListTransfersResponse__Output>
  RegisterPayee: MethodDefinition<_agentpay_transfers_v1_RegisterPayeeRequest, _agentpay_transfers_v1_RegisterPayeeResponse, _agentpay_transfers_v1_RegisterPayeeRequest__Output, _agentpay_transfers_v1_RegisterPayeeResponse__Output>
  RejectHeld: MethodDefinition<_agentpay_transfers_v1_HeldTransferRef, _agentpay_transfers_v1_Transfer, _agentpay_transfers_v1_HeldTransferRef__Output, _agentpay_transfers_v1_Transfer__Output>
  ReleaseHeld: MethodDefinition<_agentpay_transfers_v1_HeldTransferRef, _agentpay_transfers_v1_Transfer, _agentpay_transfers_v1_HeldTransferRef__Output, _agentpay_transfers_v1_Transfer__Output>
  RemovePayee: MethodDefinition<_agentpay_transfers_v1_PayeeAction, _agentpay_transfers_v1_RegisteredPayee, _agentpay_transfers_v1_PayeeAction__Output, _agentpay_transfers_v1_RegisteredPayee__Output>
}
