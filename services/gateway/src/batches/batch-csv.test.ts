import { describe, expect, it } from 'vitest';
import { centavosOf, checkBatchFile, parseCsv } from './batch-csv.js';

const GOOD = '002010077777777771'; // BANAMEX, 40002

describe('the dashboard batch file', () => {
  it('reads Spanish headers in any order, quoted fields and CRLF, deriving the bank from the CLABE', () => {
    const check = checkBatchFile(
      `\ufeffMonto,Beneficiario,CLABE,Referencia,Concepto\r\n1250.5,"Pérez, Ana",${GOOD},N-1,"Nómina ""nov"""\r\n3,Luis,${GOOD},N-2,\r\n`,
    );
    expect(check.ok).toBe(true);
    expect(check.amount).toBe(125_050 + 300);
    expect(check.rows[0]).toMatchObject({
      line: 2,
      errors: [],
      item: {
        bizTransferNo: 'N-1',
        amount: 125_050,
        payeeName: 'Pérez, Ana',
        payeeAccount: GOOD,
        payeeType: 'spei_transfer',
        payeeCode: '40002',
        title: 'Nómina "nov"',
      },
    });
  });

  it('names every bad cell by its line and column, and accepts none of them', () => {
    const check = checkBatchFile(
      [
        'bizTransferNo,amount,payeeAccount,payeeName',
        `A-1,10.00,${GOOD},Ana`,
        'A-2,1.234,002010077777777772,Luis',
        `A-1,,${GOOD},Eva`,
        `,5,${GOOD},${'x'.repeat(51)}`,
      ].join('\n'),
    );
    expect(check.ok).toBe(false);
    expect(check.rows.map((r) => [r.line, r.errors])).toEqual([
      [2, []],
      [
        3,
        [
          { column: 'amount', problem: 'amount' },
          { column: 'payeeAccount', problem: 'clabe' },
        ],
      ],
      [
        4,
        [
          { column: 'amount', problem: 'required' },
          { column: 'bizTransferNo', problem: 'repeated' },
        ],
      ],
      [
        5,
        [
          { column: 'payeeName', problem: 'too_long' },
          { column: 'bizTransferNo', problem: 'required' },
        ],
      ],
    ]);
  });

  it('refuses a file without its required columns, without rows, or with more than 1,000', () => {
    expect(checkBatchFile('referencia,monto\nA,1').problems).toEqual([
      { problem: 'missing_column', column: 'payeeAccount' },
    ]);
    expect(checkBatchFile('referencia,monto,clabe\n').problems).toEqual([{ problem: 'empty' }]);
    expect(checkBatchFile('').problems).toEqual([{ problem: 'empty' }]);
    const many = ['referencia,monto,clabe', ...Array.from({ length: 1_001 }, (_, i) => `R${i},1,${GOOD}`)];
    expect(checkBatchFile(many.join('\n')).problems).toEqual([{ problem: 'too_many_rows' }]);
    expect(checkBatchFile('a,"b\n1,2').problems).toEqual([{ problem: 'unbalanced_quotes' }]);
  });

  it('reads amounts as pesos with at most two decimals, never as floats', () => {
    expect(centavosOf('0.01')).toBe(1);
    expect(centavosOf('66814076.41')).toBe(6_681_407_641);
    expect(centavosOf('7.1')).toBe(710);
    expect(centavosOf('0')).toBeUndefined();
    expect(centavosOf('1,000.00')).toBeUndefined();
    expect(centavosOf('100000000')).toBeUndefined();
    expect(parseCsv('a;b\n1;2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
});
