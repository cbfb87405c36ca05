import {
  call,
  type LedgerRecord__Output,
  type LedgerServiceClient,
  type PaymentServiceClient,
  type TransferServiceClient,
  type UpstreamRouterClient,
} from '@agentpay/proto';
import { type NotifierClient, NotifierError } from '../shared/notifier-client.js';
import { orderDetail, transferDetail } from './order-views.js';

// One timeline of everything that happened to an order or a transfer (CONTRACT.md section 18), put together
// from the services that own each part: its status changes (payments or transfers; required), what the
// router recorded with the channel, the ledger's entries citing it, and the notifier's callback deliveries
// with their attempts. The three optional parts are asked at once, each with a short deadline; a part that
// fails or is late is named in `missing` and the rest is answered.

export type TimelineSource = 'order' | 'channel' | 'ledger' | 'callback';
export type TimelinePart = 'channel' | 'ledger' | 'callbacks';

export interface TimelineEvent {
  at: string;
  source: TimelineSource;
  kind: string;
  /** One short English line, for logs; pages build their own words from kind and detail. */
  summary: string;
  detail: Record<string, unknown>;
  /** On callback events: the delivery POST …/deliveries/:id/resend resends. */
  deliveryId?: string;
}

export interface TimelineDeps {
  payments: PaymentServiceClient;
  transfers: TransferServiceClient;
  router: UpstreamRouterClient;
  ledger: LedgerServiceClient;
  /** The notifier's admin API (shared/notifier-client.ts): an order's callback deliveries. */
  notifier: NotifierClient;
  /** The required part's deadline (the status history). */
  timeoutMs: number;
  /** Each optional part's deadline: a slow part must not hold the page. */
  partTimeoutMs: number;
}

/**
 * Who reads: an operator sees everything; a merchant (`mchNo` set) only its own order, without what would
 * name the channel or route (route ids, the channel's references and notice ids).
 */
export interface Reader {
  mchNo?: string;
}

const iso = (text: string) => new Date(text).toISOString();
const byTime = (a: TimelineEvent, b: TimelineEvent) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0);

/** Detail keys a merchant may see of a channel fact: the money and the SPEI facts, nothing of the route. */
const MERCHANT_CHANNEL_DETAIL = new Set([
  'clabe',
  'reason',
  'expiresAt',
  'paidAt',
  'finishedAt',
  'senderName',
]);

/** Maps the router's kinds to the timeline's (a deposit the router accepted is the deposit received). */
const CHANNEL_KIND: Record<string, string> = { 'deposit.accepted': 'deposit.received' };

