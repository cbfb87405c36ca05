// Original file: proto/transfers/v1/transfers.proto


export interface ApplyUpstreamPayoutRequest {
  'transfer_no'?: (string);
  /**
   * Translated upstream status: success, fail, returned.
   */
  'status'?: (string);
  'finished_at'?: (string);
  'notice_id'?: (string);
}

export interface ApplyUpstreamPayoutRequest__Output {
  'transfer_no': (string);
  /**
   * Translated upstream status: success, fail, returned.
   */
  'status': (string);
  'finished_at': (string);
  'notice_id': (string);
}
