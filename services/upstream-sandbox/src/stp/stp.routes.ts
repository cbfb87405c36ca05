// The STP face's HTTP routes: STP's own calls under /stp (what the platform's STP adapter calls, answered
// in STP's shapes, never the sandbox's `{error}`), and the tester's STP routes under /sandbox/stp.
import type { FastifyInstance } from '@agentpay/http';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, StpCompanyRow } from '../db/schema.js';
import { ChannelError } from '../errors.js';
import { parseBody } from '../http/parse.js';
import { EFWS_ESTADO, type StpService } from './stp.service.js';
import { listCompanies, upsertCompany } from './stp-company.repository.js';
import type { StpDepositService } from './stp-deposit.service.js';
import { findOrderById, ordersByClave } from './stp-order.repository.js';
import { REFUSAL } from './stp-registra.js';
import { publicKeyOf } from './stp-signature.js';
import { testerOrderView } from './stp-views.js';
import { attemptsOf, webhooksOf } from './stp-webhook.repository.js';

/** Where the route settings point: `speiBase` = {origin}/stp/speiws/rest, `efwsBase` = {origin}/stp/efws/API. */
export const STP_PREFIX = '/stp';

const companyBody = z.object({
  publicKeyPem: z.string().refine((pem) => {
    try {
      publicKeyOf(pem);
      return true;
    } catch {
      return false;
    }
  }, 'not a PEM key node:crypto reads'),
  clabePrefix: z.string().regex(/^646\d{7}$/, '10 digits starting 646 (STP)'),
  webhookBase: z.url({ protocol: /^https?$/ }),
});
const empresaParam = z.object({ empresa: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/) });
const idParam = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

const companyView = (c: StpCompanyRow) => ({
  empresa: c.empresa,
  publicKeyPem: c.public_key_pem,
  clabePrefix: c.clabe_prefix,
  webhookBase: c.webhook_base,
  updatedAt: c.updated_at.toISOString(),
});

/** STP's calls, as STP answers them: registraOrden always HTTP 200, the EFWS calls 400 on a refusal. */
export function registerStpRoutes(http: FastifyInstance, deps: { stp: StpService }): void {
  const { stp } = deps;
  void http.register(
    async (face) => {
      // A body that is not JSON gets STP's kind of refusal, not the sandbox's `{error}`.
      face.setErrorHandler((err, request, reply) => {
        const status = (err as { statusCode?: number }).statusCode;
        // Anything but a refused request (a failure of the emulator itself) goes to the sandbox's handler.
        if (status === undefined || status < 400 || status >= 500) throw err;
        const message = `Solicitud invalida: ${(err as Error).message}`;
        if (request.url.includes('/speiws/'))
          return reply
            .code(200)
            .send({ resultado: { id: REFUSAL.signatureOrField, descripcionError: message } });
        return reply.code(400).send({ estado: EFWS_ESTADO.invalid, mensaje: message });
      });

      face.put('/speiws/rest/ordenPago/registra', async (request) => stp.registra(request.body));

      face.post('/efws/API/consultaOrden', async (request, reply) => {
        const answer = await stp.consulta(request.body);
        return reply.code(answer.status).send(answer.body);
      });

      face.post('/efws/API/V2/conciliacion', async (request, reply) => {
        const answer = await stp.conciliacion(request.body);
        return reply.code(answer.status).send(answer.body);
      });
    },
    { prefix: STP_PREFIX },
  );
}

/** The tester's side of the STP face: companies, orders with their webhooks, and resending an abono. */
export function registerStpTesterRoutes(
  http: FastifyInstance,
  deps: { db: Kysely<Database>; deposits: StpDepositService },
): void {
  const { db, deposits } = deps;

  http.put('/sandbox/stp/companies/:empresa', async (request) => {
    const { empresa } = parseBody(empresaParam, request.params);
    const body = parseBody(companyBody, request.body);
    const row = await upsertCompany(db, { empresa, ...body });
    if (!row)
      throw new ChannelError('conflict', `clabePrefix ${body.clabePrefix} belongs to another company`);
    return companyView(row);
  });

  http.get('/sandbox/stp/companies', async () => ({ companies: (await listCompanies(db)).map(companyView) }));

  http.get('/sandbox/stp/orders', async (request) => {
    const { claveRastreo } = parseBody(z.object({ claveRastreo: z.string().min(1).max(64) }), request.query);
    const orders = await ordersByClave(db, claveRastreo);
    return { orders: await Promise.all(orders.map((o) => orderView(o.id))) };
  });

  http.get('/sandbox/stp/orders/:id', async (request) => orderView(parseBody(idParam, request.params).id));

  http.post('/sandbox/stp/abonos/:id/resend', async (request) =>
    deposits.resend(parseBody(idParam, request.params).id),
  );

  async function orderView(id: number) {
    const order = await findOrderById(db, id);
    if (!order) throw new ChannelError('not_found', 'no such STP order');
    const webhooks = await webhooksOf(db, id);
    return testerOrderView(
      order,
      webhooks,
      await attemptsOf(
        db,
        webhooks.map((w) => w.id),
      ),
    );
  }
}
