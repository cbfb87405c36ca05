// Original file: proto/common/v1/common.proto


/**
 * A public option (payment method, payee type, payee code).
 */
export interface Option {
  'code'?: (string);
  'name'?: (string);
}

/**
 * A public option (payment method, payee type, payee code).
 */
export interface Option__Output {
  'code': (string);
  'name': (string);
}
