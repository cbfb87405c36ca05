import { migratedTestDatabase } from '@agentpay/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCases } from '../src/cases/cases.service.js';
import { migrations } from '../src/db/migrations/index.js';
import type { Database } from '../src/db/schema.js';
import { createLists } from '../src/lists/lists.service.js';
import { applyRules, DEFAULT_RULES } from '../src/rules/rules.js';
import { type Counterparty, createScreening } from '../src/screening/screening.js';

const HEADER = 'name,rfc,curp,birthDate,country,reference\n';

let db: Kysely<Database>;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, drop } = await migratedTestDatabase<Database>('compliance_screening', migrations));
});
afterAll(() => drop?.());

const payee = (name: string, extra: Partial<Counterparty> = {}): Counterparty => ({
  operationKind: 'payout',
  operationRef: `T${Math.random().toString().slice(2, 14)}`,
  mchNo: 'M1',
  amount: 10_000,
  name,
  rfc: '',
  curp: '',
  account: '012180000000000008',
  bank: '012',
  claveRastreo: '',
  ...extra,
});

describe('lists, screening and cases', () => {
  it('screens nothing until a version is activated, then matches by folded name, RFC and CURP', async () => {
    const lists = createLists({ db });
    const screen = createScreening({ db });
    const blocked = await lists.create({ name: 'UIF bloqueados', kind: 'blocked', actor: 'ana' });
    const uploaded = await lists.upload({
      listId: blocked.id,
      format: 'csv',
      body: `${HEADER}Juan Pérez López,PELJ800101AB1,,,MX,UIF-1\nEmpresa Fantasma SA,,,,,UIF-2\n`,
      actor: 'ana',
    });
    expect(uploaded.version).toMatchObject({ version: 1, state: 'pending', entries: 2 });
    // Pending: not in effect.
    expect((await screen(payee('Juan Pérez López'), false)).outcome).toBe('clear');

    await lists.activate({
      listId: blocked.id,
      versionId: uploaded.version.id,
      actor: 'bea',
      approvalId: 'apr_1',
    });
    const hit = await screen(payee('LOPEZ perez, juan'), true);
    expect(hit).toMatchObject({ outcome: 'hit', hold: true });
    expect(hit.match).toMatchObject({ listKind: 'blocked', by: 'name', score: 1 });
    // Another name, the same RFC.
    const byRfc = await screen(payee('Alguien Distinto', { rfc: 'pelj-800101-ab1' }), false);
    expect(byRfc.match).toMatchObject({ by: 'rfc', outcome: 'hit' });
    // A near name: below hit, at or above review.
    const near = await screen(payee('Empresa Fantasmas SA'), false);
    expect(near.outcome).toBe('review');
    expect(near.match!.score).toBeGreaterThanOrEqual(0.8);
    expect(near.match!.score).toBeLessThan(0.9);
    expect((await screen(payee('María González'), false)).outcome).toBe('clear');

    // One case per operation, however often it is screened.
    const again = await screen({ ...payee('Juan Perez Lopez'), operationRef: 'T-same' }, true);
    const twice = await screen({ ...payee('Juan Perez Lopez'), operationRef: 'T-same' }, true);
    expect(twice.caseId).toBe(again.caseId);
    const cases = createCases({ db });
    const opened = await cases.get(again.caseId!);
    expect(opened).toMatchObject({
      state: 'held',
      holdsPayout: true,
      releaseNeedsTwo: true,
      listKind: 'blocked',
    });
    expect(opened.operations).toHaveLength(1);
  });

  it('a new version replaces the old one whole', async () => {
    const lists = createLists({ db });
    const screen = createScreening({ db });
    const watch = await lists.create({ name: 'Vigilancia', kind: 'watch', actor: 'ana' });
    const v1 = await lists.upload({
      listId: watch.id,
      format: 'csv',
      body: `${HEADER}Rosa Méndez Ortiz,,,,,\n`,
      actor: 'ana',
    });
    await lists.activate({ listId: watch.id, versionId: v1.version.id, actor: 'bea', approvalId: '' });
    expect((await screen(payee('Rosa Mendez Ortiz'), false)).match?.listKind).toBe('watch');
    const v2 = await lists.upload({
      listId: watch.id,
      format: 'csv',
      body: `${HEADER}Otro Nombre Cualquiera,,,,,\n`,
      actor: 'ana',
    });
    await lists.activate({ listId: watch.id, versionId: v2.version.id, actor: 'bea', approvalId: '' });
    expect((await screen(payee('Rosa Mendez Ortiz'), false)).outcome).toBe('clear');
    // The superseded version cannot come back.
    await expect(
      lists.activate({ listId: watch.id, versionId: v1.version.id, actor: 'bea', approvalId: '' }),
    ).rejects.toThrow('version 1 is superseded');
    const [listed] = (await lists.all()).filter((l) => l.id === watch.id);
    expect(listed?.versions.map((v) => [v.version, v.state])).toEqual([
      [2, 'effective'],
      [1, 'superseded'],
    ]);
  });

  it('a blocked hit is released only with an approval; a decision repeats; close needs a decision first', async () => {
    const screen = createScreening({ db });
    const cases = createCases({ db });
    const held = await screen(payee('Juan Perez Lopez'), true);
    const id = held.caseId!;
    await expect(cases.close({ id, outcome: 'report', reason: 'x', actor: 'ana' })).rejects.toThrow(
      'release or reject the payout first',
    );
    await expect(
      cases.decide({ id, decision: 'release', reason: '', actor: 'ana', approvalId: '' }),
    ).rejects.toThrow('needs a second person');
    const released = await cases.decide({
      id,
      decision: 'release',
      reason: 'homonym',
      actor: 'ana',
      approvalId: 'apr_9',
    });
    expect(released.state).toBe('released');
    expect(
      (await cases.decide({ id, decision: 'release', reason: '', actor: 'ana', approvalId: 'apr_9' })).state,
    ).toBe('released');
    await expect(
      cases.decide({ id, decision: 'reject', reason: 'no', actor: 'ana', approvalId: '' }),
    ).rejects.toThrow('not held');
    const closed = await cases.close({ id, outcome: 'report', reason: 'reported to UIF', actor: 'ana' });
    expect(closed.state).toBe('closed');
    expect(closed.history.map((h) => h.action)).toEqual(['opened', 'release', 'close:report']);
    const day = new Date();
    const report = await cases.report(
      'unusual',
      new Date(day.getTime() - 3_600_000),
      new Date(day.getTime() + 3_600_000),
    );
    expect(report.rows.map((r) => r.caseId)).toContain(id);
    expect(report.rows.find((r) => r.caseId === id)).toMatchObject({
      kind: 'payout',
      amount: '100.00',
      ruleOrList: 'UIF bloqueados',
    });
  });

  it('largeOperation opens one case per operation, however often its event comes', async () => {
    const op = { kind: 'deposit' as const, ref: 'P123', mchNo: 'M1', amount: 15_000_000, at: new Date() };
    const first = await applyRules(db, DEFAULT_RULES, op);
    const second = await applyRules(db, DEFAULT_RULES, op);
    expect(first).toHaveLength(1);
    expect(second).toEqual([]);
    expect(await applyRules(db, DEFAULT_RULES, { ...op, ref: 'P124', amount: 14_999_999 })).toEqual([]);
    const rows = await db
      .selectFrom('cases')
      .select('id')
      .where('unique_key', 'like', 'rule:largeOperation:deposit:P12%')
      .execute();
    expect(rows).toHaveLength(1);
  });
});
