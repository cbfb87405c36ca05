// The stack under test: every service on random ports, with short retry, sweep and timeout settings so
// every change settles within the run, and their log lines kept for the report.
import { join } from 'node:path';
import { type NatsCredentials, type ServiceName, type Stack, startStack } from '@agentpay/stack';
import { CHAOS_RETRY_SCHEDULE, type ChaosOptions } from './options.js';

export interface ServiceLogs {
  /** Each service's last other lines: the runtime talking (a crash's stack trace). */
  stderr: Map<ServiceName, string[]>;
  /** The last lines of every service, in order, kept for the report when a check fails. */
  tail: string[];
}

export function serviceLogs(): ServiceLogs {
  return { stderr: new Map(), tail: [] };
}

export interface ChaosStackTarget {
  postgresUrl: string;
  natsUrl: string;
  /** The private NATS's users: the stack provisions the stream and runs each service as its own user. */
  natsCredentials: NatsCredentials;
  /** Names the stack's databases, so the run can find (and drop) them. */
  prefix: string;
  /** Where the platform key is written. */
  keyDir: string;
  /** Processes per service. */
  replicas: number;
  /** Copies of the events stream: 3 on a NATS cluster. */
  streamReplicas: number;
}

/** Starts the stack, keeping its log lines in `logs`; a failed start names each process's last lines. */
export async function startChaosStack(
  options: Pick<ChaosOptions, 'serviceLog' | 'entry' | 'readyTimeoutMs'>,
  target: ChaosStackTarget,
  logs: ServiceLogs,
): Promise<Stack> {
  return startStack({
    postgresUrl: target.postgresUrl,
    natsUrl: target.natsUrl,
    natsCredentials: target.natsCredentials,
    databasePrefix: target.prefix,
    ports: 'random',
    entry: options.entry ?? 'source',
    replicas: target.replicas,
    readyTimeoutMs: options.readyTimeoutMs,
    output: 'silent',
    onLog: (service, line, replica) => {
      // Log records are JSON; anything else is the runtime talking (a crash's stack trace).
      if (!line.startsWith('{')) {
        const own = logs.stderr.get(service) ?? [];
        own.push(line);
        if (own.length > 120) own.shift();
        logs.stderr.set(service, own);
      }
      const label = target.replicas > 1 ? (`${service}#${replica}` as const) : service;
      logs.tail.push(`${label} ${line}`);
      if (logs.tail.length > 3_000) logs.tail.splice(0, 1_000);
      options.serviceLog?.(label, line);
    },
    // Reconciliation after the run (reconcile.ts): what moved a second ago counts (no grace), and no
    // schedule reconciles behind the run's back.
    serviceEnv: { ledger: { RECON_GRACE_MS: '0', RECON_SCHEDULE: 'off' } },
    env: {
      EVENTS_STREAM_REPLICAS: String(target.streamReplicas),
      PLATFORM_PRIVATE_KEY_FILE: join(target.keyDir, 'platform-key.pem'),
      NOTIFY_ALLOW_PRIVATE: 'true',
      NOTIFY_RETRY_SCHEDULE: CHAOS_RETRY_SCHEDULE,
      NOTIFY_TIMEOUT_MS: '3000',
      NOTIFY_LEASE_MARGIN_MS: '4000',
      NOTIFY_POLL_MS: '250',
      NOTIFIER_ACK_WAIT_MS: '3000',
      EXPIRY_SWEEP_INTERVAL_MS: '500',
      // A claim left by a payments process killed mid-round, or a round cut by the Postgres outage, frees
      // up well inside the settle window (the default, 120 s, is longer than the window itself).
      EXPIRY_SWEEP_LEASE_MS: '15000',
      SWEEP_INTERVAL_MS: '1000',
      SUBMISSION_STALE_MS: '5000',
      RECONCILE_AFTER_MS: '3000',
      GRPC_TIMEOUT_MS: '12000',
      ROUTER_TIMEOUT_MS: '8000',
      CREATE_LEASE_MS: '10000',
      UPSTREAM_TIMEOUT_MS: '5000',
      ROUTE_BREAKER_COOLDOWN_MS: '1000',
      SANDBOX_SETTLE_DELAY_MS: '300',
      SANDBOX_NOTICE_BACKOFF_MS: '250',
      SANDBOX_NOTICE_MAX_ATTEMPTS: '12',
      SANDBOX_NOTICE_TIMEOUT_MS: '3000',
    },
    // A start that fails names the processes' last lines (startStack adds them to its error).
  });
}
