import { type Kysely, sql } from 'kysely';

// The STP face (README "The STP face"): the companies STP's onboarding gives a participant, the orders
// of both directions (E sent by a company, R received for it) and the webhooks calling the company back.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stp_companies')
    .addColumn('empresa', 'text', (c) => c.primaryKey())
    .addColumn('public_key_pem', 'text', (c) => c.notNull())
    // 646180 + the company's 4-digit code: every CLABE starting with it is the company's.
    .addColumn('clabe_prefix', 'text', (c) => c.notNull().unique().check(sql`clabe_prefix ~ '^[0-9]{10}$'`))
    .addColumn('webhook_base', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // STP's order ids (registraOrden's `id`, `idEF`), shared by both directions, never reused.
  await sql`create sequence stp_order_id_seq minvalue 1 no cycle`.execute(db);

  await db.schema
    .createTable('stp_orders')
    .addColumn('id', 'bigint', (c) => c.primaryKey().defaultTo(sql`nextval('stp_order_id_seq')`))
    .addColumn('empresa', 'text', (c) => c.notNull())
    .addColumn('tipo_orden', 'text', (c) => c.notNull().check(sql`tipo_orden in ('E', 'R')`))
    .addColumn('fecha_operacion', 'text', (c) => c.notNull().check(sql`fecha_operacion ~ '^[0-9]{8}$'`))
    .addColumn('clave_rastreo', 'text', (c) => c.notNull())
    .addColumn('estado', 'text', (c) => c.notNull())
    .addColumn('monto', 'bigint', (c) => c.notNull().check(sql`monto > 0`))
    // What conciliacion shows instead of `monto` (a tester's trigger on deposits); null: the real one.
    .addColumn('statement_monto', 'bigint')
    .addColumn('institucion_contraparte', 'text', (c) => c.notNull())
    .addColumn('cuenta_ordenante', 'text', (c) => c.notNull())
    .addColumn('nombre_ordenante', 'text', (c) => c.notNull())
    .addColumn('tipo_cuenta_ordenante', 'integer', (c) => c.notNull())
    .addColumn('rfc_curp_ordenante', 'text', (c) => c.notNull())
    .addColumn('cuenta_beneficiario', 'text', (c) => c.notNull())
    .addColumn('nombre_beneficiario', 'text', (c) => c.notNull())
    .addColumn('tipo_cuenta_beneficiario', 'integer', (c) => c.notNull())
    .addColumn('rfc_curp_beneficiario', 'text', (c) => c.notNull())
    .addColumn('concepto_pago', 'text', (c) => c.notNull())
    .addColumn('referencia_numerica', 'integer', (c) => c.notNull())
    .addColumn('tipo_pago', 'integer', (c) => c.notNull())
    .addColumn('folio_origen', 'text', (c) => c.notNull())
    // E: how the tester rules end it (liquidate, return, cancel); R: null.
    .addColumn('planned', 'text', (c) => c.check(sql`planned in ('liquidate', 'return', 'cancel')`))
    // R: what the company answered the abono (pending until it answers); E: null.
    .addColumn('answer', 'text', (c) => c.check(sql`answer in ('pending', 'confirmar', 'devolver')`))
    .addColumn('causa_devolucion', 'integer')
    .addColumn('ts_liquidacion', 'timestamptz')
    .addColumn('settle_at', 'timestamptz')
    .addColumn('return_at', 'timestamptz')
    // The JSON as the company sent it (E) or as the abono carried it (R), for testers.
    .addColumn('received', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // A claveRastreo is the company's once per operation day and direction (registraOrden's −1).
  await db.schema
    .createIndex('stp_orders_clave_rastreo')
    .on('stp_orders')
    .columns(['empresa', 'tipo_orden', 'fecha_operacion', 'clave_rastreo'])
    .unique()
    .execute();
  // conciliacion: one company's day and direction, in id order, a page at a time.
  await db.schema
    .createIndex('stp_orders_day')
    .on('stp_orders')
    .columns(['empresa', 'tipo_orden', 'fecha_operacion', 'id'])
    .execute();
  await db.schema.createIndex('stp_orders_clave').on('stp_orders').column('clave_rastreo').execute();
  await db.schema
    .createIndex('stp_orders_due_settle')
    .on('stp_orders')
    .column('settle_at')
    .where(sql.ref('settle_at'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('stp_orders_due_return')
    .on('stp_orders')
    .column('return_at')
    .where(sql.ref('return_at'), 'is not', null)
    .execute();
  await db.schema.createIndex('stp_orders_created').on('stp_orders').column('created_at').execute();

  await db.schema
    .createTable('stp_webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'bigint', (c) => c.notNull().references('stp_orders.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('abono', 'cambio-estado')`))
    .addColumn('url', 'text', (c) => c.notNull())
    // The exact JSON text sent, so every attempt and a resend carry the same bytes.
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('gave_up_at', 'timestamptz')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('stp_webhooks_pending')
    .on('stp_webhooks')
    .column('next_attempt_at')
    .where(sql<boolean>`delivered_at is null and gave_up_at is null`)
    .execute();
  await db.schema.createIndex('stp_webhooks_order').on('stp_webhooks').column('order_id').execute();
  await db.schema.createIndex('stp_webhooks_created').on('stp_webhooks').column('created_at').execute();

  // Every HTTP attempt of a webhook and what the company answered, for testers.
  await db.schema
    .createTable('stp_webhook_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('stp_webhooks.id'))
    .addColumn('resend', 'boolean', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    // The answer's text, cut to 1000 characters; or why there was none.
    .addColumn('response', 'text')
    .addColumn('error', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('stp_webhook_attempts_webhook')
    .on('stp_webhook_attempts')
    .column('webhook_id')
    .execute();
  await db.schema.createIndex('stp_webhook_attempts_at').on('stp_webhook_attempts').column('at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['stp_webhook_attempts', 'stp_webhooks', 'stp_orders', 'stp_companies'])
    await db.schema.dropTable(table).ifExists().execute();
  await sql`drop sequence if exists stp_order_id_seq`.execute(db);
}
