// The batch part of the bench (BENCH_ONLY=batch, issue 37): how long a batch payout of BATCH_BENCH_SIZE
// items (default 1,000) takes to be accepted (validated, inserted and frozen as one), and how fast its items
// then leave for the router (items sent per second, from acceptance until none is queued) and end, next to
// single transfer creates through the gateway on the same stack: the items must leave at the transfer
// path's throughput.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import type { Stack } from '@agentpay/stack';
import { formatWireTime, parsePrivateKey, signObject } from '@agentpay/wire';
import * as grpc from '@grpc/grpc-js';
import pg from 'pg';
import { closedLoop } from './load.js';
import { type BenchMerchant, benchMerchant, CLABE, transferRequests } from './setup.js';

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** A signed batch of `count` items (1.00 .. 9.99 pesos) of `merchant`. */
function batchBody(merchant: BenchMerchant, count: number): { bizBatchNo: string; body: string } {
  const bizBatchNo = `BB${randomBytes(8).toString('hex')}`;
  const body: Record<string, unknown> = {
    mchNo: merchant.mchNo,
    reqTime: formatWireTime(new Date(), 'America/Mexico_City'),
    nonceStr: randomBytes(12).toString('hex'),
    bizBatchNo,
    items: Array.from({ length: count }, (_, i) => ({
      bizTransferNo: `${bizBatchNo}-${i}`,
      amount: (100 + (i % 900)) / 100,
      payeeType: 'spei_transfer',
      payeeAccount: CLABE,
      payeeName: `Ana Perez ${i}`,
      reason: 'bench',
    })),
  };
  return {
    bizBatchNo,
    body: JSON.stringify({ ...body, sign: signObject(body, parsePrivateKey(merchant.privateKeyPem)) }),
  };
}

/** Runs the batch part on `stack` and writes its table through `log`. */
export async function runBatchBench(opts: {
  stack: Stack;
  log: (line?: string) => void;
  quick: boolean;
}): Promise<void> {
  const { stack, log, quick } = opts;
  const size = Number(process.env['BATCH_BENCH_SIZE'] ?? (quick ? 200 : 1_000));
  const rounds = Number(process.env['BATCH_BENCH_ROUNDS'] ?? (quick ? 1 : 3));
  const ledger = new (loadProtos().agentpay.ledger.v1.LedgerService)(
    `127.0.0.1:${stack.ports.ledger}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  const transfersDb = new pg.Client({ connectionString: stack.databaseUrl('transfers') });
  await transfersDb.connect();
  const count = async (text: string, batchNo: string) =>
    Number((await transfersDb.query<{ n: string }>(text, [batchNo])).rows[0]?.n ?? 0);
  try {
    const merchant = await benchMerchant(stack.urls.admin);
    await call(ledger, ledger.Adjust, {
      mch_no: merchant.mchNo,
      amount: String((rounds + 1) * size * 20 * 100),
      reason: 'bench funding',
      reference: `bench-${merchant.mchNo}`,
    });

    log('## Batch payouts: acceptance and items leaving');
    log();
    log(
      `${rounds} batch(es) of ${size} items, one at a time, each signed before the clock starts; "sent / s" counts items from acceptance until none is queued for the router, "ended" until every item is success or fail.`,
    );
    log();
    log('| round | accepted ms | code | body KB | items sent / s | all ended s |');
    log('|---|---|---|---|---|---|');
    for (let round = 1; round <= rounds; round++) {
      const { body } = batchBody(merchant, size);
      const started = performance.now();
      const response = await fetch(`${stack.urls.gateway}/gateway/transfer/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const envelope = (await response.json()) as { code: number; data?: { batchNo: string } };
      const acceptedMs = performance.now() - started;
      const batchNo = envelope.data?.batchNo;
      if (envelope.code !== 0 || !batchNo) {
        log(
          `| ${round} | ${fmt(acceptedMs, 0)} | ${envelope.code} | ${fmt(body.length / 1024, 0)} | - | - |`,
        );
        continue;
      }
      const accepted = performance.now();
      let sentAt = Number.NaN;
      let endedAt = Number.NaN;
      const deadline = accepted + 600_000;
      while (performance.now() < deadline) {
        if (
          Number.isNaN(sentAt) &&
          (await count(
            "select count(*) as n from transfers where batch_no = $1 and submission = 'queued'",
            batchNo,
          )) === 0
        )
          sentAt = performance.now();
        if (
          !Number.isNaN(sentAt) &&
          (await count(
            "select count(*) as n from transfers where batch_no = $1 and status in ('progress', 'submitting')",
            batchNo,
          )) === 0
        ) {
          endedAt = performance.now();
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      log(
        `| ${round} | ${fmt(acceptedMs, 0)} | 0 | ${fmt(body.length / 1024, 0)} | ${fmt(size / ((sentAt - accepted) / 1000), 0)} | ${fmt((endedAt - accepted) / 1000, 1)} |`,
      );
    }
    log();

    // The same number of single transfers through the gateway, for the transfer path's throughput.
    const singles = await closedLoop(stack.urls.gateway, transferRequests(merchant, size), 16);
    log(
      `Single transfer creates on the same stack, concurrency 16: ${fmt(singles.throughput, 0)} / s (p50 ${fmt(singles.p50, 0)} ms, p99 ${fmt(singles.p99, 0)} ms, ${singles.errors} errors).`,
    );
    log();
  } finally {
    await transfersDb.end();
    ledger.close();
  }
}
