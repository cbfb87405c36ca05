// Original file: proto/transfers/v1/transfers.proto


export interface PayeeAction {
  'mch_no'?: (string);
  'payee_id'?: (string);
  /**
   * ApprovePayee: the approving person's actor id (never the one who registered it).
   */
  'actor'?: (string);
}

export interface PayeeAction__Output {
  'mch_no': (string);
  'payee_id': (string);
  /**
   * ApprovePayee: the approving person's actor id (never the one who registered it).
   */
  'actor': (string);
}
