import { createPrivateKey, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { buildClabe, STP_DEMO_PASSPHRASE, STP_DEMO_PRIVATE_KEY_PEM } from '@agentpay/spei';
import { createTestDatabase, type TestDatabase, waitFor } from '@agentpay/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type Sandbox } from '../src/main.js';
import { cadenaConciliacion, cadenaConsulta, cadenaRegistra } from '../src/stp/stp-cadena.js';
import { operationDay } from '../src/stp/stp-day.js';

// The STP face as the platform's STP adapter and a tester see it: the sandbox started through main() over
// its own Postgres, signed requests made with STP's demo key, and a real local HTTP server standing in for
// the platform's STP webhooks (/notices/stp-default/abono and /cambio-estado).

const FAST = {
  LOG_LEVEL: 'silent',
  SANDBOX_PORT: '0',
  HOST: '127.0.0.1',
  SANDBOX_SETTLE_DELAY_MS: '150',
  SANDBOX_POLL_MS: '50',
  SANDBOX_NOTICE_BACKOFF_MS: '100',
  SANDBOX_NOTICE_MAX_ATTEMPTS: '5',
  STP_EMULATOR_PAGE_SIZE: '2',
};
const EMPRESA = 'AGENTPAY';
/** A second company the tests register with a key of their own. */
const OTHER_PREFIX = '6461807777';
/** The default company's prefix (STP_EMULATOR_CLABE_PREFIX's default). */
const PREFIX = '6461805555';
/** A CLABE under a company's 10-digit prefix: its 4-digit code, then 7 digits. */
const under = (prefix: string, n: number) =>
  buildClabe('646', '180', `${prefix.slice(6)}${String(n).padStart(7, '0')}`);
const demoKey = createPrivateKey({ key: STP_DEMO_PRIVATE_KEY_PEM, passphrase: STP_DEMO_PASSPHRASE });
const ORDENANTE = under(PREFIX, 1);
/** A BANORTE (072, institution 40072) CLABE with a valid check digit. */
const PAYEE = '072691004495711499';

interface Received {
  path: string;
  body: string;
}
type Answer = { status: number; body: unknown };

/** The platform's STP webhooks: records each call and answers what `answerFor` says (by default as STP wants). */
async function startWebhookStandIn() {
  const received: Received[] = [];
  let answerFor: (r: Received) => Answer | Promise<Answer> = defaultAnswer;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const r = { path: request.url ?? '', body: Buffer.concat(chunks).toString('utf8') };
      received.push(r);
      const answer = await answerFor(r);
      response
        .writeHead(answer.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}/notices/stp-default`,
    received,
    bodies: (path: string, where: (b: Record<string, unknown>) => boolean) =>
      received
        .filter((r) => r.path.endsWith(path))
        .map((r) => JSON.parse(r.body) as Record<string, unknown>)
        .filter(where),
    answer(fn: typeof answerFor) {
      answerFor = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function defaultAnswer(r: Received): Answer {
  if (r.path.endsWith('/abono')) return { status: 200, body: { mensaje: 'confirmar' } };
  return { status: 200, body: { mensaje: 'recibido' } };
}

let database: TestDatabase;
let sandbox: Sandbox;
let platform: Awaited<ReturnType<typeof startWebhookStandIn>>;
let base: string;

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read STP's and the tester's JSON loosely
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const firma = (cadena: string, key: KeyObject = demoKey) =>
  sign('sha256', Buffer.from(cadena, 'utf8'), key).toString('base64');
const clave = () => `AP${randomBytes(8).toString('hex').toUpperCase()}`;
const today = () => operationDay(new Date());

/** A payout as the contract says the platform sends it, with `changes` (undefined removes a field), signed. */
function order(
  changes: Record<string, unknown> = {},
  opts: { key?: KeyObject; empresa?: string } = {},
): Record<string, unknown> & { claveRastreo: string; firma: string } {
  const body: Record<string, unknown> = {
    claveRastreo: clave(),
    conceptoPago: 'Pago a proveedor',
    nombreBeneficiario: 'Ana Lopez',
    cuentaBeneficiario: PAYEE,
    tipoCuentaBeneficiario: 40,
    institucionContraparte: '40072',
    rfcCurpBeneficiario: 'ND',
    cuentaOrdenante: opts.empresa === undefined ? ORDENANTE : under(OTHER_PREFIX, 1),
    institucionOperante: '90646',
    tipoCuentaOrdenante: 40,
    referenciaNumerica: 1234567,
    tipoPago: 1,
    topologia: 'T',
    medioEntrega: 3,
    prioridad: 0,
    monto: 25.5,
    empresa: opts.empresa ?? EMPRESA,
    ...changes,
  };
  for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k];
  return { ...body, claveRastreo: String(body.claveRastreo), firma: firma(cadenaRegistra(body), opts.key) };
}

const registra = (body: unknown) => call('PUT', '/stp/speiws/rest/ordenPago/registra', body);

function consulta(q: Record<string, unknown>, key: KeyObject = demoKey) {
  const body = { empresa: EMPRESA, ...q };
  return call('POST', '/stp/efws/API/consultaOrden', { ...body, firma: firma(cadenaConsulta(body), key) });
}

function conciliacion(q: Record<string, unknown>, key: KeyObject = demoKey) {
  const body: Record<string, unknown> = { empresa: EMPRESA, ...q };
  const { page: _page, ...signed } = body;
  return call('POST', '/stp/efws/API/V2/conciliacion', {
    ...body,
    firma: firma(cadenaConciliacion(signed), key),
  });
}

const deposit = (clabe: string, amount: number, extra: Record<string, unknown> = {}) =>
  call('POST', '/sandbox/deposits', { clabe, amount, ...extra });
const stpClabe = (n: number) => under(PREFIX, 100 + n);

beforeAll(async () => {
  database = await createTestDatabase('sandbox_stp');
  platform = await startWebhookStandIn();
  sandbox = await main({ ...FAST, DATABASE_URL: database.url, STP_EMULATOR_WEBHOOK_BASE: platform.base });
  base = `http://127.0.0.1:${sandbox.port}`;
});

