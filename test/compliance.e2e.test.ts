import { randomBytes } from 'node:crypto';
import { createDb } from '@agentpay/db';
import type { Stack } from '@agentpay/stack';
import {
  createTestMerchant,
  createTestPerson,
  natsUrl,
  settleApproval,
  type TestMerchant,
  type TestPerson,
  waitFor,
} from '@agentpay/testing';
import type { Envelope } from '@agentpay/wire';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from './support/stack.js';

// Issue 36 (CONTRACT section 20) across real processes: a blocked list uploaded and approved by two
// compliance people; a transfer to a payee matching it with other accents, case and word order is accepted
// and held (nothing reaches the sandbox or the STP emulator, funds stay frozen, the merchant sees a transfer
// in progress like any other); one person cannot release it alone, two can; a rejected one fails with its
// funds back; a large operation's event delivered twice opens one case; the report lists what was closed as
// `report`; support gets 403 on every case route.

let stack: Stack;
let admin: string;
let ana: TestPerson;
let bea: TestPerson;
let support: TestPerson;
let m: TestMerchant;
let routerDb: Kysely<Record<string, never>>;
let sandboxDb: Kysely<Record<string, never>>;
let transfersDb: Kysely<Record<string, never>>;

const CLABE = '002010077777777771';
let seq = 0;
const biz = (prefix: string) => `${prefix}-${Date.now()}-${++seq}`;

