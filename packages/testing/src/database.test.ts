import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseName } from './database.js';
import { postgresUrl } from './services.js';

async function databaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: await postgresUrl() });
  await client.connect();
  try {
    const result = await client.query('select 1 from pg_database where datname = $1', [name]);
    return result.rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('createTestDatabase', () => {
  it('creates a fresh database that its URL connects to, and drop() removes it', async () => {
    const database = await createTestDatabase('Fixture Self-Test');
    expect(database.name).toMatch(/^t_fixture_self_test_[0-9a-f]{10}$/);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ name: string }>('select current_database() as name');
    expect(rows[0]?.name).toBe(database.name);

    // The connection is still open: drop() must end it rather than fail.
    client.on('error', () => {});
    await database.drop();
    expect(await databaseExists(database.name)).toBe(false);
    await client.end().catch(() => {});
    await database.drop();
  });

  it('keeps names within the 63 characters Postgres allows', () => {
    const name = testDatabaseName('x'.repeat(200));
    expect(name.length).toBeLessThanOrEqual(63);
    expect(testDatabaseName('a')).not.toBe(testDatabaseName('a'));
  });
});
