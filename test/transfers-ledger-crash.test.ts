import { createDb } from '@agentpay/db';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, settleApproval, type TestMerchant, waitFor } from '@agentpay/testing';
import type { Envelope } from '@agentpay/wire';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// A transfer's freeze lives in the ledger's database and the transfer in transfers': the two must end
// together whatever moment the transfers process dies at. TRANSFERS_CRASH_AT makes the real process exit
// at each point of a create (after the submitting row commits, after the Freeze, after the router's
// answer); the process is started again, its sweep recovers, and the ledger's holds and the transfers'
// rows must agree: no freeze that no transfer owns, no transfer without its freeze, balances right.

interface TransfersDb {
  transfers: {
    transfer_no: string;
    mch_no: string;
    biz_transfer_no: string;
    amount: string;
    fee: string;
    status: string;
    submission: string;
  };
}
interface LedgerDb {
  holds: { transfer_no: string; mch_no: string; amount: string; fee: string; status: string };
}

const CLABE = '002010077777777771';
const FUNDS = 1_000_00;
// 100.00 at 1 % + 5.00: a fee of 6.00.
const AMOUNT = 100_00;
const FEE = 6_00;

let stack: Stack;
let merchant: TestMerchant;
let transfersDb: Kysely<TransfersDb>;
let ledgerDb: Kysely<LedgerDb>;