async function api(
  token: string,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const response = await fetch(`${admin}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': contentType }),
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {}
  return { status: response.status, body: json, text };
}

async function send(client: TestMerchant, path: string, params: Record<string, unknown> = {}) {
  const reply = await client.request(path, params);
  expect(reply.status).toBe(200);
  return reply.envelope as Envelope & { data: Record<string, unknown> };
}

const transfer = (amount: number, payeeName: string, client = m) =>
  send(client, '/gateway/transfer', {
    bizTransferNo: biz('T'),
    amount,
    payeeType: 'spei_transfer',
    payeeAccount: CLABE,
    payeeName,
    notifyUrl: 'http://127.0.0.1:9/callbacks',
  });
const query = (transferNo: string, client = m) =>
  send(client, '/gateway/query/transferOrder', { transferNo });
const balance = async (client = m) =>
  (await send(client, '/gateway/query/balance')).data as { available: number; frozen: number };

async function untilStatus(transferNo: string, status: string, client = m) {
  return waitFor(
    async () => {
      const data = (await query(transferNo, client)).data as { status?: string } | null;
      return data?.status === status ? data : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 300, message: `transfer ${transferNo} to reach ${status}` },
  );
}

/** The case held for a transfer, as compliance lists it. */
async function caseOf(transferNo: string): Promise<{ id: string; state: string; releaseNeedsTwo: boolean }> {
  return waitFor(
    async () => {
      const listed = await api(ana.token, 'GET', '/admin/compliance/cases?kind=screening&limit=200');
      for (const c of listed.body['cases'] as { id: string }[]) {
        const full = await api(ana.token, 'GET', `/admin/compliance/cases/${c.id}`);
        const ops = full.body['operations'] as { ref: string }[];
        if (ops.some((o) => o.ref === transferNo))
          return full.body as { id: string; state: string; releaseNeedsTwo: boolean };
      }
      return undefined;
    },
    { timeoutMs: 10_000, intervalMs: 200, message: `a case for ${transferNo}` },
  );
}

const channelCounts = async () => {
  const payouts = await sql<{ n: string }>`select count(*) as n from payouts`.execute(sandboxDb);
  const stp = await sql<{ n: string }>`select count(*) as n from stp_orders`.execute(sandboxDb);
  return { sandbox: Number(payouts.rows[0]!.n), stp: Number(stp.rows[0]!.n) };
};
const routerPayouts = async (transferNo: string) =>
  Number(
    (
      await sql<{
        n: string;
      }>`select count(*) as n from channel_payouts where transfer_no = ${transferNo}`.execute(routerDb)
    ).rows[0]!.n,
  );
const transferEvents = async (transferNo: string) =>
  (
    await sql<{ subject: string; payload: { to_status: string } }>`select subject, payload from outbox
      where payload->>'order_no' = ${transferNo} order by seq`.execute(transfersDb)
  ).rows;

beforeAll(async () => {
  stack = await startTestStack({ readyTimeoutMs: 300_000, env: { GRPC_TIMEOUT_MS: '30000' } });
  admin = stack.urls.admin;
  [ana, bea, support] = await Promise.all([
    createTestPerson({ adminUrl: admin, roles: ['compliance'] }),
    createTestPerson({ adminUrl: admin, roles: ['compliance'] }),
    createTestPerson({ adminUrl: admin, roles: ['support'] }),
  ]);
  m = await createTestMerchant({ adminUrl: admin, gatewayUrl: stack.urls.gateway });
  routerDb = createDb(stack.databaseUrl('upstream-router'));
  sandboxDb = createDb(stack.databaseUrl('upstream-sandbox'));
  transfersDb = createDb(stack.databaseUrl('transfers'));

  // A blocked list, in effect after a second compliance person approves it.
  const list = await api(ana.token, 'POST', '/admin/screening/lists', {
    name: 'UIF bloqueados',
    kind: 'blocked',
  });
  expect(list.status).toBe(201);
  const uploaded = await api(
    ana.token,
    'PUT',
    `/admin/screening/lists/${list.body['id']}/entries`,
    'name,rfc,curp,birthDate,country,reference\nJuan Pérez López,PELJ800101AB1,,1980-01-01,MX,UIF-1\n',
    'text/csv',
  );
  expect(uploaded.status).toBe(202);
  const approvalId = (uploaded.body['approval'] as { id: string }).id;
  expect((await api(ana.token, 'POST', `/admin/approvals/${approvalId}/approve`)).status).toBe(403);
  const approved = await api(bea.token, 'POST', `/admin/approvals/${approvalId}/approve`);
  expect(approved.status).toBe(200);
  expect((approved.body['approval'] as { result: { status: number } }).result.status).toBe(200);
}, 400_000);

afterAll(async () => {
  await Promise.all([routerDb?.destroy(), sandboxDb?.destroy(), transfersDb?.destroy()]);
  await stack?.stop();
}, 120_000);

describe('the compliance desk on a running stack', () => {
  it('holds a transfer to a blocked payee written otherwise; one person cannot release it, two can', async () => {
    const clean = await transfer(1_000, 'Ana Ruiz');
    expect(clean.code).toBe(0);
    // Settled first, so the balance moves only by the held transfer below.
    await untilStatus(String(clean.data['transferNo']), 'success');
    const channelsBefore = await channelCounts();
    // The ledger books the clean transfer's success from its event: nothing frozen once it has.
    await waitFor(async () => ((await balance()).frozen === 0 ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 200,
      message: 'nothing frozen',
    });

    const held = await transfer(1_500, 'LOPEZ perez, juán');
    expect(held.code).toBe(0);
    expect(held.data['status']).toBe('progress');
    const transferNo = String(held.data['transferNo']);
    // Like any transfer in progress: the same fields, the same status, nothing more. (No claveRastreo yet: a
    // channel assigns it, as for any transfer whose channel has not given one; docs/compliance.md. No CEP:
    // only a successful transfer carries its proof of payment.)
    const asked = (await query(transferNo)).data;
    const cleanAsked = (await query(String(clean.data['transferNo']))).data;
    expect(asked['status']).toBe('progress');
    expect(Object.keys(asked).sort()).toEqual(
      Object.keys(cleanAsked)
        .filter((k) => !['finishTime', 'claveRastreo', 'cep', 'cepUrl'].includes(k))
        .sort(),
    );
    // Frozen, and nothing reached a channel: not the sandbox, not the STP emulator, no payout in the router.
    expect((await balance()).frozen).toBeGreaterThanOrEqual(1_500);
    expect(await channelCounts()).toEqual(channelsBefore);
    expect(await routerPayouts(transferNo)).toBe(0);
    // No status change, so no callback.
    expect(await transferEvents(transferNo)).toEqual([]);

    const c = await caseOf(transferNo);
    expect(c).toMatchObject({ state: 'held', releaseNeedsTwo: true, listKind: 'blocked' });

    // One person asks; the same person cannot approve; a second compliance person can.
    const asked1 = await api(ana.token, 'POST', `/admin/compliance/cases/${c.id}/release`, {
      reason: 'homonym',
    });
    expect(asked1.status).toBe(202);
    const approval = (asked1.body['approval'] as { id: string }).id;
    expect((await api(ana.token, 'POST', `/admin/approvals/${approval}/approve`)).status).toBe(403);
    expect(await routerPayouts(transferNo)).toBe(0);
    const approved = await api(bea.token, 'POST', `/admin/approvals/${approval}/approve`);
    expect(approved.status).toBe(200);
    const result = (
      approved.body['approval'] as { result: { status: number; body: Record<string, unknown> } }
    ).result;
    expect(result.status).toBe(200);
    expect(result.body['transfer']).toMatchObject({ transferNo });
    await untilStatus(transferNo, 'success');
    expect(await routerPayouts(transferNo)).toBe(1);

    // Closed as `report`, it is in the unusual-operations report of today (Mexico City).
    const closed = await api(ana.token, 'POST', `/admin/compliance/cases/${c.id}/close`, {
      outcome: 'report',
      reason: 'reported to the UIF',
    });
    expect(closed.status).toBe(200);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
    const report = await api(
      ana.token,
      'GET',
      `/admin/compliance/reports?kind=unusual&from=${today}&to=${today}`,
    );
    expect(report.status).toBe(200);
    const lines = report.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'operationTime,kind,amount,currency,merchant,counterpartyName,account,bank,rfcCurp,claveRastreo,caseId,ruleOrList,reason',
    );
    const row = lines.find((l) => l.includes(c.id));
    expect(row).toContain(`,payout,1500.00,MXN,${m.mchNo},"LOPEZ perez, juán",${CLABE},`);
    expect(row).toContain('UIF bloqueados,reported to the UIF');
    const blocked = await api(
      bea.token,
      'GET',
      `/admin/compliance/reports?kind=blocked&from=${today}&to=${today}`,
    );
    expect(blocked.text).toContain(c.id);
  });

  it('a rejected held transfer fails with its funds back', async () => {
    // A merchant of its own, so no other transfer moves its balance meanwhile.
    const m2 = await createTestMerchant({ adminUrl: admin, gatewayUrl: stack.urls.gateway });
    const before = await balance(m2);
    const held = await transfer(2_000, 'Juan Perez Lopez', m2);
    const transferNo = String(held.data['transferNo']);
    expect(held.data['status']).toBe('progress');
    const c = await caseOf(transferNo);
    const rejected = await api(ana.token, 'POST', `/admin/compliance/cases/${c.id}/reject`, {
      reason: 'blocked person',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body['transfer']).toMatchObject({ transferNo, status: 'fail' });
    await untilStatus(transferNo, 'fail', m2);
    await waitFor(
      async () => {
        const now = await balance(m2);
        return now.available === before.available && now.frozen === before.frozen ? now : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 300, message: 'the funds back' },
    );
    expect(await routerPayouts(transferNo)).toBe(0);
    // A second release after the rejection is refused.
    expect((await api(ana.token, 'POST', `/admin/compliance/cases/${c.id}/release`, {})).status).toBe(409);
  });

  it("screens every batch item as a single transfer: the blocked payee's item is held, the other leaves", async () => {
    const m3 = await createTestMerchant({ adminUrl: admin, gatewayUrl: stack.urls.gateway });
    const item = (payeeName: string) => ({
      bizTransferNo: biz('BI'),
      amount: 1_200,
      payeeType: 'spei_transfer',
      payeeAccount: CLABE,
      payeeName,
    });
    const items = [item('Ana Ruiz'), item('perez LOPEZ Juan')];
    const accepted = await send(m3, '/gateway/transfer/batch', { bizBatchNo: biz('B'), items });
    expect(accepted.code).toBe(0);
    const batchNo = String(accepted.data['batchNo']);
    const itemsOf = async () =>
      (
        (await send(m3, '/gateway/query/transferBatch', { batchNo })).data as {
          items: { transferNo: string; bizTransferNo: string; status: string }[];
        }
      ).items;
    const [clean, blocked] = items.map((i) => i.bizTransferNo);
    const cleanNo = (await itemsOf()).find((i) => i.bizTransferNo === clean)!.transferNo;
    const blockedNo = (await itemsOf()).find((i) => i.bizTransferNo === blocked)!.transferNo;
    await untilStatus(cleanNo, 'success', m3);
    // The blocked payee's item: a held case, nothing at any channel, still `progress` to the merchant.
    const c = await caseOf(blockedNo);
    expect(c).toMatchObject({ state: 'held', releaseNeedsTwo: true });
    expect(await routerPayouts(blockedNo)).toBe(0);
    expect((await query(blockedNo, m3)).data['status']).toBe('progress');
    const rejected = await api(ana.token, 'POST', `/admin/compliance/cases/${c.id}/reject`, {
      reason: 'blocked person',
    });
    expect(rejected.status).toBe(200);
    await untilStatus(blockedNo, 'fail', m3);
    expect(await routerPayouts(blockedNo)).toBe(0);
  });

  it('an operation over largeOperation opens one case even when its event is delivered twice', async () => {
    const big = await transfer(150_000, 'Proveedor Grande SA');
    expect(big.code).toBe(0);
    const transferNo = String(big.data['transferNo']);
    await untilStatus(transferNo, 'success');
    const ruleCases = async () => {
      const listed = await api(ana.token, 'GET', '/admin/compliance/cases?kind=rule&limit=200');
      return (listed.body['cases'] as { id: string; subject: { operation: string }; rule: string }[]).filter(
        (c) => c.rule === 'largeOperation' && c.subject.operation === `payout:${transferNo}`,
      );
    };
    await waitFor(async () => ((await ruleCases()).length === 1 ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 300,
      message: 'the largeOperation case',
    });
    // The same event once more, as a redelivery or a replay would bring it (another msgID, so JetStream keeps it).
    const [success] = (await transferEvents(transferNo)).filter((e) => e.payload.to_status === 'success');
    const nc = await connect({ servers: await natsUrl() });
    try {
      await jetstream(nc).publish(success!.subject, JSON.stringify(success!.payload), {
        msgID: `replay-${randomBytes(6).toString('hex')}`,
      });
    } finally {
      await nc.close();
    }
    // Give the consumer time to see it, then count again.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(await ruleCases()).toHaveLength(1);
  });

  it('an STP deposit from a blocked payer is answered devolver, books nothing and opens a case', async () => {
    const payee = await createTestMerchant({ adminUrl: admin, gatewayUrl: stack.urls.gateway, fund: false });
    const bind = await api('dev-admin-token', 'POST', `/admin/routes/stp-default/merchants/${payee.mchNo}`);
    expect((await settleApproval(admin, bind)).status).toBe(200);
    const created = await send(payee, '/gateway/pay', {
      bizOrderNo: biz('P'),
      title: 'STP order',
      method: 'mex_virtual_account',
      amount: 300,
      notifyUrl: 'http://127.0.0.1:9/callbacks',
    });
    expect(created.code, JSON.stringify(created)).toBe(0);
    const orderNo = String(created.data['orderNo']);
    const { clabe } = JSON.parse(String(created.data['payBody'])) as { clabe: string };
    const before = await balance(payee);

    const response = await fetch(`${stack.urls.sandbox}/sandbox/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clabe, amount: 300, senderName: 'PEREZ LOPEZ JUAN', senderAccount: CLABE }),
    });
    expect(response.status).toBe(201);
    const deposit = (await response.json()) as { claveRastreo: string; answer: string };
    expect(deposit.answer).toBe('devolver');
    const rows = await sql<{
      decision: string;
      reason: string;
      order_no: string;
    }>`select decision, reason, order_no
      from channel_deposits where clave_rastreo = ${deposit.claveRastreo}`.execute(routerDb);
    expect(rows.rows).toEqual([{ decision: 'returned', reason: 'blocked_payer', order_no: '' }]);
    expect((await send(payee, '/gateway/query/payOrder', { orderNo })).data['status']).not.toBe('success');
    expect(await balance(payee)).toEqual(before);
    const cases = await api(ana.token, 'GET', '/admin/compliance/cases?kind=screening&limit=200');
    const opened = (cases.body['cases'] as { id: string; subject: { name: string } }[]).filter(
      (c) => c.subject.name === 'PEREZ LOPEZ JUAN',
    );
    expect(opened).toHaveLength(1);
    const full = await api(ana.token, 'GET', `/admin/compliance/cases/${opened[0]!.id}`);
    expect(full.body).toMatchObject({ state: 'open', listKind: 'blocked', holdsPayout: false });
    expect(full.body['operations']).toEqual([
      expect.objectContaining({ kind: 'deposit', amount: '300.00', claveRastreo: deposit.claveRastreo }),
    ]);
  });

  it('rules change through a second compliance person; an approver cannot approve them, nor compliance a money move', async () => {
    const rules = {
      largeOperation: { amount: 200_000 },
      structuring: { count: 4 },
      newPayeeVolume: null,
      manyPayers: { count: 30 },
    };
    expect((await api(ana.token, 'PUT', '/admin/compliance/rules', { ...rules, extra: 1 })).status).toBe(400);
    const asked = await api(ana.token, 'PUT', '/admin/compliance/rules', rules);
    expect(asked.status).toBe(202);
    const approval = (asked.body['approval'] as { id: string }).id;
    // Unchanged until approved.
    expect((await api(bea.token, 'GET', '/admin/compliance/rules')).body['largeOperation']).toEqual({
      amount: 150_000,
    });
    const approver = await createTestPerson({ adminUrl: admin, roles: ['approver'] });
    expect((await api(approver.token, 'POST', `/admin/approvals/${approval}/approve`)).status).toBe(403);
    expect((await api(bea.token, 'POST', `/admin/approvals/${approval}/approve`)).status).toBe(200);
    expect((await api(ana.token, 'GET', '/admin/compliance/rules')).body).toMatchObject(rules);
    // A compliance person approves only the desk's operations: not a balance adjustment.
    const adjust = await api('dev-admin-token', 'POST', `/admin/merchants/${m.mchNo}/adjustments`, {
      amount: 1,
      reason: 'x',
      reference: `r-${Date.now()}`,
    });
    expect(adjust.status).toBe(202);
    const adjustApproval = (adjust.body['approval'] as { id: string }).id;
    expect((await api(bea.token, 'POST', `/admin/approvals/${adjustApproval}/approve`)).status).toBe(403);
  });

  it('a new list version re-screens the registered payees: a match opens a case', async () => {
    const registered = await send(m, '/gateway/payee/register', {
      payeeType: 'spei_transfer',
      payeeAccount: CLABE,
      payeeName: 'Rosa Méndez Ortiz',
    });
    expect(registered.code, JSON.stringify(registered)).toBe(0);
    const payeeId = String(registered.data['payeeId']);
    const list = await api(ana.token, 'POST', '/admin/screening/lists', {
      name: 'Vigilancia',
      kind: 'watch',
    });
    const uploaded = await api(
      ana.token,
      'PUT',
      `/admin/screening/lists/${list.body['id']}/entries`,
      'name,rfc,curp,birthDate,country,reference\n"MENDEZ ORTIZ, Rosa",,,,MX,W-1\n',
      'text/csv',
    );
    expect(uploaded.status).toBe(202);
    const approved = await api(
      bea.token,
      'POST',
      `/admin/approvals/${(uploaded.body['approval'] as { id: string }).id}/approve`,
    );
    const result = (
      approved.body['approval'] as { result: { status: number; body: Record<string, unknown> } }
    ).result;
    expect(result.status).toBe(200);
    expect(result.body['rescreened']).toMatchObject({ matched: 1 });
    expect((result.body['rescreened'] as { error?: string }).error).toBeUndefined();
    const cases = await api(ana.token, 'GET', '/admin/compliance/cases?kind=screening&state=open&limit=200');
    const found = (
      cases.body['cases'] as { id: string; mchNo: string; listKind: string; subject: { name: string } }[]
    ).filter((c) => c.subject.name === 'Rosa Méndez Ortiz');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ mchNo: m.mchNo, listKind: 'watch' });
    const full = await api(ana.token, 'GET', `/admin/compliance/cases/${found[0]!.id}`);
    const ops = full.body['operations'] as { kind: string; ref: string }[];
    expect(ops).toHaveLength(1);
    expect(ops[0]!.kind).toBe('payee');
    expect(ops[0]!.ref.startsWith(`${payeeId}@`)).toBe(true);
  });

  it('support gets 403 on every case, list, rule and report route; an auditor reads', async () => {
    const id = 'cas_0000';
    const routes: [string, string, unknown?][] = [
      ['GET', '/admin/compliance/cases'],
      ['GET', `/admin/compliance/cases/${id}`],
      ['POST', `/admin/compliance/cases/${id}/notes`, { text: 'x' }],
      ['POST', `/admin/compliance/cases/${id}/release`, {}],
      ['POST', `/admin/compliance/cases/${id}/reject`, { reason: 'x' }],
      ['POST', `/admin/compliance/cases/${id}/close`, { outcome: 'report', reason: 'x' }],
      ['GET', '/admin/screening/lists'],
      ['POST', '/admin/screening/lists', { name: 'x', kind: 'watch' }],
      ['GET', '/admin/compliance/rules'],
      [
        'PUT',
        '/admin/compliance/rules',
        { largeOperation: null, structuring: null, newPayeeVolume: null, manyPayers: null },
      ],
      ['GET', '/admin/compliance/reports?kind=unusual'],
    ];
    for (const [method, path, body] of routes) {
      const answer = await api(support.token, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
    }
    const auditor = await createTestPerson({ adminUrl: admin, roles: ['auditor'] });
    expect((await api(auditor.token, 'GET', '/admin/compliance/cases')).status).toBe(200);
    expect(
      (await api(auditor.token, 'POST', `/admin/compliance/cases/${id}/notes`, { text: 'x' })).status,
    ).toBe(403);
  });
});
