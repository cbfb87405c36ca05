import { type Clock, createTestClock } from '@agentpay/runtime';
import { waitFor } from '@agentpay/testing';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { PayoutNotice } from '../src/transfers/transfer.service.js';
import type { UpstreamOutcome } from '../src/transfers/transfer.state-machine.js';
import { useTransfers } from './support/transfers.js';

// The route a transfer's payout went on, learnt from whatever names it first (the submission's answer, a
// notice, a reconciliation query) and never lost to a later step that does not know it, whatever the order.

const t = useTransfers();
const { router, ledger, transferRequest, create, eventsOf, directService } = t;

const rowOf = (transferNo: string) =>
  t.db.selectFrom('transfers').selectAll().where('transfer_no', '=', transferNo).executeTakeFirstOrThrow();

const notice = (
  transferNo: string,
  status: UpstreamOutcome,
  noticeId: string,
  route: { routeId?: string; upstreamRef?: string } = {},
): PayoutNotice => ({
  transferNo,
  status,
  finishedAt: undefined,
  noticeId,
  claveRastreo: '',
  traceparent: '',
  ...route,
});

/** A clock that counts the notices sleeping on it, so a test sees them wait on a submission. */
function observedClock(): Clock & { sleeping: () => number } {
  const clock = createTestClock();
  return { now: () => clock.now(), sleep: (ms) => clock.sleep(ms), sleeping: () => clock.sleepers() };
}

describe('the route of a transfer', () => {
  it('is recorded from notices that waited on a submission the sweep then abandoned as an unknown outcome', async () => {
    // Chaos seed 40442: transfers was killed while submitting; STP liquidated the payout and then returned
    // it (LQ, then D); after the restart both notices waited on the submission, the sweep abandoned it
    // as `progress` with an unknown outcome, and the notices then moved it to success and close.
    const { transfer } = await create(transferRequest());
    const transferNo = transfer!.transfer_no;
    await sql`update transfers set status = 'submitting', submission = 'sent', version = 0, route_id = null,
      upstream_ref = null, created_at = now() - interval '10 minutes' where transfer_no = ${transferNo}`.execute(
      t.db,
    );
    await sql`delete from transfer_status_history where transfer_no = ${transferNo}`.execute(t.db);
    const clock = observedClock();
    const { direct, stubRouter } = directService(clock, 30_000);
    try {
      const stp = { routeId: 'stp-default', upstreamRef: 'stp-77' };
      const applying = Promise.all([
        direct.applyNotice(notice(transferNo, 'success', 'LQ', stp)),
        direct.applyNotice(notice(transferNo, 'returned', 'D', stp)),
      ]);
      await waitFor(() => clock.sleeping() >= 2, { message: 'both notices waiting on the submission' });
      expect(await direct.sweepStaleSubmissions(60_000)).toBeGreaterThanOrEqual(1);
      await applying;

      expect(await rowOf(transferNo)).toMatchObject({
        status: 'close',
        submission: 'unknown',
        route_id: 'stp-default',
        upstream_ref: 'stp-77',
      });
      const events = await eventsOf(transferNo);
      expect(events.map((e) => [e.from_status, e.to_status, e.route_id, e.upstream_ref])).toEqual([
        ['progress', 'success', 'stp-default', 'stp-77'],
        ['success', 'close', 'stp-default', 'stp-77'],
      ]);
      // The freeze stays until the ledger books those two events: nothing was released here.
      expect(ledger.frozen()).toContain(transferNo);
    } finally {
      stubRouter.close();
    }
  });

  it("is kept from a notice that came while the submission was in flight when the router's answer is lost", async () => {
    let answer = () => {};
    router.onSubmit = () =>
      new Promise((resolve) => {
        answer = () => resolve({ route_id: 'route-a', status: 'progress', upstream_ref: 'late' });
      });
    const clock = observedClock();
    const { direct, stubRouter } = directService(clock, 30_000);
    try {
      const creating = create(transferRequest());
      const { transfer_no: transferNo } = await waitFor(() => router.submits[0]);
      const applying = direct.applyNotice(
        notice(transferNo, 'success', 'n-fast', { routeId: 'route-b', upstreamRef: 'up-b' }),
      );
      await waitFor(() => clock.sleeping() >= 1, { message: 'the notice waiting on the submission' });
      // The router's answer never comes in time (ROUTER_TIMEOUT_MS): the outcome is unknown.
      const { transfer } = await creating;
      expect(transfer).toMatchObject({ status: 'progress' });
      expect(await applying).toMatchObject({ changed: true, transfer: { status: 'success' } });

      expect(await rowOf(transferNo)).toMatchObject({
        status: 'success',
        submission: 'unknown',
        route_id: 'route-b',
        upstream_ref: 'up-b',
      });
      const events = await eventsOf(transferNo);
      expect(events.map((e) => [e.to_status, e.route_id])).toEqual([['success', 'route-b']]);
    } finally {
      answer();
      stubRouter.close();
    }
  });

  it('is recorded from a notice for a transfer already final, with no status change or event', async () => {
    router.onSubmit = async () => ({ route_id: '', status: 'progress', upstream_ref: '' });
    const { transfer } = await create(transferRequest());
    const transferNo = transfer!.transfer_no;
    const { direct, stubRouter } = directService();
    try {
      await direct.applyNotice(notice(transferNo, 'fail', 'n-fail'));
      expect(await rowOf(transferNo)).toMatchObject({ status: 'fail', route_id: null });
      const repeat = await direct.applyNotice(
        notice(transferNo, 'fail', 'n-fail-2', { routeId: 'route-b', upstreamRef: 'up-b' }),
      );
      expect(repeat).toMatchObject({
        changed: false,
        transfer: { route_id: 'route-b', upstream_ref: 'up-b' },
      });
      // A contradiction names the route too: recorded, never changed afterwards by another route.
      await direct.applyNotice(
        notice(transferNo, 'success', 'n-odd', { routeId: 'route-c', upstreamRef: 'x' }),
      );
      expect(await rowOf(transferNo)).toMatchObject({
        status: 'fail',
        version: 2,
        route_id: 'route-b',
        upstream_ref: 'up-b',
      });
      expect((await eventsOf(transferNo)).map((e) => e.to_status)).toEqual(['fail']);
    } finally {
      stubRouter.close();
    }
  });

  it('takes the reference a later notice brings for the route already recorded, and only for that route', async () => {
    router.onSubmit = async () => ({ route_id: 'route-a', status: 'progress', upstream_ref: '' });
    const { transfer } = await create(transferRequest());
    const transferNo = transfer!.transfer_no;
    const { direct, stubRouter } = directService();
    try {
      await direct.applyNotice(
        notice(transferNo, 'success', 'n-1', { routeId: 'route-c', upstreamRef: 'c-1' }),
      );
      expect(await rowOf(transferNo)).toMatchObject({ route_id: 'route-a', upstream_ref: null });
      await direct.applyNotice(
        notice(transferNo, 'returned', 'n-2', { routeId: 'route-a', upstreamRef: 'a-1' }),
      );
      expect(await rowOf(transferNo)).toMatchObject({
        status: 'close',
        route_id: 'route-a',
        upstream_ref: 'a-1',
      });
      const events = await eventsOf(transferNo);
      expect(events.map((e) => [e.to_status, e.route_id, e.upstream_ref])).toEqual([
        ['success', 'route-a', ''],
        ['close', 'route-a', 'a-1'],
      ]);
    } finally {
      stubRouter.close();
    }
  });
});
