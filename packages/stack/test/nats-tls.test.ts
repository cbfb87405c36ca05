import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectNats } from '@agentpay/messaging';
import { provisionEventsStream } from '@agentpay/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsNaming, type NatsServer, startNatsServer } from '../src/index.js';

// What the prod overlay configures (NATS_TLS_CA_FILE, the CA from agentpay-nats-ca): a nats-server that
// requires TLS with a certificate from a private CA, and clients that trust that CA only.
const OPENSSL = '/usr/bin/openssl';
let dir: string;
let server: NatsServer;

function openssl(...args: string[]): void {
  execFileSync(OPENSSL, args, { cwd: dir, stdio: 'pipe' });
}

/** A self-signed CA (EC P-256): `<name>.pem` and `<name>.key`. */
function makeCa(name: string): void {
  openssl(
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '1', '-subj', `/CN=${name}`],
  );
}

/** `server.pem` and `server.key`, signed by `ca` for `altNames` (e.g. `IP:127.0.0.1`). */
function serverCertificate(ca: string, altNames: string): void {
  writeFileSync(join(dir, 'san.ext'), `subjectAltName=${altNames}\n`);
  openssl(
    ...['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=nats'],
  );
  openssl(
    ...['x509', '-req', '-in', 'server.csr', '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial'],
    ...['-out', 'server.pem', '-days', '1', '-extfile', 'san.ext'],
  );
}

beforeAll(async () => {
  if (!existsSync(OPENSSL))
    throw new Error(`openssl is not installed at ${OPENSSL}: the TLS test makes its certificates with it`);
  dir = mkdtempSync(join(tmpdir(), 'agentpay-nats-tls-'));
  makeCa('nats-ca');
  makeCa('other-ca');
  serverCertificate('nats-ca', 'IP:127.0.0.1,DNS:localhost');
  const config = join(dir, 'tls.conf');
  writeFileSync(
    config,
    `tls {\n  cert_file: ${JSON.stringify(join(dir, 'server.pem'))}\n  key_file: ${JSON.stringify(join(dir, 'server.key'))}\n}\n`,
  );
  server = await startNatsServer({ configFile: config });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('NATS over TLS with a private CA (NATS_TLS_CA_FILE)', () => {
  it('connects, and runs the provision step, when the client trusts the CA that signed the server', async () => {
    const nc = await connectNats(server.url, {
      name: 'tls-test',
      auth: { tlsCaFile: join(dir, 'nats-ca.pem') },
    });
    expect(nc.info?.tls_required).toBe(true);
    await nc.close();
    const naming = eventsNaming('stack_nats_tls');
    expect(
      await provisionEventsStream({
        NATS_URL: `tls://127.0.0.1:${server.port}`,
        NATS_TLS_CA_FILE: join(dir, 'nats-ca.pem'),
        EVENTS_STREAM: naming.stream,
        EVENTS_SUBJECT_PREFIX: naming.subjectPrefix,
      }),
    ).toContain(`stream ${naming.stream}`);
  }, 30_000);

  it('refuses a server whose certificate another CA signed, or that the system CAs do not know', async () => {
    await expect(
      connectNats(server.url, { name: 'tls-other-ca', auth: { tlsCaFile: join(dir, 'other-ca.pem') } }),
    ).rejects.toThrow(/certificate/i);
    // No CA file: the server requires TLS, and the client's default trust store does not know the private CA.
    await expect(connectNats(server.url, { name: 'tls-no-ca' })).rejects.toThrow(/certificate/i);
  }, 30_000);
});
