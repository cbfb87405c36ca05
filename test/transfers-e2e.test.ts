import { createDb } from '@agentpay/db';
import { institutions } from '@agentpay/spei';
import type { Stack } from '@agentpay/stack';
import { createTestMerchant, type TestMerchant, waitFor } from '@agentpay/testing';
import type { Envelope } from '@agentpay/wire';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// Issue 4's "done when", across real processes: gateway → transfers → upstream-router → upstream-sandbox
// and back through the sandbox's signed notices. A merchant lists payee types and codes, validates a CLABE,
// sends transfers and sees them succeed, fail or be returned; each change is one outbox event.
// Sandbox rules (docs/sandbox-guide.md): payeeName REJECT fails later, SYNCREJECT is refused at once,
// RETURN succeeds then is returned, UNKNOWN makes an inquiry answer unknown.

let stack: Stack;
let merchant: TestMerchant;
let other: TestMerchant;
let transfersDb: Kysely<OutboxDatabase>;

interface OutboxDatabase {
  outbox: { seq: number; subject: string; payload: EventPayload };
}
interface EventPayload {
  kind: string;
  order_no: string;
  from_status: string;
  to_status: string;
  version: string;
  transfer?: { status: string; transfer_no: string; version: string };
}

const CLABE = '002010077777777771'; // BANAMEX, 40002
const BAD_CHECK_DIGIT = '002010077777777772';
const CARD = '4111111111111111';

let seq = 0;
const biz = (prefix: string) => `${prefix}-${Date.now()}-${++seq}`;

/** A signed request whose reply must carry a valid platform signature, whatever its code. */
async function send(client: TestMerchant, path: string, params: Record<string, unknown> = {}) {
  const reply = await client.request(path, params);
  expect(reply.signed, `${path} reply signed`).toBe(true);
  expect(reply.status).toBe(200);
  return reply.envelope as Envelope & { data: never };
}

function transferParams(over: Record<string, unknown> = {}) {
  return {
    bizTransferNo: biz('T'),
    amount: 150.25,
    title: 'Payout',
    reason: 'commission',
    payeeType: 'spei_transfer',
    payeeAccount: CLABE,
    payeeName: 'Ana Perez',
    attach: 'a1',
    ...over,
  };
}

async function queryTransfer(client: TestMerchant, ref: Record<string, string>) {
  return send(client, '/gateway/query/transferOrder', ref);
}

async function untilStatus(transferNo: string, status: string): Promise<Record<string, unknown>> {
  return waitFor(
    async () => {
      const reply = await queryTransfer(merchant, { transferNo });
      const data = reply.data as Record<string, unknown> | null;
      return data?.status === status ? data : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 200, message: `transfer ${transferNo} to reach ${status}` },
  );
}

async function eventsOf(transferNo: string): Promise<EventPayload[]> {
  const rows = await transfersDb
    .selectFrom('outbox')
    .select(['payload', 'subject'])
    .where(sql<boolean>`payload->>'order_no' = ${transferNo}`)
    .orderBy('seq')
    .execute();
  for (const row of rows) expect(row.subject).toMatch(/\.transfer\.status_changed$/);
  return rows.map((r) => r.payload);
}

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createTestMerchant({
    adminUrl: stack.urls.admin,
    gatewayUrl: stack.urls.gateway,
    feeRate: { percentBps: 100, fixedCentavos: 500 },
  });
  other = await createTestMerchant({ adminUrl: stack.urls.admin, gatewayUrl: stack.urls.gateway });
  transfersDb = createDb<OutboxDatabase>(stack.databaseUrl('transfers'));
});

afterAll(async () => {
  await transfersDb?.destroy();
  await stack?.stop();
});

