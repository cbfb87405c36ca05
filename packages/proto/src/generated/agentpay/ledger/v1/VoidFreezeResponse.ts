// Original file: proto/ledger/v1/ledger.proto


export interface VoidFreezeResponse {
  /**
   * True when a held freeze was released by this call or an earlier VoidFreeze.
   */
  'released'?: (boolean);
  /**
   * What the transfer's hold is now: void, or released / out / returned when its transfer had moved on
   * (then nothing was changed).
   */
  'hold_status'?: (string);
}

export interface VoidFreezeResponse__Output {
  /**
   * True when a held freeze was released by this call or an earlier VoidFreeze.
   */
  'released': (boolean);
  /**
   * What the transfer's hold is now: void, or released / out / returned when its transfer had moved on
   * (then nothing was changed).
   */
  'hold_status': (string);
}
