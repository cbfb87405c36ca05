// What the load saw, request by request and callback by callback: the raw material of the checks.

export interface RequestRecord {
  target: 'gateway' | 'sandbox';
  path: string;
  mchNo: string;
  startedAt: number;
  endedAt: number;
  /** envelope: a signed JSON envelope; the others are failures of some kind. */
  outcome: 'envelope' | 'unsigned' | 'not-json' | 'connection' | 'timeout';
  status?: number;
  code?: number;
  error?: string;
}

export interface Receipt {
  at: number;
  mchNo: string;
  kind: 'pay' | 'transfer' | 'unknown';
  orderNo: string;
  status: string;
  deliveryId: string;
  attempt: number;
  answer: 'SUCCESS' | 'FAIL' | 'HTTP 500';
  signed: boolean;
  bodyMchNo: string;
}

export interface CreateRecord {
  kind: 'pay' | 'transfer';
  scenario: string;
  mchNo: string;
  bizNo: string;
  params: Record<string, unknown>;
  withNotify: boolean;
  /** orderNo / transferNo of every code-0 reply. */
  acceptedAs: string[];
  /** Codes of every enveloped reply, in order. */
  codes: number[];
  /** payBody of the first accepted pay reply. */
  payBody?: string;
  expiresAt?: number;
}

export interface DepositRecord {
  orderNo: string;
  clabe: string;
  amount: number;
  exact: boolean;
  /** Requests the load sent for this deposit (a retry after a lost reply may land on a paid account). */
  attempts?: number;
  matched?: boolean;
  reason?: string | null;
}
