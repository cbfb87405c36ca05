import { describe, expect, it } from 'vitest';
import { natsUrl, postgresUrl, requireNats, requirePostgres } from './services.js';

describe('server fixtures', () => {
  it('hands the servers found by the global setup to test workers through the environment', async () => {
    expect(process.env.DATABASE_URL).toBeTruthy();
    expect(process.env.NATS_URL).toBeTruthy();
    expect(await postgresUrl()).toBe(process.env.DATABASE_URL);
    expect(await natsUrl()).toBe(process.env.NATS_URL);
  });

  it('says which Postgres URL was tried and how to start Postgres, without the password', async () => {
    const error = await requirePostgres(
      'postgres://postgres:s3cret@127.0.0.1:1/postgres',
      'from DATABASE_URL',
    ).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('Postgres is not reachable at 127.0.0.1:1');
    expect(message).toContain('from DATABASE_URL');
    expect(message).toContain('pg_ctlcluster --skip-systemctl-redirect');
    expect(message).toContain('set DATABASE_URL');
    expect(message).not.toContain('s3cret');
  });

  it('says which NATS URL was tried and how to start NATS with JetStream', async () => {
    const error = await requireNats('nats://127.0.0.1:1', 'from NATS_URL').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toContain('NATS is not reachable at 127.0.0.1:1');
    expect(message).toContain('/usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js');
    expect(message).toContain('set NATS_URL');
  });
});
