import { natsUrl, postgresUrl, stopTestContainers } from './services.js';

/**
 * vitest globalSetup: finds Postgres and NATS once, before any test, so a missing server fails the whole
 * run with one clear message instead of a skip or a hundred timeouts. Test workers are forked after this
 * runs and inherit the environment, so fixtures in them find the same servers (and start no containers).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const [database, nats] = await Promise.allSettled([postgresUrl(), natsUrl()]);
  const failures = [database, nats]
    .filter((r) => r.status === 'rejected')
    .map((r) => (r.reason instanceof Error ? r.reason.message : String(r.reason)));
  if (database.status === 'rejected' || nats.status === 'rejected') {
    await stopTestContainers();
    // Both at once, so fixing one server does not just reveal the other on the next run.
    throw new Error(failures.join('\n\n'));
  }
  process.env.DATABASE_URL = database.value;
  process.env.NATS_URL = nats.value;
  return stopTestContainers;
}
