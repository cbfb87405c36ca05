// Original file: proto/router/v1/router.proto

import type { Long } from '@grpc/proto-loader';

/**
 * One movement of money on a channel's statement.
 */
export interface StatementLine {
  'route_id'?: (string);
  /**
   * The channel's own reference of the movement (unique on its statement).
   */
  'reference'?: (string);
  /**
   * SPEI tracking key, at most 30 characters; empty when the movement has none.
   */
  'clave_rastreo'?: (string);
  /**
   * deposit, payout, payout_return, or deposit_returned (a deposit the platform refused on arrival, which
   * the channel sent straight back to the payer: no money stayed with the platform).
   */
  'kind'?: (string);
  /**
   * Centavos.
   */
  'amount'?: (number | string | Long);
  /**
   * RFC 3339 UTC.
   */
  'occurred_at'?: (string);
  /**
   * deposit: the virtual account's CLABE; payout and payout_return: the payee's account.
   */
  'account'?: (string);
  /**
   * The platform's reference the channel was given: the order number of the virtual account (deposit),
   * the transfer number (payout, payout_return); empty for a deposit to an account the channel does not know.
   */
  'platform_ref'?: (string);
  /**
   * The channel's reference of the virtual account or payout, as the platform holds it (upstream_ref).
   */
  'upstream_ref'?: (string);
  /**
   * deposit: the payer's account and name (a return goes back to them).
   */
  'sender_account'?: (string);
  'sender_name'?: (string);
  /**
   * deposit: true when the channel applied it to its account's order; false when its account logic
   * refused it (account paid, closed or expired, or the amount differs): money nobody owns yet.
   */
  'applied'?: (boolean);
}

/**
 * One movement of money on a channel's statement.
 */
export interface StatementLine__Output {
  'route_id': (string);
  /**
   * The channel's own reference of the movement (unique on its statement).
   */
  'reference': (string);
  /**
   * SPEI tracking key, at most 30 characters; empty when the movement has none.
   */
  'clave_rastreo': (string);
  /**
   * deposit, payout, payout_return, or deposit_returned (a deposit the platform refused on arrival, which
   * the channel sent straight back to the payer: no money stayed with the platform).
   */
  'kind': (string);
  /**
   * Centavos.
   */
  'amount': (string);
  /**
   * RFC 3339 UTC.
   */
  'occurred_at': (string);
  /**
   * deposit: the virtual account's CLABE; payout and payout_return: the payee's account.
   */
  'account': (string);
  /**
   * The platform's reference the channel was given: the order number of the virtual account (deposit),
   * the transfer number (payout, payout_return); empty for a deposit to an account the channel does not know.
   */
  'platform_ref': (string);
  /**
   * The channel's reference of the virtual account or payout, as the platform holds it (upstream_ref).
   */
  'upstream_ref': (string);
  /**
   * deposit: the payer's account and name (a return goes back to them).
   */
  'sender_account': (string);
  'sender_name': (string);
  /**
   * deposit: true when the channel applied it to its account's order; false when its account logic
   * refused it (account paid, closed or expired, or the amount differs): money nobody owns yet.
   */
  'applied': (boolean);
}
