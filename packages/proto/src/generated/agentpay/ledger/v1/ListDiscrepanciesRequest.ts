// Original file: proto/ledger/v1/ledger.proto


export interface ListDiscrepanciesRequest {
  /**
   * open, resolved, or empty for both.
   */
  'state'?: (string);
  /**
   * missing_on_platform, missing_on_channel, amount_mismatch, unmatched_deposit, or empty.
   */
  'kind'?: (string);
  /**
   * yyyy-MM-dd or empty.
   */
  'day'?: (string);
  'limit'?: (number);
  /**
   * Keyset cursor: the last id of the previous page.
   */
  'after_id'?: (string);
}

export interface ListDiscrepanciesRequest__Output {
  /**
   * open, resolved, or empty for both.
   */
  'state': (string);
  /**
   * missing_on_platform, missing_on_channel, amount_mismatch, unmatched_deposit, or empty.
   */
  'kind': (string);
  /**
   * yyyy-MM-dd or empty.
   */
  'day': (string);
  'limit': (number);
  /**
   * Keyset cursor: the last id of the previous page.
   */
  'after_id': (string);
}
