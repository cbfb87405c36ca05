import { createPublicKey, generateKeyPairSync, type KeyObject, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamUnavailableError } from '../channel-adapter.js';
import { createStpClient, type StpClient } from './stp.client.js';
import { cadenaConciliacion, cadenaConsulta, cadenaRegistra, loadSigningKey } from './stp.signing.js';

// The STP client against a local HTTP server playing STP: what it sends (signed so that STP's own check
// passes), how it reads every page of a day, and how it judges each failure, above all whether STP may
// have acted on a request (`ambiguous`).

type Seen = { method: string; url: string; body: Record<string, unknown> };
type Answer = { status: number; body: string } | 'hang';

let server: Server;
let base: string;
let key: KeyObject;
let publicKey: KeyObject;
let seen: Seen[];
let answer: (request: Seen) => Answer;

const json = (status: number, body: unknown): Answer => ({ status, body: JSON.stringify(body) });

beforeAll(async () => {
  const pair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'test-pass' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  key = loadSigningKey(pair.privateKey, 'test-pass');
  publicKey = createPublicKey(pair.publicKey);
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    req.on('end', () => {
      const request = { method: req.method ?? '', url: req.url ?? '', body: JSON.parse(text || '{}') };
      seen.push(request);
      const reply = answer(request);
      if (reply !== 'hang')
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen = [];
  answer = () => ({ status: 500, body: 'no answer set' });
});

function client(overrides: { speiBase?: string; efwsBase?: string; timeoutMs?: number } = {}): StpClient {
  return createStpClient({
    speiBase: `${base}/speiws/rest/`,
    efwsBase: `${base}/efws/API`,
    empresa: 'TAMIZI',
    key,
    timeoutMs: 2000,
    ...overrides,
  });
}

/** STP's own check: rebuild the cadena from the JSON received and verify the firma with the public key. */
function signatureValid(cadena: string, firma: unknown): boolean {
  return verify('sha256', Buffer.from(cadena, 'utf8'), publicKey, Buffer.from(String(firma), 'base64'));
}

async function failure(promise: Promise<unknown>): Promise<UpstreamUnavailableError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamUnavailableError);
  return err as UpstreamUnavailableError;
}

async function collect(iterable: AsyncIterable<unknown>, into: unknown[] = []): Promise<unknown[]> {
  for await (const item of iterable) into.push(item);
  return into;
}

const order = (n: number) => ({
  idEF: n,
  claveRastreo: `CR${n}`,
  estado: 'LQ',
  monto: `${n}.50`,
  tsLiquidacion: 1609257595123,
});

