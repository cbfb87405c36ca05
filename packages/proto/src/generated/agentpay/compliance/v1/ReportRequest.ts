// Original file: proto/compliance/v1/compliance.proto


export interface ReportRequest {
  /**
   * unusual | blocked
   */
  'kind'?: (string);
  /**
   * RFC 3339 instants, [from, to)
   */
  'from'?: (string);
  'to'?: (string);
}

export interface ReportRequest__Output {
  /**
   * unusual | blocked
   */
  'kind': (string);
  /**
   * RFC 3339 instants, [from, to)
   */
  'from': (string);
  'to': (string);
}
