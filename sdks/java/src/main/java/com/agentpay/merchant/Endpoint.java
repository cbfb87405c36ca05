package com.agentpay.merchant;

/**
 * The merchant endpoints, with whether a call may be repeated safely. Every one today is: queries and
 * options read, and pay, transfer, inquire, close and sync are idempotent on their numbers (the same
 * request again answers the same order). A test holds this list to the OpenAPI document's paths.
 */
public enum Endpoint {
  PAY("/gateway/pay", true),
  PAY_METHODS("/gateway/options/pay-methods", true),
  PAYEE_TYPES("/gateway/options/payee-types", true),
  PAYEE_CODES("/gateway/options/payee-codes", true),
  CLOSE("/gateway/close", true),
  INQUIRE("/gateway/inqury", true),
  TRANSFER("/gateway/transfer", true),
  QUERY_PAY_ORDER("/gateway/query/payOrder", true),
  QUERY_TRANSFER_ORDER("/gateway/query/transferOrder", true),
  SYNC_PAY_ORDER("/gateway/sync/order/pay", true),
  BALANCE("/gateway/query/balance", true),
  BALANCE_RECORDS("/gateway/query/balanceRecords", true);

  private final String path;
  private final boolean idempotent;

  Endpoint(String path, boolean idempotent) {
    this.path = path;
    this.idempotent = idempotent;
  }

  public String path() {
    return path;
  }

  /** True when sending the same request again (with a fresh nonce) cannot do anything twice. */
  public boolean idempotent() {
    return idempotent;
  }
}