async function settle<T>(
  part: TimelinePart,
  work: Promise<T>,
  missing: TimelinePart[],
): Promise<T | undefined> {
  try {
    return await work;
  } catch {
    missing.push(part);
    return undefined;
  }
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('late')), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export function createTimelines(deps: TimelineDeps) {
  const part = { timeoutMs: deps.partTimeoutMs };

  async function channelEvents(kind: 'pay' | 'transfer', ref: string, reader: Reader) {
    const answer = await call(deps.router, deps.router.ListChannelFacts, { kind, ref }, part);
    return answer.facts.map((fact): TimelineEvent => {
      const detail: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(fact.detail ?? {})) {
        if (!reader.mchNo || MERCHANT_CHANNEL_DETAIL.has(key)) detail[key] = value;
      }
      const amount = Number(fact.amount);
      if (amount) detail.amount = amount;
      if (fact.clave_rastreo) detail.claveRastreo = fact.clave_rastreo;
      if (!reader.mchNo) detail.routeId = fact.route_id;
      const eventKind = CHANNEL_KIND[fact.kind] ?? fact.kind;
      return {
        at: iso(fact.at),
        source: 'channel',
        kind: eventKind,
        summary: `${eventKind}${amount ? ` ${amount} centavos` : ''}`,
        detail,
      };
    });
  }

  async function ledgerEvents(ref: { order_no: string } | { transfer_no: string }) {
    const answer = await call(
      deps.ledger,
      deps.ledger.ListOrderEntries,
      { order_no: '', transfer_no: '', ...ref },
      part,
    );
    return answer.records.map(
      (record: LedgerRecord__Output): TimelineEvent => ({
        at: iso(record.create_time),
        source: 'ledger',
        kind: `entry.${record.type}`,
        summary: `ledger ${record.type}: available ${record.available_change}, pending ${record.pending_change}, frozen ${record.frozen_change}`,
        detail: {
          recordNo: record.record_no,
          amount: Number(record.amount),
          fee: Number(record.fee),
          availableChange: Number(record.available_change),
          pendingChange: Number(record.pending_change),
          frozenChange: Number(record.frozen_change),
          availableBalance: Number(record.available_balance),
          pendingBalance: Number(record.pending_balance),
          frozenBalance: Number(record.frozen_balance),
          remark: record.remark,
        },
      }),
    );
  }

  async function callbackEvents(kind: 'pay' | 'transfer', number: string, reader: Reader) {
    const query = { orderNo: number, kind, limit: 50, mchNo: reader.mchNo };
    const answer = await deps.notifier.json<{ deliveries: NotifierDelivery[] }>('GET', '/admin/deliveries', {
      query,
      timeoutMs: deps.partTimeoutMs,
    });
    // Any other answer leaves the callbacks out of the timeline, named missing (see `parts`).
    if (answer.status < 200 || answer.status > 299) throw new NotifierError('unavailable');
    return deliveriesToEvents(answer.body.deliveries, reader);
  }

  /** The optional parts, at once; each failure lands in `missing`. */
  async function parts(
    kind: 'pay' | 'transfer',
    number: string,
    reader: Reader,
  ): Promise<{ events: TimelineEvent[]; missing: TimelinePart[] }> {
    const missing: TimelinePart[] = [];
    const ledgerRef = kind === 'pay' ? { order_no: number } : { transfer_no: number };
    const found = await Promise.all([
      settle('channel', withDeadline(channelEvents(kind, number, reader), deps.partTimeoutMs), missing),
      settle('ledger', withDeadline(ledgerEvents(ledgerRef), deps.partTimeoutMs), missing),
      settle('callbacks', withDeadline(callbackEvents(kind, number, reader), deps.partTimeoutMs), missing),
    ]);
    const order: TimelinePart[] = ['channel', 'ledger', 'callbacks'];
    return {
      events: found.flatMap((events) => events ?? []),
      missing: order.filter((p) => missing.includes(p)),
    };
  }

  return {
    /** An order's facts and timeline; ORDER_NOT_FOUND (an AppError) for an order the reader may not see. */
    async order(orderNo: string, reader: Reader) {
      const [history, rest] = await Promise.all([
        call(
          deps.payments,
          deps.payments.GetPayOrderHistory,
          { order_no: orderNo, mch_no: reader.mchNo ?? '' },
          { timeoutMs: deps.timeoutMs },
        ),
        parts('pay', orderNo, reader),
      ]);
      const order = history.order;
      if (!order) throw new Error('GetPayOrderHistory answered no order');
      const events: TimelineEvent[] = [
        {
          at: iso(order.created_at),
          source: 'order',
          kind: 'order.created',
          summary: `order created for ${order.amount} centavos`,
          detail: { amount: Number(order.amount), status: 'wait' },
        },
        ...history.changes.map(
          (change): TimelineEvent => ({
            at: iso(change.at),
            source: 'order',
            kind: `status.${change.to_status}`,
            summary: `status ${change.from_status || '?'} -> ${change.to_status}`,
            detail: {
              from: change.from_status,
              to: change.to_status,
              version: Number(change.version),
              ...(change.cause ? { cause: change.cause } : {}),
              ...(history.derived ? { derived: true } : {}),
            },
          }),
        ),
        ...rest.events,
      ];
      return { order: orderDetail(order), timeline: events.sort(byTime), missing: rest.missing };
    },

    /** A transfer's facts and timeline; TRANSFER_NOT_FOUND for one the reader may not see. */
    async transfer(transferNo: string, reader: Reader) {
      const [history, rest] = await Promise.all([
        call(
          deps.transfers,
          deps.transfers.GetTransferHistory,
          { transfer_no: transferNo, mch_no: reader.mchNo ?? '' },
          { timeoutMs: deps.timeoutMs },
        ),
        parts('transfer', transferNo, reader),
      ]);
      const transfer = history.transfer;
      if (!transfer) throw new Error('GetTransferHistory answered no transfer');
      const events: TimelineEvent[] = [
        {
          at: iso(transfer.created_at),
          source: 'order',
          kind: 'transfer.created',
          summary: `transfer created for ${transfer.amount} centavos`,
          detail: { amount: Number(transfer.amount), fee: Number(transfer.fee) },
        },
        ...history.changes
          // Leaving `submitting` for `progress` is the creation itself; merchants never see `submitting`.
          .filter((change) => !(change.from_status === 'submitting' && change.to_status === 'progress'))
          .map(
            (change): TimelineEvent => ({
              at: iso(change.at),
              source: 'order',
              kind: `status.${change.to_status}`,
              summary: `status ${change.from_status} -> ${change.to_status}`,
              detail: {
                from: change.from_status === 'submitting' ? '' : change.from_status,
                to: change.to_status,
                version: Number(change.version),
                ...(history.derived ? { derived: true } : {}),
              },
            }),
          ),
        ...rest.events,
      ];
      return { transfer: transferDetail(transfer), timeline: events.sort(byTime), missing: rest.missing };
    },
  };
}

