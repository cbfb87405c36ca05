// The faults a chaos run injects: services (or one replica of each) killed with SIGKILL, NATS (or the node
// leading the events stream) killed and started again, Postgres taken away.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type NatsCluster,
  type NatsServer,
  type PostgresCluster,
  SERVICES,
  type ServiceName,
  type Stack,
} from '@agentpay/stack';
import pg from 'pg';
import { errorText } from './client.js';
import type { ChaosOptions } from './options.js';
import type { CrashRecord, FaultRecord } from './report.js';

export const STACK_DATABASE_LIKE = (prefix: string) => `${prefix.replaceAll('_', '\\_')}\\_%`;

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Postgres "goes away" for the stack only: its databases stop accepting connections and every backend
 * connected to them is terminated, again and again, until `ms` have passed. Other databases on the shared
 * server are untouched.
 */
export async function postgresOutage(serverUrl: string, prefix: string, ms: number): Promise<void> {
  await withClient(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [STACK_DATABASE_LIKE(prefix)],
    );
    const names = rows.map((r) => r.datname);
    try {
      for (const name of names) {
        await client.query(`alter database ${client.escapeIdentifier(name)} with allow_connections false`);
      }
      const until = Date.now() + ms;
      while (Date.now() < until) {
        await client.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname like $1 and pid <> pg_backend_pid()',
          [STACK_DATABASE_LIKE(prefix)],
        );
        await sleep(150);
      }
    } finally {
      for (const name of names) {
        await client.query(`alter database ${client.escapeIdentifier(name)} with allow_connections true`);
      }
    }
  });
}

/** Drops the stack's databases (those named with the run's prefix). */
export async function dropDatabases(serverUrl: string, prefix: string): Promise<void> {
  await withClient(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where datname like $1',
      [STACK_DATABASE_LIKE(prefix)],
    );
    for (const { datname } of rows) {
      await client.query(`drop database if exists ${client.escapeIdentifier(datname)} with (force)`);
    }
  });
}

/** One step of the fault plan: it breaks something, waits until it is back, and says when. */
export interface Fault {
  name: string;
  run: () => Promise<FaultRecord>;
}

export interface FaultTargets {
  stack: Stack;
  /** The one nats-server, or the cluster of a replicas run. */
  nats: NatsServer | NatsCluster;
  /** The events stream, whose leader is the NATS node a replicas run kills. */
  stream: string;
  /** The stack's own Postgres cluster, crashed and started again; absent in `terminate` mode. */
  cluster: PostgresCluster | undefined;
  /** The Postgres server of the stack's databases (where `terminate` mode refuses connections). */
  serverUrl: string;
  prefix: string;
  /**
   * Called just before a service is killed; for the router and the sandbox the run sends payouts over STP
   * here and waits until some are in flight, and answers what was in flight at the kill.
   */
  beforeKill?: (service: ServiceName) => Promise<InFlight | undefined>;
}

/** STP payouts in flight when a kill hit: not final at the platform, and not final at the emulator. */
export interface InFlight {
  /** Transfers of the STP merchants in `submitting` or `progress`. */
  stpTransfers: number;
  /** E orders at the STP emulator not settled yet (E), or liquidated and waiting to be returned. */
  stpOrders: number;
  /** cambio-estado webhooks the emulator has not delivered yet. */
  stpWebhooks: number;
}

/**
 * Each round kills every service once (one replica of each, when there are several), restarts NATS once
 * (the node leading the events stream, in a cluster) and takes Postgres away once (unless its outage is 0).
 */
