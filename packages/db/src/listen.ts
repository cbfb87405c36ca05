import type { Logger } from '@agentpay/logger';
import pg from 'pg';

const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 10_000;

/**
 * A dedicated connection LISTENing on `channel` (a pooled one would lose the registration), re-opened
 * with back-off whenever it drops. Every (re)connect also calls `onNotify`, since rows committed while it
 * was down sent their NOTIFY to nobody.
 */
export function listen(
  databaseUrl: string,
  channel: string,
  logger: Logger,
  onNotify: () => void,
  applicationName = `${channel}-listener`,
): { close(): Promise<void> } {
  let closed = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = FIRST_BACKOFF_MS;

  const open = async () => {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: applicationName });
    let dropped = false;
    const drop = (err?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (current === client) current = undefined;
      client.end().catch(() => {});
      if (closed) return;
      logger.warn({ err, channel, retryInMs: delay }, 'LISTEN connection lost; polling until it is back');
      retry = setTimeout(() => {
        retry = undefined;
        opening = open();
      }, delay);
      delay = Math.min(delay * 2, MAX_BACKOFF_MS);
    };
    client.on('notification', () => onNotify());
    client.on('error', (err) => drop(err));
    client.on('end', () => drop());
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(channel)}`);
    } catch (err) {
      drop(err);
      return;
    }
    if (closed) {
      dropped = true;
      await client.end().catch(() => {});
      return;
    }
    current = client;
    delay = FIRST_BACKOFF_MS;
    onNotify();
  };

  let opening = open();
  return {
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      await opening;
      const client = current;
      current = undefined;
      await client?.end().catch(() => {});
    },
  };
}
