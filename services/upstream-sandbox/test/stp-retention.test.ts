import { drainRetention } from '@agentpay/db';
import { migratedTestDatabase } from '@agentpay/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { sandboxRetentionRules } from '../src/retention/retention.js';

// The STP face's rows follow SANDBOX_RETENTION_DAYS: finished history goes, oldest first, children before
// parents; an order still due to settle or come back, or with a webhook in flight, stays however old.

let db: Kysely<Database>;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('sandbox_stp_retention', migrations));
});

afterAll(() => drop?.());

const ago = (days: number) => sql<Date>`now() - make_interval(days => ${days})`;
let next = 0;

async function order(daysAgo: number, due: { settle?: boolean; return?: boolean } = {}): Promise<number> {
  next++;
  const row = await db
    .insertInto('stp_orders')
    .values({
      empresa: 'AGENTPAY',
      tipo_orden: 'E',
      fecha_operacion: '20260801',
      clave_rastreo: `RET${next}`,
      estado: due.settle ? 'E' : 'LQ',
      monto: 100,
      statement_monto: null,
      institucion_contraparte: '40072',
      cuenta_ordenante: '646180555500000009',
      nombre_ordenante: '',
      tipo_cuenta_ordenante: 40,
      rfc_curp_ordenante: '',
      cuenta_beneficiario: '072691004495711499',
      nombre_beneficiario: 'Ana',
      tipo_cuenta_beneficiario: 40,
      rfc_curp_beneficiario: 'ND',
      concepto_pago: 'Pago',
      referencia_numerica: 1,
      tipo_pago: 1,
      folio_origen: '',
      planned: 'liquidate',
      answer: null,
      causa_devolucion: null,
      settle_at: due.settle ? ago(daysAgo - 1) : null,
      return_at: due.return ? ago(daysAgo - 1) : null,
      received: '{}',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`update stp_orders set created_at = ${ago(daysAgo)} where id = ${row.id}`.execute(db);
  return row.id;
}

async function webhook(orderId: number, daysAgo: number, delivered: boolean, attemptDaysAgo = daysAgo) {
  const id = `stw_${orderId}_${daysAgo}`;
  await sql`insert into stp_webhooks (id, order_id, kind, url, body, attempts, delivered_at, created_at)
    values (${id}, ${orderId}, 'cambio-estado', 'http://x', '{}', 1, ${delivered ? ago(daysAgo) : null}, ${ago(daysAgo)})`.execute(
    db,
  );
  await sql`insert into stp_webhook_attempts (webhook_id, resend, http_status, at)
    values (${id}, false, 200, ${ago(attemptDaysAgo)})`.execute(db);
}

const ids = async () =>
  (await db.selectFrom('stp_orders').select('id').orderBy('id').execute()).map((r) => r.id);

describe('STP face retention', () => {
  it('forgets finished orders older than the retention with their webhooks, and keeps what is still going on', async () => {
    const old = await order(120);
    await webhook(old, 120, true);
    const oldInFlight = await order(120);
    await webhook(oldInFlight, 120, false);
    const oldDueToSettle = await order(120, { settle: true });
    const oldDueToReturn = await order(120, { return: true });
    const oldResentLately = await order(120);
    await webhook(oldResentLately, 120, true, 5);
    const recent = await order(10);
    await webhook(recent, 10, true);

    await drainRetention(db, sandboxRetentionRules({ days: 90 }), { batchSize: 2 });

    expect(await ids()).toEqual([oldInFlight, oldDueToSettle, oldDueToReturn, oldResentLately, recent]);
    const webhooks = await db.selectFrom('stp_webhooks').select('order_id').orderBy('order_id').execute();
    expect(webhooks.map((w) => w.order_id)).toEqual([oldInFlight, oldResentLately, recent]);
  });
});