describe('payee options', () => {
  it('lists the five payee types the sandbox route offers', async () => {
    const reply = await send(merchant, '/gateway/options/payee-types');
    expect(reply.code).toBe(0);
    expect((reply.data as { code: string }[]).map((o) => o.code).sort()).toEqual(
      ['bank_card', 'login_name', 'open_id', 'spei_transfer', 'user_id'].sort(),
    );
  });

  it.each(['spei_transfer', 'bank_card'])('lists Banxico institution codes for %s', async (payeeType) => {
    const reply = await send(merchant, '/gateway/options/payee-codes', { payeeType });
    expect(reply.code).toBe(0);
    const codes = reply.data as { code: string; name: string }[];
    expect(codes).toContainEqual({ code: '40012', name: 'BBVA MEXICO' });
    expect(codes.map((c) => c.code).sort()).toEqual(institutions.map((i) => i.spei).sort());
    // Raw upstream codes (3-digit CLABE prefixes) never reach the merchant.
    expect(codes.some((c) => c.code === '012')).toBe(false);
  });

  it('lists no codes for a wallet type and refuses an unknown type with 40001', async () => {
    expect((await send(merchant, '/gateway/options/payee-codes', { payeeType: 'user_id' })).data).toEqual([]);
    expect((await send(merchant, '/gateway/options/payee-codes', { payeeType: 'paypal' })).code).toBe(40001);
  });
});

describe('inqury', () => {
  const inquire = (params: Record<string, unknown>) =>
    send(merchant, '/gateway/inqury', {
      bizInquryNo: biz('Q'),
      payeeType: 'spei_transfer',
      payeeAccount: CLABE,
      payeeName: 'Ana Perez',
      ...params,
    });

  it('answers valid for a good CLABE, echoing the payee name', async () => {
    const reply = await inquire({});
    expect(reply.code).toBe(0);
    expect(reply.data).toMatchObject({ status: 'valid', accountValid: true, uploadPayeeName: 'Ana Perez' });
    expect((reply.data as { inquryNo: string }).inquryNo).toMatch(/^I\d+$/);
  });

  it('answers invalid for a bad check digit', async () => {
    const reply = await inquire({ payeeAccount: BAD_CHECK_DIGIT });
    expect(reply).toMatchObject({ code: 0, data: { status: 'invalid', accountValid: false } });
  });

  it('answers unknown when upstream cannot tell', async () => {
    const reply = await inquire({ payeeName: 'UNKNOWN person' });
    expect(reply).toMatchObject({ code: 0, data: { status: 'unknown', accountValid: false } });
  });

  it('repeats the stored answer for the same bizInquryNo and refuses other parameters with 40007', async () => {
    const bizInquryNo = biz('Q');
    const first = await inquire({ bizInquryNo });
    const again = await inquire({ bizInquryNo });
    expect(again.data).toEqual(first.data);
    const changed = await inquire({ bizInquryNo, payeeName: 'Someone Else' });
    expect(changed).toMatchObject({ code: 40007, data: null });
  });

  it('refuses a raw upstream payee code with 40002', async () => {
    expect((await inquire({ payeeCode: '012' })).code).toBe(40002);
  });
});

