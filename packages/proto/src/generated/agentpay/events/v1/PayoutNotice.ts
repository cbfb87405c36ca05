// Original file: proto/events/v1/events.proto


/**
 * What a channel reports about a transfer's payout.
 */
export interface PayoutNotice {
  'transfer_no'?: (string);
  /**
   * success, fail or returned
   */
  'status'?: (string);
  /**
   * When the payout finished, by the channel's clock; empty when it did not say.
   */
  'finished_at'?: (string);
  /**
   * SPEI tracking key of the payout; empty when the channel has none.
   */
  'clave_rastreo'?: (string);
  /**
   * The route the notice came on, and the channel's reference of the payout there: a transfer whose
   * submission's answer was lost learns its route from it. Internal; never shown to merchants.
   */
  'route_id'?: (string);
  'upstream_ref'?: (string);
  /**
   * Banxico's CEP page of the payout, when the channel gives one.
   */
  'cep_url'?: (string);
  /**
   * The sending bank's 5-digit Banxico code (the route's institution), when the channel has one.
   */
  'sender_bank'?: (string);
}

/**
 * What a channel reports about a transfer's payout.
 */
export interface PayoutNotice__Output {
  'transfer_no': (string);
  /**
   * success, fail or returned
   */
  'status': (string);
  /**
   * When the payout finished, by the channel's clock; empty when it did not say.
   */
  'finished_at': (string);
  /**
   * SPEI tracking key of the payout; empty when the channel has none.
   */
  'clave_rastreo': (string);
  /**
   * The route the notice came on, and the channel's reference of the payout there: a transfer whose
   * submission's answer was lost learns its route from it. Internal; never shown to merchants.
   */
  'route_id': (string);
  'upstream_ref': (string);
  /**
   * Banxico's CEP page of the payout, when the channel gives one.
   */
  'cep_url': (string);
  /**
   * The sending bank's 5-digit Banxico code (the route's institution), when the channel has one.
   */
  'sender_bank': (string);
}
