import { randomBytes } from 'node:crypto';
import { buildClabe, institutionByClabePrefix } from '@agentpay/spei';
import { centavosToAmount } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import type { Database, DepositRow, VirtualAccountRow } from '../db/schema.js';
import { ChannelError } from '../errors.js';
import { enqueueNotice } from '../notices/notice.repository.js';
import { newClaveRastreo } from '../statements/clave-rastreo.js';
import {
  expireIfDue,
  findAccount,
  insertAccount,
  insertDeposit,
  listDeposits,
  lockAccountByClabe,
  markAccountClosed,
  markAccountPaid,
  payingDepositKey,
  reserveAccountNumbers,
} from './virtual-account.repository.js';

export interface AccountSettings {
  bankPrefix: string;
  plaza: string;
  beneficiaryName: string;
}

/** An account as the channel API shows it. */
export interface AccountView {
  accountId: string;
  orderRef: string;
  clabe: string;
  bankCode: string;
  bankName: string;
  beneficiaryName: string;
  reference: string;
  amount: number;
  expiresAt: string;
  status: VirtualAccountRow['status'];
  paidAmount: number;
  paidAt: string | null;
  closedAt: string | null;
  /** SPEI tracking key of the deposit that paid the account; null while unpaid. */
  claveRastreo: string | null;
}

/** A deposit as the tester API answers it: amounts in pesos, as the tester sent them (100.5, not 10050). */
export interface DepositView {
  depositId: string;
  clabe: string;
  /** Pesos. */
  amount: number;
  matched: boolean;
  reason: string | null;
  accountId: string | null;
  notify: boolean;
  claveRastreo: string;
  senderAccount: string;
  senderName: string;
  senderBank: string;
  senderRfc: string;
  /** Pesos the statement shows instead of `amount`; null when it shows the real amount. */
  statementAmount: number | null;
  createdAt: string;
}

/** The payer a tester's deposit names, and what the statement should show for it. */
export interface DepositRequest {
  clabe: string;
  amount: number;
  notify: boolean;
  /** The payer's CLABE; a generated one at another bank when the tester gives none. */
  senderAccount?: string | undefined;
  senderName?: string | undefined;
  /** The payer's bank (5-digit Banxico code); the CLABE's bank when absent. */
  senderBank?: string | undefined;
  /** The payer's RFC or CURP; `ND` (not given, as SPEI writes it) when absent. */
  senderRfc?: string | undefined;
  /** Centavos the statement shows instead of the real amount (a tester's trigger). */
  statementAmount?: number | undefined;
}

/** Payers' accounts when the tester names none: BBVA MEXICO (012) CLABEs, never an issued account. */
const DEFAULT_SENDER_BANK = '012';
const DEFAULT_SENDER_PLAZA = '180';
const DEFAULT_SENDER_NAME = 'PAGADOR SANDBOX';

function generatedSenderAccount(): string {
  const digits = (randomBytes(8).readBigUInt64BE() % 100_000_000_000n).toString().padStart(11, '0');
  return buildClabe(DEFAULT_SENDER_BANK, DEFAULT_SENDER_PLAZA, digits);
}

/** Virtual accounts: issue, close, read, and the payer's deposits into them. */
/** Account numbers reserved per round trip to the sequence. */
const NUMBER_BLOCK = 64;

