package com.agentpay.merchant;

/** Either identifier of a transfer; when both are given they must name the same transfer. */
public final class TransferRef extends Params<TransferRef> {
  /** By the platform's transfer number. */
  public static TransferRef transferNo(String transferNo) {
    return new TransferRef().set("transferNo", transferNo);
  }

  /** By your transfer number. */
  public static TransferRef bizTransferNo(String bizTransferNo) {
    return new TransferRef().set("bizTransferNo", bizTransferNo);
  }

  /** Adds your transfer number to a reference by transferNo. */
  public TransferRef andBizTransferNo(String bizTransferNo) {
    return set("bizTransferNo", bizTransferNo);
  }
}
