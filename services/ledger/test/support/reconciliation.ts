import { createDb } from '@agentpay/db';
import {
  APP_CODE_METADATA,
  call,
  type Discrepancy__Output,
  type LedgerServiceClient,
  loadProtos,
} from '@agentpay/proto';
import { createTestDatabase, natsUrl, type TestDatabase, uniqueName } from '@agentpay/testing';
import * as grpc from '@grpc/grpc-js';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/db/schema.js';
import { bookEvent } from '../../src/events/status-changed.handler.js';
import { type Ledger, main } from '../../src/main.js';
import { payEvent, transferEvent } from './events.js';
import { type StatementRouter, startStatementRouter } from './statement-router.js';

// Reconciliation end to end inside the ledger: its gRPC API, its real Postgres, and a statement served
// over gRPC by the one test double (statement-router.ts). Each test uses its own route. One per test
// file: `useReconciliation()` starts the ledger before the file's tests and stops it after.

export const DAY = '2026-11-20';
/** 12:00 in Mexico City on DAY. */
export const NOON = new Date(`${DAY}T18:00:00Z`);

/** kind:reference of each discrepancy (the channel's reference, or the platform's number). */
export const summary = (items: readonly Discrepancy__Output[]) =>
  items
    .map((d) => {
      const channel = d.channel_json
        ? (JSON.parse(d.channel_json) as { platformRef: string; kind: string })
        : null;
      const platform = d.platform_json ? (JSON.parse(d.platform_json) as Record<string, string>) : {};
      return `${d.kind}:${channel ? `${channel.kind}:${channel.platformRef}` : `${platform.kind}:${platform.orderNo ?? platform.transferNo}`}:${d.amount}`;
    })
    .sort();

/** Starts the ledger and the statement router for this file's tests, and stops them after. */
export function useReconciliation() {
  let database: TestDatabase;
  let ledger: Ledger;
  let client: LedgerServiceClient;
  let db: Kysely<Database>;
  let router: StatementRouter;
  const prefix = uniqueName('t_recon');

  beforeAll(async () => {
    database = await createTestDatabase('ledger_recon');
    router = await startStatementRouter();
    ledger = await main({
      DATABASE_URL: database.url,
      NATS_URL: await natsUrl(),
      GRPC_PORT: '0',
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
      EVENTS_STREAM: prefix.toUpperCase(),
      EVENTS_SUBJECT_PREFIX: `${prefix}.events`,
      LEDGER_CONSUMER: `${prefix}_ledger`,
      SETTLEMENT_SWEEP_INTERVAL_MS: '0',
      RECON_SCHEDULE_INTERVAL_MS: '0',
      RECON_RETURN_POLL_MS: '50',
      RECON_BATCH: '1000',
      ROUTER_ADDR: router.address,
      LOG_LEVEL: process.env.TEST_LOG ?? 'silent',
    });
    client = new (loadProtos().agentpay.ledger.v1.LedgerService)(
      `127.0.0.1:${ledger.grpcPort}`,
      grpc.credentials.createInsecure(),
    );
    db = createDb<Database>(database.url, { poolSize: 2 });
  });

  afterAll(async () => {
    client?.close();
    await ledger?.stop();
    await router?.stop();
    await db?.destroy();
    await database?.drop();
  });

  const deps = () => ({ ledger: ledger.ledger });

  async function paid(
    mchNo: string,
    orderNo: string,
    routeId: string,
    amount: number,
    at = NOON,
  ): Promise<void> {
    await bookEvent(
      deps(),
      payEvent(mchNo, orderNo, { to: 'success', version: 2, routeId, amount, fee: 100, at }),
    );
  }

  async function transferred(
    mchNo: string,
    transferNo: string,
    routeId: string,
    opts: { amount?: number; returned?: boolean } = {},
  ): Promise<void> {
    const amount = opts.amount ?? 5_000;
    await ledger.ledger.adjust({
      mchNo,
      amount: amount + 100,
      reason: 'opening',
      reference: `open-${transferNo}`,
    });
    await ledger.ledger.freeze({ mchNo, transferNo, bizTransferNo: `BT-${transferNo}`, amount, fee: 100 });
    await bookEvent(
      deps(),
      transferEvent(mchNo, transferNo, { to: 'success', version: 2, routeId, amount, at: NOON }),
    );
    if (opts.returned) {
      await bookEvent(
        deps(),
        transferEvent(mchNo, transferNo, {
          to: 'close',
          from: 'success',
          version: 3,
          routeId,
          amount,
          at: NOON,
        }),
      );
    }
  }

  function run(routeId: string, day = DAY) {
    return call(client, client.RunReconciliation, { day, route_id: routeId }, { timeoutMs: 120_000 });
  }

  /** Every discrepancy of the route on `day`, page by page. */
  async function discrepanciesOf(routeId: string, day = DAY): Promise<Discrepancy__Output[]> {
    const items: Discrepancy__Output[] = [];
    let after = '';
    do {
      const page = await call(client, client.ListDiscrepancies, {
        state: '',
        kind: '',
        day,
        limit: 500,
        after_id: after,
      });
      items.push(...page.items.filter((d) => d.route_id === routeId));
      after = page.next_after_id;
    } while (after);
    return items;
  }

  /** The raw gRPC status of a failing call, with its agentpay-code. */
  function refusal<Req>(
    method: string,
    request: Req,
  ): Promise<{ code: number; appCode: string; details: string }> {
    return new Promise((resolve, reject) => {
      type Unary = (request: Req, callback: (err: grpc.ServiceError | null) => void) => unknown;
      const fn = (client as unknown as Record<string, Unary>)[method];
      if (!fn) return reject(new Error(`no method ${method}`));
      fn.call(client, request, (err) => {
        if (!err) return reject(new Error(`${method} succeeded`));
        resolve({
          code: err.code,
          appCode: String(err.metadata?.get(APP_CODE_METADATA)[0] ?? ''),
          details: err.details,
        });
      });
    });
  }

  async function check() {
    return call(client, client.Check, {});
  }

  return {
    deps,
    paid,
    transferred,
    run,
    discrepanciesOf,
    refusal,
    check,
    prefix,
    get database() {
      return database;
    },
    get ledger() {
      return ledger;
    },
    get client() {
      return client;
    },
    get db() {
      return db;
    },
    get router() {
      return router;
    },
  };
}