async function admin(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${stack.urls.admin}${path}`, {
    method,
    headers: {
      authorization: 'Bearer dev-admin-token',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // An adjustment needs four eyes: approved by the stack's approver, answered as it would be.
  const { status, body: json } = await settleApproval(stack.urls.admin, {
    status: response.status,
    body: await response.json(),
  });
  if (status >= 300) throw new Error(`${path}: ${status} ${JSON.stringify(json)}`);
  return json;
}

async function transfer(bizTransferNo: string): Promise<Envelope> {
  const reply = await merchant.request('/gateway/transfer', {
    bizTransferNo,
    amount: AMOUNT / 100,
    title: 'Payout',
    reason: 'commission',
    payeeType: 'spei_transfer',
    payeeAccount: CLABE,
    payeeName: 'Ana Perez',
  });
  return reply.envelope;
}

const balance = async () => {
  const b = await admin('GET', `/admin/merchants/${merchant.mchNo}/balance`);
  return {
    available: Math.round(Number(b['available']) * 100),
    pending: Math.round(Number(b['pending']) * 100),
    frozen: Math.round(Number(b['frozen']) * 100),
  };
};

/**
 * The books and the transfers agree: every held freeze belongs to a transfer in progress, every
 * transfer that exists has a hold matching its status, and the merchant's parts are what those imply.
 */
async function expectAgreement(): Promise<void> {
  const rows = await transfersDb
    .selectFrom('transfers')
    .selectAll()
    .where('mch_no', '=', merchant.mchNo)
    .execute();
  const holds = await ledgerDb.selectFrom('holds').selectAll().where('mch_no', '=', merchant.mchNo).execute();
  const holdOf = new Map(holds.map((h) => [h.transfer_no, h.status]));
  const expectedHold: Record<string, string[]> = {
    progress: ['frozen'],
    success: ['out'],
    close: ['returned', 'released'],
    fail: ['released', 'void'],
  };
  for (const row of rows) {
    expect(row.status, `${row.transfer_no} left submitting`).not.toBe('submitting');
    expect(expectedHold[row.status], `${row.transfer_no} (${row.status})`).toContain(
      holdOf.get(row.transfer_no),
    );
  }
  const owned = new Set(rows.map((r) => r.transfer_no));
  for (const hold of holds) {
    if (!owned.has(hold.transfer_no))
      expect(hold.status, `hold ${hold.transfer_no} without a transfer`).toBe('void');
  }
  const out = rows.filter((r) => r.status === 'success').length * (AMOUNT + FEE);
  const frozen = rows.filter((r) => r.status === 'progress').length * (AMOUNT + FEE);
  expect(await balance()).toEqual({ available: FUNDS - out - frozen, pending: 0, frozen });
  const check = await admin('GET', '/admin/ledger/check');
  expect(check).toMatchObject({ ok: true, problems: [] });
}

/** Waits until no transfer of the merchant is still submitting or in progress (recovery and the payout done). */
async function settled(): Promise<void> {
  await waitFor(
    async () => {
      const open = await transfersDb
        .selectFrom('transfers')
        .select('transfer_no')
        .where('mch_no', '=', merchant.mchNo)
        .where('status', 'in', ['submitting', 'progress'])
        .execute();
      const b = await balance();
      return open.length === 0 && b.frozen === 0;
    },
    { timeoutMs: 30_000, intervalMs: 200, message: 'recovery and the payouts to finish' },
  );
}

beforeAll(async () => {
  stack = await startTestStack({
    serviceEnv: {
      // Recovery within seconds: a submission is abandoned 1.5 s after it began.
      transfers: { SWEEP_INTERVAL_MS: '250', SUBMISSION_STALE_MS: '1500', RECONCILE_AFTER_MS: '2000' },
    },
  });
  merchant = await createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    feeRate: { percentBps: 100, fixedCentavos: 500 },
    fund: false,
  });
  await admin('POST', `/admin/merchants/${merchant.mchNo}/adjustments`, {
    amount: FUNDS / 100,
    reason: 'funding',
    reference: 'crash-test-funding',
  });
  transfersDb = createDb<TransfersDb>(stack.databaseUrl('transfers'));
  ledgerDb = createDb<LedgerDb>(stack.databaseUrl('ledger'));
}, 120_000);

afterAll(async () => {
  await transfersDb?.destroy();
  await ledgerDb?.destroy();
  await stack?.stop();
});

describe('a transfers process killed inside a create', () => {
  it.each([
    ['after_insert', 'withdrawn, nothing frozen'],
    ['after_freeze', 'withdrawn, its freeze voided'],
    ['after_router', 'kept and paid, its freeze moved out'],
  ] as const)(
    'at %s: %s; the books and the transfers agree',
    async (point, _outcome) => {
      const bizTransferNo = `CRASH-${point}-${Date.now()}`;
      await stack.restart('transfers', { env: { TRANSFERS_CRASH_AT: point } });
      // The gateway's channel may still be reconnecting to the new process and refuse a first request
      // without sending it; whatever reaches transfers dies there, and the merchant gets 50003.
      await waitFor(
        async () => {
          if (!stack.running('transfers')) return true;
          expect((await transfer(bizTransferNo)).code).toBe(50003);
          return false;
        },
        { timeoutMs: 15_000, intervalMs: 300, message: 'transfers to exit at the crash point' },
      );

      await stack.restart('transfers', { env: { TRANSFERS_CRASH_AT: '' } });
      await settled();
      const rows = await transfersDb
        .selectFrom('transfers')
        .selectAll()
        .where('biz_transfer_no', '=', bizTransferNo)
        .execute();
      if (point === 'after_router') {
        // The router took the payout: the transfer exists (the sandbox pays it) and owns its freeze.
        expect(rows.map((r) => r.status)).toEqual(['success']);
      } else {
        // Never sent: withdrawn, so the same bizTransferNo is free and succeeds now.
        expect(rows).toEqual([]);
        await expectAgreement();
        // 50003 is the answer to retry: the gateway's channel to the restarted process may still be
        // reconnecting (nothing is sent then).
        const again = await waitFor(
          async () => {
            const reply = await transfer(bizTransferNo);
            return reply.code === 50003 ? undefined : reply;
          },
          { timeoutMs: 15_000, intervalMs: 300, message: 'the retry to reach transfers' },
        );
        expect(again).toMatchObject({ code: 0, data: { status: 'progress' } });
        await settled();
      }
      await expectAgreement();
    },
    120_000,
  );
});

describe('the ledger down during a create', () => {
  it('answers 50003 and creates nothing; once it is back the sweep voids the freeze and the same key succeeds', async () => {
    const bizTransferNo = `LEDGER-DOWN-${Date.now()}`;
    // The gateway's channel to a transfers process restarted by the tests above may still be reconnecting
    // (answering 50003 without sending): wait until a query reaches transfers, so a 50003 below is the ledger's.
    await waitFor(
      async () =>
        (await merchant.request('/gateway/query/transferOrder', { bizTransferNo })).envelope.code === 40004,
      { timeoutMs: 15_000, intervalMs: 200, message: 'the gateway reaching transfers' },
    );
    await stack.kill('ledger');
    try {
      expect((await transfer(bizTransferNo)).code).toBe(50003);
      // Neither Freeze nor VoidFreeze was answered: the row waits, claimed for voiding, and no one sees it.
      const rows = await transfersDb
        .selectFrom('transfers')
        .selectAll()
        .where('biz_transfer_no', '=', bizTransferNo)
        .execute();
      expect(rows.map((r) => [r.status, r.submission])).toEqual([['submitting', 'voiding']]);
      const query = await merchant.request('/gateway/query/transferOrder', { bizTransferNo });
      expect(query.envelope.code).toBe(40004);
    } finally {
      await stack.restart('ledger');
    }
    await settled();
    await expectAgreement();
    const again = await waitFor(
      async () => {
        const reply = await transfer(bizTransferNo);
        return reply.code === 50003 ? undefined : reply;
      },
      { timeoutMs: 15_000, intervalMs: 300, message: 'the retry once the ledger is back' },
    );
    expect(again).toMatchObject({ code: 0, data: { status: 'progress' } });
    await settled();
    await expectAgreement();
  }, 120_000);
});