export function createVirtualAccountService(db: Kysely<Database>, settings: AccountSettings) {
  const view = (a: VirtualAccountRow, claveRastreo: string | null): AccountView => {
    // The bank comes from the CLABE itself, so a later change of SANDBOX_BANK_PREFIX cannot relabel old accounts.
    const bank = institutionByClabePrefix(a.clabe.slice(0, 3));
    return {
      accountId: a.id,
      orderRef: a.order_ref,
      clabe: a.clabe,
      bankCode: a.clabe.slice(0, 3),
      bankName: bank?.name ?? '',
      beneficiaryName: settings.beneficiaryName,
      reference: a.reference,
      amount: a.amount,
      expiresAt: a.expires_at.toISOString(),
      status: a.status,
      paidAmount: a.paid_amount,
      paidAt: a.paid_at?.toISOString() ?? null,
      closedAt: a.closed_at?.toISOString() ?? null,
      claveRastreo,
    };
  };

  /** The account as the channel API shows it, with its paying deposit's tracking key once paid. */
  const present = async (
    db: Parameters<typeof payingDepositKey>[0],
    a: VirtualAccountRow,
  ): Promise<AccountView> =>
    view(a, a.status === 'paid' ? ((await payingDepositKey(db, a.id)) ?? null) : null);

  // Account numbers come from the database sequence a block at a time, not one round trip per account.
  let reserved: number[] = [];
  let reserving: Promise<number[]> | undefined;
  const nextNumber = async (): Promise<number> => {
    while (reserved.length === 0) {
      reserving ??= reserveAccountNumbers(db, NUMBER_BLOCK).finally(() => {
        reserving = undefined;
      });
      const block = await reserving;
      if (reserved.length === 0) reserved = block;
    }
    return reserved.shift()!;
  };

  const requireAccount = async (by: { id: string } | { orderRef: string }) => {
    const account = await findAccount(db, by);
    if (!account) throw new ChannelError('not_found', 'no such virtual account');
    return expireIfDue(db, account);
  };

  return {
    /** Issues the order's account, or answers the one it already has (idempotent on orderRef). */
    async create(request: {
      orderRef: string;
      amount: number;
      expiresAt: Date;
      noticeUrl: string;
    }): Promise<{ account: AccountView; created: boolean }> {
      // Insert first: a new order is the common case; a repeat finds the key taken and reads its account.
      const sequence = await nextNumber();
      let account = await insertAccount(db, {
        id: `va_${randomBytes(12).toString('hex')}`,
        orderRef: request.orderRef,
        clabe: buildClabe(settings.bankPrefix, settings.plaza, String(sequence).padStart(11, '0')),
        // SPEI numeric references have at most 7 digits.
        reference: String(sequence % 10_000_000).padStart(7, '0'),
        amount: request.amount,
        expiresAt: request.expiresAt,
        noticeUrl: request.noticeUrl,
      });
      // The order already has an account (a repeat, or a concurrent create won); this number is skipped.
      const created = account !== undefined;
      account ??= await findAccount(db, { orderRef: request.orderRef });
      if (!account) throw new Error(`account for order ${request.orderRef} vanished`);
      if (account.amount !== request.amount)
        throw new ChannelError('conflict', 'orderRef already has an account for another amount');
      return { account: await present(db, await expireIfDue(db, account)), created };
    },

    async get(by: { id: string } | { orderRef: string }): Promise<AccountView> {
      return present(db, await requireAccount(by));
    },

    async getByClabe(clabe: string): Promise<AccountView> {
      const account = await findAccount(db, { clabe });
      if (!account) throw new ChannelError('not_found', 'no such virtual account');
      return present(db, await expireIfDue(db, account));
    },

    /** Closes an open account; any other account answers as it is (a paid one stays paid). */
    async close(id: string): Promise<AccountView> {
      return db.transaction().execute(async (trx) => {
        const found = await trx
          .selectFrom('virtual_accounts')
          .selectAll()
          .where('id', '=', id)
          .forUpdate()
          .executeTakeFirst();
        if (!found) throw new ChannelError('not_found', 'no such virtual account');
        const account = await expireIfDue(trx, found);
        return present(trx, (await markAccountClosed(trx, account.id)) ?? account);
      });
    },

    /**
     * Money from the payer. Applied only to an open account of exactly its amount; anything else is kept
     * as an unmatched deposit for operators and changes no account.
     */
    async deposit(request: DepositRequest): Promise<DepositView> {
      const row = await db.transaction().execute(async (trx) => {
        const locked = await lockAccountByClabe(trx, request.clabe);
        const account = locked && (await expireIfDue(trx, locked));
        let reason: string | null = null;
        if (!account) reason = 'unknown_account';
        else if (account.status !== 'open') reason = `account_${account.status}`;
        else if (account.amount !== request.amount) reason = 'amount_mismatch';
        const at = new Date();
        const claveRastreo = newClaveRastreo('deposit', at);
        const senderAccount = request.senderAccount ?? generatedSenderAccount();
        const senderName = request.senderName ?? DEFAULT_SENDER_NAME;
        const senderBank =
          request.senderBank ?? institutionByClabePrefix(senderAccount.slice(0, 3))?.spei ?? '';
        const senderRfc = request.senderRfc ?? 'ND';
        if (account && reason === null) {
          await markAccountPaid(trx, account.id, { amount: request.amount, at });
          if (request.notify)
            await enqueueNotice(trx, {
              type: 'virtual_account.paid',
              ref: account.order_ref,
              url: account.notice_url,
              at,
              data: {
                accountId: account.id,
                orderRef: account.order_ref,
                clabe: account.clabe,
                amount: account.amount,
                paidAmount: request.amount,
                paidAt: at.toISOString(),
                claveRastreo,
                // Who paid, as SPEI names the sender: a refund goes back to this account.
                payerAccount: senderAccount,
                payerName: senderName,
                payerBank: senderBank,
                payerRfc: senderRfc,
              },
            });
        }
        return insertDeposit(trx, {
          id: `dep_${randomBytes(12).toString('hex')}`,
          clabe: request.clabe,
          amount: request.amount,
          account_id: account?.id ?? null,
          matched: reason === null,
          reason,
          notify: request.notify,
          clave_rastreo: claveRastreo,
          sender_account: senderAccount,
          sender_name: senderName,
          sender_bank: senderBank,
          sender_rfc: senderRfc,
          statement_amount: request.statementAmount ?? null,
        });
      });
      return depositView(row);
    },

    async deposits(filter: { unmatched?: boolean; clabe?: string }): Promise<DepositView[]> {
      return (await listDeposits(db, { ...filter, limit: 500 })).map(depositView);
    },
  };
}

function depositView(d: DepositRow): DepositView {
  return {
    depositId: d.id,
    clabe: d.clabe,
    // The tester API speaks pesos both ways; the channel API and the statement keep centavos.
    amount: centavosToAmount(d.amount),
    matched: d.matched,
    reason: d.reason,
    accountId: d.account_id,
    notify: d.notify,
    claveRastreo: d.clave_rastreo,
    senderAccount: d.sender_account,
    senderName: d.sender_name,
    senderBank: d.sender_bank,
    senderRfc: d.sender_rfc,
    statementAmount: d.statement_amount === null ? null : centavosToAmount(d.statement_amount),
    createdAt: d.created_at.toISOString(),
  };
}

export type VirtualAccountService = ReturnType<typeof createVirtualAccountService>;