describe('transfer', () => {
  it('creates a transfer in progress that then succeeds, with one event for the change', async () => {
    const params = transferParams();
    const reply = await send(merchant, '/gateway/transfer', params);
    expect(reply.code).toBe(0);
    const data = reply.data as { transferNo: string; bizTransferNo: string; status: string };
    expect(data).toMatchObject({ bizTransferNo: params.bizTransferNo, status: 'progress' });
    expect(data.transferNo.length).toBeLessThanOrEqual(32);

    const done = await untilStatus(data.transferNo, 'success');
    expect(done).toMatchObject({
      bizTransferNo: params.bizTransferNo,
      transferNo: data.transferNo,
      amount: 150.25,
      // 1 % of 150.25 rounds to 1.50, plus 5.00
      fee: 6.5,
      title: 'Payout',
      reason: 'commission',
      payeeType: 'spei_transfer',
      payeeAccount: CLABE,
      payeeName: 'Ana Perez',
      payeeCode: '40002',
      attach: 'a1',
    });
    expect(done.finishTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const events = await eventsOf(data.transferNo);
    expect(events.map((e) => [e.from_status, e.to_status, e.version])).toEqual([
      ['progress', 'success', '2'],
    ]);
    expect(events[0]).toMatchObject({ kind: 'transfer', transfer: { status: 'success', version: '2' } });
  });

  it('answers the same transfer for a repeat and 40003 for other parameters', async () => {
    const params = transferParams();
    const first = await send(merchant, '/gateway/transfer', params);
    const again = await send(merchant, '/gateway/transfer', params);
    expect(again.code).toBe(0);
    expect((again.data as { transferNo: string }).transferNo).toBe(
      (first.data as { transferNo: string }).transferNo,
    );
    const changed = await send(merchant, '/gateway/transfer', { ...params, amount: 150.26 });
    expect(changed).toMatchObject({ code: 40003, data: null });
  });

  it('fails a transfer upstream rejects later: progress, then fail', async () => {
    const reply = await send(merchant, '/gateway/transfer', transferParams({ payeeName: 'REJECT me' }));
    const { transferNo, status } = reply.data as { transferNo: string; status: string };
    expect(status).toBe('progress');
    await untilStatus(transferNo, 'fail');
    expect((await eventsOf(transferNo)).map((e) => [e.from_status, e.to_status])).toEqual([
      ['progress', 'fail'],
    ]);
  });

  it('creates a transfer upstream refuses at once as fail', async () => {
    const reply = await send(merchant, '/gateway/transfer', transferParams({ payeeName: 'SYNCREJECT me' }));
    expect(reply.code).toBe(0);
    const { transferNo, status } = reply.data as { transferNo: string; status: string };
    expect(status).toBe('fail');
    const query = await queryTransfer(merchant, { transferNo });
    expect(query.data).toMatchObject({ status: 'fail', finishTime: expect.any(String) });
    // Created as fail: there was no change, so no event.
    expect(await eventsOf(transferNo)).toEqual([]);
  });

  it('closes a transfer that succeeds and is then returned: two changes, two events', async () => {
    const reply = await send(
      merchant,
      '/gateway/transfer',
      transferParams({ payeeName: 'RETURN to sender' }),
    );
    const { transferNo } = reply.data as { transferNo: string };
    await untilStatus(transferNo, 'close');
    const events = await waitFor(async () => {
      const found = await eventsOf(transferNo);
      return found.length >= 2 ? found : undefined;
    });
    expect(events.map((e) => [e.from_status, e.to_status, e.version])).toEqual([
      ['progress', 'success', '2'],
      ['success', 'close', '3'],
    ]);
  });

  it('pays a debit card with its bank code and a wallet user id', async () => {
    const card = await send(
      merchant,
      '/gateway/transfer',
      transferParams({ payeeType: 'bank_card', payeeAccount: CARD, payeeCode: '40012' }),
    );
    const wallet = await send(
      merchant,
      '/gateway/transfer',
      transferParams({ payeeType: 'user_id', payeeAccount: 'wallet-user-42' }),
    );
    await untilStatus((card.data as { transferNo: string }).transferNo, 'success');
    await untilStatus((wallet.data as { transferNo: string }).transferNo, 'success');
  });

  it('creates one transfer for 10 concurrent identical requests', async () => {
    const params = transferParams();
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => send(merchant, '/gateway/transfer', params)),
    );
    expect(replies.map((r) => r.code)).toEqual(Array(10).fill(0));
    const numbers = new Set(replies.map((r) => (r.data as { transferNo: string }).transferNo));
    expect(numbers.size).toBe(1);
    const [transferNo] = [...numbers] as [string];
    await untilStatus(transferNo, 'success');
    const rows = await sql<{ n: number }>`select count(*)::int as n from transfers
      where biz_transfer_no = ${params.bizTransferNo}`.execute(transfersDb);
    expect(rows.rows[0]?.n).toBe(1);
    expect(await eventsOf(transferNo)).toHaveLength(1);
  });

  it('refuses a bad CLABE and a payeeCode of another bank with 40005, storing nothing', async () => {
    const bad = transferParams({ payeeAccount: BAD_CHECK_DIGIT });
    expect((await send(merchant, '/gateway/transfer', bad)).code).toBe(40005);
    const mismatch = transferParams({ payeeCode: '40012' });
    expect((await send(merchant, '/gateway/transfer', mismatch)).code).toBe(40005);
    const stored = await sql<{ n: number }>`select count(*)::int as n from transfers
      where biz_transfer_no in (${bad.bizTransferNo}, ${mismatch.bizTransferNo})`.execute(transfersDb);
    expect(stored.rows[0]?.n).toBe(0);
  });

  it('refuses a raw upstream code such as 012 with 40002 and a card without a code with 10001', async () => {
    expect((await send(merchant, '/gateway/transfer', transferParams({ payeeCode: '012' }))).code).toBe(
      40002,
    );
    const noCode = await send(
      merchant,
      '/gateway/transfer',
      transferParams({ payeeType: 'bank_card', payeeAccount: CARD }),
    );
    expect(noCode.code).toBe(10001);
    expect(noCode.msg).toContain('payeeCode');
  });

  it.each([0, 0.001, 100000000])('refuses amount %s with 10001 naming amount', async (amount) => {
    const reply = await send(merchant, '/gateway/transfer', transferParams({ amount }));
    expect(reply.code).toBe(10001);
    expect(reply.msg).toContain('amount');
  });
});

