import { AppError } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { depositsOf, noticesOf, payoutsOf, virtualAccountOf } from './channel-facts.repository.js';

/** One thing the router recorded about an order or a transfer. */
export interface ChannelFact {
  at: Date;
  /** account.opened, account.paid, account.closed, deposit.accepted, deposit.returned, payout.submitted, notice.<status> */
  kind: string;
  routeId: string;
  /** Centavos; 0 when the fact has no amount. */
  amount: number;
  claveRastreo: string;
  detail: Record<string, string>;
}

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);

/** ListChannelFacts: the router's records of one pay order or transfer, oldest first. */
export function createChannelFacts(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    async of(kind: string, ref: string): Promise<ChannelFact[]> {
      if (kind !== 'pay' && kind !== 'transfer')
        throw new AppError('INVALID_PARAMETER', 'kind (pay or transfer)');
      if (!ref) throw new AppError('INVALID_PARAMETER', 'ref (required)');
      const facts = kind === 'pay' ? await orderFacts(db, ref) : await transferFacts(db, ref);
      return facts.sort((a, b) => a.at.getTime() - b.at.getTime());
    },
  };
}

async function orderFacts(db: Kysely<Database>, orderNo: string): Promise<ChannelFact[]> {
  const account = await virtualAccountOf(db, orderNo);
  const [deposits, notices] = await Promise.all([
    depositsOf(db, orderNo, account),
    noticesOf(db, 'payment', orderNo),
  ]);
  const facts: ChannelFact[] = [];
  if (account) {
    const base = { routeId: account.route_id, claveRastreo: '' };
    facts.push({
      ...base,
      at: account.created_at,
      kind: 'account.opened',
      amount: Number(account.amount),
      detail: { clabe: account.clabe, expiresAt: text(account.expires_at), assigned: text(account.assigned) },
    });
    if (account.paid_at) {
      facts.push({
        ...base,
        at: account.paid_at,
        kind: 'account.paid',
        amount: Number(account.paid_amount),
        claveRastreo: account.clave_rastreo,
        detail: {},
      });
    }
    if (account.ended_at && account.status === 'closed') {
      facts.push({ ...base, at: account.ended_at, kind: 'account.closed', amount: 0, detail: {} });
    }
  }
  for (const d of deposits) {
    facts.push({
      at: d.received_at,
      kind: `deposit.${d.decision}`,
      routeId: d.route_id,
      amount: Number(d.amount),
      claveRastreo: d.clave_rastreo,
      detail: {
        depositId: d.deposit_id,
        clabe: d.clabe,
        reason: d.reason,
        senderName: d.sender_name,
        deliveries: text(d.deliveries),
      },
    });
  }
  for (const n of notices) facts.push(noticeFact(n));
  return facts;
}

async function transferFacts(db: Kysely<Database>, transferNo: string): Promise<ChannelFact[]> {
  const [payouts, notices] = await Promise.all([
    payoutsOf(db, transferNo),
    noticesOf(db, 'payout', transferNo),
  ]);
  const facts: ChannelFact[] = payouts.map((p) => ({
    at: p.sent_at,
    kind: 'payout.submitted',
    routeId: p.route_id,
    amount: 0,
    claveRastreo: p.clave_rastreo,
    detail: { upstreamRef: p.upstream_ref },
  }));
  for (const n of notices) facts.push(noticeFact(n));
  return facts;
}

function noticeFact(n: {
  route_id: string;
  notice_id: string;
  status: string;
  payload: unknown;
  received_at: Date;
  deliveries: number;
}): ChannelFact {
  const payload = (typeof n.payload === 'string' ? JSON.parse(n.payload) : n.payload) as Record<
    string,
    unknown
  >;
  const amount = Number(payload.paidAmount ?? payload.amount ?? 0);
  return {
    at: n.received_at,
    kind: `notice.${n.status}`,
    routeId: n.route_id,
    amount: Number.isSafeInteger(amount) ? amount : 0,
    claveRastreo: text(payload.claveRastreo),
    detail: {
      noticeId: n.notice_id,
      deliveries: text(n.deliveries),
      ...(payload.paidAt ? { paidAt: text(payload.paidAt) } : {}),
      ...(payload.finishedAt ? { finishedAt: text(payload.finishedAt) } : {}),
    },
  };
}

export type ChannelFactsService = ReturnType<typeof createChannelFacts>;