afterAll(async () => {
  await sandbox?.stop();
  await platform?.close();
  await database?.drop();
});

describe('registraOrden', () => {
  it('accepts a well-formed signed payout with a new id, liquidates it and calls cambio-estado', async () => {
    const body = order({ folioOrigen: 'T2026112600001' });
    const answer = await registra(body);
    expect(answer.status).toBe(200);
    const id = answer.body.resultado.id as number;
    expect(id).toBeGreaterThan(0);
    expect(answer.body.resultado.descripcionError).toBeUndefined();

    const [change] = await waitFor(() => {
      const found = platform.bodies('/cambio-estado', (b) => b.id === id);
      return found.length > 0 && found;
    });
    expect(change).toEqual({
      id,
      empresa: EMPRESA,
      folioOrigen: 'T2026112600001',
      estado: 'LQ',
      causaDevolucion: null,
      tsLiquidacion: expect.any(Number),
    });
    const second = await registra(order());
    expect(second.body.resultado.id).toBeGreaterThan(id);
  });

  it('accepts numbers sent as strings when the firma signs the same text', async () => {
    const body = order({ monto: '10.50', tipoCuentaBeneficiario: '40', referenciaNumerica: '7' });
    const answer = await registra(body);
    expect(answer.body.resultado.id).toBeGreaterThan(0);
    const found = await consulta({ claveRastreo: body.claveRastreo, tipoOrden: 'E' });
    expect(found.body.respuesta).toMatchObject({ idEF: answer.body.resultado.id, monto: 10.5 });
  });

  it('refuses a wrong firma, a missing field or an unknown empresa with id 0, and stores nothing', async () => {
    const good = order();
    const tampered = await registra({ ...good, monto: 26 });
    expect(tampered.status).toBe(200);
    expect(tampered.body.resultado).toEqual({ id: 0, descripcionError: 'Error validando la firma' });
    // Signed by another key.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect((await registra(order({}, { key: privateKey }))).body.resultado.id).toBe(0);
    // The amount signed as 25.5 instead of 25.50 is a wrong cadena.
    const body = order();
    const loose = { ...body, firma: firma(cadenaRegistra(body).replace('|25.50|', '|25.5|')) };
    expect((await registra(loose)).body.resultado.descripcionError).toBe('Error validando la firma');

    expect((await registra(order({ conceptoPago: undefined }))).body.resultado).toEqual({
      id: 0,
      descripcionError: 'El campo conceptoPago es obligatorio',
    });
    const { firma: _firma, ...unsigned } = order();
    expect((await registra(unsigned)).body.resultado).toEqual({
      id: 0,
      descripcionError: 'El campo firma es obligatorio',
    });
    expect((await registra(order({}, { empresa: 'NOBODY' }))).body.resultado).toMatchObject({ id: 0 });
    // A cadena-valid order whose fixed values are wrong (the platform's bug): id 0 naming the field.
    expect((await registra(order({ institucionOperante: '90600' }))).body.resultado).toEqual({
      id: 0,
      descripcionError: 'El campo institucionOperante no es valido',
    });
    expect((await registra(order({ fechaOperacion: '20200101' }))).body.resultado.id).toBe(0);
    expect((await registra(order({ nombreBeneficiario: 'Ana López' }))).body.resultado.id).toBe(0);
    expect((await registra(order({ cuentaOrdenante: under('6461801111', 1) }))).body.resultado.id).toBe(0);
    // Not JSON at all: still STP's shape, HTTP 200.
    const raw = await fetch(`${base}/stp/speiws/rest/ordenPago/registra`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(raw.status).toBe(200);
    expect(((await raw.json()) as { resultado: { id: number } }).resultado.id).toBe(0);
    expect((await consulta({ claveRastreo: good.claveRastreo as string, tipoOrden: 'E' })).body.estado).toBe(
      6,
    );
  });

  it('answers each refusal id of the contract', async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ nombreBeneficiario: 'Ana REJECT' }, -7],
      [{ institucionContraparte: '40999' }, -9],
      [{ tipoCuentaBeneficiario: 10 }, -11],
      [{ monto: 0 }, -20],
      [{ monto: 1.234 }, -20],
      [{ monto: -5 }, -20],
      [{ institucionContraparte: '40012' }, -22],
      [{ cuentaBeneficiario: '072691004495711490' }, -22],
      [{ cuentaBeneficiario: ORDENANTE, institucionContraparte: '90646' }, -24],
      [{ claveRastreo: 'ap-lower' }, -34],
      [{ claveRastreo: 'A'.repeat(30) }, -34],
      [{ nombreBeneficiario: 'Ana PLD' }, -200],
    ];
    for (const [changes, id] of cases) {
      const answer = await registra(order(changes));
      expect(answer.status).toBe(200);
      expect({ changes, ...answer.body.resultado }).toMatchObject({
        changes,
        id,
        descripcionError: expect.any(String),
      });
    }
  });

  it('answers −1 to a claveRastreo the company already used that day, however the rest differs', async () => {
    const claveRastreo = clave();
    expect((await registra(order({ claveRastreo }))).body.resultado.id).toBeGreaterThan(0);
    expect((await registra(order({ claveRastreo, monto: 99 }))).body.resultado.id).toBe(-1);
    // A refused order is not stored: its key can be sent again.
    const refusedKey = clave();
    expect(
      (await registra(order({ claveRastreo: refusedKey, nombreBeneficiario: 'Ana PLD' }))).body.resultado.id,
    ).toBe(-200);
    expect((await registra(order({ claveRastreo: refusedKey }))).body.resultado.id).toBeGreaterThan(0);
  });

  it('RETURN in the payee name: LQ, then D with a causa, each by cambio-estado; FAIL: CN', async () => {
    const returned = (await registra(order({ nombreBeneficiario: 'Ana RETURN' }))).body.resultado
      .id as number;
    const failed = (await registra(order({ nombreBeneficiario: 'Ana FAIL' }))).body.resultado.id as number;
    const changes = await waitFor(() => {
      const found = platform.bodies('/cambio-estado', (b) => b.id === returned);
      return found.length === 2 && found;
    });
    expect(changes.map((c) => c.estado)).toEqual(['LQ', 'D']);
    expect(changes[1]).toMatchObject({ causaDevolucion: 2, tsLiquidacion: changes[0]!.tsLiquidacion });
    const [cancelled] = await waitFor(() => {
      const found = platform.bodies('/cambio-estado', (b) => b.id === failed);
      return found.length === 1 && found;
    });
    expect(cancelled).toMatchObject({ estado: 'CN', tsLiquidacion: null });
    const view = await call('GET', `/sandbox/stp/orders/${returned}`);
    expect(view.body).toMatchObject({ id: returned, tipoOrden: 'E', estado: 'D', causaDevolucion: 2 });
    expect(view.body.webhooks).toHaveLength(2);
  });

  it('retries a cambio-estado the platform does not answer with recibido', async () => {
    let refusals = 2;
    platform.answer((r) => {
      if (r.path.endsWith('/cambio-estado') && r.body.includes(`"folioOrigen":"F-RETRY"`) && refusals-- > 0)
        return { status: 200, body: { mensaje: 'ok' } };
      return defaultAnswer(r);
    });
    try {
      const id = (await registra(order({ folioOrigen: 'F-RETRY' }))).body.resultado.id as number;
      await waitFor(
        async () =>
          typeof (await call('GET', `/sandbox/stp/orders/${id}`)).body.webhooks[0]?.deliveredAt === 'string',
        { timeoutMs: 10_000 },
      );
      const view = await call('GET', `/sandbox/stp/orders/${id}`);
      expect(view.body.webhooks[0]).toMatchObject({ kind: 'cambio-estado', attempts: 3, lastStatus: 200 });
      expect(view.body.webhooks[0].answers.map((a: { error: string | null }) => a.error === null)).toEqual([
        false,
        false,
        true,
      ]);
    } finally {
      platform.answer(defaultAnswer);
    }
  });
});

