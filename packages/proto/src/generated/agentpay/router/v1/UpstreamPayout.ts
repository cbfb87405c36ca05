// Original file: proto/router/v1/router.proto


export interface UpstreamPayout {
  /**
   * progress, success, fail, returned
   */
  'status'?: (string);
  'finished_at'?: (string);
}

export interface UpstreamPayout__Output {
  /**
   * progress, success, fail, returned
   */
  'status': (string);
  'finished_at': (string);
}
