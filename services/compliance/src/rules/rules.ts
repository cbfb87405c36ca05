import { randomBytes } from 'node:crypto';
import type { Logger } from '@agentpay/logger';
import type { Verdict } from '@agentpay/messaging';
import { decodeEvent } from '@agentpay/proto';
import type { JsMsg } from '@nats-io/jetstream';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../db/schema.js';
import { invalid } from '../errors.js';

// Monitoring rules (docs/compliance.md "Monitoring rules"): platform settings, and the consumer of the status
// events payments and transfers publish. A match opens one case per rule, subject and window: the case's
// unique key is `rule:<rule>:<subject>:<window>`, so an event delivered twice (or replayed after a restart)
// finds its case already there.

/** Amounts on the wire: MXN with at most two decimals, as in the merchant API. */
const amount = z
  .number()
  .positive()
  .max(99_999_999.99)
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'at most 2 decimal places');
const count = z.number().int().min(1).max(100_000);

export const rulesSchema = z
  .object({
    largeOperation: z.object({ amount }).strict().nullable(),
    structuring: z.object({ count }).strict().nullable(),
    newPayeeVolume: z.object({ amount }).strict().nullable(),
    manyPayers: z.object({ count }).strict().nullable(),
  })
  .strict();
export type Rules = z.infer<typeof rulesSchema>;

/** In effect until someone changes them. */
export const DEFAULT_RULES: Rules = {
  largeOperation: { amount: 150_000 },
  structuring: { count: 3 },
  newPayeeVolume: { amount: 300_000 },
  manyPayers: { count: 20 },
};

/** Reads a PUT body: all four rules, each an object or null. */
export function parseRules(json: string): Rules {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw invalid('rules must be a JSON object');
  }
  const parsed = rulesSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`${issue?.path.join('.') || 'rules'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

export function createRules(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  async function get(): Promise<Rules & { updatedBy?: string; updatedAt?: string }> {
    const row = await db.selectFrom('settings').selectAll().where('id', '=', 1).executeTakeFirst();
    if (!row) return DEFAULT_RULES;
    return { ...(row.rules as Rules), updatedBy: row.updated_by, updatedAt: row.updated_at.toISOString() };
  }
  return {
    get,
    /** Checks a change without making it (the gateway's prepare, before an approval is created). */
    check: (json: string) => parseRules(json),
    async set(json: string, actor: string) {
      const rules = parseRules(json);
      await db
        .insertInto('settings')
        .values({ id: 1, rules: JSON.stringify(rules), updated_by: actor, updated_at: new Date() })
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet({ rules: JSON.stringify(rules), updated_by: actor, updated_at: new Date() }),
        )
        .execute();
      return get();
    },
  };
}

export type RulesStore = ReturnType<typeof createRules>;

/** An operation the rules look at: a pay-in or a payout that succeeded. */
export interface Operation {
  kind: 'deposit' | 'payout';
  ref: string;
  mchNo: string;
  /** Centavos. */
  amount: number;
  at: Date;
}

/** The operation a status event announces, if it is one the rules count (a pay order or transfer in success). */
export function operationOf(json: string): Operation | undefined {
  const event = decodeEvent('OrderStatusChanged', json);
  if (event.to_status !== 'success' || !event.mch_no) return undefined;
  const at = new Date(event.occurred_at);
  if (event.kind === 'pay' && event.pay_order)
    return {
      kind: 'deposit',
      ref: event.order_no,
      mchNo: event.mch_no,
      amount: Number(event.pay_order.amount),
      at,
    };
  if (event.kind === 'transfer' && event.transfer)
    return {
      kind: 'payout',
      ref: event.order_no,
      mchNo: event.mch_no,
      amount: Number(event.transfer.amount),
      at,
    };
  return undefined;
}

/** Applies the rules to one operation; answers the ids of the cases it opened (none when they existed). */
export async function applyRules(db: Kysely<Database>, rules: Rules, op: Operation): Promise<string[]> {
  const opened: string[] = [];
  await db
    .insertInto('observed_operations')
    .values({
      ref: `${op.kind}:${op.ref}`,
      kind: op.kind,
      mch_no: op.mchNo,
      amount: String(op.amount),
      at: op.at,
    })
    .onConflict((oc) => oc.column('ref').doNothing())
    .execute();
  const large = rules.largeOperation;
  if (large && op.amount >= Math.round(large.amount * 100)) {
    const id = await openRuleCase(db, {
      rule: 'largeOperation',
      // One operation is its own subject and window.
      uniqueKey: `rule:largeOperation:${op.kind}:${op.ref}`,
      op,
      figures: { threshold: large.amount.toFixed(2), amount: (op.amount / 100).toFixed(2) },
    });
    if (id) opened.push(id);
  }
  return opened;
}

async function openRuleCase(
  db: Kysely<Database>,
  c: { rule: string; uniqueKey: string; op: Operation; figures: Record<string, unknown> },
): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const id = `cas_${randomBytes(10).toString('hex')}`;
    const inserted = await trx
      .insertInto('cases')
      .values({
        id,
        kind: 'rule',
        state: 'open',
        unique_key: c.uniqueKey,
        mch_no: c.op.mchNo,
        subject: JSON.stringify({ mchNo: c.op.mchNo, operation: `${c.op.kind}:${c.op.ref}` }),
        rule: c.rule,
        figures: JSON.stringify(c.figures),
        updated_at: new Date(),
      })
      .onConflict((oc) => oc.column('unique_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return undefined;
    await trx
      .insertInto('case_operations')
      .values({
        case_id: id,
        kind: c.op.kind,
        ref: c.op.ref,
        at: c.op.at,
        mch_no: c.op.mchNo,
        amount: String(c.op.amount),
        currency: 'MXN',
      })
      .execute();
    await trx
      .insertInto('case_events')
      .values({
        case_id: id,
        actor: 'system:rules',
        action: 'opened',
        text: `${c.rule}: ${JSON.stringify(c.figures)}`,
      })
      .execute();
    return id;
  });
}

/** The consumer's handler: each status event through the rules; acked once its cases are committed. */
export function rulesHandler(deps: { db: Kysely<Database>; rules: RulesStore; logger: Logger }) {
  return async (msgs: readonly JsMsg[]): Promise<Verdict[]> => {
    const rules = await deps.rules.get();
    const verdicts: Verdict[] = [];
    for (const msg of msgs) {
      let op: Operation | undefined;
      try {
        op = operationOf(msg.string());
      } catch (err) {
        deps.logger.error({ err, subject: msg.subject }, 'unreadable status event dropped');
        verdicts.push('term');
        continue;
      }
      if (!op) {
        verdicts.push('ack');
        continue;
      }
      const opened = await applyRules(deps.db, rules, op);
      if (opened.length) deps.logger.info({ cases: opened, ref: op.ref }, 'monitoring rule matched');
      verdicts.push('ack');
    }
    return verdicts;
  };
}
