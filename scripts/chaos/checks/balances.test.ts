import { describe, expect, it } from 'vitest';
import { type BookedPayOrder, type BookedTransfer, checkBalances, impliedBalances } from './balances.js';

const pay = (over: Partial<BookedPayOrder>): BookedPayOrder => ({
  mchNo: 'M1',
  orderNo: 'P1',
  status: 'success',
  realAmount: 10_000,
  settled: false,
  ...over,
});
const transfer = (over: Partial<BookedTransfer>): BookedTransfer => ({
  mchNo: 'M1',
  transferNo: 'T1',
  status: 'success',
  amount: 1_000,
  fee: 100,
  returned: false,
  ...over,
});

describe('impliedBalances', () => {
  it('books pay-ins, settlement, every transfer outcome and adjustments as the ledger rules say', () => {
    const implied = impliedBalances(
      [
        pay({ orderNo: 'P1', realAmount: 9_700, settled: true }),
        pay({ orderNo: 'P2', realAmount: 4_850 }),
        pay({ orderNo: 'P3', status: 'close', realAmount: 5_000 }),
        pay({ orderNo: 'P4', status: 'wait', realAmount: 5_000 }),
      ],
      [
        transfer({ transferNo: 'T1', status: 'success' }),
        transfer({ transferNo: 'T2', status: 'progress' }),
        transfer({ transferNo: 'T3', status: 'fail' }),
        transfer({ transferNo: 'T4', status: 'close', returned: false }),
        transfer({ transferNo: 'T5', status: 'close', returned: true }),
      ],
      new Map([
        ['M1', 2_000],
        ['M2', 500],
      ]),
    );
    expect(Object.fromEntries(implied)).toEqual({
      // 2,000 + 9,700 settled − 1,100 out − 1,100 frozen − 100 fee of the return
      M1: { available: 9_400, pending: 4_850, frozen: 1_100 },
      M2: { available: 500, pending: 0, frozen: 0 },
    });
  });
});

describe('checkBalances', () => {
  const implied = new Map([['M1', { available: 9_400, pending: 4_850, frozen: 1_100 }]]);

  it('is empty when the ledger holds what the orders and transfers imply', () => {
    expect(
      checkBalances(implied, new Map([['M1', { available: 9_400, pending: 4_850, frozen: 1_100 }]])),
    ).toEqual([]);
  });

  it('names each part that differs, one below zero, and a merchant only one side knows', () => {
    const ledger = new Map([
      ['M1', { available: 9_300, pending: 4_850, frozen: 1_200 }],
      ['M9', { available: -1, pending: 0, frozen: 0 }],
    ]);
    expect(checkBalances(implied, ledger)).toEqual([
      'M1 available: ledger 9300, orders and transfers imply 9400',
      'M1 frozen: ledger 1200, orders and transfers imply 1100',
      'M9 available below zero: -1',
      'M9 available: ledger -1, orders and transfers imply 0',
    ]);
  });
});
