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

/** The two routes a run loads: the sandbox's own channel and STP (its emulator, the sandbox's second face). */
export type RouteName = 'sandbox' | 'stp';

/** Route ids of a fresh stack (services/upstream-router/src/main.ts, routes/seed-routes.ts). */
export const ROUTE_IDS: Readonly<Record<RouteName, string>> = {
  sandbox: 'sandbox-default',
  stp: 'stp-default',
};

/** The route a stored route id names; undefined for none (a transfer that never reached a route). */
export function routeNamed(routeId: string | null | undefined): RouteName | undefined {
  if (routeId === ROUTE_IDS.stp) return 'stp';
  if (routeId === ROUTE_IDS.sandbox) return 'sandbox';
  return undefined;
}

export interface CreateRecord {
  kind: 'pay' | 'transfer';
  /** The route the merchant is bound to (the order may still fail over to the other). */
  route: RouteName;
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
  /** The route of the order's CLABE: the sandbox answers `matched`, the STP emulator the platform's `answer`. */
  route: RouteName;
  orderNo: string;
  clabe: string;
  amount: number;
  exact: boolean;
  /** Requests the load sent for this deposit (a retry after a lost reply may land on a paid account). */
  attempts?: number;
  matched?: boolean;
  /** Sandbox: why an unmatched deposit was not applied; STP: the abono's answer (confirmar, devolver, pending). */
  reason?: string | null;
}
