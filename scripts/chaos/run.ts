// `runChaos`: the fault run of `npm run chaos` and of test/chaos-faults.test.ts. While a bounded load of
// pays, deposits and transfers runs from a few merchants, some on the sandbox route and some bound to the
// STP route (callbacks to a local sink that answers SUCCESS, sometimes FAIL or HTTP 500 first), it kills
// every service once with SIGKILL (the router and the sandbox with STP payouts in flight) and starts it again,
// restarts NATS once and takes Postgres away once. Then it lets the platform settle and checks, from the
// replies, the sink and the services' own databases, that nothing was lost, doubled or bent (checks/*.ts).
// NATS is always private and requires credentials as production does (each service its own user, limited
// to its own subjects, consumers and inbox; the stream declared by the provision user before the services
// start, which run with NATS_PROVISION=false): one nats-server, or with `replicas` > 1 a three-node
// JetStream cluster whose events stream keeps three copies, and where the run kills one replica of each service and the node
// leading the stream instead. Postgres is a private cluster in the long run; in the CI variant it is the
// machine's shared server, "taken away" by refusing and terminating the stack's connections.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  eventsNaming,
  type NatsCluster,
  type NatsServer,
  type PostgresCluster,
  SERVICES,
  type ServiceName,
  type Stack,
  startNatsCluster,
  startNatsServer,
  startPostgresCluster,
} from '@agentpay/stack';
import { awaitMerchantBalances } from './balances.js';
import { checkBooks } from './books.js';
import { checkAnswers } from './checks/answers.js';
import { checkCallbacks } from './checks/callbacks.js';
import { checkConvergence } from './checks/convergence.js';
import { checkExactlyOnce } from './checks/exactly-once.js';
import type { CheckInput } from './checks/input.js';
import { checkLimits } from './checks/limits.js';
import { checkNatsAuth } from './checks/nats-auth.js';
import { checkReconciliation } from './checks/reconciliation.js';
import { unsettled } from './checks/settled.js';
import { checkStateMachine } from './checks/state-machine.js';
import { errorText } from './client.js';
import { createReviver, dropDatabases, faultPlan } from './faults.js';
import {
  CHAOS_LIMITS,
  type LoadContext,
  queryAccepted,
  registerMerchants,
  startStpPayouts,
  worker,
} from './load.js';
import type { ChaosOptions } from './options.js';
import { daysTouched, reconcileDays } from './reconcile.js';
import {
  checkNonceAcrossGateways,
  checkRateLimitAcrossGateways,
  checkStreamCopies,
  declareStream,
} from './replicas.js';
import { type ChaosReport, type CrashRecord, type FaultRecord, runCounts } from './report.js';
import { type Sink, startSink } from './sink.js';
import { closeDatabases, type Databases, openDatabases, snapshot, stpInFlight } from './snapshot.js';
import { serviceLogs, startChaosStack } from './stack.js';
import { tally } from './tally.js';

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const prefix = `chaos_${randomBytes(4).toString('hex')}`;
  const keyDir = mkdtempSync(join(tmpdir(), 'agentpay-chaos-'));
  const logs = serviceLogs();
  const notes: string[] = [];
  const faults: FaultRecord[] = [];
  const crashes: CrashRecord[] = [];
  let nats: NatsServer | NatsCluster | undefined;
  let cluster: PostgresCluster | undefined;
  let stack: Stack | undefined;
  let sink: Sink | undefined;
  let dbs: Databases | undefined;
  let postgresMode = options.postgres;
  const acrossReplicas: string[] = [];
  let serverUrl =
    options.postgresUrl ?? process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

  try {
    const naming = eventsNaming(prefix);
    const stream = naming.stream;
    const streamReplicas = options.replicas > 1 ? 3 : 1;
    if (options.replicas > 1) {
      nats = await startNatsCluster({ nodes: 3, credentials: naming });
      log(`private NATS cluster ${nats.name} with credentials: ${nats.url}`);
      // Declared before the services start, so the first event already has three copies.
      acrossReplicas.push(
        ...(await declareStream(nats.url, nats.credentials!, [`${naming.subjectPrefix}.>`], streamReplicas)),
      );
    } else {
      nats = await startNatsServer({ credentials: naming });
      log(`private nats-server with credentials on ${nats.url}`);
    }
    const credentials = nats.credentials!;
    if (postgresMode === 'private-cluster') {
      try {
        cluster = await startPostgresCluster();
        serverUrl = cluster.url;
        log(`private Postgres cluster on ${cluster.url} (${cluster.dataDir})`);
      } catch (err) {
        postgresMode = 'terminate';
        notes.push(
          `no private Postgres cluster (${errorText(err)}); Postgres outage simulated by terminating connections`,
        );
        log(notes[notes.length - 1]!);
      }
    }
    sink = await startSink();
    stack = await startChaosStack(
      options,
      {
        postgresUrl: serverUrl,
        natsUrl: nats.url,
        natsCredentials: credentials,
        prefix,
        keyDir,
        replicas: options.replicas,
        streamReplicas,
      },
      logs,
    );
    log(`stack ${prefix} ready (${options.replicas} per service): gateway ${stack.gatewayUrls.join(', ')}`);
    dbs = openDatabases(stack);
    const { merchants, routes, platformKey, limited } = await registerMerchants(
      stack,
      sink,
      options.merchants,
      options.stpMerchants,
      prefix,
    );
    const stpMchNos = merchants.filter((m) => routes.get(m.mchNo) === 'stp').map((m) => m.mchNo);
    log(`merchants on STP: ${stpMchNos.join(', ') || 'none'}`);
    if (options.replicas > 1) {
      acrossReplicas.push(...(await checkNonceAcrossGateways(stack, merchants[0]!, platformKey)));
      acrossReplicas.push(
        ...(await checkRateLimitAcrossGateways(stack, `RL${prefix.slice(-8)}`, platformKey)),
      );
    }

    // Load runs until the fault plan is over and the tail has passed.
    let stopAt = Number.POSITIVE_INFINITY;
    const ctx: LoadContext = {
      options,
      stack,
      platformKey,
      merchants,
      routes,
      sinkUrl: sink.url,
      requests: [],
      creates: [],
      deposits: [],
      unexpected: [],
      limited,
      stopAt: () => stopAt,
      counter: { n: 0 },
      background: [],
    };
    // Before the router or the sandbox is killed: payouts over STP, and the kill waits (a few seconds at
    // most) until one is in flight both at the platform and at the emulator, so the kill meets it mid-way.
    const liveDbs = dbs;
    const beforeKill = async (service: ServiceName) => {
      if (service !== 'upstream-router' && service !== 'upstream-sandbox') return undefined;
      if (stpMchNos.length === 0 || options.stpPayoutsPerKill === 0) return undefined;
      startStpPayouts(ctx, options.stpPayoutsPerKill, service === 'upstream-router' ? 'R' : 'S');
      const deadline = Date.now() + 5_000;
      for (;;) {
        const seen = await stpInFlight(liveDbs, stpMchNos).catch(() => undefined);
        const atEmulator = seen ? seen.stpOrders + seen.stpWebhooks : 0;
        if ((seen && seen.stpTransfers > 0 && atEmulator > 0) || Date.now() > deadline) return seen;
        await sleep(20);
      }
    };
    const workers = Array.from({ length: options.workers }, (_, i) => worker(ctx, options.seed * 1000 + i));
    const plan = faultPlan(options, { stack, nats, stream, cluster, serverUrl, prefix, beforeKill }, log);
    const revive = createReviver(stack, crashes, logs.stderr, log);

    await sleep(options.warmupMs);
    for (const fault of plan) {
      log(`fault: ${fault.name}`);
      const from = Date.now();
      const record = await fault.run();
      await revive(fault.name, from);
      faults.push(record);
      if (record.inFlight)
        log(
          `  STP in flight at the kill: ${record.inFlight.stpTransfers} transfers, ${record.inFlight.stpOrders} orders and ${record.inFlight.stpWebhooks} webhooks at the emulator`,
        );
      log(`  back after ${Date.now() - record.from} ms`);
      await sleep(options.faultGapMs);
    }
    await sleep(options.tailMs);
    await revive('the load', Date.now() - options.tailMs);
    stopAt = Date.now();
    log('load stopping');
    await Promise.all([...workers, ...ctx.background]);
    log(`load done: ${ctx.creates.length} creates, ${ctx.requests.length} requests`);

    // Settle: everything final, every event recorded and delivered or finished.
    const settleDeadline = Date.now() + options.settleTimeoutMs;
    let moving: string[] = [];
    let lastReceipts = -1;
    for (;;) {
      try {
        moving = unsettled(await snapshot(dbs), Date.now());
      } catch (err) {
        moving = [`snapshot failed: ${errorText(err)}`];
      }
      const quiet = sink.receipts.length === lastReceipts;
      lastReceipts = sink.receipts.length;
      if (moving.length === 0 && quiet) break;
      if (Date.now() > settleDeadline) break;
      await sleep(1_000);
    }
    log(moving.length ? `did not settle: ${moving.join('; ')}` : 'settled');

    if (options.replicas > 1)
      acrossReplicas.push(...(await checkStreamCopies(nats.url, credentials, stream, streamReplicas)));
    const finalQueries = await queryAccepted(ctx);
    const snap = await snapshot(dbs);
    const input: CheckInput = {
      options,
      snap,
      creates: ctx.creates,
      deposits: ctx.deposits,
      requests: ctx.requests,
      receipts: sink.receipts,
      // A service that died on its own was down like a killed one (for answers and duplicate callbacks).
      faults: [
        ...faults,
        ...crashes.map((c) => ({
          name: `${c.service} died`,
          service: c.service,
          ...(c.replica !== undefined && { replica: c.replica }),
          from: c.from,
          to: c.to,
          crashed: true,
        })),
      ],
      unexpected: ctx.unexpected,
      finalQueries,
    };
    await revive('settling', Date.now());
    const liveStack = stack;
    const down = SERVICES.filter((s) => !liveStack.running(s));
    const callbacks = checkCallbacks(input);
    const limits = checkLimits({
      creates: ctx.creates,
      transfers: snap.transfers,
      limited,
      limits: CHAOS_LIMITS,
      days: daysTouched(started, Date.now()).length,
    });
    log(`limits: ${limited.size} merchants limited, ${limits.refused} transfers refused with 40008`);
    const violations = {
      answers: checkAnswers(input),
      exactlyOnce: checkExactlyOnce(input),
      stateMachine: checkStateMachine(input),
      callbacks: callbacks.violations,
      convergence: [
        ...checkConvergence(input, moving, down),
        ...crashes.map(
          (c) => `${c.service} died on its own after "${c.after}": ${c.output.slice(-3).join(' | ')}`,
        ),
      ],
      books: [...(await checkBooks(stack)), ...(await awaitMerchantBalances(stack))],
      limits: limits.violations,
      replicas: acrossReplicas,
      nats: await checkNatsAuth(nats, options.replicas),
      reconciliation: [] as string[],
    };
    // Settled and the books checked: reconcile every day the run touched, explain each discrepancy from
    // what the load did on purpose, and check the books again (a run books unmatched money).
    const days = daysTouched(started, Date.now());
    const recon = checkReconciliation({
      ...(await reconcileDays(stack.urls.admin, days)),
      deposits: ctx.deposits,
      stpReturned: snap.stpOrders.filter((o) => o.tipo_orden === 'R' && o.answer === 'devolver').length,
    });
    violations.reconciliation.push(
      ...recon.violations,
      ...(await checkBooks(stack)).map((v) => `after reconciliation: ${v}`),
    );
    log(
      `reconciled ${days.join(', ')}: ${recon.totals.lines} lines, ${recon.totals.discrepancies} discrepancies, ${recon.violations.length} unexplained or failed`,
    );
    for (const [routeId, n] of Object.entries(recon.byRoute))
      log(
        `  ${routeId}: ${n.lines} lines, ${n.matched} matched, ${n.returned} returned, ${n.discrepancies} discrepancies`,
      );
    const counts = runCounts(ctx, snap, sink.receipts, callbacks);
    if (counts['orphanVirtualAccounts'])
      notes.push(
        `${counts['orphanVirtualAccounts']} virtual accounts upstream belong to no order: openings withdrawn after an error or a crash (payments README, "Concurrent creates"); nobody knows their CLABE`,
      );
    const failed = Object.values(violations).some((v) => v.length > 0);
    return {
      name: options.name,
      prefix,
      postgres: postgresMode,
      seed: options.seed,
      replicas: options.replicas,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      faults: faults.map((f) => ({ ...f, from: f.from - started, to: f.to - started })),
      counts,
      requestsByOutcome: tally(ctx.requests, (r) =>
        r.outcome === 'envelope' ? `${r.target} HTTP ${r.status}` : `${r.target} ${r.outcome}`,
      ),
      violations,
      reconciliation: {
        days,
        totals: recon.totals,
        byKind: recon.byKind,
        byRoute: recon.byRoute,
        explained: recon.explained,
      },
      duplicates: callbacks.duplicates,
      crashes: crashes.map((c) => ({ ...c, from: c.from - started, to: c.to - started })),
      notes,
      serviceLogTail: failed ? logs.tail.slice(-400) : [],
    };
  } finally {
    if (dbs) await closeDatabases(dbs);
    await stack?.stop().catch((err: unknown) => log(`stack stop: ${errorText(err)}`));
    await sink?.close();
    if (!cluster)
      await dropDatabases(serverUrl, prefix).catch((err: unknown) => log(`drop: ${errorText(err)}`));
    await cluster?.stop();
    await nats?.stop();
    rmSync(keyDir, { recursive: true, force: true });
  }
}
