// Original file: proto/router/v1/router.proto


export interface UpstreamPayout {
  /**
   * progress, success, fail, returned
   */
  'status'?: (string);
  'finished_at'?: (string);
  /**
   * The route that holds the payout and its reference there; set when the query named no route and a
   * route was found holding it.
   */
  'route_id'?: (string);
  'upstream_ref'?: (string);
  /**
   * SPEI tracking key of the payout; empty when the channel has none.
   */
  'clave_rastreo'?: (string);
  /**
   * Banxico's CEP page of the payout, when the channel gives one (STP's urlCEP of a liquidated order).
   */
  'cep_url'?: (string);
  /**
   * The sending bank's 5-digit Banxico code (the route's institution), when the channel has one.
   */
  'sender_bank'?: (string);
}

export interface UpstreamPayout__Output {
  /**
   * progress, success, fail, returned
   */
  'status': (string);
  'finished_at': (string);
  /**
   * The route that holds the payout and its reference there; set when the query named no route and a
   * route was found holding it.
   */
  'route_id': (string);
  'upstream_ref': (string);
  /**
   * SPEI tracking key of the payout; empty when the channel has none.
   */
  'clave_rastreo': (string);
  /**
   * Banxico's CEP page of the payout, when the channel gives one (STP's urlCEP of a liquidated order).
   */
  'cep_url': (string);
  /**
   * The sending bank's 5-digit Banxico code (the route's institution), when the channel has one.
   */
  'sender_bank': (string);
}