describe('consultaOrden', () => {
  it('finds a sent order by its key (with or without fechaOperacion), and answers 400 estado 6 otherwise', async () => {
    const body = order({ monto: 1.2 });
    const id = (await registra(body)).body.resultado.id as number;
    const found = await consulta({
      claveRastreo: body.claveRastreo,
      tipoOrden: 'E',
      fechaOperacion: today(),
    });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({
      estado: 0,
      mensaje: 'Datos consultados correctamente',
      respuesta: {
        idEF: id,
        claveRastreo: body.claveRastreo,
        monto: 1.2,
        cuentaBeneficiario: PAYEE,
        cuentaOrdenante: ORDENANTE,
        nombreBeneficiario: 'Ana Lopez',
        institucionOperante: 90646,
        institucionContraparte: 40072,
        fechaOperacion: Number(today()),
        tipoPago: 1,
        conceptoPago: 'Pago a proveedor',
      },
    });
    expect(['E', 'LQ']).toContain(found.body.respuesta.estado);
    expect((await consulta({ claveRastreo: body.claveRastreo, tipoOrden: 'E' })).body.respuesta.idEF).toBe(
      id,
    );

    for (const q of [
      { claveRastreo: body.claveRastreo, tipoOrden: 'R' },
      { claveRastreo: body.claveRastreo, tipoOrden: 'E', fechaOperacion: '20200101' },
      { claveRastreo: 'NOSUCHKEY', tipoOrden: 'E' },
    ]) {
      const missing = await consulta(q);
      expect(missing).toEqual({
        status: 400,
        body: { estado: 6, mensaje: 'No se encontraron datos relacionados' },
      });
    }
  });

  it('refuses a wrong firma with 400 estado 1, and an unknown empresa or a missing field with 400 estado 2', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const bad = await consulta({ claveRastreo: 'X1', tipoOrden: 'E' }, privateKey);
    expect(bad).toEqual({ status: 400, body: { estado: 1, mensaje: 'Error validando la firma' } });
    const nobody = await consulta({ empresa: 'NOBODY', claveRastreo: 'X1', tipoOrden: 'E' });
    expect(nobody.status).toBe(400);
    expect(nobody.body.estado).toBe(2);
    const missing = await consulta({ tipoOrden: 'E' });
    expect(missing.body).toEqual({ estado: 2, mensaje: 'El campo claveRastreo es obligatorio' });
  });
});

