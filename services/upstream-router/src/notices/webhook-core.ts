import { randomUUID } from 'node:crypto';
import type { Logger } from '@agentpay/logger';
import { enqueueEvent, noticeSubject } from '@agentpay/messaging';
import type { NoticeReceived } from '@agentpay/proto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { lockAccountByClabe, markAccountPaid } from '../accounts/virtual-account.repository.js';
import type { DepositDecision, IncomingDeposit, WebhookCore } from '../adapters/channel-adapter.js';
import type { PayerScreening } from '../compliance/compliance.client.js';
import type { Database, VirtualAccountRow } from '../db/schema.js';
import { findPayout, recordPayoutOutcome, recordPayoutRefs } from '../payout/channel-payout.repository.js';
import { type RecordedNotice, recordNotice } from './notice.repository.js';

/** A decision, and whether it is the answer to an earlier delivery of the same deposit. */
export type CoreDepositAnswer = DepositDecision & { repeated: boolean };

/**
 * The router's side of a webhook, for one route: it finds the platform's object the channel names in its own
 * records (by CLABE, by the channel's payout id), decides, and records the notice with its NoticeReceived
 * event in one transaction, so the channel's answer is sent only once both are durable. `traceparent` is the
 * delivery's trace, carried on to the service that applies the event.
 */
export function createWebhookCore(deps: {
  db: Kysely<Database>;
  logger: Logger;
  routeId: string;
  subjectPrefix: string;
  traceparent: string;
  /** Screens a deposit's payer before the router decides it (docs/compliance.md); absent: none (unit tests). */
  payers?: PayerScreening | undefined;
}): WebhookCore {
  const { db, logger, routeId } = deps;
  const log = logger.child({ routeId });

  /** Records the notice once and enqueues its event; false for a repeat. */
  async function record(trx: Transaction<Database>, notice: RecordedNotice): Promise<boolean> {
    if (!(await recordNotice(trx, routeId, notice))) return false;
    await enqueueEvent(
      trx,
      noticeSubject(deps.subjectPrefix, notice.kind),
      noticeReceived(randomUUID(), notice, deps.traceparent, routeId),
    );
    return true;
  }

  /** The money already stayed on the channel (it opened the account and applied the deposit): pass it on. */
  async function appliedByChannel(d: IncomingDeposit): Promise<CoreDepositAnswer> {
    return db.transaction().execute(async (trx) => {
      const account = d.clabe ? await lockAccountByClabe(trx, routeId, d.clabe) : undefined;
      // Accounts opened before the router kept its own record are known by the number the channel echoes.
      const orderNo = account?.order_no ?? d.orderNoHint ?? '';
      if (!orderNo) return { decision: 'returned', reason: 'unknown_account', repeated: false };
      const paidAt = d.paidAt ?? new Date();
      const fresh = await record(trx, {
        kind: 'payment',
        noticeId: d.depositId,
        orderNo,
        status: 'success',
        paidAmount: d.amount,
        paidAt: d.paidAt,
        claveRastreo: d.claveRastreo,
        payer: payerOf(d),
        cepUrl: d.cepUrl,
      });
      if (account)
        await markAccountPaid(trx, orderNo, { amount: d.amount, at: paidAt, claveRastreo: d.claveRastreo });
      return { decision: 'accepted', orderNo, repeated: !fresh };
    });
  }

  function decide(account: VirtualAccountRow | undefined, amount: number, at: Date): DepositDecision {
    if (!account) return { decision: 'returned', reason: 'unknown_account' };
    // Past its expiredTime the order is timing out (payments' sweep closes it): the money goes back.
    if (account.status !== 'open' || account.expires_at <= at)
      return { decision: 'returned', reason: 'order_not_open' };
    if (account.amount !== amount) return { decision: 'returned', reason: 'amount_mismatch' };
    return { decision: 'accepted', orderNo: account.order_no };
  }

  /**
   * The router's answer decides the money (STP): a deposit pays its account's order when the order is open
   * and the amount is exact; anything else goes back to the payer. The account's row lock makes two
   * deposits to one CLABE take turns, and the deposit's row makes a repeat answer what the first got.
   */
  async function decidedByRouter(d: IncomingDeposit): Promise<CoreDepositAnswer> {
    // The payer is screened once, before the first answer (a repeat gets that answer, unscreened): a
    // blocked-list hit is returned and books nothing; screening down throws, so the channel asks again.
    let blocked = false;
    if (deps.payers) {
      const known = await db
        .selectFrom('channel_deposits')
        .select('deposit_id')
        .where('route_id', '=', routeId)
        .where('deposit_id', '=', d.depositId)
        .executeTakeFirst();
      if (!known) blocked = (await deps.payers.screen(routeId, d)) === 'blocked';
    }
    return db.transaction().execute(async (trx) => {
      const account = await lockAccountByClabe(trx, routeId, d.clabe);
      const verdict: DepositDecision = blocked
        ? { decision: 'returned', reason: 'blocked_payer' }
        : decide(account, d.amount, new Date());
      const inserted = await trx
        .insertInto('channel_deposits')
        .values({
          route_id: routeId,
          deposit_id: d.depositId,
          clabe: d.clabe,
          amount: d.amount,
          clave_rastreo: d.claveRastreo,
          order_no: verdict.decision === 'accepted' ? verdict.orderNo : '',
          decision: verdict.decision,
          reason: verdict.decision === 'returned' ? verdict.reason : '',
          sender_account: d.senderAccount,
          sender_name: d.senderName,
        })
        .onConflict((oc) => oc.columns(['route_id', 'deposit_id']).doNothing())
        .returning('deposit_id')
        .executeTakeFirst();
      if (!inserted) {
        const first = await trx
          .updateTable('channel_deposits')
          .set({ deliveries: sql`deliveries + 1` })
          .where('route_id', '=', routeId)
          .where('deposit_id', '=', d.depositId)
          .returning(['decision', 'reason', 'order_no'])
          .executeTakeFirstOrThrow();
        return first.decision === 'accepted'
          ? { decision: 'accepted', orderNo: first.order_no, repeated: true }
          : { decision: 'returned', reason: first.reason as 'unknown_account', repeated: true };
      }
      if (verdict.decision === 'accepted') {
        const paidAt = d.paidAt ?? new Date();
        await markAccountPaid(trx, verdict.orderNo, {
          amount: d.amount,
          at: paidAt,
          claveRastreo: d.claveRastreo,
        });
        await record(trx, {
          kind: 'payment',
          noticeId: d.depositId,
          orderNo: verdict.orderNo,
          status: 'success',
          paidAmount: d.amount,
          paidAt,
          claveRastreo: d.claveRastreo,
          payer: payerOf(d),
          cepUrl: d.cepUrl,
        });
      }
      return { ...verdict, repeated: false };
    });
  }

  return {
    async deposit(d) {
      const answer = d.appliedByChannel ? await appliedByChannel(d) : await decidedByRouter(d);
      const ids = { depositId: d.depositId, claveRastreo: d.claveRastreo, amount: d.amount };
      if (answer.repeated)
        log.info({ ...ids, decision: answer.decision }, 'repeated deposit answered as before');
      else if (answer.decision === 'accepted')
        log.info({ ...ids, orderNo: answer.orderNo }, 'deposit accepted');
      // Returned money never stays with the platform; operators see it here, in the metric and in reconciliation.
      else log.warn({ ...ids, clabe: d.clabe, reason: answer.reason }, 'deposit returned to the payer');
      return answer;
    },

    async heldPayout(ref) {
      const held = await findPayout(db, routeId, ref);
      return held && { transferNo: held.transfer_no, claveRastreo: held.clave_rastreo, sentAt: held.sent_at };
    },

    async payout(u) {
      const held = await findPayout(db, routeId, u.payout);
      const transferNo = 'transferNo' in u.payout ? u.payout.transferNo : held?.transfer_no;
      if (!transferNo) {
        log.warn({ noticeId: u.noticeId }, 'payout notice for a payout the route does not hold (yet)');
        return 'unknown';
      }
      const fresh = await db.transaction().execute((trx) =>
        record(trx, {
          kind: 'payout',
          noticeId: u.noticeId,
          transferNo,
          status: u.status,
          finishedAt: u.finishedAt,
          claveRastreo: u.claveRastreo ?? '',
          upstreamRef: held?.upstream_ref || ('upstreamRef' in u.payout ? u.payout.upstreamRef : ''),
          cepUrl: u.cepUrl,
          senderBank: u.senderBank,
        }),
      );
      if (u.claveRastreo) await recordPayoutRefs(db, routeId, transferNo, { claveRastreo: u.claveRastreo });
      await recordPayoutOutcome(db, routeId, transferNo, u.status, u.finishedAt);
      log.info({ noticeId: u.noticeId, transferNo, status: u.status, fresh }, 'payout notice recorded');
      return fresh ? 'recorded' : 'duplicate';
    },
  };
}

