// Every merchant's balance in the ledger against what the final pay orders and transfers imply
// (checks/balances.ts), read from the services' own databases once the platform has settled.
import type { ServiceName, Stack } from '@agentpay/stack';
import pg from 'pg';
import {
  type BookedPayOrder,
  type BookedTransfer,
  checkBalances,
  impliedBalances,
} from './checks/balances.js';

async function rows<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Differences between the ledger's merchant balances and the final orders and transfers; none when they agree. */
export async function checkMerchantBalances(stack: Pick<Stack, 'databaseUrl'>): Promise<string[]> {
  const url = (service: ServiceName) => stack.databaseUrl(service);
  const payOrders = (
    await rows<{
      mch_no: string;
      order_no: string;
      status: string;
      real_amount: string;
      settle_status: string;
    }>(url('payments'), 'select mch_no, order_no, status, real_amount::text, settle_status from pay_orders')
  ).map(
    (o): BookedPayOrder => ({
      mchNo: o.mch_no,
      orderNo: o.order_no,
      status: o.status,
      realAmount: Number(o.real_amount),
      settled: o.settle_status === 'settled',
    }),
  );
  // A return is a change to close from success; its event stays in the outbox after it is published.
  const transfers = (
    await rows<{
      mch_no: string;
      transfer_no: string;
      status: string;
      amount: string;
      fee: string;
      returned: boolean;
    }>(
      url('transfers'),
      `select t.mch_no, t.transfer_no, t.status, t.amount::text, t.fee::text,
              exists (select 1 from outbox o where o.payload->>'order_no' = t.transfer_no
                        and o.payload->>'from_status' = 'success' and o.payload->>'to_status' = 'close') as returned
         from transfers t`,
    )
  ).map(
    (t): BookedTransfer => ({
      mchNo: t.mch_no,
      transferNo: t.transfer_no,
      status: t.status,
      amount: Number(t.amount),
      fee: Number(t.fee),
      returned: t.returned,
    }),
  );
  const adjustments = new Map(
    (
      await rows<{ mch_no: string; amount: string }>(
        url('ledger'),
        `select mch_no, sum(amount)::text as amount from entries where type = 'adjust' group by mch_no`,
      )
    ).map((a) => [a.mch_no, Number(a.amount)] as const),
  );
  const ledger = new Map<string, { available: number; pending: number; frozen: number }>();
  for (const a of await rows<{ mch_no: string; kind: 'available' | 'pending' | 'frozen'; balance: string }>(
    url('ledger'),
    `select mch_no, kind, balance::text from accounts where kind in ('available', 'pending', 'frozen')`,
  )) {
    const b = ledger.get(a.mch_no) ?? { available: 0, pending: 0, frozen: 0 };
    b[a.kind] = Number(a.balance);
    ledger.set(a.mch_no, b);
  }
  return checkBalances(impliedBalances(payOrders, transfers, adjustments), ledger);
}

/**
 * checkMerchantBalances once the ledger has caught up: it books outcomes from events, so after a kill it
 * may still be working through its backlog when the rest has settled. Answers the last differences when
 * they remain after `timeoutMs`.
 */
export async function awaitMerchantBalances(
  stack: Pick<Stack, 'databaseUrl'>,
  timeoutMs = 60_000,
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let problems: string[];
    try {
      problems = await checkMerchantBalances(stack);
    } catch (err) {
      problems = [`balances could not be read: ${(err as Error).message}`];
    }
    if (problems.length === 0 || Date.now() >= deadline) return problems;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
