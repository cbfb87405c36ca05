package com.agentpay.merchant;

/** Either identifier of a payment order; when both are given they must name the same order. */
public final class PayOrderRef extends Params<PayOrderRef> {
  /** By the platform's order number. */
  public static PayOrderRef orderNo(String orderNo) {
    return new PayOrderRef().set("orderNo", orderNo);
  }

  /** By your order number. */
  public static PayOrderRef bizOrderNo(String bizOrderNo) {
    return new PayOrderRef().set("bizOrderNo", bizOrderNo);
  }

  /** Adds your order number to a reference by orderNo. */
  public PayOrderRef andBizOrderNo(String bizOrderNo) {
    return set("bizOrderNo", bizOrderNo);
  }
}
