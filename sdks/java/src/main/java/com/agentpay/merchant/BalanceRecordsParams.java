package com.agentpay.merchant;

/** POST /gateway/query/balanceRecords: one page of the statement. */
public final class BalanceRecordsParams extends Params<BalanceRecordsParams> {
  /** {@code yyyy-MM-dd HH:mm:ss}, included. */
  public BalanceRecordsParams startTime(String startTime) {
    return set("startTime", startTime);
  }

  /** {@code yyyy-MM-dd HH:mm:ss}, excluded; after startTime, at most 31 days after it. */
  public BalanceRecordsParams endTime(String endTime) {
    return set("endTime", endTime);
  }

  /** Records per page, 1..500; default 100. */
  public BalanceRecordsParams limit(Integer limit) {
    return set("limit", limit);
  }

  /** The previous page's nextCursor. */
  public BalanceRecordsParams cursor(String cursor) {
    return set("cursor", cursor);
  }
}