describe('registraOrden', () => {
  it('PUTs the order with empresa and a firma STP can verify, amounts as pesos numbers', async () => {
    answer = () => json(200, { resultado: { id: 9349827 } });
    const result = await client().registraOrden({
      claveRastreo: 'CR1',
      monto: '1.20',
      cuentaBeneficiario: '072691004495711499',
      tipoCuentaBeneficiario: 40,
      prioridad: 0,
      rfcCurpOrdenante: null,
      empresa: 'SOMEONE-ELSE',
    });
    expect(result).toEqual({ resultado: { id: 9349827 } });
    const [request] = seen;
    expect(request).toMatchObject({ method: 'PUT', url: '/speiws/rest/ordenPago/registra' });
    const { firma, ...body } = request?.body ?? {};
    expect(body).toEqual({
      claveRastreo: 'CR1',
      monto: 1.2,
      cuentaBeneficiario: '072691004495711499',
      tipoCuentaBeneficiario: 40,
      prioridad: 0,
      empresa: 'TAMIZI',
    });
    expect(signatureValid(cadenaRegistra(body), firma)).toBe(true);
  });

  it('returns a refusal for the adapter to judge, without throwing', async () => {
    answer = () => json(200, { resultado: { id: -7, descripcionError: 'La cuenta no existe' } });
    expect(await client().registraOrden({ claveRastreo: 'CR2', monto: 5 })).toEqual({
      resultado: { id: -7, descripcionError: 'La cuenta no existe' },
    });
  });

  it('refuses an amount it cannot sign exactly, before sending anything', async () => {
    await expect(client().registraOrden({ monto: 1.005 })).rejects.toThrow(RangeError);
    expect(seen).toHaveLength(0);
  });

  it('treats a timeout as unavailable and ambiguous: STP may have registered the order', async () => {
    answer = () => 'hang';
    const err = await failure(client({ timeoutMs: 150 }).registraOrden({ claveRastreo: 'CR3', monto: 1 }));
    expect(err.ambiguous).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('treats a refused connection as unavailable and not ambiguous: nothing was sent', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(client({ speiBase: `http://127.0.0.1:${port}` }).registraOrden({ monto: 1 }));
    expect(err.ambiguous).toBe(false);
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it('treats HTTP 500 to a payout as ambiguous (STP may have created the order first), to a query as not', async () => {
    answer = () => ({ status: 500, body: 'boom' });
    const err = await failure(client().registraOrden({ monto: 1 }));
    expect(err.ambiguous).toBe(true);
    expect(err.message).toMatch(/HTTP 500/);
    const query = await failure(client().consultaOrden({ claveRastreo: 'CR9', tipoOrden: 'E' }));
    expect(query.ambiguous).toBe(false);
  });

  it('treats a 2xx answer that is not JSON, or not the expected shape, as unavailable and ambiguous', async () => {
    answer = () => ({ status: 200, body: '<html>maintenance</html>' });
    const notJson = await failure(client().registraOrden({ monto: 1 }));
    expect(notJson.message).toMatch(/not JSON/);
    expect(notJson.ambiguous).toBe(true);
    answer = () => json(200, { id: 5 });
    expect((await failure(client().registraOrden({ monto: 1 }))).message).toMatch(/unexpected answer/);
  });

  it('treats a refused signature (403) as unavailable and never repeats the firma', async () => {
    answer = () => ({ status: 403, body: 'Firma invalida' });
    const err = await failure(client().registraOrden({ claveRastreo: 'CR4', monto: 1 }));
    const firma = String(seen[0]?.body['firma']);
    expect(firma.length).toBeGreaterThan(100);
    expect(`${err.message} ${String(err.cause ?? '')}`).not.toContain(firma);
  });
});

describe('consultaOrden', () => {
  it('POSTs a signed query and returns the order', async () => {
    answer = () => json(200, { estado: 0, mensaje: 'ok', respuesta: order(7) });
    const found = await client().consultaOrden({
      claveRastreo: 'CR7',
      tipoOrden: 'E',
      fechaOperacion: '20201229',
    });
    expect(found).toMatchObject({ idEF: 7, claveRastreo: 'CR7', estado: 'LQ', monto: 750 });
    const { firma, ...body } = seen[0]?.body ?? {};
    expect(seen[0]?.url).toBe('/efws/API/consultaOrden');
    expect(body).toEqual({
      empresa: 'TAMIZI',
      claveRastreo: 'CR7',
      tipoOrden: 'E',
      fechaOperacion: '20201229',
    });
    expect(
      signatureValid(
        cadenaConsulta({
          empresa: 'TAMIZI',
          claveRastreo: 'CR7',
          tipoOrden: 'E',
          fechaOperacion: '20201229',
        }),
        firma,
      ),
    ).toBe(true);
  });

  it('returns undefined when STP has no such order (HTTP 400, estado 6)', async () => {
    answer = () => json(400, { estado: 6, mensaje: 'No se encontraron datos relacionados' });
    expect(await client().consultaOrden({ claveRastreo: 'NOPE', tipoOrden: 'R' })).toBeUndefined();
    expect(seen[0]?.body).not.toHaveProperty('fechaOperacion');
  });

  it('treats any other estado as unavailable', async () => {
    answer = () => json(400, { estado: 1, mensaje: 'Firma invalida' });
    const err = await failure(client().consultaOrden({ claveRastreo: 'CR8', tipoOrden: 'E' }));
    expect(err.message).toMatch(/estado 1 Firma invalida/);
  });
});

describe('conciliacion', () => {
  const day = { tipoOrden: 'E', fechaOperacion: '20201229' } as const;

  it('reads every page until the total is reached', async () => {
    const pages: Record<number, unknown[]> = {
      1: [order(1), order(2)],
      2: [order(3), order(4)],
      3: [order(5)],
    };
    answer = ({ body }) =>
      json(200, { estado: 0, mensaje: 'ok', datos: pages[Number(body['page'])] ?? [], total: 5 });
    const orders = (await collect(client().conciliacion(day))) as { claveRastreo: string }[];
    expect(orders.map((o) => o.claveRastreo)).toEqual(['CR1', 'CR2', 'CR3', 'CR4', 'CR5']);
    expect(seen.map((s) => s.body['page'])).toEqual([1, 2, 3]);
    expect(seen.every((s) => s.url === '/efws/API/V2/conciliacion')).toBe(true);
    const { firma, page: _page, ...body } = seen[0]?.body ?? {};
    expect(body).toEqual({ empresa: 'TAMIZI', tipoOrden: 'E', fechaOperacion: '20201229' });
    expect(signatureValid(cadenaConciliacion({ empresa: 'TAMIZI', ...day }), firma)).toBe(true);
  });

  it('yields nothing for a day with no orders', async () => {
    answer = () => json(400, { estado: 6, mensaje: 'No se encontraron datos relacionados', total: 0 });
    expect(await collect(client().conciliacion(day))).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('throws after the orders already read when a page comes back empty before the total', async () => {
    answer = ({ body }) =>
      body['page'] === 1
        ? json(200, { estado: 0, mensaje: 'ok', datos: [order(1), order(2)], total: 3 })
        : json(400, { estado: 6, mensaje: 'No se encontraron datos relacionados', total: 0 });
    const got: unknown[] = [];
    const err = await failure(collect(client().conciliacion(day), got));
    expect(got).toHaveLength(2);
    expect(err.message).toMatch(/page 2 is empty after 2 of 3/);
  });

  it('throws when the total changes between pages or a page overshoots it', async () => {
    answer = ({ body }) =>
      json(200, {
        estado: 0,
        mensaje: 'ok',
        datos: [order(Number(body['page']))],
        total: body['page'] === 1 ? 2 : 3,
      });
    expect((await failure(collect(client().conciliacion(day)))).message).toMatch(
      /counts 3 orders, page 1 counted 2/,
    );
    answer = () => json(200, { estado: 0, mensaje: 'ok', datos: [order(1), order(2)], total: 1 });
    expect((await failure(collect(client().conciliacion(day)))).message).toMatch(/has 2 orders after 0 of 1/);
  });

  it('treats HTTP 500 and a non-JSON answer as unavailable', async () => {
    answer = () => ({ status: 500, body: 'down' });
    expect((await failure(collect(client().conciliacion(day)))).message).toMatch(/HTTP 500/);
    answer = () => ({ status: 200, body: 'not json' });
    expect((await failure(collect(client().conciliacion(day)))).message).toMatch(/not JSON/);
  });
});
