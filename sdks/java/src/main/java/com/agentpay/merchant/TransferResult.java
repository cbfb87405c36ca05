package com.agentpay.merchant;

import java.util.Map;

/** {@code data} of transfer. A field the reply leaves out is null. */
public record TransferResult(
    String bizTransferNo,
    String transferNo,
    String status) {
  static TransferResult from(Map<String, Object> m) {
    return new TransferResult(
        Fields.str(m, "bizTransferNo"),
        Fields.str(m, "transferNo"),
        Fields.str(m, "status"));
  }
}
