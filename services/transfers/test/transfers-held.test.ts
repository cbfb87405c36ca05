import { call } from '@agentpay/proto';
import { AppError } from '@agentpay/wire';
import { describe, expect, it } from 'vitest';
import { codeOf, opts, useTransfers } from './support/transfers.js';

// Screening inside a create (docs/compliance.md "Held transfers"): a match holds the transfer in progress with
// its freeze and sends nothing to the router; ReleaseHeld sends it, RejectHeld fails it; no answer from
// screening creates nothing.

const fx = useTransfers();
const { router, ledger, compliance, transferRequest, create, eventsOf } = fx;
const hold = async () => ({ outcome: 'hit', hold: true, case_id: 'cas_1' });

describe('held transfers', () => {
  it('screens the payee by name, account and bank, inside the create', async () => {
    const { transfer } = await create(transferRequest({ payee_name: 'Juan Pérez' }));
    expect(compliance.screens).toEqual([
      expect.objectContaining({
        operation_kind: 'payout',
        operation_ref: transfer!.transfer_no,
        name: 'Juan Pérez',
        account: transfer!.payee_account,
        bank: transfer!.payee_code,
        open_case: true,
      }),
    ]);
  });

  it('holds a matching transfer: progress like any other, frozen, nothing sent, no event', async () => {
    compliance.onScreen = hold;
    const { transfer, created } = await create(transferRequest());
    expect(created).toBe(true);
    expect(transfer).toMatchObject({ status: 'progress', version: '1' });
    expect(router.submits).toEqual([]);
    expect(ledger.frozen()).toContain(transfer!.transfer_no);
    expect(await eventsOf(transfer!.transfer_no)).toEqual([]);
    const row = await fx.db
      .selectFrom('transfers')
      .selectAll()
      .where('transfer_no', '=', transfer!.transfer_no)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ submission: 'held', route_id: null });
  });

  it('a release sends the payout once; a repeat answers it as it is', async () => {
    compliance.onScreen = hold;
    const { transfer } = await create(transferRequest());
    const ref = { transfer_no: transfer!.transfer_no, traceparent: '' };
    const released = await call(fx.client, fx.client.ReleaseHeld, ref, opts);
    expect(released).toMatchObject({ status: 'progress', transfer_no: transfer!.transfer_no });
    expect(router.submits).toEqual([expect.objectContaining({ transfer_no: transfer!.transfer_no })]);
    await call(fx.client, fx.client.ReleaseHeld, ref, opts);
    expect(router.submits).toHaveLength(1);
    const row = await fx.db
      .selectFrom('transfers')
      .select(['submission', 'route_id'])
      .where('transfer_no', '=', transfer!.transfer_no)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ submission: 'accepted', route_id: 'route-a' });
    // Rejecting a released transfer is refused.
    expect(await codeOf(call(fx.client, fx.client.RejectHeld, ref, opts))).toBe('ORDER_STATUS_FORBIDS');
  });

  it('a release the router refuses outright leaves it held, to release again', async () => {
    compliance.onScreen = hold;
    const { transfer } = await create(transferRequest());
    router.onSubmit = async () => {
      throw new AppError('NO_UPSTREAM_ROUTE');
    };
    const ref = { transfer_no: transfer!.transfer_no, traceparent: '' };
    expect(await codeOf(call(fx.client, fx.client.ReleaseHeld, ref, opts))).toBe('SERVICE_UNAVAILABLE');
    const row = await fx.db
      .selectFrom('transfers')
      .select(['submission', 'status'])
      .where('transfer_no', '=', transfer!.transfer_no)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ submission: 'held', status: 'progress' });
  });

  it('a rejection fails the transfer with one event (the ledger releases the freeze from it)', async () => {
    compliance.onScreen = hold;
    const { transfer } = await create(transferRequest());
    const ref = { transfer_no: transfer!.transfer_no, traceparent: '' };
    const rejected = await call(fx.client, fx.client.RejectHeld, ref, opts);
    expect(rejected.status).toBe('fail');
    expect(await call(fx.client, fx.client.RejectHeld, ref, opts)).toMatchObject({ status: 'fail' });
    const events = await eventsOf(transfer!.transfer_no);
    expect(events.map((e) => [e.from_status, e.to_status])).toEqual([['progress', 'fail']]);
    expect(router.submits).toEqual([]);
  });

  it('answers SERVICE_UNAVAILABLE and keeps nothing when screening cannot answer', async () => {
    compliance.onScreen = async () => {
      throw new AppError('SERVICE_UNAVAILABLE');
    };
    const req = transferRequest();
    expect(await codeOf(create(req))).toBe('SERVICE_UNAVAILABLE');
    expect(router.submits).toEqual([]);
    const rows = await fx.db
      .selectFrom('transfers')
      .select('transfer_no')
      .where('biz_transfer_no', '=', req.biz_transfer_no!)
      .execute();
    expect(rows).toEqual([]);
    // Its freeze was taken, then voided.
    expect(ledger.calls).toEqual([expect.stringMatching(/^freeze T/), expect.stringMatching(/^void T/)]);
    expect(ledger.calls[0]!.slice(7)).toBe(ledger.calls[1]!.slice(5));
  });
});
