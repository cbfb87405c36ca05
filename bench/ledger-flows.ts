// The ledger part of the bench (BENCH_ONLY=ledger): what the books cost the money flows, on the stack of
// the run. Hot-account freezes (one merchant, 64 in flight, straight to the ledger over gRPC as transfers
// calls it, three quarters fitting, checked for overdraft while they run), then transfer creates per second
// through the whole stack (gateway, transfers, its Freeze, the router, the sandbox), each next to the
// create-pay figure of the same stack and concurrency, so the ledger's share reads off one table.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import type { Stack } from '@agentpay/stack';
import * as grpc from '@grpc/grpc-js';
import { closedLoop, type LoadResult } from './load.js';
import { benchMerchant, payRequests, transferRequests } from './setup.js';

const IN_FLIGHT = 64;
const AMOUNT = 290;
const FEE = 10;

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** Runs the ledger part on `stack` and writes its tables through `log`. */
export async function runLedgerBench(opts: {
  stack: Stack;
  log: (line?: string) => void;
  quick: boolean;
}): Promise<void> {
  const { stack, log, quick } = opts;
  const ledger = new (loadProtos().agentpay.ledger.v1.LedgerService)(
    `127.0.0.1:${stack.ports.ledger}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  try {
    log('## Ledger: hot-account freezes and transfer creates');
    log();

    // Freezes of one merchant, three quarters of them fitting: the others must be refused, none overdraw.
    const freezes = quick ? 2_000 : 20_000;
    const hot = `LHOT${randomBytes(3).toString('hex')}`;
    await call(ledger, ledger.Adjust, {
      mch_no: hot,
      amount: String(((freezes * 3) / 4) * (AMOUNT + FEE)),
      reason: 'bench funding',
      reference: `bench-${hot}`,
    });
    let next = 0;
    let accepted = 0;
    let refused = 0;
    let overdrawn = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const b = await call(ledger, ledger.GetBalance, { mch_no: hot });
        if (Number(b.available) < 0) overdrawn++;
      }
    })();
    const latencies: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < freezes) {
          const i = next++;
          const started = performance.now();
          try {
            await call(ledger, ledger.Freeze, {
              mch_no: hot,
              transfer_no: `TB${hot}${i}`,
              biz_transfer_no: `B${i}`,
              amount: String(AMOUNT),
              fee: String(FEE),
            });
            accepted++;
          } catch {
            refused++;
          }
          latencies.push(performance.now() - started);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    sampling = false;
    await sampler;
    const sorted = latencies.sort((a, b) => a - b);
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
    const balance = await call(ledger, ledger.GetBalance, { mch_no: hot });
    log(`Freezes of one merchant, ${IN_FLIGHT} in flight over gRPC to the stack's ledger:`);
    log();
    log(
      '| freezes | per s | p50 ms | p99 ms | accepted | refused | available below 0 (samples) | available after |',
    );
    log('|---|---|---|---|---|---|---|---|');
    log(
      `| ${freezes} | ${fmt(freezes / seconds, 0)} | ${fmt(p(0.5), 2)} | ${fmt(p(0.99), 2)} | ${accepted} | ${refused} | ${overdrawn} | ${balance.available} |`,
    );
    log();

    // Transfers through the whole stack, next to create-pay of the same stack and concurrency.
    const merchant = await benchMerchant(stack.urls.admin);
    const count = quick ? 300 : 2_000;
    await call(ledger, ledger.Adjust, {
      mch_no: merchant.mchNo,
      amount: String(count * 10 * 100),
      reason: 'bench funding',
      reference: `bench-${merchant.mchNo}`,
    });
    log('Creates through the gateway (signed requests prepared before the clock starts):');
    log();
    log(
      '| concurrency | transfer creates / s | p50 ms | p99 ms | errors | create-pay / s | p50 ms | p99 ms | errors |',
    );
    log('|---|---|---|---|---|---|---|---|---|');
    for (const c of quick ? [16] : [16, 64]) {
      const transfers: LoadResult = await closedLoop(
        stack.urls.gateway,
        transferRequests(merchant, count),
        c,
      );
      const pays: LoadResult = await closedLoop(stack.urls.gateway, payRequests(merchant, count), c);
      log(
        `| ${c} | ${fmt(transfers.throughput, 0)} | ${fmt(transfers.p50, 2)} | ${fmt(transfers.p99, 2)} | ${transfers.errors} | ${fmt(pays.throughput, 0)} | ${fmt(pays.p50, 2)} | ${fmt(pays.p99, 2)} | ${pays.errors} |`,
      );
    }
    log();
  } finally {
    ledger.close();
  }
}
