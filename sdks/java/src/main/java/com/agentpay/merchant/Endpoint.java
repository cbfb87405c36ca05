package com.agentpay.merchant;

import java.util.List;

/**
 * The merchant endpoints: the OpenAPI document's operationId and path, the business fields the typed call
 * takes (the common parameters are filled in) and those it cannot be called without, and whether a call
 * may be repeated safely. Every one today may: queries and options read, and pay, transfer, inquire and
 * close are idempotent on their numbers (the same request again answers the same object), sync re-reads.
 * A test holds this table to docs/openapi.json (`run-tests endpoints`).
 */
public enum Endpoint {
  PAY("pay", "/gateway/pay", true,
      List.of("bizOrderNo", "title", "description", "expiredTime", "method", "limitPay", "amount", "extraParam",
          "attach", "returnUrl", "quitUrl", "notifyUrl"),
      List.of("bizOrderNo", "title", "method", "amount")),
  PAY_METHODS("payMethods", "/gateway/options/pay-methods", true, List.of(), List.of()),
  PAYEE_TYPES("payeeTypes", "/gateway/options/payee-types", true, List.of(), List.of()),
  PAYEE_CODES("payeeCodes", "/gateway/options/payee-codes", true, List.of("payeeType"), List.of("payeeType")),
  CLOSE("close", "/gateway/close", true, List.of("orderNo", "bizOrderNo", "useCancel"), List.of()),
  INQUIRE("inquire", "/gateway/inqury", true,
      List.of("bizInquryNo", "payeeType", "payeeAccount", "payeeName", "payeeCode", "extraParam", "attach"),
      List.of("bizInquryNo", "payeeType", "payeeAccount")),
  TRANSFER("transfer", "/gateway/transfer", true,
      List.of("bizTransferNo", "amount", "title", "reason", "payeeType", "payeeAccount", "payeeName", "payeeCode",
          "extraParam", "attach", "notifyUrl"),
      List.of("bizTransferNo", "amount", "payeeType", "payeeAccount")),
  QUERY_PAY_ORDER("queryPayOrder", "/gateway/query/payOrder", true, List.of("orderNo", "bizOrderNo"), List.of()),
  QUERY_TRANSFER_ORDER("queryTransferOrder", "/gateway/query/transferOrder", true,
      List.of("transferNo", "bizTransferNo"), List.of()),
  REFUND("refund", "/gateway/refund", true,
      List.of("bizRefundNo", "orderNo", "bizOrderNo", "amount", "reason", "notifyUrl"), List.of("bizRefundNo")),
  QUERY_REFUND("queryRefund", "/gateway/query/refund", true, List.of("refundNo", "bizRefundNo"), List.of()),
  SYNC_PAY_ORDER("syncPayOrder", "/gateway/sync/order/pay", true, List.of("orderNo", "bizOrderNo"), List.of()),
  BALANCE("balance", "/gateway/query/balance", true, List.of(), List.of()),
  BALANCE_RECORDS("balanceRecords", "/gateway/query/balanceRecords", true,
      List.of("startTime", "endTime", "limit", "cursor"), List.of("startTime", "endTime")),
  // Controls on where money goes: registering an account registered already answers that registration,
  // removing a removed payee answers it as it is.
  QUERY_LIMITS("queryLimits", "/gateway/query/limits", true, List.of(), List.of()),
  REGISTER_PAYEE("registerPayee", "/gateway/payee/register", true,
      List.of("payeeType", "payeeAccount", "payeeName", "payeeCode"),
      List.of("payeeType", "payeeAccount", "payeeName")),
  QUERY_PAYEES("queryPayees", "/gateway/query/payees", true, List.of("limit", "cursor"), List.of()),
  REMOVE_PAYEE("removePayee", "/gateway/payee/remove", true, List.of("payeeId"), List.of("payeeId")),
  // Batch payouts: the same bizBatchNo with the same items answers the same batch.
  TRANSFER_BATCH("transferBatch", "/gateway/transfer/batch", true, List.of("bizBatchNo", "notifyUrl", "items"),
      List.of("bizBatchNo", "items")),
  QUERY_TRANSFER_BATCH("queryTransferBatch", "/gateway/query/transferBatch", true,
      List.of("batchNo", "bizBatchNo", "cursor", "limit"), List.of());

  private final String operationId;
  private final String path;
  private final boolean idempotent;
  private final List<String> params;
  private final List<String> required;

  Endpoint(String operationId, String path, boolean idempotent, List<String> params, List<String> required) {
    this.operationId = operationId;
    this.path = path;
    this.idempotent = idempotent;
    this.params = params;
    this.required = required;
  }

  /** The operationId of docs/openapi.json, which is also the typed call's name. */
  public String operationId() {
    return operationId;
  }

  public String path() {
    return path;
  }

  /** True when sending the same request again (with a fresh nonce) cannot do anything twice. */
  public boolean idempotent() {
    return idempotent;
  }

  /** The business fields the typed call takes. */
  public List<String> params() {
    return params;
  }

  /** The business fields it cannot be called without. */
  public List<String> required() {
    return required;
  }
}
