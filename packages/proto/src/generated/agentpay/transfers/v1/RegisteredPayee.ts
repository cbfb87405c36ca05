// Original file: proto/transfers/v1/transfers.proto


export interface RegisteredPayee {
  'payee_id'?: (string);
  'payee_type'?: (string);
  'payee_account'?: (string);
  'payee_name'?: (string);
  'payee_code'?: (string);
  /**
   * cooling | usable | removed (a cooling payee past usable_at reads usable).
   */
  'status'?: (string);
  'usable_at'?: (string);
  /**
   * `api` (a signed request) or the dashboard person's actor id.
   */
  'registered_by'?: (string);
  'approved_by'?: (string);
  'created_at'?: (string);
  'removed_at'?: (string);
}

export interface RegisteredPayee__Output {
  'payee_id': (string);
  'payee_type': (string);
  'payee_account': (string);
  'payee_name': (string);
  'payee_code': (string);
  /**
   * cooling | usable | removed (a cooling payee past usable_at reads usable).
   */
  'status': (string);
  'usable_at': (string);
  /**
   * `api` (a signed request) or the dashboard person's actor id.
   */
  'registered_by': (string);
  'approved_by': (string);
  'created_at': (string);
  'removed_at': (string);
}
