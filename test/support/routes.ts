import { createServer } from 'node:net';
import { buildClabe } from '@agentpay/spei';
import { adminRequest } from '@agentpay/testing';
import { expect } from 'vitest';

// A route whose channel does not answer, for the tests of what one channel down must not stop
// (CONTRACT.md section 14: the other routes are still reconciled).

/** A port on this machine that nobody listens on: a connection to it is refused at once. */
export async function deadPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Creates (through the admin API and its four eyes) an STP route like the seeded one whose channel is at a
 * port nobody listens on, serving no merchant; answers that port.
 */
export async function createUnreachableStpRoute(adminUrl: string, id: string): Promise<number> {
  const port = await deadPort();
  const created = await adminRequest({
    adminUrl,
    method: 'POST',
    path: '/admin/routes',
    body: {
      id,
      name: `STP (down) ${id}`,
      adapter: 'stp',
      config: {
        empresa: 'AGENTPAY',
        speiBase: `http://127.0.0.1:${port}/stp/speiws/rest`,
        efwsBase: `http://127.0.0.1:${port}/stp/efws/API`,
        clabePrefix: '6461809999',
        cuentaOrdenante: buildClabe('646', '180', '99990000000'),
        privateKeyRef: 'CHANNEL_STP_PRIVATE_KEY',
        passphraseRef: 'CHANNEL_STP_PASSPHRASE',
        webhookAllow: ['127.0.0.1/32'],
        timeoutMs: 2_000,
      },
      methods: ['mex_virtual_account'],
      merchantScope: 'list',
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return port;
}