export type Timelines = ReturnType<typeof createTimelines>;

/** A delivery as the notifier's admin API answers it (services/notifier/README.md "Admin API"). */
export interface NotifierDelivery {
  id: string;
  mchNo: string;
  version: number | string;
  fromStatus: string;
  toStatus: string;
  status: string;
  notifyUrl: string;
  createdAt: string;
  attempts: Array<{
    number: number;
    startedAt: string;
    finishedAt: string | null;
    outcome: string;
    httpStatus: number | null;
    latencyMs: number | null;
    response: string | null;
    error: string | null;
  }>;
}

function deliveriesToEvents(deliveries: NotifierDelivery[], reader: Reader): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  for (const delivery of deliveries) {
    // The notifier filters by merchant; this keeps another merchant's delivery out whatever it answers.
    if (reader.mchNo && delivery.mchNo !== reader.mchNo) continue;
    events.push({
      at: iso(delivery.createdAt),
      source: 'callback',
      kind: delivery.status === 'skipped' ? 'callback.skipped' : 'callback.queued',
      summary: `callback for ${delivery.fromStatus} -> ${delivery.toStatus}: ${delivery.status}`,
      detail: {
        status: delivery.status,
        toStatus: delivery.toStatus,
        version: Number(delivery.version),
        notifyUrl: delivery.notifyUrl,
      },
      deliveryId: delivery.id,
    });
    for (const attempt of delivery.attempts ?? []) {
      events.push({
        at: iso(attempt.startedAt),
        source: 'callback',
        kind: 'callback.attempt',
        summary: `callback attempt ${attempt.number}: ${attempt.outcome}${attempt.httpStatus ? ` HTTP ${attempt.httpStatus}` : ''}`,
        detail: {
          attempt: attempt.number,
          outcome: attempt.outcome,
          httpStatus: attempt.httpStatus,
          latencyMs: attempt.latencyMs,
          finishedAt: attempt.finishedAt,
          response: attempt.response,
          error: attempt.error,
          toStatus: delivery.toStatus,
        },
        deliveryId: delivery.id,
      });
    }
  }
  return events;
}
