// Original file: proto/compliance/v1/compliance.proto

import type { Long } from '@grpc/proto-loader';

export interface ScreenRequest {
  /**
   * payout | deposit | payee (a registered payee re-screened when a list version takes effect)
   */
  'operation_kind'?: (string);
  /**
   * transfer_no of a payout; the channel's reference (claveRastreo) of a deposit.
   */
  'operation_ref'?: (string);
  'mch_no'?: (string);
  'amount'?: (number | string | Long);
  'name'?: (string);
  'rfc'?: (string);
  'curp'?: (string);
  'account'?: (string);
  'bank'?: (string);
  'clave_rastreo'?: (string);
  /**
   * false: answer only, open no case (the sandbox's refusal, a re-screen dry run).
   */
  'open_case'?: (boolean);
}

export interface ScreenRequest__Output {
  /**
   * payout | deposit | payee (a registered payee re-screened when a list version takes effect)
   */
  'operation_kind': (string);
  /**
   * transfer_no of a payout; the channel's reference (claveRastreo) of a deposit.
   */
  'operation_ref': (string);
  'mch_no': (string);
  'amount': (string);
  'name': (string);
  'rfc': (string);
  'curp': (string);
  'account': (string);
  'bank': (string);
  'clave_rastreo': (string);
  /**
   * false: answer only, open no case (the sandbox's refusal, a re-screen dry run).
   */
  'open_case': (boolean);
}
