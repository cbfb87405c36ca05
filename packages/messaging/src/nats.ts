import { DependencyUnavailableError } from '@agentpay/db';
import type { Logger } from '@agentpay/logger';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';

/** How long a start-up check or first connect waits before calling NATS unreachable. */
const CONNECT_TIMEOUT_MS = 3_000;

export interface ConnectNatsOptions {
  /** Connection name, shown by the NATS server's monitoring (use the service name). */
  name: string;
  /** Receives disconnect, reconnect and async error notices. */
  logger?: Logger;
}

/** Connects to NATS and keeps reconnecting forever; throws DependencyUnavailableError if the first try fails. */
export async function connectNats(url: string, opts: ConnectNatsOptions): Promise<NatsConnection> {
  let nc: NatsConnection;
  try {
    nc = await connect({
      servers: url.split(','),
      name: opts.name,
      timeout: CONNECT_TIMEOUT_MS,
      // A NATS restart or outage must not take the service down: buffer and retry until it is back.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
    });
  } catch (err) {
    throw new DependencyUnavailableError('nats', url, err);
  }
  if (opts.logger) void logStatus(nc, opts.logger);
  return nc;
}

async function logStatus(nc: NatsConnection, logger: Logger): Promise<void> {
  for await (const status of nc.status()) {
    switch (status.type) {
      case 'disconnect':
        logger.warn({ server: status.server }, 'NATS connection lost; reconnecting');
        break;
      case 'reconnect':
        logger.info({ server: status.server }, 'NATS connection restored');
        break;
      case 'error':
        logger.error({ err: status.error }, 'NATS reported an error');
        break;
      case 'ldm':
        logger.warn({ server: status.server }, 'NATS server entering lame-duck mode');
        break;
      default:
        // Reconnect attempts, pings and cluster updates are too chatty to log.
        break;
    }
  }
}

/** Throws DependencyUnavailableError unless a NATS server with JetStream answers at `url` within ~3 s. */
export async function checkNats(url: string): Promise<void> {
  let nc: NatsConnection;
  try {
    nc = await connect({ servers: url.split(','), timeout: CONNECT_TIMEOUT_MS, reconnect: false });
  } catch (err) {
    throw new DependencyUnavailableError('nats', url, err);
  }
  try {
    // Creating a manager asks the server for account info, which fails when JetStream is off.
    await jetstreamManager(nc, { timeout: CONNECT_TIMEOUT_MS });
  } catch (err) {
    throw new DependencyUnavailableError('nats', url, err);
  } finally {
    await nc.close();
  }
}
