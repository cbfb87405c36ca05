import { readFileSync } from 'node:fs';
import { DependencyUnavailableError } from '@agentpay/db';
import type { Logger } from '@agentpay/logger';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  AuthorizationError,
  type ConnectionOptions,
  connect,
  credsAuthenticator,
  type NatsConnection,
} from '@nats-io/transport-node';
import { inboxPrefixOf } from './permissions.js';

/** How long a start-up check or first connect waits before calling NATS unreachable. */
const CONNECT_TIMEOUT_MS = 3_000;

export interface ConnectNatsOptions {
  /** Connection name, shown by the NATS server's monitoring (use the service name). */
  name: string;
  /** Receives disconnect, reconnect and async error notices. */
  logger?: Logger;
  /** The service's credentials and the server's CA; absent, an anonymous plain connection. */
  auth?: NatsAuth;
  /**
   * The NATS user whose private inbox the connection's replies go to (`_INBOX_<user>.>`, see
   * `inboxPrefixOf`), the only inbox its user may subscribe to; absent, the shared `_INBOX`.
   */
  inboxOwner?: string;
}

/** How a client proves itself to NATS (config: NATS_CREDS_FILE or NATS_USER/NATS_PASSWORD, NATS_TLS_CA_FILE). */
export interface NatsAuth {
  /** A `.creds` file: the user JWT and its nkey seed. */
  credsFile?: string;
  user?: string;
  password?: string;
  /** CA certificate (PEM) of the server's TLS certificate; set, the connection requires TLS. */
  tlsCaFile?: string;
}

/**
 * The connect options carrying `auth`: the creds file read now (a missing file fails the start, naming
 * the path, never the content), user and password as given, TLS verified against the CA file.
 */
export function natsAuthOptions(auth: NatsAuth = {}): Partial<ConnectionOptions> {
  if (auth.credsFile && auth.user) throw new Error('NATS: set NATS_CREDS_FILE or NATS_USER, not both');
  if (auth.user && !auth.password) throw new Error('NATS: NATS_USER is set without NATS_PASSWORD');
  const options: Partial<ConnectionOptions> = {};
  if (auth.credsFile) {
    let creds: Uint8Array;
    try {
      creds = readFileSync(auth.credsFile);
    } catch (err) {
      throw new Error(`NATS: cannot read NATS_CREDS_FILE ${auth.credsFile}: ${(err as Error).message}`);
    }
    options.authenticator = credsAuthenticator(creds);
  }
  if (auth.user) {
    options.user = auth.user;
    options.pass = auth.password;
  }
  if (auth.tlsCaFile) options.tls = { caFile: auth.tlsCaFile };
  return options;
}

/** Connects to NATS and keeps reconnecting forever; throws DependencyUnavailableError if the first try fails. */
export async function connectNats(url: string, opts: ConnectNatsOptions): Promise<NatsConnection> {
  let nc: NatsConnection;
  try {
    nc = await connect({
      ...natsAuthOptions(opts.auth),
      ...(opts.inboxOwner !== undefined && { inboxPrefix: inboxPrefixOf(opts.inboxOwner) }),
      servers: url.split(','),
      name: opts.name,
      timeout: CONNECT_TIMEOUT_MS,
      // A NATS restart or outage must not take the service down: buffer and retry until it is back.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
    });
  } catch (err) {
    throw refusedOrUnavailable(url, err);
  }
  if (opts.logger) void logStatus(nc, opts.logger);
  return nc;
}

/** The server refused the credentials (a configuration fault, not an outage), or it could not be reached. */
function refusedOrUnavailable(url: string, err: unknown): Error {
  if (err instanceof AuthorizationError) {
    return new Error(
      `NATS refused the connection (${err.message}): check NATS_CREDS_FILE or NATS_USER/NATS_PASSWORD`,
      { cause: err },
    );
  }
  return new DependencyUnavailableError('nats', url, err);
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
export async function checkNats(url: string, auth?: NatsAuth): Promise<void> {
  let nc: NatsConnection;
  try {
    nc = await connect({
      ...natsAuthOptions(auth),
      servers: url.split(','),
      timeout: CONNECT_TIMEOUT_MS,
      reconnect: false,
    });
  } catch (err) {
    throw refusedOrUnavailable(url, err);
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