export function faultPlan(
  options: ChaosOptions,
  targets: FaultTargets,
  log: (line: string) => void,
): Fault[] {
  const { stack, nats, cluster, serverUrl, prefix } = targets;
  const killService = (service: ServiceName, round: number): Fault => {
    // Alternate replicas between rounds, so each replica of a service dies once over two rounds.
    const replica = stack.replicas > 1 ? round % stack.replicas : undefined;
    const name =
      replica === undefined
        ? `kill -9 ${service}`
        : `kill -9 ${service} (replica ${replica} of ${stack.replicas})`;
    return {
      name,
      run: async () => {
        const inFlight = await targets.beforeKill?.(service);
        const from = Date.now();
        await stack.kill(service, replica ?? 0);
        await sleep(options.downMs);
        // Fails when another service died meanwhile; the reviver then finds and restarts it.
        await stack
          .restart(service, { replica: replica ?? 0 })
          .catch((err: unknown) => log(`  restart: ${errorText(err)}`));
        return {
          name,
          service,
          ...(replica !== undefined && { replica }),
          ...(inFlight && { inFlight }),
          from,
          to: Date.now(),
        };
      },
    };
  };
  const restartNats: Fault = {
    name: 'restart nats',
    run: async () => {
      const from = Date.now();
      if ('nodes' in nats) {
        const leader = await nats.streamLeader(targets.stream);
        const node = nats.nodes.find((n) => n.name === leader) ?? nats.nodes[0]!;
        log(`  stream leader: ${leader ?? 'none'}; killing ${node.name}`);
        await node.restart({ downMs: options.downMs });
        const what = node.name === leader ? 'the events stream leader' : 'no leader was known';
        return { name: `restart nats node ${node.name} (SIGKILL, ${what})`, from, to: Date.now() };
      }
      await nats.restart({ downMs: options.downMs });
      return { name: 'restart nats (SIGKILL, same port and store)', from, to: Date.now() };
    },
  };
  const postgresFault: Fault = {
    name: 'postgres outage',
    run: async () => {
      const from = Date.now();
      if (cluster) {
        await cluster.restart({ mode: 'immediate', downMs: options.postgresOutageMs });
        return { name: 'postgres crash (pg_ctl stop -m immediate) and start', from, to: Date.now() };
      }
      await postgresOutage(serverUrl, prefix, options.postgresOutageMs);
      return {
        name: `postgres outage (connections refused and terminated for ${options.postgresOutageMs} ms)`,
        from,
        to: Date.now(),
      };
    },
  };
  // The usual order, the ledger beside its callers; a service this list does not know yet is killed last.
  const preferred: string[] = [
    'upstream-sandbox',
    'payments',
    'transfers',
    'ledger',
    'upstream-router',
    'notifier',
    'gateway',
  ];
  const order: ServiceName[] = [
    ...SERVICES.filter((s) => preferred.includes(s)).sort(
      (a, b) => preferred.indexOf(a) - preferred.indexOf(b),
    ),
    ...SERVICES.filter((s) => !preferred.includes(s)),
  ];
  const plan: Fault[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const services = round % 2 === 0 ? order : [...order].reverse();
    const kills = services.map((service) => killService(service, round));
    plan.push(kills[0]!, kills[1]!, restartNats, kills[2]!, kills[3]!);
    if (options.postgresOutageMs > 0) plan.push(postgresFault);
    plan.push(...kills.slice(4));
  }
  const killed = new Set(plan.filter((p) => p.name.startsWith('kill')).map((p) => p.name.split(' ')[2]));
  if (SERVICES.some((service) => !killed.has(service)))
    throw new Error('the fault plan must kill every service');
  return plan;
}

/**
 * Finds services that died on their own, records each in `crashes` with its last output (taken from
 * `stderr`, which holds each service's non-JSON lines) and starts them again, so the run can go on.
 */
export function createReviver(
  stack: Stack,
  crashes: CrashRecord[],
  stderr: Map<ServiceName, string[]>,
  log: (line: string) => void,
): (after: string, from: number) => Promise<void> {
  return async (after, from) => {
    const replicas = Array.from({ length: stack.replicas }, (_, i) => i);
    const dead = SERVICES.flatMap((service) =>
      replicas.filter((replica) => !stack.running(service, replica)).map((replica) => ({ service, replica })),
    );
    if (dead.length === 0) return;
    for (const { service, replica } of dead) {
      const output = [...(stderr.get(service) ?? [])].slice(-100);
      stderr.delete(service);
      crashes.push({ service, ...(stack.replicas > 1 && { replica }), after, from, to: 0, output });
      const which = stack.replicas > 1 ? `${service} (replica ${replica})` : service;
      log(`  ${which} died on its own after "${after}"; starting it again`);
    }
    await Promise.all(dead.map(({ service, replica }) => stack.restart(service, { replica }))).catch(
      (err: unknown) => log(`  revive: ${errorText(err)}`),
    );
    for (const crash of crashes) if (crash.to === 0) crash.to = Date.now();
  };
}