describe('query/transferOrder', () => {
  it('finds a transfer by either identifier, and hides it from another merchant with 40004', async () => {
    const params = transferParams();
    const created = await send(merchant, '/gateway/transfer', params);
    const { transferNo } = created.data as { transferNo: string };
    const byNo = await queryTransfer(merchant, { transferNo });
    const byBiz = await queryTransfer(merchant, { bizTransferNo: params.bizTransferNo });
    expect(byNo.code).toBe(0);
    expect((byBiz.data as { transferNo: string }).transferNo).toBe(transferNo);
    expect((byNo.data as { bizTransferNo: string }).bizTransferNo).toBe(params.bizTransferNo);

    expect(await queryTransfer(other, { transferNo })).toMatchObject({ code: 40004, data: null });
    expect(await queryTransfer(other, { bizTransferNo: params.bizTransferNo })).toMatchObject({
      code: 40004,
    });
    expect((await queryTransfer(merchant, { transferNo, bizTransferNo: 'someone-else' })).code).toBe(40004);
  });

  it('requires one identifier', async () => {
    expect((await queryTransfer(merchant, {})).code).toBe(10001);
  });
});

describe('the transfers outbox', () => {
  it('holds exactly one event per status change of every transfer, carrying the transfer after it', async () => {
    // One statement, one snapshot: a change commits its status and its event together.
    const { rows } = await sql<{
      transfer_no: string;
      status: string;
      version: number;
      events: EventPayload[];
    }>`select t.transfer_no, t.status, t.version,
        coalesce(json_agg(o.payload order by o.seq) filter (where o.seq is not null), '[]') as events
      from transfers t left join outbox o on o.payload->>'order_no' = t.transfer_no
      where t.status <> 'submitting'
      group by t.transfer_no, t.status, t.version`.execute(transfersDb);
    expect(rows.length).toBeGreaterThan(5);
    for (const row of rows) {
      const expected = Array.from({ length: Number(row.version) - 1 }, (_, i) => String(i + 2));
      expect(
        row.events.map((e) => e.version),
        row.transfer_no,
      ).toEqual(expected);
      for (const event of row.events) {
        expect(event.transfer).toMatchObject({ status: event.to_status, version: event.version });
      }
      if (row.events.length > 0) expect(row.events.at(-1)!.to_status).toBe(row.status);
    }
  });
});
