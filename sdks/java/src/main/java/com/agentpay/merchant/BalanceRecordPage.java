package com.agentpay.merchant;

import java.util.List;
import java.util.Map;

/** {@code data} of balanceRecords: one page, oldest first; {@code nextCursor} is null on the last page. */
public record BalanceRecordPage(List<BalanceRecord> records, String nextCursor) {
  static BalanceRecordPage from(Map<String, Object> m) {
    return new BalanceRecordPage(Fields.list(m.get("records"), BalanceRecord::from), Fields.str(m, "nextCursor"));
  }
}
