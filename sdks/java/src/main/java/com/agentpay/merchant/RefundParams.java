package com.agentpay.merchant;

import java.math.BigDecimal;

/** POST /gateway/refund: refunds a paid order (orderNo or bizOrderNo) to its payer's account. */
public final class RefundParams extends Params<RefundParams> {
  /** Your refund number, 1..100 characters, unique per merchant (the idempotency key). */
  public RefundParams bizRefundNo(String bizRefundNo) {
    return set("bizRefundNo", bizRefundNo);
  }

  /** The platform order number (this or bizOrderNo). */
  public RefundParams orderNo(String orderNo) {
    return set("orderNo", orderNo);
  }

  /** Your order number. */
  public RefundParams bizOrderNo(String bizOrderNo) {
    return set("bizOrderNo", bizOrderNo);
  }

  /** Pesos, at most 2 decimals; left out: all the order has left to refund. */
  public RefundParams amount(BigDecimal amount) {
    return set("amount", amount);
  }

  /** At most 50 characters. */
  public RefundParams reason(String reason) {
    return set("reason", reason);
  }

  /** http(s) URL for the refund's callbacks. */
  public RefundParams notifyUrl(String notifyUrl) {
    return set("notifyUrl", notifyUrl);
  }
}
