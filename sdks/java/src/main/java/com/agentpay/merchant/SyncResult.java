package com.agentpay.merchant;

import java.util.Map;

/** {@code data} of syncPayOrder: the status after synchronization, and whether it changed. A field the reply leaves out is null. */
public record SyncResult(
    String orderStatus,
    Boolean adjust) {
  static SyncResult from(Map<String, Object> m) {
    return new SyncResult(
        Fields.str(m, "orderStatus"),
        Fields.bool(m, "adjust"));
  }
}
