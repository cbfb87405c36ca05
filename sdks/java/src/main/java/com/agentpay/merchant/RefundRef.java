package com.agentpay.merchant;

/** Either identifier of a refund; when both are given they must name the same refund. */
public final class RefundRef extends Params<RefundRef> {
  /** By the platform's refund number. */
  public static RefundRef refundNo(String refundNo) {
    return new RefundRef().set("refundNo", refundNo);
  }

  /** By your refund number. */
  public static RefundRef bizRefundNo(String bizRefundNo) {
    return new RefundRef().set("bizRefundNo", bizRefundNo);
  }
}
