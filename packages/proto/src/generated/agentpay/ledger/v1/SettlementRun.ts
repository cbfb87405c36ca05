// Original file: proto/ledger/v1/ledger.proto


export interface SettlementRun {
  'id'?: (string);
  /**
   * sweep (the timer) or operator (RunSettlement)
   */
  'trigger'?: (string);
  /**
   * The run settled what was due by this instant.
   */
  'until'?: (string);
  'started_at'?: (string);
  'finished_at'?: (string);
  /**
   * Pay-ins settled (a failed run: those settled before it failed).
   */
  'settled'?: (number);
  /**
   * succeeded or failed
   */
  'status'?: (string);
  /**
   * Why a failed run failed; empty otherwise.
   */
  'error'?: (string);
}

export interface SettlementRun__Output {
  'id': (string);
  /**
   * sweep (the timer) or operator (RunSettlement)
   */
  'trigger': (string);
  /**
   * The run settled what was due by this instant.
   */
  'until': (string);
  'started_at': (string);
  'finished_at': (string);
  /**
   * Pay-ins settled (a failed run: those settled before it failed).
   */
  'settled': (number);
  /**
   * succeeded or failed
   */
  'status': (string);
  /**
   * Why a failed run failed; empty otherwise.
   */
  'error': (string);
}
