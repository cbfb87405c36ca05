// What the bench scripts share: a work folder, a merchant to sign with, and signed create-pay requests.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import { REPO_ROOT, type Stack } from '@agentpay/stack';
import { formatWireTime, generateKeyPair, parsePrivateKey, signObject } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import pg from 'pg';
import type { Prepared } from './load.js';

/** `.agentpay/<name>`, created. */
export function workDir(name: string): string {
  const dir = join(REPO_ROOT, '.agentpay', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface BenchMerchant {
  mchNo: string;
  privateKeyPem: string;
  publicKeyPem: string;
}

/**
 * Registers a merchant with a fresh key pair through the admin API, with a rate limit far above what
 * this machine can do: its requests are counted as in production, never refused.
 */
export async function benchMerchant(adminUrl: string): Promise<BenchMerchant> {
  const keys = generateKeyPair();
  const mchNo = `BENCH${randomBytes(3).toString('hex')}`;
  const admin = async (path: string, body: unknown, method = 'POST') => {
    const response = await fetch(`${adminUrl}${path}`, {
      method,
      headers: { authorization: 'Bearer dev-admin-token', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  };
  await admin('/admin/merchants', { mchNo, name: 'Bench', publicKey: keys.publicKeyPem });
  await admin(`/admin/merchants/${mchNo}`, { rateLimitPerS: 1_000_000 }, 'PATCH');
  return { mchNo, ...keys };
}

/** The payee account of the benches' transfers (a valid CLABE the sandbox pays). */
export const CLABE = '002010077777777771';

/** `count` signed transfers of `merchant` (1.00 each), each with its own bizTransferNo and nonce. */
export function transferRequests(merchant: BenchMerchant, count: number): Prepared[] {
  const key = parsePrivateKey(merchant.privateKeyPem);
  const reqTime = formatWireTime(new Date(), 'America/Mexico_City');
  return Array.from({ length: count }, () => {
    const body: Record<string, unknown> = {
      mchNo: merchant.mchNo,
      reqTime,
      nonceStr: randomBytes(12).toString('hex'),
      bizTransferNo: `BT${randomBytes(10).toString('hex')}`,
      amount: 1,
      title: 'Benchmark payout',
      reason: 'bench',
      payeeType: 'spei_transfer',
      payeeAccount: CLABE,
      payeeName: 'Ana Perez',
    };
    return { path: '/gateway/transfer', body: JSON.stringify({ ...body, sign: signObject(body, key) }) };
  });
}

/** `count` signed create-pay requests of `merchant`, each with its own order number and nonce. */
export function payRequests(merchant: BenchMerchant, count: number, path = '/gateway/pay'): Prepared[] {
  const key = parsePrivateKey(merchant.privateKeyPem);
  const reqTime = formatWireTime(new Date(), 'America/Mexico_City');
  return Array.from({ length: count }, () => {
    const body: Record<string, unknown> = {
      mchNo: merchant.mchNo,
      reqTime,
      nonceStr: randomBytes(12).toString('hex'),
      bizOrderNo: `B${randomBytes(10).toString('hex')}`,
      title: 'Benchmark order',
      method: 'mex_virtual_account',
      amount: 100.5,
    };
    return { path, body: JSON.stringify({ ...body, sign: signObject(body, key) }) };
  });
}

/** The names of this run's databases (those starting with `prefix`) on the server `client` is connected to. */
export async function databasesOf(client: pg.Client, prefix: string): Promise<string[]> {
  const { rows } = await client.query<{ datname: string }>(
    'select datname from pg_database where datname like $1',
    [`${prefix}%`],
  );
  return rows.map((r) => r.datname);
}

/** Drops every database on the server of `serverUrl` whose name starts with `prefix` (a run's own). */
export async function dropDatabases(serverUrl: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    for (const name of await databasesOf(client, prefix))
      await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

/**
 * The OrderStatusChanged event of a pay order that has just paid (wait → success), as payments writes it
 * to its outbox: what the callback benches insert straight into the outbox to drive the notifier.
 */
export function paidOrderEvent(p: { orderNo: string; mchNo: string; notifyUrl: string; at: Date }) {
  const at = p.at.toISOString();
  return {
    event_id: randomUUID(),
    mch_no: p.mchNo,
    kind: 'pay',
    order_no: p.orderNo,
    from_status: 'wait',
    to_status: 'success',
    version: '2',
    occurred_at: at,
    notify_url: p.notifyUrl,
    traceparent: '',
    pay_order: {
      order_no: p.orderNo,
      biz_order_no: `B${p.orderNo}`,
      mch_no: p.mchNo,
      title: 'Benchmark',
      method: 'mex_virtual_account',
      amount: '10050',
      fee: '0',
      real_amount: '10050',
      status: 'success',
      settle_status: 'not_settle',
      settle_type: 'D+1',
      pay_time: at,
      expired_time: new Date(p.at.getTime() + 86_400_000).toISOString(),
      version: '2',
    },
  };
}

/** Credits the merchant a million pesos through the ledger (an adjust), so a bench's transfers can draw on it. */
export async function fundMerchant(stack: Stack, merchant: BenchMerchant, label: string): Promise<void> {
  const ledger = new (loadProtos().agentpay.ledger.v1.LedgerService)(
    `127.0.0.1:${stack.ports.ledger}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  try {
    await call(ledger, ledger.Adjust, {
      mch_no: merchant.mchNo,
      amount: String(1_000_000_000),
      reason: `${label} funding`,
      reference: `${label}-${merchant.mchNo}`,
    });
  } finally {
    ledger.close();
  }
}
