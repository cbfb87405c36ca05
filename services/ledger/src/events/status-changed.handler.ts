import type { Logger } from '@agentpay/logger';
import type { Verdict } from '@agentpay/messaging';
import type { JsMsg } from '@nats-io/jetstream';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Command } from '../ledger/booking.js';
import { isLedgerError } from '../ledger/ledger.errors.js';
import type { Outcome } from '../ledger/ledger.repository.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import { upsertObserved } from '../observed/observed-orders.repository.js';
import { parseStatusChanged, type StatusChanged } from './status-changed.schema.js';

export interface HandlerDeps {
  db: Kysely<Database>;
  logger: Logger;
  ledger: LedgerService;
}

/** Keeps an event the ledger could not book, for an operator; a redelivery is kept once. */
async function park(deps: HandlerDeps, event: StatusChanged, subject: string, reason: string): Promise<void> {
  deps.logger.warn(
    { eventId: event.event_id, orderNo: event.order_no, reason },
    'event parked, nothing booked',
  );
  await deps.db
    .insertInto('unmatched_events')
    .values({ event_id: event.event_id, subject, reason, payload: JSON.stringify(event) })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute();
}

/**
 * What an event books (docs/merchant-api.md "Balance and statement"). Pay: reaching success from any state is the pay-in.
 * Transfer: fail, or close before success, releases the freeze; success moves it out; close after
 * success is a return, booked after the move out, which it books first when that event is still to
 * come (a reordered delivery). Every booking is keyed by its cause, so a redelivery books nothing.
 */
export function commandsOf(ledger: Pick<LedgerService, 'payInCommand'>, event: StatusChanged): Command[] {
  const mchNo = event.mch_no;
  if (event.kind === 'pay') {
    if (event.to_status !== 'success') return [];
    const order = event.pay_order;
    return [
      ledger.payInCommand({
        mchNo,
        orderNo: event.order_no,
        bizOrderNo: order.biz_order_no,
        amount: order.amount,
        fee: order.fee,
        realAmount: order.real_amount,
        settleType: order.settle_type,
        payTime: new Date(order.pay_time || event.occurred_at),
        ...(order.route_id && { routeId: order.route_id }),
        ...(event.traceparent && { traceparent: event.traceparent }),
      }),
    ];
  }
  const transferNo = event.order_no;
  const to = event.to_status;
  const afterSuccess = event.from_status === 'success';
  if (to === 'fail' || (to === 'close' && !afterSuccess)) return [{ type: 'unfreeze', mchNo, transferNo }];
  if (to === 'success') return [{ type: 'transfer_out', mchNo, transferNo }];
  if (to === 'close' && afterSuccess) {
    return [
      { type: 'transfer_out', mchNo, transferNo },
      { type: 'transfer_return', mchNo, transferNo },
    ];
  }
  return [];
}

/** Books one event on its own and keeps the fact it states, in one transaction (tests, and a batch that failed as a whole). */
export function bookEvent(
  deps: { ledger: Pick<LedgerService, 'payInCommand' | 'bookNow'> },
  event: StatusChanged,
): Promise<Outcome[]> {
  return deps.ledger.bookNow(commandsOf(deps.ledger, event), (trx) => upsertObserved(trx, [event]));
}

interface Prepared {
  msg: JsMsg;
  event: StatusChanged;
  commands: Command[];
}

/**
 * Books a batch of status-change events in one transaction, with the latest fact each states about its
 * order or transfer (observed_orders), so that the platform accounts every pay-in
 * touches (clearing, fee revenue) are locked once per batch rather than once per event; if that
 * transaction fails, each event is booked on its own, so one bad event cannot hold back the others.
 * Each event is acked only once its bookings committed.
 */
export function statusChangedHandler(deps: HandlerDeps): (msgs: readonly JsMsg[]) => Promise<Verdict[]> {
  const { ledger, logger } = deps;

  const settle = async (p: Prepared, outcomes: readonly Outcome[]): Promise<void> => {
    for (const outcome of outcomes) {
      if (outcome.kind === 'skipped') await park(deps, p.event, p.msg.subject, outcome.reason);
      if (outcome.kind === 'refused') await park(deps, p.event, p.msg.subject, outcome.error.message);
      if (outcome.kind !== 'booked') break;
    }
  };

  return async (msgs) => {
    const verdicts: Verdict[] = msgs.map(() => 'ack');
    const prepared: { index: number; p: Prepared }[] = [];
    for (const [index, msg] of msgs.entries()) {
      let event: StatusChanged;
      try {
        event = parseStatusChanged(msg.string());
      } catch (err) {
        logger.error({ err, subject: msg.subject, seq: msg.seq }, 'unreadable event dropped');
        verdicts[index] = 'term';
        continue;
      }
      let commands: Command[] = [];
      try {
        commands = commandsOf(ledger, event);
      } catch (err) {
        if (!isLedgerError(err)) throw err;
        await park(deps, event, msg.subject, err.message);
      }
      prepared.push({ index, p: { msg, event, commands } });
    }
    // Every readable event states a fact, booked or not; the booking ones also book.
    const booking = prepared;
    if (booking.length === 0) return verdicts;
    const observe = (ps: readonly Prepared[]) => (trx: Transaction<Database>) =>
      upsertObserved(
        trx,
        ps.map((p) => p.event),
      );

    try {
      const outcomes = await ledger.bookNow(
        booking.flatMap(({ p }) => p.commands),
        observe(booking.map(({ p }) => p)),
      );
      let at = 0;
      for (const { p } of booking) {
        await settle(p, outcomes.slice(at, at + p.commands.length));
        at += p.commands.length;
      }
      return verdicts;
    } catch (err) {
      if (booking.length === 1) {
        logger.error(
          { err, eventId: booking[0]?.p.event.event_id },
          'could not book event; JetStream will redeliver it',
        );
        for (const { index } of booking) verdicts[index] = 'retry';
        return verdicts;
      }
      logger.warn({ err, events: booking.length }, 'a batch of events failed; booking them one by one');
    }
    for (const { index, p } of booking) {
      try {
        await settle(p, await ledger.bookNow(p.commands, observe([p])));
      } catch (err) {
        logger.error({ err, eventId: p.event.event_id }, 'could not book event; JetStream will redeliver it');
        verdicts[index] = 'retry';
      }
    }
    return verdicts;
  };
}
