// Original file: proto/router/v1/router.proto


export interface VirtualAccount {
  'route_id'?: (string);
  'clabe'?: (string);
  /**
   * Public (Banxico) institution code of the bank holding the CLABE.
   */
  'bank_code'?: (string);
  'bank_name'?: (string);
  'beneficiary_name'?: (string);
  'reference'?: (string);
  /**
   * The channel's own reference for the account; stays inside the platform.
   */
  'upstream_ref'?: (string);
}

export interface VirtualAccount__Output {
  'route_id': (string);
  'clabe': (string);
  /**
   * Public (Banxico) institution code of the bank holding the CLABE.
   */
  'bank_code': (string);
  'bank_name': (string);
  'beneficiary_name': (string);
  'reference': (string);
  /**
   * The channel's own reference for the account; stays inside the platform.
   */
  'upstream_ref': (string);
}