describe('deposits to an STP CLABE (abono)', () => {
  it('confirmar: the order is LQ, found by consultaOrden R during the webhook, and the tester sees the answer', async () => {
    const clabe = stpClabe(1);
    let seenDuringWebhook: number | undefined;
    platform.answer(async (r) => {
      if (r.path.endsWith('/abono')) {
        // As the adapter does with verifyDeposits: the order is already queryable.
        const abono = JSON.parse(r.body) as { claveRastreo: string; fechaOperacion: number };
        const q = await consulta({
          claveRastreo: abono.claveRastreo,
          tipoOrden: 'R',
          fechaOperacion: abono.fechaOperacion,
        });
        seenDuringWebhook = q.body.respuesta?.idEF;
      }
      return defaultAnswer(r);
    });
    try {
      const answer = await deposit(clabe, 100.5, { senderName: 'Ana Pagadora' });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({
        id: expect.any(Number),
        claveRastreo: expect.any(String),
        answer: 'confirmar',
      });
      expect(seenDuringWebhook).toBe(answer.body.id);
      const [abono] = platform.bodies('/abono', (b) => b.id === answer.body.id);
      expect(Object.keys(abono!).sort()).toEqual(
        [
          'id',
          'fechaOperacion',
          'institucionOrdenante',
          'institucionBeneficiaria',
          'claveRastreo',
          'monto',
          'nombreOrdenante',
          'tipoCuentaOrdenante',
          'cuentaOrdenante',
          'rfcCurpOrdenante',
          'nombreBeneficiario',
          'tipoCuentaBeneficiario',
          'cuentaBeneficiario',
          'rfcCurpBeneficiario',
          'conceptoPago',
          'referenciaNumerica',
          'empresa',
          'tsLiquidacion',
        ].sort(),
      );
      expect(abono).toMatchObject({
        monto: 100.5,
        cuentaBeneficiario: clabe,
        empresa: EMPRESA,
        institucionOrdenante: 40012,
        institucionBeneficiaria: 90646,
        nombreOrdenante: 'Ana Pagadora',
        fechaOperacion: Number(today()),
        claveRastreo: answer.body.claveRastreo,
      });
      const found = await consulta({ claveRastreo: answer.body.claveRastreo, tipoOrden: 'R' });
      expect(found.body.respuesta).toMatchObject({ estado: 'LQ', monto: 100.5, cuentaBeneficiario: clabe });
    } finally {
      platform.answer(defaultAnswer);
    }
  });

  it('devolver: the order is D with the platform causa', async () => {
    const clabe = stpClabe(2);
    platform.answer((r) =>
      r.path.endsWith('/abono') && r.body.includes(clabe)
        ? { status: 400, body: { mensaje: 'devolver', id: 1 } }
        : defaultAnswer(r),
    );
    try {
      const answer = await deposit(clabe, 7);
      expect(answer.body.answer).toBe('devolver');
      const found = await consulta({ claveRastreo: answer.body.claveRastreo, tipoOrden: 'R' });
      expect(found.body.respuesta).toMatchObject({ estado: 'D', causaDevolucion: 1 });
    } finally {
      platform.answer(defaultAnswer);
    }
  });

  it('retries an abono the platform fails to answer until it answers; the order waits meanwhile', async () => {
    const clabe = stpClabe(3);
    let failures = 2;
    platform.answer((r) =>
      r.path.endsWith('/abono') && r.body.includes(clabe) && failures-- > 0
        ? { status: 503, body: { error: 'down' } }
        : defaultAnswer(r),
    );
    try {
      const answer = await deposit(clabe, 3);
      expect(answer.body.answer).toBe('pending');
      expect((await call('GET', `/sandbox/stp/orders/${answer.body.id}`)).body).toMatchObject({
        estado: 'R',
        answer: 'pending',
      });
      const view = await waitFor(
        async () => {
          const v = await call('GET', `/sandbox/stp/orders/${answer.body.id}`);
          return v.body.estado === 'LQ' && v;
        },
        { timeoutMs: 10_000 },
      );
      expect(view.body.webhooks[0]).toMatchObject({ kind: 'abono', attempts: 3, lastStatus: 200 });
      const bodies = platform.received.filter((r) => r.path.endsWith('/abono') && r.body.includes(clabe));
      expect(bodies).toHaveLength(3);
      expect(new Set(bodies.map((b) => b.body)).size).toBe(1);
    } finally {
      platform.answer(defaultAnswer);
    }
  });

  it('a resend sends the same bytes and answers what the platform said; the first answer keeps deciding', async () => {
    const clabe = stpClabe(4);
    const answer = await deposit(clabe, 12.34);
    expect(answer.body.answer).toBe('confirmar');
    platform.answer((r) =>
      r.path.endsWith('/abono') ? { status: 400, body: { mensaje: 'devolver', id: 1 } } : defaultAnswer(r),
    );
    try {
      const resent = await call('POST', `/sandbox/stp/abonos/${answer.body.id}/resend`);
      expect(resent.status).toBe(200);
      expect(resent.body).toMatchObject({
        id: answer.body.id,
        answer: 'devolver',
        causaDevolucion: 1,
        estado: 'LQ',
      });
      const sent = platform.received.filter((r) => r.path.endsWith('/abono') && r.body.includes(clabe));
      expect(sent).toHaveLength(2);
      expect(sent[1]!.body).toBe(sent[0]!.body);
      const view = await call('GET', `/sandbox/stp/orders?claveRastreo=${answer.body.claveRastreo}`);
      expect(view.body.orders[0].webhooks[0].answers).toHaveLength(2);
    } finally {
      platform.answer(defaultAnswer);
    }
    expect((await call('POST', '/sandbox/stp/abonos/999999999/resend')).status).toBe(404);
  });

  it('a deposit to a sandbox CLABE still takes the sandbox path', async () => {
    const account = await fetch(`${base}/channel/virtual-accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sandbox-dev-key' },
      body: JSON.stringify({
        orderRef: `P${randomBytes(5).toString('hex')}`,
        amount: 500,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        noticeUrl: `${platform.base}/sandbox-notice`,
      }),
    });
    const { clabe } = (await account.json()) as { clabe: string };
    const paid = await deposit(clabe, 5);
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ matched: true, clabe, depositId: expect.any(String) });
    expect(platform.received.some((r) => r.path.endsWith('/abono') && r.body.includes(clabe))).toBe(false);
  });
});

describe('conciliacion and companies', () => {
  const other = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const OTHER = 'OTRAEMPRESA';
  const otherPem = other.publicKey.export({ type: 'spki', format: 'pem' }).toString();

  it('registers a company and refuses a bad key, a bad prefix or a prefix already taken', async () => {
    const put = await call('PUT', `/sandbox/stp/companies/${OTHER}`, {
      publicKeyPem: otherPem,
      clabePrefix: OTHER_PREFIX,
      webhookBase: platform.base,
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ empresa: OTHER, clabePrefix: OTHER_PREFIX });
    const list = await call('GET', '/sandbox/stp/companies');
    expect(list.body.companies.map((c: { empresa: string }) => c.empresa)).toEqual([EMPRESA, OTHER]);
    expect(
      (
        await call('PUT', '/sandbox/stp/companies/X', {
          publicKeyPem: 'nope',
          clabePrefix: '6461800001',
          webhookBase: platform.base,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call('PUT', '/sandbox/stp/companies/X', {
          publicKeyPem: otherPem,
          clabePrefix: '0121800001',
          webhookBase: platform.base,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call('PUT', '/sandbox/stp/companies/X', {
          publicKeyPem: otherPem,
          clabePrefix: PREFIX,
          webhookBase: platform.base,
        })
      ).status,
    ).toBe(409);
  });

  it('lists a day of sent orders across pages (as they are now) and of received ones, and an empty day', async () => {
    const key = other.privateKey;
    const sent: number[] = [];
    for (const name of ['Uno', 'Dos', 'Tres RETURN', 'Cuatro FAIL', 'Cinco']) {
      const answer = await registra(order({ nombreBeneficiario: name }, { key, empresa: OTHER }));
      sent.push(answer.body.resultado.id);
    }
    const deposits = [
      await deposit(under(OTHER_PREFIX, 101), 1),
      await deposit(under(OTHER_PREFIX, 102), 2.5, { statementAmount: 2.4 }),
    ];
    // Everything has settled and come back: RETURN is D (after the others settled), FAIL is CN.
    await waitFor(async () => (await call('GET', `/sandbox/stp/orders/${sent[2]}`)).body.estado === 'D', {
      timeoutMs: 10_000,
    });

    const pages = [1, 2, 3].map((page) =>
      conciliacion({ empresa: OTHER, tipoOrden: 'E', fechaOperacion: today(), page }, key),
    );
    const answers = await Promise.all(pages);
    for (const a of answers) expect(a.body).toMatchObject({ estado: 0, total: 5 });
    expect(answers.map((a) => a.body.datos.length)).toEqual([2, 2, 1]);
    const datos = answers.flatMap((a) => a.body.datos as { idEF: number; estado: string }[]);
    expect(datos.map((d) => d.idEF)).toEqual(sent);
    expect(datos.map((d) => d.estado)).toEqual(['LQ', 'LQ', 'D', 'CN', 'LQ']);
    const beyond = await conciliacion(
      { empresa: OTHER, tipoOrden: 'E', fechaOperacion: today(), page: 4 },
      key,
    );
    expect(beyond.body).toMatchObject({ estado: 0, datos: [], total: 5 });

    const received = await conciliacion(
      { empresa: OTHER, tipoOrden: 'R', fechaOperacion: today(), page: 1 },
      key,
    );
    expect(received.body).toMatchObject({ estado: 0, total: 2 });
    expect(received.body.datos).toEqual([
      expect.objectContaining({ idEF: deposits[0]!.body.id, estado: 'LQ', monto: 1 }),
      // The tester's statementAmount is what the day's listing shows.
      expect.objectContaining({ idEF: deposits[1]!.body.id, estado: 'LQ', monto: 2.4 }),
    ]);

    const empty = await conciliacion(
      { empresa: OTHER, tipoOrden: 'E', fechaOperacion: '20200101', page: 1 },
      key,
    );
    expect(empty).toEqual({
      status: 200,
      body: { estado: 6, mensaje: 'No se encontraron datos relacionados', total: 0 },
    });
    // Signed with another company's key.
    const wrong = await conciliacion({ empresa: OTHER, tipoOrden: 'E', fechaOperacion: today(), page: 1 });
    expect(wrong).toEqual({ status: 400, body: { estado: 1, mensaje: 'Error validando la firma' } });
  });
});
