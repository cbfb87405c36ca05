// Original file: proto/router/v1/router.proto


export interface ChannelFactsRequest {
  /**
   * pay or transfer
   */
  'kind'?: (string);
  /**
   * The order_no or transfer_no.
   */
  'ref'?: (string);
}

export interface ChannelFactsRequest__Output {
  /**
   * pay or transfer
   */
  'kind': (string);
  /**
   * The order_no or transfer_no.
   */
  'ref': (string);
}
