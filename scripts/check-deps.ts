// `npm run check:deps`: is the Postgres and NATS (JetStream) that `npm start` and `npm test` need
// reachable? Prints each one's state, and for one that is not, where it was looked for and how to get it.
import { checkPostgres, DependencyUnavailableError } from '@agentpay/db';
import { checkNats } from '@agentpay/messaging';

const checks: [string, string, (url: string) => Promise<void>][] = [
  ['Postgres', process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres', checkPostgres],
  ['NATS', process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222', checkNats],
];

let missing = 0;
for (const [name, url, check] of checks) {
  try {
    await check(url);
    process.stdout.write(`ok       ${name}\n`);
  } catch (err) {
    if (!(err instanceof DependencyUnavailableError)) throw err;
    missing += 1;
    process.stdout.write(`missing  ${name}: ${err.message}\n\n`);
  }
}
process.exit(missing === 0 ? 0 : 1);
