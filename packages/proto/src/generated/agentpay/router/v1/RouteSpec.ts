// Original file: proto/router/v1/router.proto


/**
 * A route as an operator defines it.
 */
export interface RouteSpec {
  /**
   * Lowercase letters, digits and '-'; part of the route's notice URL. Never shown to merchants.
   */
  'id'?: (string);
  'name'?: (string);
  /**
   * Channel adapter, e.g. `sandbox`.
   */
  'adapter'?: (string);
  /**
   * The adapter's settings as a JSON object, e.g. {"baseUrl", "noticeUrl", "noticeSecretRef", "timeoutMs"}.
   */
  'config_json'?: (string);
  /**
   * Name of the environment variable holding the channel credentials (SANDBOX_*, UPSTREAM_*, CHANNEL_*).
   */
  'credentials_ref'?: (string);
  'enabled'?: (boolean);
  /**
   * Public payment method codes served.
   */
  'methods'?: (string)[];
  /**
   * Public payee types served.
   */
  'payee_types'?: (string)[];
  /**
   * Lower is preferred.
   */
  'priority'?: (number);
  /**
   * Share of traffic among routes of equal priority; 0 takes none.
   */
  'weight'?: (number);
  /**
   * `all` merchants, or only those bound to the route (`list`).
   */
  'merchant_scope'?: (string);
  /**
   * Public (Banxico) payee code → this channel's own code.
   */
  'code_map'?: ({[key: string]: string});
}

/**
 * A route as an operator defines it.
 */
export interface RouteSpec__Output {
  /**
   * Lowercase letters, digits and '-'; part of the route's notice URL. Never shown to merchants.
   */
  'id': (string);
  'name': (string);
  /**
   * Channel adapter, e.g. `sandbox`.
   */
  'adapter': (string);
  /**
   * The adapter's settings as a JSON object, e.g. {"baseUrl", "noticeUrl", "noticeSecretRef", "timeoutMs"}.
   */
  'config_json': (string);
  /**
   * Name of the environment variable holding the channel credentials (SANDBOX_*, UPSTREAM_*, CHANNEL_*).
   */
  'credentials_ref': (string);
  'enabled': (boolean);
  /**
   * Public payment method codes served.
   */
  'methods': (string)[];
  /**
   * Public payee types served.
   */
  'payee_types': (string)[];
  /**
   * Lower is preferred.
   */
  'priority': (number);
  /**
   * Share of traffic among routes of equal priority; 0 takes none.
   */
  'weight': (number);
  /**
   * `all` merchants, or only those bound to the route (`list`).
   */
  'merchant_scope': (string);
  /**
   * Public (Banxico) payee code → this channel's own code.
   */
  'code_map': ({[key: string]: string});
}