/** The payer a deposit names (CONTRACT section 21), or none when the channel gave no account. */
function payerOf(d: IncomingDeposit) {
  if (!d.senderAccount) return undefined;
  return {
    account: d.senderAccount,
    name: d.senderName,
    bank: d.senderBank ?? '',
    rfc: d.senderRfcCurp ?? '',
  };
}

/** The NoticeReceived event of a notice, in the proto JSON mapping the outbox publishes. */
function noticeReceived(
  eventId: string,
  notice: RecordedNotice,
  traceparent: string,
  routeId: string,
): NoticeReceived & { event_id: string; traceparent: string } {
  const common = {
    event_id: eventId,
    notice_id: notice.noticeId,
    received_at: new Date().toISOString(),
    traceparent,
  };
  return notice.kind === 'payment'
    ? {
        ...common,
        notice: 'payment',
        payment: {
          order_no: notice.orderNo,
          status: notice.status,
          paid_amount: String(notice.paidAmount),
          paid_at: notice.paidAt?.toISOString() ?? '',
          clave_rastreo: notice.claveRastreo,
          payer_account: notice.payer?.account ?? '',
          payer_name: notice.payer?.name ?? '',
          payer_bank: notice.payer?.bank ?? '',
          payer_rfc: notice.payer?.rfc ?? '',
          cep_url: notice.cepUrl ?? '',
        },
      }
    : {
        ...common,
        notice: 'payout',
        payout: {
          transfer_no: notice.transferNo,
          status: notice.status,
          finished_at: notice.finishedAt?.toISOString() ?? '',
          clave_rastreo: notice.claveRastreo,
          route_id: routeId,
          upstream_ref: notice.upstreamRef,
          cep_url: notice.cepUrl ?? '',
          sender_bank: notice.senderBank ?? '',
        },
      };
}
