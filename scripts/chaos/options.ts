// What a chaos run does and how hard: the long run of `npm run chaos` and the CI variant that
// test/chaos-faults.test.ts runs, each also with two replicas of every service on a three-node NATS
// cluster (`npm run chaos -- --replicas`, test/chaos-replicas.test.ts).
import type { ServiceName } from '@agentpay/stack';

export interface ChaosOptions {
  /** Label for logs and the report. */
  name: string;
  /** Concurrent closed-loop load workers. */
  workers: number;
  /** Merchants driving the load; their sinks answer SUCCESS, FAIL first, HTTP 500 first, in turn. */
  merchants: number;
  /**
   * How many of them are bound to the `stp-default` route, so their pay-ins and payouts go over STP (the
   * sandbox's STP face); the others stay on the sandbox route. Every fault then hits both routes.
   */
  stpMerchants: number;
  /**
   * Payouts over STP sent just before the router and the sandbox are killed, the kill waiting until one
   * is in flight (accepted by the platform, not yet final), so those kills hit STP payouts mid-way.
   */
  stpPayoutsPerKill: number;
  /** Load before the first fault, ms. */
  warmupMs: number;
  /** Pause between two faults, ms. */
  faultGapMs: number;
  /** Load after the last fault, ms. */
  tailMs: number;
  /** How long a killed service or NATS stays down before it is started again, ms. */
  downMs: number;
  /** How long Postgres stays away, ms; 0 leaves Postgres alone. */
  postgresOutageMs: number;
  /**
   * `terminate`: the stack's databases refuse connections and every backend of theirs is terminated,
   * repeatedly, for `postgresOutageMs` (the machine's shared server keeps running for everyone else).
   * `private-cluster`: the stack runs on its own initdb cluster, which is crashed (`pg_ctl -m immediate`)
   * and started again; falls back to `terminate` when a cluster cannot be created here.
   */
  postgres: 'terminate' | 'private-cluster';
  /** Rounds of the whole fault plan (each service killed once per round). */
  rounds: number;
  /** Expiry of the short-lived pay orders, ms after creation (min, max). */
  shortExpiryMs: [number, number];
  /** Deadline for the platform to settle after the load, ms. */
  settleTimeoutMs: number;
  /** Client-side deadline of one request; an answer slower than this counts as hung. */
  requestTimeoutMs: number;
  /**
   * How long the stack may take to answer its health checks, at the start and after each restart, ms;
   * longer than it ever takes, since a run that gives up here has checked nothing.
   */
  readyTimeoutMs: number;
  /** Seed of the load's choices, so a run can be repeated. */
  seed: number;
  /**
   * Processes of every service. 1: one each on one nats-server, and every process is killed in turn.
   * More: that many of each on a three-node JetStream cluster with R3 streams; one replica of each service
   * and the node leading the events stream are killed in turn, while the others carry the load.
   */
  replicas: number;
  /**
   * What the services run: their TypeScript sources through tsx (`npm run chaos`), or the bundles
   * `npm run bundle` wrote (the tests, whose global setup bundles them first).
   */
  entry?: 'source' | 'bundle';
  /** Postgres server for the stack's databases (terminate mode); default DATABASE_URL or the local one. */
  postgresUrl?: string;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Where service log lines go (they are also kept, the last ones, in the report on a violation). */
  serviceLog?: (service: ServiceName | `${ServiceName}#${number}`, line: string) => void;
}

export const CI_OPTIONS: ChaosOptions = {
  name: 'ci',
  workers: 3,
  // Two on each route; with the same workers, the load is as heavy as with three on one route.
  merchants: 4,
  stpMerchants: 2,
  stpPayoutsPerKill: 3,
  warmupMs: 4_000,
  faultGapMs: 1_200,
  tailMs: 3_000,
  downMs: 800,
  postgresOutageMs: 3_000,
  postgres: 'terminate',
  rounds: 1,
  // The run settles only once the last of these has expired: shorter ones end it sooner, still inside
  // the fault plan (a kill comes every two or three seconds).
  shortExpiryMs: [4_000, 8_000],
  settleTimeoutMs: 75_000,
  requestTimeoutMs: 30_000,
  readyTimeoutMs: 60_000,
  seed: 9,
  replicas: 1,
};

export const FULL_OPTIONS: ChaosOptions = {
  name: 'full',
  workers: 6,
  merchants: 6,
  stpMerchants: 3,
  stpPayoutsPerKill: 5,
  warmupMs: 10_000,
  faultGapMs: 8_000,
  tailMs: 10_000,
  downMs: 2_000,
  postgresOutageMs: 5_000,
  postgres: 'private-cluster',
  rounds: 2,
  shortExpiryMs: [10_000, 40_000],
  settleTimeoutMs: 180_000,
  requestTimeoutMs: 30_000,
  // A machine busy with other work (load average 30 to 50 on two cores) did not bring seven services up
  // within 60 s, from sources or bundles alike.
  readyTimeoutMs: 180_000,
  seed: Date.now() % 100_000,
  replicas: 1,
};

/** The long run with two replicas of every service (`npm run chaos -- --replicas`). */
export const REPLICAS_OPTIONS: ChaosOptions = {
  ...FULL_OPTIONS,
  name: 'replicas',
  replicas: 2,
  // Twice the processes on the same cores: startup and catch-up after a fault take longer.
  settleTimeoutMs: 240_000,
};

/**
 * The CI variant with two replicas (test/chaos-replicas.test.ts): one round, the Postgres outage left to
 * the single-replica run, since twelve processes already fill two cores. The stack gets its own Postgres
 * cluster: twelve processes with their pools would take most of a shared server's 100 connections from
 * the tests running beside it.
 */
export const CI_REPLICAS_OPTIONS: ChaosOptions = {
  ...CI_OPTIONS,
  name: 'ci-replicas',
  replicas: 2,
  postgres: 'private-cluster',
  postgresOutageMs: 0,
  warmupMs: 5_000,
  faultGapMs: 1_500,
  settleTimeoutMs: 120_000,
  seed: 23,
};

/** Retry schedule of callbacks during the run: short, so every change settles within the run. */
export const CHAOS_RETRY_SCHEDULE = '200ms,500ms,1s,2s,2s,3s,3s,3s';
