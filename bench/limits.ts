// The limits part of the bench (BENCH_ONLY=limits, and part of the full run): transfer creates with section
// 19's payout limits beside the same creates without, on the stack of the run. The limits cost nothing in
// the gateway (the merchant's limits ride its cached record) and everything in the ledger's freeze, which
// reads the day's and the month's usage and counts the payout in the same transaction. A create without
// limits is one whose merchant context carries none, which the gateway never sends (every merchant has
// at least the platform default) but an older caller may: so both are driven straight at transfers over
// gRPC, as the gateway calls it, and everything after (transfers, its Freeze, the router, the sandbox) is
// the same. Windows alternate, off then on, so the machine's drift falls on both.
import { randomBytes } from 'node:crypto';
import { CLIENT_OPTIONS, call, loadProtos } from '@agentpay/proto';
import type { Stack } from '@agentpay/stack';
import * as grpc from '@grpc/grpc-js';
import { type LoadResult, summarize } from './load.js';
import { CLABE, fundMerchant } from './setup.js';

const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** Limits that never bite (centavos): the cost measured is the counting, not a refusal. */
const LIMITS = {
  per_transfer: { value: String(100_000_000) },
  daily: { value: String(1_000_000_000_000) },
  daily_count: { value: String(10_000_000) },
  monthly: { value: String(10_000_000_000_000) },
};

export async function runLimitsBench(opts: {
  stack: Stack;
  log: (line?: string) => void;
  quick: boolean;
}): Promise<{ off: LoadResult; on: LoadResult }> {
  const { stack, log, quick } = opts;
  const transfers = new (loadProtos().agentpay.transfers.v1.TransferService)(
    `127.0.0.1:${stack.ports.transfers}`,
    grpc.credentials.createInsecure(),
    CLIENT_OPTIONS,
  );
  const perWindow = quick ? 300 : 2_000;
  const windows = quick ? 2 : 4;
  const concurrency = 16;
  const mchNo = {
    off: `LOFF${randomBytes(3).toString('hex')}`,
    on: `LON${randomBytes(3).toString('hex')}`,
  };
  for (const m of Object.values(mchNo))
    await fundMerchant(stack, { mchNo: m, publicKeyPem: '', privateKeyPem: '' }, 'limits bench');

  const create = (variant: 'off' | 'on', i: number) =>
    call(transfers, transfers.CreateTransfer, {
      merchant: {
        mch_no: mchNo[variant],
        app_id: '',
        fee_percent_bps: 0,
        fee_fixed_centavos: 100,
        settle_type: 'REALTIME',
        traceparent: '',
        merchant_name: 'Bench',
        ...(variant === 'on' ? { payout_limits: LIMITS } : {}),
        registered_payees_only: false,
      },
      biz_transfer_no: `L${variant}${i}-${randomBytes(6).toString('hex')}`,
      amount: 100,
      title: 'Benchmark payout',
      reason: 'bench',
      payee_type: 'spei_transfer',
      payee_account: CLABE,
      payee_name: 'Ana Perez',
      payee_code: '',
      extra_param: '',
      attach: '',
      notify_url: '',
      client_ip: '127.0.0.1',
    });

  async function window(variant: 'off' | 'on', offset: number) {
    const latencies: number[] = [];
    let errors = 0;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < perWindow) {
          const i = offset + next++;
          const t0 = performance.now();
          try {
            await create(variant, i);
            latencies.push(performance.now() - t0);
          } catch {
            errors += 1;
          }
        }
      }),
    );
    return { latencies, errors, seconds: (performance.now() - started) / 1000 };
  }

  try {
    log('## Limits: transfer create with payout limits beside the same create without');
    log();
    log(
      `CreateTransfer over gRPC as the gateway calls it, ${concurrency} in flight, ${perWindow} per window, windows alternating; the two merchants differ only in the limits their context carries.`,
    );
    log();
    log('| window | limits | req/s | p50 ms | p99 ms | errors |');
    log('|---|---|---|---|---|---|');
    // A warm-up of each, not counted: the first freezes create the merchant's accounts and usage rows.
    await window('off', 0);
    await window('on', 0);
    const pooled = { off: { l: [] as number[], e: 0, s: 0 }, on: { l: [] as number[], e: 0, s: 0 } };
    for (let w = 1; w <= windows; w++) {
      for (const variant of ['off', 'on'] as const) {
        const r = await window(variant, w * perWindow);
        const s = summarize(r.latencies, r.errors, r.seconds);
        pooled[variant].l.push(...r.latencies);
        pooled[variant].e += r.errors;
        pooled[variant].s += r.seconds;
        log(`| ${w} | ${variant} | ${fmt(s.throughput, 0)} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${s.errors} |`);
      }
    }
    const off = summarize(pooled.off.l, pooled.off.e, pooled.off.s);
    const on = summarize(pooled.on.l, pooled.on.e, pooled.on.s);
    const ratio = on.p99 / off.p99;
    log();
    log('| limits | req/s | p50 ms | p99 ms | errors |');
    log('|---|---|---|---|---|');
    log(`| off | ${fmt(off.throughput, 0)} | ${fmt(off.p50)} | ${fmt(off.p99)} | ${off.errors} |`);
    log(`| on | ${fmt(on.throughput, 0)} | ${fmt(on.p50)} | ${fmt(on.p99)} | ${on.errors} |`);
    log();
    log(
      `p99 with limits ${fmt((ratio - 1) * 100, 1)} % against without (target: within 10 %): ${ratio <= 1.1 ? 'met' : 'not met'}.`,
    );
    return { off, on };
  } finally {
    transfers.close();
  }
}
