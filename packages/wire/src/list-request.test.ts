import { describe, expect, it } from 'vitest';
import { isAppError } from './codes.js';
import { encodeListCursor, type ListRequest, readListRequest } from './list-request.js';

const ORDERS = { cursorKind: 'o', statuses: ['wait', 'success'] };
const ask = (fields: Partial<ListRequest>): ListRequest => ({
  mchNo: '',
  query: '',
  status: '',
  createdFrom: '',
  createdTo: '',
  limit: 0,
  cursor: '',
  ...fields,
});

function refusal(fields: Partial<ListRequest>): string {
  try {
    readListRequest(ask(fields), ORDERS);
  } catch (err) {
    if (isAppError(err) && err.codeName === 'INVALID_PARAMETER') return err.message;
    throw err;
  }
  throw new Error('accepted');
}

describe('readListRequest', () => {
  it('reads an empty request as the first page of 50 over every merchant', () => {
    expect(readListRequest(ask({}), ORDERS)).toEqual({
      mchNo: undefined,
      search: undefined,
      status: undefined,
      from: undefined,
      to: undefined,
      limit: 50,
      after: undefined,
    });
  });

  it('reads every field, the search trimmed and the cursor back to the row it names', () => {
    const page = readListRequest(
      ask({
        mchNo: 'M1',
        query: '  CR123 ',
        status: 'success',
        createdFrom: '2026-11-01T00:00:00Z',
        createdTo: '2026-11-02T00:00:00Z',
        limit: 200,
        cursor: encodeListCursor('o', 'P20261101000000001'),
      }),
      ORDERS,
    );
    expect(page).toEqual({
      mchNo: 'M1',
      search: 'CR123',
      status: 'success',
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-11-02T00:00:00Z'),
      limit: 200,
      after: 'P20261101000000001',
    });
  });

  it('refuses each bad field by name', () => {
    expect(refusal({ limit: 201 })).toMatch(/limit/);
    expect(refusal({ limit: -1 })).toMatch(/limit/);
    expect(refusal({ limit: 1.5 })).toMatch(/limit/);
    expect(refusal({ status: 'submitting' })).toMatch(/status/);
    expect(refusal({ query: 'x'.repeat(65) })).toMatch(/query/);
    expect(refusal({ createdFrom: 'yesterday' })).toMatch(/createdFrom/);
    expect(refusal({ createdTo: 'soon' })).toMatch(/createdTo/);
    expect(refusal({ cursor: 'not-a-cursor' })).toMatch(/cursor/);
  });

  it("refuses another list's cursor and one naming no row number", () => {
    expect(refusal({ cursor: encodeListCursor('t', 'T20261101000000001') })).toMatch(/cursor/);
    expect(refusal({ cursor: encodeListCursor('o', "1' or '1'='1") })).toMatch(/cursor/);
    expect(refusal({ cursor: encodeListCursor('o', '') })).toMatch(/cursor/);
  });
});
