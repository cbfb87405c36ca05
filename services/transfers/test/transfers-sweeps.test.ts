import { systemClock } from '@agentpay/runtime';
import { AppError } from '@agentpay/wire';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createPayeeRegistry } from '../src/payees/payee.service.js';
import { createTransferService } from '../src/transfers/transfer.service.js';
import { connectRouter } from '../src/upstream/router.client.js';
import { useTransfers } from './support/transfers.js';

// The background sweeps, run by hand: abandoned submissions, and reconciliation of transfers in progress.

const t = useTransfers();
const { router, ledger, logger, transferRequest, create, eventsOf, stubLedger, directService } = t;

describe('the submission sweep', () => {
  const sweeper = () =>
    createTransferService({
      db: t.db,
      router: connectRouter('127.0.0.1:1'),
      logger,
      subject: 'unused',
      routerTimeoutMs: 1_000,
      ledger: stubLedger(),
      ledgerTimeoutMs: 1_000,
      compliance: t.stubCompliance(),
      complianceTimeoutMs: 1_000,
      payees: createPayeeRegistry({ db: t.db, clock: systemClock, coolingMs: 0 }),
      clock: systemClock,
    });
  const rowOf = (transferNo: string) =>
    t.db.selectFrom('transfers').selectAll().where('transfer_no', '=', transferNo).executeTakeFirst();

  // A transfer put back at version 0 has no status changes yet: its history goes back with it.
  const rewindHistory = (transferNo: string) =>
    sql`delete from transfer_status_history where transfer_no = ${transferNo}`.execute(t.db);

  it('turns a submission abandoned after it was sent into progress with an unknown outcome, keeping its freeze', async () => {
    const { transfer } = await create(transferRequest());
    // As if the process died between sending the payout and hearing from the router.
    await sql`update transfers set status = 'submitting', submission = 'sent', version = 0,
      created_at = now() - interval '10 minutes' where transfer_no = ${transfer!.transfer_no}`.execute(t.db);
    await rewindHistory(transfer!.transfer_no);
    expect(await sweeper().sweepStaleSubmissions(60_000)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(transfer!.transfer_no)).toMatchObject({
      status: 'progress',
      submission: 'unknown',
      version: 1,
    });
    expect(ledger.frozen()).toContain(transfer!.transfer_no);
  });

  it('voids the freeze of a submission abandoned before it was sent, then removes it', async () => {
    const { transfer } = await create(transferRequest());
    await sql`update transfers set status = 'submitting', submission = 'pending', version = 0,
      created_at = now() - interval '10 minutes' where transfer_no = ${transfer!.transfer_no}`.execute(t.db);
    await rewindHistory(transfer!.transfer_no);
    ledger.failVoid = new AppError('SERVICE_UNAVAILABLE');
    await sweeper().sweepStaleSubmissions(60_000);
    // The ledger could not void it: the row stays, claimed for voiding, and the freeze with it.
    expect(await rowOf(transfer!.transfer_no)).toMatchObject({ submission: 'voiding' });
    expect(ledger.frozen()).toContain(transfer!.transfer_no);
    ledger.failVoid = undefined;
    expect(await sweeper().sweepStaleSubmissions(60_000)).toBeGreaterThanOrEqual(1);
    expect(await rowOf(transfer!.transfer_no)).toBeUndefined();
    expect(ledger.holds.get(transfer!.transfer_no)?.status).toBe('void');
  });
});

describe('reconciliation', () => {
  const backdate = (transferNo: string) =>
    sql`update transfers set updated_at = now() - interval '10 minutes' where transfer_no = ${transferNo}`.execute(
      t.db,
    );

  it('asks upstream about a transfer long in progress and applies its final answer with one event', async () => {
    const { direct, stubRouter } = directService();
    try {
      const { transfer } = await create(transferRequest());
      const transferNo = transfer!.transfer_no;
      await backdate(transferNo);
      router.onQuery = async () => ({ status: 'fail', finished_at: '' });
      expect(await direct.reconcileProgress(60_000)).toBe(1);
      expect(router.queries).toEqual([
        expect.objectContaining({ route_id: 'route-a', transfer_no: transferNo, upstream_ref: 'up-1' }),
      ]);
      expect((await eventsOf(transferNo)).map((e) => [e.from_status, e.to_status])).toEqual([
        ['progress', 'fail'],
      ]);
    } finally {
      stubRouter.close();
    }
  });

  it('leaves a transfer upstream still has in progress alone and does not ask again at once', async () => {
    const { direct, stubRouter } = directService();
    try {
      const { transfer } = await create(transferRequest());
      await backdate(transfer!.transfer_no);
      expect(await direct.reconcileProgress(60_000)).toBe(0);
      expect(await direct.reconcileProgress(60_000)).toBe(0);
      expect(router.queries.filter((q) => q.transfer_no === transfer!.transfer_no)).toHaveLength(1);
      expect(await eventsOf(transfer!.transfer_no)).toEqual([]);
    } finally {
      stubRouter.close();
    }
  });
});

describe('reconciliation of a transfer whose submission answer was lost', () => {
  it('asks the router with no route, records the route that holds the payout, and applies its answer', async () => {
    const { direct, stubRouter } = directService();
    try {
      const { transfer } = await create(transferRequest());
      const transferNo = transfer!.transfer_no;
      // As left by a router that died mid-submission: progress, outcome unknown, no route.
      await sql`update transfers set submission = 'unknown', route_id = null, upstream_ref = null,
        updated_at = now() - interval '10 minutes' where transfer_no = ${transferNo}`.execute(t.db);
      router.onQuery = async (ref) =>
        ref.transfer_no === transferNo
          ? { status: 'success', finished_at: '', route_id: 'route-b', upstream_ref: 'up-9' }
          : { status: 'progress', finished_at: '' };
      await direct.reconcileProgress(60_000);
      expect(router.queries.filter((q) => q.transfer_no === transferNo)).toEqual([
        expect.objectContaining({ route_id: '', upstream_ref: '' }),
      ]);
      const row = await t.db
        .selectFrom('transfers')
        .selectAll()
        .where('transfer_no', '=', transferNo)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'success', route_id: 'route-b', upstream_ref: 'up-9' });
      expect((await eventsOf(transferNo)).map((e) => [e.from_status, e.to_status])).toEqual([
        ['progress', 'success'],
      ]);
    } finally {
      router.onQuery = async () => ({ status: 'progress', finished_at: '' });
      stubRouter.close();
    }
  });
});
