package com.agentpay.merchant;

/** POST /gateway/close: closes (or with useCancel, cancels) an unfinished payment order. */
public final class CloseParams extends Params<CloseParams> {
  /** The platform order number (this or bizOrderNo). */
  public CloseParams orderNo(String orderNo) {
    return set("orderNo", orderNo);
  }

  /** Your order number. */
  public CloseParams bizOrderNo(String bizOrderNo) {
    return set("bizOrderNo", bizOrderNo);
  }

  /** Close by cancel mode (status {@code cancel} instead of {@code close}). */
  public CloseParams useCancel(Boolean useCancel) {
    return set("useCancel", useCancel);
  }
}
