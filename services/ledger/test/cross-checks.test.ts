import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookEvent } from '../src/events/status-changed.handler.js';
import { checkLedger } from '../src/ledger/check.repository.js';
import { observedCrossChecks } from '../src/observed/cross-checks.js';
import { payEvent, transferEvent } from './support/events.js';
import { type FreshLedger, freshLedger } from './support/fresh-ledger.js';

// Check proves the books against the orders and transfers the ledger observed: each check is shown to
// pass on consistent books and to name the order once the books or the facts are corrupted.

let t: FreshLedger;
beforeAll(async () => {
  t = await freshLedger('ledger_cross_checks');
});
afterAll(async () => {
  await t?.drop();
});

const check = () => checkLedger(t.db, observedCrossChecks);

/** Whether the problems name `number` under a label containing `label`. */
async function named(label: string, number: string): Promise<boolean> {
  const report = await check();
  return report.problems.some((p) => p.includes(label) && p.includes(`: ${number} `));
}

/** A journal entry written around the booking code, as a bug or a hand edit would. */
async function forgeEntry(values: {
  key: string;
  type: string;
  mchNo: string;
  orderNo?: string;
  transferNo?: string;
  amount: number;
  fee?: number;
}) {
  await sql`insert into entries (key, type, mch_no, order_no, transfer_no, amount, fee, available_change, pending_change,
      frozen_change, available_after, pending_after, frozen_after)
    values (${values.key}, ${values.type}, ${values.mchNo}, ${values.orderNo ?? null}, ${values.transferNo ?? null},
      ${values.amount}, ${values.fee ?? 0}, 0, 0, 0, 0, 0, 0)`.execute(t.db);
}

async function funded(mchNo: string): Promise<void> {
  await t.ledger.adjust({ mchNo, amount: 1_000_000, reason: 'opening', reference: `open-${mchNo}` });
}

async function frozen(mchNo: string, transferNo: string): Promise<void> {
  await t.ledger.freeze({ mchNo, transferNo, bizTransferNo: `BT-${transferNo}`, amount: 5_000, fee: 100 });
  await bookEvent(t, transferEvent(mchNo, transferNo, { to: 'progress', from: '', version: 1 }));
}

describe('cross-checks of the books against the observed orders', () => {
  it('consistent books and orders check out', async () => {
    await funded('MC0');
    await bookEvent(t, payEvent('MC0', 'PC0', { to: 'success', version: 2 }));
    await bookEvent(t, payEvent('MC0', 'PC0w', { to: 'wait', version: 1 }));
    await frozen('MC0', 'TC0a');
    await frozen('MC0', 'TC0b');
    await bookEvent(t, transferEvent('MC0', 'TC0b', { to: 'success', version: 2 }));
    await frozen('MC0', 'TC0c');
    await bookEvent(t, transferEvent('MC0', 'TC0c', { to: 'fail', version: 2 }));
    await frozen('MC0', 'TC0d');
    await bookEvent(t, transferEvent('MC0', 'TC0d', { to: 'success', version: 2 }));
    await bookEvent(t, transferEvent('MC0', 'TC0d', { to: 'close', from: 'success', version: 3 }));
    expect(await check()).toMatchObject({ ok: true, problems: [] });
  });

  it('names a successful pay order whose pay-in is of another amount', async () => {
    await bookEvent(t, payEvent('MC1', 'PC1', { to: 'success', version: 2 }));
    expect(await named('successful pay order', 'PC1')).toBe(false);
    await t.db.updateTable('observed_orders').set({ amount: 10_001 }).where('number', '=', 'PC1').execute();
    expect(await named('successful pay order without exactly one pay-in of its amount', 'PC1')).toBe(true);
  });

  it('names a successful pay order with no pay-in entry', async () => {
    await bookEvent(t, payEvent('MC1', 'PC2', { to: 'wait', version: 1 }));
    await t.db
      .updateTable('observed_orders')
      .set({ status: 'success' })
      .where('number', '=', 'PC2')
      .execute();
    expect(await named('successful pay order without exactly one pay-in of its amount', 'PC2')).toBe(true);
  });

  it('names a successful pay order with two pay-in entries', async () => {
    await bookEvent(t, payEvent('MC1', 'PC3', { to: 'success', version: 2 }));
    await forgeEntry({
      key: 'pay_in:PC3:again',
      type: 'pay_in',
      mchNo: 'MC1',
      orderNo: 'PC3',
      amount: 10_000,
    });
    expect(await named('successful pay order without exactly one pay-in of its amount', 'PC3')).toBe(true);
  });

  it('names a pay-in entry of an order that did not pay', async () => {
    await bookEvent(t, payEvent('MC1', 'PC4', { to: 'close', version: 2 }));
    await forgeEntry({ key: 'pay_in:PC4', type: 'pay_in', mchNo: 'MC1', orderNo: 'PC4', amount: 10_000 });
    expect(await named('pay-in entry for an order that is not successful', 'PC4')).toBe(true);
  });

  it('names a transfer in flight whose money moved out', async () => {
    await funded('MC2');
    await frozen('MC2', 'TC1');
    expect(await named("transfer's entries", 'TC1')).toBe(false);
    await forgeEntry({
      key: 'transfer_out:TC1',
      type: 'transfer_out',
      mchNo: 'MC2',
      transferNo: 'TC1',
      amount: 5_000,
      fee: 100,
    });
    expect(await named("transfer's entries do not match its status", 'TC1')).toBe(true);
  });

  it('names a successful transfer still frozen', async () => {
    await frozen('MC2', 'TC2');
    await t.db
      .updateTable('observed_orders')
      .set({ status: 'success' })
      .where('number', '=', 'TC2')
      .execute();
    expect(await named("transfer's entries do not match its status", 'TC2')).toBe(true);
  });

  it('names a failed transfer whose freeze was not released', async () => {
    await frozen('MC2', 'TC3');
    await t.db.updateTable('observed_orders').set({ status: 'fail' }).where('number', '=', 'TC3').execute();
    expect(await named("transfer's entries do not match its status", 'TC3')).toBe(true);
  });

  it('names a returned transfer whose amount did not come back', async () => {
    await frozen('MC2', 'TC4');
    await bookEvent(t, transferEvent('MC2', 'TC4', { to: 'success', version: 2 }));
    expect(await named("transfer's entries", 'TC4')).toBe(false);
    await t.db
      .updateTable('observed_orders')
      .set({ status: 'close', returned_at: new Date() })
      .where('number', '=', 'TC4')
      .execute();
    expect(await named("transfer's entries do not match its status", 'TC4')).toBe(true);
  });

  it('names a transfer whose entries are of another amount', async () => {
    await frozen('MC2', 'TC5');
    await t.db.updateTable('observed_orders').set({ amount: 4_999 }).where('number', '=', 'TC5').execute();
    expect(await named("transfer's entries do not match its status", 'TC5')).toBe(true);
  });
});
