// Original file: proto/router/v1/router.proto


export interface SetRouteMerchantsRequest {
  'id'?: (string);
  'mch_nos'?: (string)[];
}

export interface SetRouteMerchantsRequest__Output {
  'id': (string);
  'mch_nos': (string)[];
}
